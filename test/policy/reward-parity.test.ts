/**
 * The verl reward module (resources/trainers/reward_agent_lab.py, which `lab export --format verl`
 * ships) against the TypeScript reward of `lab train salvage` on the same cases: crafted pages
 * (duplicate names, ranks, roles, Unicode and odd whitespace in names), every action type, ids
 * that name no element, unparsable and multi-line outputs, and seeded random outputs. Each case
 * runs through a real python3 process; every reward, and whether it counted as correct or invalid,
 * must be equal. A rule changed on one side only fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { actionMeaning } from '../../main/policy/mining.ts';
import { parsePolicyOutput } from '../../main/policy/prompt.ts';
import { defaultRewardSettings, scoreAction, type RewardSettings, type ScoredAction } from '../../main/policy/salvage/reward.ts';
import { REWARD_MODULE, rewardGroundTruth } from '../../main/datasets/export/verl.ts';
import { resourcePath } from '../../main/paths.ts';
import { Rng } from '../../main/common/rng.ts';
import type { PageElement } from '../../main/environment/types.ts';

const PYTHON = process.env.PYTHON ?? 'python3';
const MODULE = resourcePath('trainers', REWARD_MODULE);

const box = { x: 0, y: 0, width: 9, height: 9 };
const el = (id: string, role: string, name: string, extra: Partial<PageElement> = {}): PageElement => ({ id, role, name, tag: 'div', box, visible: true, inViewport: true, ...extra });

/** Pages whose elements make meaning hard: equal names, ranks among equals, names equal only after normalisation. */
const PAGES: PageElement[][] = [
  [
    el('1', 'link', 'Inbox'),
    el('2', 'button', 'Star'),
    el('3', 'button', 'Star', { value: 'on', tag: 'span' }), // same role and name: rank 1; value and tag do not matter
    el('4', 'link', 'Star'), // same name, another role
    el('5', 'textbox', 'Search', { value: 'boots' }),
    el('6', 'combobox', 'Size', { options: ['S', 'M', 'L'] }),
    el('7', 'checkbox', 'Gift wrap'),
    el('8', 'button', '  STAR. ', { visible: false }), // normalises to "star": rank 2 among the Star buttons
    el('12', 'link', 'Archive'),
  ],
  [
    el('10', 'link', 'Café'),
    el('11', 'link', 'Cafe\u0301'), // NFKC composes it: the same name as 10, rank 1
    el('20', 'link', 'ＣＡＦÉ'), // full-width letters, NFKC: rank 2
    el('21', 'button', '\u201cShoes\u201d'), // curly quotes become straight, then stripped
    el('22', 'button', '(shoes)'),
    el('23', 'button', 'Shoes!'),
    el('24', 'textbox', 'City\u00a0\u00a0name'),
    el('25', 'textbox', 'city name', { value: 'Boston' }),
    el('26', 'textbox', 'city\ufeffname'), // U+FEFF is whitespace to JavaScript, not to Python
    el('27', 'textbox', 'city\u001cname'), // U+001C is whitespace to Python, not to JavaScript
    el('28', 'heading', 'ΟΔΟΣ'), // final sigma when lower-cased
    el('29', 'heading', 'İstanbul'),
    el('30', 'heading', 'STRASSE'),
    el('31', 'heading', 'straße'),
    el('32', 'link', 'a|b', { role: 'x' }),
    el('33', 'x|a', 'b'), // role|name|rank keys collide with 32's on both sides alike
    el('20', 'link', 'Duplicate id'), // a second element with id 20: the first one is the target
    el('40', 'option', 'ⅻ'),
    el('41', 'option', 'xii'),
  ],
  [],
  [el('0', 'button', ''), el('00', 'button', ''), el('5', 'radio', 'Yes'), el('6', 'radio', 'Yes'), el('7', 'radio', 'No')],
];

