import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ACTION_TYPES, ActionParseError, extractAction, formatAction, parseAction } from '../../main/environment/actions.ts';
import { ACTION_SETS, ACTION_SET_NAMES, DEFAULT_ACTION_SETS, actionSetOf, parseActionSets } from '../../main/environment/action-sets.ts';

test('parses every action type with its arguments', () => {
  assert.deepEqual(parseAction("click('12')"), { type: 'click', id: '12', button: 'left' });
  assert.deepEqual(parseAction('click("3", "right")'), { type: 'click', id: '3', button: 'right' });
  assert.deepEqual(parseAction("click(12, button='middle')"), { type: 'click', id: '12', button: 'middle' });
  // An element of a frame of another site: its id carries the frame's letters.
  assert.deepEqual(parseAction("fill('ab7', 'x')"), { type: 'fill', id: 'ab7', text: 'x' });
  for (const bad of ["click('12a')", "click('A12')", "click('a')", "click('')"]) {
    assert.throws(() => parseAction(bad), /must be an element id like '12' \(or 'a12' inside a frame of another site\)/, bad);
  }
  assert.deepEqual(parseAction("dblclick('4')"), { type: 'dblclick', id: '4' });
  assert.deepEqual(parseAction("hover('4')"), { type: 'hover', id: '4' });
  assert.deepEqual(parseAction("focus('4')"), { type: 'focus', id: '4' });
  assert.deepEqual(parseAction("fill('7', 'Boston')"), { type: 'fill', id: '7', text: 'Boston' });
  assert.deepEqual(parseAction("clear('7')"), { type: 'clear', id: '7' });
  assert.deepEqual(parseAction("select_option('3', 'Economy')"), { type: 'select_option', id: '3', options: ['Economy'] });
  assert.deepEqual(parseAction("select_option('3', ['A', 'B'])"), { type: 'select_option', id: '3', options: ['A', 'B'] });
  assert.deepEqual(parseAction("check('5')"), { type: 'check', id: '5' });
  assert.deepEqual(parseAction("uncheck('5')"), { type: 'uncheck', id: '5' });
  assert.deepEqual(parseAction("press('7', 'Enter')"), { type: 'press', id: '7', key: 'Enter' });
  assert.deepEqual(parseAction("keyboard_press('Control+a')"), { type: 'keyboard_press', key: 'Control+a' });
  assert.deepEqual(parseAction('scroll(0, -400.5)'), { type: 'scroll', dx: 0, dy: -400.5 });
  assert.deepEqual(parseAction('go_back()'), { type: 'go_back' });
  assert.deepEqual(parseAction('go_forward( )'), { type: 'go_forward' });
  assert.deepEqual(parseAction("goto('http://a.b/c?d=1')"), { type: 'goto', url: 'http://a.b/c?d=1' });
  assert.deepEqual(parseAction('noop()'), { type: 'noop', ms: 1000 });
  assert.deepEqual(parseAction("send_msg_to_user('It costs $12')"), { type: 'send_msg_to_user', text: 'It costs $12' });
  assert.deepEqual(parseAction("report_infeasible('no such flight')"), { type: 'report_infeasible', reason: 'no such flight' });
});

