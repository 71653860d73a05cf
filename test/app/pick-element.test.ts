/** Picking an element into a correction draft (preload/pick-element.ts), as the trajectory viewer does. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { elementIdOf, pickElement } from '../../preload/pick-element.ts';
import { parseAction } from '../../main/environment/actions.ts';

const link = { id: '7', role: 'link', tag: 'a' };
const textbox = { id: '3', role: 'textbox', tag: 'input' };

test('an element action the element can take keeps its kind and arguments; only its element changes', () => {
  assert.deepEqual(pickElement("click('12')", link), { action: "click('7')", caret: 10 });
  assert.equal(pickElement("fill('12', 'Boston')", textbox).action, "fill('3', 'Boston')");
  const select = { id: '5', role: 'combobox', tag: 'select' };
  assert.equal(pickElement('select_option("4", ["a", "b"])', select).action, 'select_option(\'5\', ["a", "b"])');
  assert.equal(pickElement("click(12, 'right')", link).action, "click('7', 'right')");
  assert.equal(pickElement("click('12')", textbox).action, "click('3')", 'a text field can be clicked');
  assert.equal(pickElement("check('12')", { id: '8', role: 'checkbox', tag: 'input' }).action, "check('8')");
  // Half-typed: the element is swapped all the same, the rest left as typed.
  assert.equal(pickElement("fill('12', 'Bos", textbox).action, "fill('3', 'Bos");
  assert.equal(pickElement("press('', ", textbox).action, "press('3', ");
});

test('an action the picked element cannot take becomes what pointing at that element means (no fill on a button)', () => {
  const button = { id: '9', role: 'button', tag: 'button' };
  assert.deepEqual(pickElement("fill('12', 'Boston')", button), { action: "click('9')", caret: 10 });
  assert.equal(pickElement('select_option("4", ["a"])', link).action, "click('7')");
  assert.equal(pickElement("check('12')", link).action, "click('7')");
  assert.equal(pickElement("select_option('4', 'a')", textbox).action, "fill('3', '')");
  assert.equal(pickElement("fill('4', 'x')", { id: '5', role: 'combobox', tag: 'select' }).action, "select_option('5', '')");
});

test('any other draft becomes what pointing at that kind of element means, the caret where to type', () => {
  for (const draft of ['', 'scroll(0, 300)', "goto('http://x')", 'go_back()', 'nonsense']) {
    assert.deepEqual(pickElement(draft, link), { action: "click('7')", caret: 10 });
  }
  const fill = pickElement('scroll(0, 300)', textbox);
  assert.equal(fill.action, "fill('3', '')");
  assert.equal(fill.action.slice(0, fill.caret), "fill('3', '", 'the caret sits between the empty quotes');
  assert.equal(pickElement('', { id: '4', role: 'searchbox', tag: 'input' }).action, "fill('4', '')");
  assert.equal(pickElement('', { id: '4', role: 'combobox', tag: 'input' }).action, "fill('4', '')", 'an input with suggestions is typed into');
  const select = pickElement('', { id: '5', role: 'combobox', tag: 'select' });
  assert.equal(select.action, "select_option('5', '')");
  assert.equal(select.action.slice(0, select.caret), "select_option('5', '");
  assert.equal(pickElement('', { id: '6', role: 'checkbox', tag: 'input' }).action, "click('6')");
  // What it builds parses (once the text is typed).
  assert.deepEqual(parseAction(fill.action.slice(0, fill.caret) + "Boston')"), { type: 'fill', id: '3', text: 'Boston' });
});

test('the element a draft names, also half-typed; none for actions without an element', () => {
  assert.equal(elementIdOf("click('12')"), '12');
  assert.equal(elementIdOf('fill("3", "x")'), '3');
  assert.equal(elementIdOf('click(12)'), '12');
  assert.equal(elementIdOf("fill('3', 'Bos"), '3');
  assert.equal(elementIdOf('scroll(0, 200)'), null);
  assert.equal(elementIdOf("keyboard_press('Enter')"), null);
  assert.equal(elementIdOf("click('abc')"), null);
  assert.equal(elementIdOf("click('')"), null);
  assert.equal(elementIdOf(''), null);
});