/** Reference actions, per page: one of every type, and references that are themselves invalid. */
const REFERENCES: string[][] = [
  [
    "click('3')", "click('2', 'right')", "dblclick('1')", "hover('4')", "focus('5')", "fill('5', 'Trail  Boots')", "clear('5')",
    "select_option('6', 'M')", "select_option('6', ['S', 'L'])", "check('7')", "uncheck('7')", "press('5', 'Enter')", "keyboard_press('Tab')",
    'scroll(0, 400)', 'go_back()', 'go_forward()', "goto('http://shop.test/Cart')", 'noop(500)', "send_msg_to_user('The price is $12.50.')",
    "report_infeasible('No such item')", "click('8')", 'click(', "click('99')",
    // What a sampled action means after the round trip through its canonical form (formatAction).
    "fill('5', 'ctlu0001x')", "fill('5', 'bsbx')",
  ],
  ["click('11')", "click('20')", "click('22')", "fill('25', 'BOSTON')", "click('28')", "click('29')", "click('31')", "click('32')", "click('40')", "fill('26', 'x')", "click('27')"],
  ["send_msg_to_user('café')", 'scroll(0, -300.5)', "goto('/a')", "keyboard_press('Enter')", "click('1')"],
  ["click('0')", "click('00')", "check('6')", "send_msg_to_user('')"],
];

/** Outputs to score at any reference: variants of meaning, of spelling and of layout. */
const OUTPUTS: string[] = [
  '', '   ', '\n\n', 'I am not sure.', 'click(', "click('3'", "click('3'))", "click('3') now", "Action: click('3')", '```\nclick(\'3\')\n```',
  "click('3')", 'click("3")', 'click(3)', 'click(3.0)', 'click(3.5)', 'click(-3)', 'click(-0)', 'click(0)', 'click(+3)', 'click(3e0)', 'click(1e21)',
  "click('03')", "click(' 3')", "click('3\\n')", "click(id='3')", "click('3', button='right')", "click('2', 'middle')", "click('2', 'up')", "click('2', 1)",
  "click('2')", "click('8')", "click('4')", "click('12')", "click('99')", "click('')", "click('3', 'left', 'x')", 'click()',
  "dblclick('1')", "hover('4')", "focus('5')", "clear('5')", "check('7')", "uncheck('7')", "check('6')", "check('5')",
  "fill('5', 'Trail  Boots')", "fill('5', 'trail boots')", "fill('5', ' \"Trail Boots.\" ')", "fill('5', 'Trail\\tBoots')", "fill('5', 'Trail\u3000Boots')",
  "fill('5', 'Trail\u00a0Boots')", "fill('5', 'Trail\ufeffBoots')", "fill('5', 'Trail\u001cBoots')", "fill('5', 'Trail\u0085Boots')", "fill('5', 'Trail Boot')",
  "fill('5', 'it\\'s')", "fill('5', \"it's\")", "fill('5', 'a\\\\b')", "fill('5', 'tab\\there')", "fill('5', 'new\\nline')", "fill('5', 'u\\u00e9')",
  "fill('5', 'ctl\u0001x')", "fill('5', 'bs\bx')", "fill('5', 'ff\fx')", "fill('5', '\u2028edge\u2029')", "fill('5', 12)", "fill('5', 1e400)", "fill('5')",
  "fill('25', 'boston')", "fill('25', 'BOSTON.')", "fill('24', 'BOSTON')", "fill('26', 'x')", "fill('27', 'x')",
  "select_option('6', 'M')", "select_option('6', 'm ')", "select_option('6', ['M'])", "select_option('6', ['S', 'L'])", "select_option('6', ['L', 'S'])",
  "select_option('6', ['S','L',])", "select_option('6', [])", "select_option('6', [1])", "select_option('6', 'S|L')", "select_option('6', ['S|L'])",
  "press('5', 'Enter')", "press('5', 'enter')", "press('5', 13)", "keyboard_press('Tab')", "keyboard_press('Enter')", 'keyboard_press(9)', 'keyboard_press(1e21)',
  'scroll(0, 400)', 'scroll(0,400.0)', 'scroll(-0, 4e2)', 'scroll(0, 401)', 'scroll(0.1, 0.2)', 'scroll(1e-7, 1e21)', 'scroll(.5, 1.)', 'scroll(0, -300.5)',
  'scroll(0x10, 0)', 'scroll(1e400, 0)', "scroll('0', 400)", 'scroll(0)', 'go_back()', 'go_back', 'go_forward()', 'go_back(1)',
  "goto('http://shop.test/Cart')", "goto('http://shop.test/cart')", "goto('/a')", "goto('/A.')", 'noop()', 'noop(500)', 'noop(1000)', "noop('5')",
  "send_msg_to_user('The price is $12.50.')", "send_msg_to_user('the price is $12.50')", "send_msg_to_user('The price is $12.5')", "send_msg_to_user('café')",
  "send_msg_to_user('CAFE\u0301')", "send_msg_to_user('')", "send_msg_to_user(\"\")", "report_infeasible('No such item')", "report_infeasible('no such item!!')",
  "click('11')", "click('10')", "click('20')", "click('22')", "click('21')", "click('23')", "click('28')", "click('29')", "click('30')", "click('31')",
  "click('32')", "click('33')", "click('40')", "click('41')", "click('00')", "click('0')", "check('5')",
  'constructor()', 'toString()', '__proto__()', "hasOwnProperty('x')", 'Click(3)', "click\u00a0('3')", "\ufeffclick('3')", "click('3')\u2028",
  "click('3'\u3000)", 'click(\'3\')\r', "fill('5', 'unterminated)", "fill('5', 'end\\", "fill('5' 'x')", "fill('5',, 'x')", "fill(5, 'x')", "fill('５', 'x')",
  "click('٣')", 'click(٣)', "click('3') click('4')", "click('3');",
  // Layouts: a thought line first, several candidate lines, the last parsable one wins.
  "The tent is the third.\nclick('3')", "click('3')\nclick('2')", "click('2')\nnot an action", "click('2')\n\n  \n", "thought\nclick(\nclick('3')",
  "Star.\r\nclick('3')\r\n", "click('3') looks right\nclick('12')", "```action\nclick('3')\n```", "first\nsecond\nthird",
  "Fill it.\nfill('5', 'Trail  Boots')\ntrailing words", "a\n\ufeffgo_back()\ufeff", "Search\n  scroll(0, 400)  ",
];