test('parses the coordinate actions: numbers for x and y, an optional button, text to type', () => {
  assert.deepEqual(parseAction('mouse_move(10, 20.5)'), { type: 'mouse_move', x: 10, y: 20.5 });
  assert.deepEqual(parseAction('mouse_click(100, 30)'), { type: 'mouse_click', x: 100, y: 30, button: 'left' });
  assert.deepEqual(parseAction("mouse_click(100, 30, 'right')"), { type: 'mouse_click', x: 100, y: 30, button: 'right' });
  assert.deepEqual(parseAction("mouse_click(x=100, y=30, button='middle')"), { type: 'mouse_click', x: 100, y: 30, button: 'middle' });
  assert.deepEqual(parseAction('mouse_dblclick(1, 2)'), { type: 'mouse_dblclick', x: 1, y: 2, button: 'left' });
  assert.deepEqual(parseAction('mouse_down(1, 2)'), { type: 'mouse_down', x: 1, y: 2, button: 'left' });
  assert.deepEqual(parseAction("mouse_up(1, 2, 'left')"), { type: 'mouse_up', x: 1, y: 2, button: 'left' });
  assert.deepEqual(parseAction('mouse_drag_and_drop(40, 40, 380, 180)'), { type: 'mouse_drag_and_drop', fromX: 40, fromY: 40, toX: 380, toY: 180 });
  assert.deepEqual(parseAction("keyboard_type('Hello, world')"), { type: 'keyboard_type', text: 'Hello, world' });
  for (const text of ["mouse_click(100, 30, 'right')", 'mouse_dblclick(1.5, 2)', 'mouse_drag_and_drop(1, 2, 3, 4)', "keyboard_type('it\\'s\\nfine')", 'mouse_move(0, 767)']) {
    assert.equal(formatAction(parseAction(text)), text, 'the canonical form parses back to itself');
  }
  const refused: Array<[string, RegExp]> = [
    ["mouse_click('12')", /mouse_click takes 2 to 3 argument\(s\), got 1/],
    ["mouse_click('a', 3)", /mouse_click argument 1 must be a number/],
    ["mouse_click(1, 2, 'sideways')", /mouse_click button must be left, right or middle/],
    ['mouse_move(1e999, 2)', /mouse_move argument 1 must be a number, got null/],
    ['mouse_drag_and_drop(1, 2, 3)', /takes 4 argument\(s\), got 3/],
    ['keyboard_type()', /keyboard_type takes 1 argument\(s\), got 0/],
    ["keyboard_type(['a'])", /must be a string, got a list/],
  ];
  for (const [input, pattern] of refused) {
    assert.throws(() => parseAction(input), (err: unknown) => err instanceof ActionParseError && pattern.test(err.message), input);
  }
});

test('every action is in exactly one action set; the default is all but coord; set names are checked', () => {
  for (const type of ACTION_TYPES) {
    const sets = ACTION_SET_NAMES.filter((name) => ACTION_SETS[name].includes(type));
    assert.equal(sets.length, 1, `${type} is in ${sets.length} sets (${sets.join(', ')})`);
    assert.equal(actionSetOf(type), sets[0]);
  }
  assert.deepEqual(ACTION_SET_NAMES.flatMap((name) => ACTION_SETS[name]).sort(), [...ACTION_TYPES].sort(), 'the sets name only actions that exist');
  assert.deepEqual([...DEFAULT_ACTION_SETS], ACTION_SET_NAMES.filter((n) => n !== 'coord'));
  assert.deepEqual(parseActionSets(' coord,bid ,bid'), ['bid', 'coord'], 'trimmed, deduplicated, in the canonical order');
  assert.throws(() => parseActionSets('bid,mouse', '--actions'), /^Error: --actions: unknown action set "mouse" \(known: bid, coord, nav, chat, misc\)$/);
  assert.throws(() => parseActionSets(' , ', '--actions'), /--actions: no action set given/);
});

test('string escapes and quotes survive a format/parse round trip', () => {
  for (const text of ["it's", 'say "hi"', 'back\\slash', 'line\nbreak', 'tab\there', '']) {
    const a = parseAction(formatAction({ type: 'fill', id: '1', text }));
    assert.deepEqual(a, { type: 'fill', id: '1', text });
  }
});

test('malformed actions get an error that names the problem', () => {
  const cases: Array<[string, RegExp]> = [
    ['', /empty action/],
    ["clik('1')", /unknown action 'clik'/],
    ["click('1'", /expected '\)' but found end of input/],
    ["click('x')", /must be an element id/],
    ["fill('1')", /fill takes 2 argument\(s\), got 1/],
    ["click('1') now", /unexpected 'now' at column 12/],
    ["fill('1', 'abc)", /unterminated string starting at column 11/],
    ["scroll('a', 1)", /scroll argument 1 must be a number/],
    ["click('1', 'sideways')", /left, right or middle/],
    ['click 12', /expected '\('/],
    ["select_option('1', [])", /non-empty list/],
    ['fill(1, 2, 3)', /takes 2 argument/],
    ['#!', /unexpected '#' at column 1/],
  ];
  for (const [input, pattern] of cases) {
    assert.throws(() => parseAction(input), (err: unknown) => err instanceof ActionParseError && pattern.test(err.message), input);
  }
});

test('extracts the action after a thought, from a fence or the last action line', () => {
  assert.deepEqual(extractAction("The search box is 4.\nclick('4')"), { thought: 'The search box is 4.', actionText: "click('4')" });
  assert.deepEqual(extractAction("Think.\n```action\nfill('2', 'x')\n```\ntrailing"), { thought: 'Think.', actionText: "fill('2', 'x')" });
  assert.deepEqual(extractAction("Action: go_back()"), { thought: '', actionText: 'go_back()' });
  assert.equal(extractAction('no action here').actionText, 'no action here');
});