/** Random outputs from the grammar's pieces, some well formed and some not. */
function randomOutputs(n: number, seed: number): string[] {
  const rng = new Rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[rng.below(xs.length)];
  const names = ['click', 'dblclick', 'hover', 'focus', 'fill', 'clear', 'select_option', 'check', 'uncheck', 'press', 'keyboard_press', 'scroll', 'go_back', 'go_forward', 'goto', 'noop', 'send_msg_to_user', 'report_infeasible', 'tap', 'Click'];
  const ids = ['1', '2', '3', '4', '5', '6', '7', '8', '10', '11', '20', '22', '25', '28', '0', '00', '99', ''];
  const texts = ['Boston', 'boston ', 'BOSTON.', 'M', 'S', 'L', 'Enter', 'Tab', 'Trail  Boots', 'café', 'Cafe\u0301', 'ＣＡＦÉ', 'ΟΔΟΣ', 'οδος', 'straße', 'STRASSE', 'İstanbul', '"Shoes"', '(shoes)', 'a|b', 'x\u00a0y', 'x\ufeffy', 'x\u0085y', '', ' ', 'left', 'right', 'middle'];
  const numbers = ['0', '-0', '1', '3', '400', '-300.5', '1e21', '1e-7', '.5', '2.', '+4', '1e400', '0.1', '123456789012345680000'];
  const arg = (): string => {
    const r = rng.next();
    if (r < 0.3) return `'${pick(ids)}'`;
    if (r < 0.55) return `${pick(['"', "'"])}${pick(texts).replace(/['"\\]/g, '\\$&')}${rng.next() < 0.05 ? '' : pick(['"', "'"])}`;
    if (r < 0.8) return pick(numbers);
    if (r < 0.9) return `[${Array.from({ length: rng.below(3) }, () => `'${pick(texts)}'`).join(', ')}]`;
    return pick(['button=', 'id=', '']) + `'${pick(ids)}'`;
  };
  const space = () => pick(['', '', ' ', '  ', '\t', '\u00a0', '\u3000', '\ufeff', '\u001c']);
  const action = () => {
    const args = Array.from({ length: rng.below(4) }, arg);
    return `${space()}${pick(names)}${space()}(${args.join(`,${space()}`)})${space()}${rng.next() < 0.05 ? pick([')', ';', ' x']) : ''}`;
  };
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const lines = Array.from({ length: 1 + rng.below(3) }, () => (rng.next() < 0.7 ? action() : pick(['I will click it.', '', 'Next:', '```', 'thought: the box'])));
    out.push(lines.join(rng.next() < 0.1 ? '\r\n' : '\n'));
  }
  return out;
}

/** Reward settings as verl passes them (reward_kwargs) and as the TypeScript takes them. */
interface Settings {
  kind: 'polarized' | 'graded';
  correct: number;
  wrong: number;
  invalid: number;
  type_weight: number;
  target_weight: number;
  text_weight: number;
}
const toTs = (s: Settings): RewardSettings => ({ kind: s.kind, correct: s.correct, wrong: s.wrong, invalid: s.invalid, gradedWeights: { type: s.type_weight, target: s.target_weight, text: s.text_weight } });
const DEFAULTS: Settings = {
  kind: defaultRewardSettings.kind, correct: defaultRewardSettings.correct, wrong: defaultRewardSettings.wrong, invalid: defaultRewardSettings.invalid,
  type_weight: defaultRewardSettings.gradedWeights.type, target_weight: defaultRewardSettings.gradedWeights.target, text_weight: defaultRewardSettings.gradedWeights.text,
};
const OTHER_SETTINGS: Settings[] = [
  { ...DEFAULTS, kind: 'graded' },
  { ...DEFAULTS, kind: 'graded', correct: 2, wrong: -0.5, invalid: -3, type_weight: 0.1, target_weight: 0.7, text_weight: 0.2 },
  { ...DEFAULTS, correct: 1, wrong: 0, invalid: 0 }, // plain GRPO's reward
];

interface Case {
  page: number;
  reference: string;
  output: string;
  settings: Settings;
}

function cases(): Case[] {
  const out: Case[] = [];
  const rng = new Rng(7);
  PAGES.forEach((_, page) => {
    for (const reference of REFERENCES[page]) {
      for (const output of OUTPUTS) out.push({ page, reference, output, settings: DEFAULTS });
      // Every reference also as a thought plus itself, and under the other settings.
      out.push({ page, reference, output: `Because.\n${reference}`, settings: DEFAULTS }, { page, reference, output: reference.replaceAll("'", '"'), settings: DEFAULTS });
      for (const settings of OTHER_SETTINGS) for (const output of OUTPUTS.filter(() => rng.next() < 0.15)) out.push({ page, reference, output, settings });
    }
  });
  // A line that does not parse sends the reader to the line before it.
  for (const output of OUTPUTS.filter((o) => !o.includes('\n'))) out.push({ page: 0, reference: "click('2')", output: `click('2')\n${output}`, settings: DEFAULTS });
  for (const [i, output] of randomOutputs(3000, 11).entries()) {
    const page = i % PAGES.length;
    out.push({ page, reference: REFERENCES[page][rng.below(REFERENCES[page].length)], output, settings: i % 5 === 0 ? OTHER_SETTINGS[i % 3] : DEFAULTS });
  }
  return out;
}

/** The TypeScript side, as `lab train salvage` scores a sampled completion (main/policy/salvage/train.ts). */
function tsScore(c: Case): ScoredAction {
  const page = PAGES[c.page];
  const parsed = parsePolicyOutput(c.output);
  return scoreAction(parsed.action, parsed.valid, actionMeaning(c.reference, page), page, toTs(c.settings));
}

/**
 * The Python side: the module as a script, one JSON line per case on stdin, one result per line
 * back. Cases with the default settings send none, so the module's own defaults are compared too.
 */
function pyScores(all: readonly Case[]): ScoredAction[] {
  const line = (c: Case) => ({ solution_str: c.output, ground_truth: rewardGroundTruth(c.reference, PAGES[c.page]), ...(c.settings === DEFAULTS ? {} : { settings: c.settings }) });
  const input = all.map((c) => JSON.stringify(line(c))).join('\n') + '\n';
  const run = spawnSync(PYTHON, [MODULE], { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.ifError(run.error); // ENOENT: no python3 on PATH (set PYTHON to a Python 3.8+)
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as ScoredAction);
}

/** Python code run with the module imported as verl imports it (from its path). */
function pyWithModule(code: string): { status: number | null; stdout: string; stderr: string } {
  const prelude = `import importlib.util, json\nspec = importlib.util.spec_from_file_location('custom_module', ${JSON.stringify(MODULE)})\nm = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(m)\n`;
  const run = spawnSync(PYTHON, ['-c', prelude + code], { encoding: 'utf8' });
  assert.ifError(run.error);
  return run;
}

test('the verl reward module gives every case the reward, correctness and invalidity of the TypeScript reward', () => {
  const all = cases();
  const py = pyScores(all);
  assert.equal(py.length, all.length);
  const differ = all.flatMap((c, i) => {
    const ts = tsScore(c);
    return ts.reward === py[i].reward && ts.correct === py[i].correct && ts.invalid === py[i].invalid ? [] : [{ ...c, page: PAGES[c.page].map((e) => `${e.id}:${e.role}:${e.name}`).join(' '), ts, py: py[i] }];
  });
  assert.deepEqual(differ.slice(0, 5), [], `${differ.length} of ${all.length} cases differ`);

  // The cases reach every outcome, under every kind of reward, and every action type is judged correct somewhere.
  const ts = all.map(tsScore);
  const outcome = (s: ScoredAction) => (s.invalid ? 'invalid' : s.correct ? 'correct' : 'wrong');
  const counts = Object.fromEntries(['correct', 'wrong', 'invalid'].map((o) => [o, ts.filter((s) => outcome(s) === o).length]));
  assert.ok(counts.correct >= 150 && counts.wrong >= 1000 && counts.invalid >= 1000, `cases per outcome: ${JSON.stringify(counts)}`);
  assert.ok(new Set(all.map((c, i) => (c.settings.kind === 'graded' && !ts[i].invalid ? ts[i].reward : NaN)).filter((r) => !Number.isNaN(r))).size >= 4, 'graded rewards take several values');
  const correctTypes = new Set(all.filter((_, i) => ts[i].correct).map((c) => actionMeaning(c.reference, PAGES[c.page]).type));
  assert.equal(correctTypes.size, 18, `every action type is judged correct in some case (got ${[...correctTypes].join(', ')})`);
});

test('compute_score is the hook verl calls: keyword arguments, reward_kwargs as settings, extra arguments of reward managers ignored', () => {
  const gt = rewardGroundTruth("click('3')", PAGES[0]);
  const call = (args: string) => pyWithModule(`print(json.dumps(m.compute_score(${args})))`);
  const score = (args: string) => {
    const r = call(args);
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const base = `data_source='agent_lab/shop', ground_truth=${JSON.stringify(gt)}, extra_info={'split': 'train', 'index': 0}`;
  assert.equal(score(`${base}, solution_str="The second Star.\\nclick('3')"`), 1.0);
  assert.equal(score(`${base}, solution_str="click('2')"`), -1.0);
  assert.equal(score(`${base}, solution_str="click('99')"`), -2.0);
  assert.equal(score(`${base}, solution_str="nothing", invalid=-5, reward_router_address=None`), -5.0);
  assert.equal(score(`${base}, solution_str="click('4')", kind='graded'`), 0.20000000000000018); // type and text (neither has one), not target: -1 + 2 * 0.6
  assert.equal(typeof score(`${base}, solution_str="click('3')"`), 'number');

  assert.match(call(`data_source='openai/gsm8k', solution_str='x', ground_truth=${JSON.stringify(gt)}`).stderr, /data_source 'openai\/gsm8k': this reward scores Agent Lab rows/);
  assert.match(call(`${base.replace(JSON.stringify(gt), "\"click('3')\"")}, solution_str='x'`).stderr, /ground_truth: not JSON/);
  assert.match(call(`${base.replace(JSON.stringify(gt), JSON.stringify(JSON.stringify({ v: 1, action: "click('3')", elements: [{ id: '3', role: 'button' }] })))}, solution_str='x'`).stderr, /ground_truth: field elements\[0\]\.name: expected a string/);
  assert.match(call(`${base.replace(JSON.stringify(gt), JSON.stringify(JSON.stringify({ v: 2, action: 'x', elements: [] })))}, solution_str='x'`).stderr, /ground_truth: field v: expected 1, got 2/);
  assert.match(call(`${base}, solution_str='x', invalid=0`).stderr, /reward setting invalid: must not exceed wrong/);
});

test('the module as a script names the stdin line of a bad case', () => {
  const run = spawnSync(PYTHON, [join(MODULE)], { input: `${JSON.stringify({ solution_str: 'x', ground_truth: rewardGroundTruth('go_back()', []) })}\n{"solution_str": "x"}\n`, encoding: 'utf8' });
  assert.ifError(run.error);
  assert.equal(run.status, 1);
  assert.match(run.stderr, /stdin line 2: 'ground_truth'/);
  assert.deepEqual(JSON.parse(run.stdout), { reward: -2, correct: false, invalid: true });
});
