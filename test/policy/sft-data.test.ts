import { test } from 'node:test';
import assert from 'node:assert/strict';
import { trainTokenizer, END_OF_TEXT } from '../../main/models/tokenizer.ts';
import { encodeSample, tokenizerTexts, type PolicySample } from '../../main/policy/sft-data.ts';
import { parsePolicyOutput, policyTarget, renderPolicyPrompt, defaultPromptSettings, urlPath, taskWords, PromptSettings, overlaysByLayout } from '../../main/policy/prompt.ts';
import { batchPicker, sftBatch } from '../../main/policy/sft.ts';
import { Rng } from '../../main/common/rng.ts';
import { promptElements } from '../../main/policy/action-guide.ts';
import type { PageElement } from '../../main/environment/types.ts';

const el = (id: string, role: string, name: string, inViewport = true): PageElement => ({
  id, role, name, tag: 'a', box: { x: 0, y: 0, width: 10, height: 10 }, visible: true, inViewport,
});

const sample: PolicySample = {
  episodeId: 'e1', step: 1, split: 'train', family: 'shop',
  input: {
    instruction: 'Add the Terra Jacket in size XL to your cart.',
    url: 'http://127.0.0.1:4000/i/abc123/product/7?x=1',
    title: 'Terra Jacket | Shop',
    elements: [el('9', 'link', 'Home'), el('48', 'combobox', 'Size'), el('57', 'button', 'Add to cart')],
    lastActionError: null,
    history: ["click('99')", "click('79')"],
  },
  target: { thought: 'Pick size XL.', action: "select_option('48', 'XL')" },
};

/** The layout these prompt tests were written for; name-first is tested on its own below. */
const idFirst = { ...defaultPromptSettings, elementLayout: 'id-first' as const };
const tokenizer = trainTokenizer(tokenizerTexts([sample], defaultPromptSettings), 320);
const settings = { prompt: defaultPromptSettings, ctx: 512, reserve: 64 };

test('prompt tokens never carry loss; thought+action targets train the thought, the action and the end token', () => {
  const e = encodeSample(tokenizer, sample, { ...settings, targets: 'thought+action' });
  const prompt = tokenizer.encode(renderPolicyPrompt(sample.input, defaultPromptSettings));
  assert.equal(e.promptLength, prompt.length);
  assert.deepEqual(e.ids.slice(0, prompt.length), prompt);
  assert.ok(e.mask.slice(0, prompt.length).every((m) => m === 0));
  const target = e.ids.slice(prompt.length);
  assert.ok(e.mask.slice(prompt.length).every((m) => m === 1));
  assert.equal(tokenizer.decode(target.slice(0, -1)), "Pick size XL.\nselect_option('48', 'XL')");
  assert.equal(target.at(-1), tokenizer.specialId(END_OF_TEXT));
});

test('action targets mask the thought too: only the action tokens and the end token carry loss', () => {
  const e = encodeSample(tokenizer, sample, { ...settings, targets: 'action' });
  const withLoss = e.ids.filter((_, i) => e.mask[i] === 1);
  assert.equal(withLoss.at(-1), tokenizer.specialId(END_OF_TEXT));
  assert.equal(tokenizer.decode(withLoss.slice(0, -1)), "select_option('48', 'XL')");
  // The thought is still in the sequence, as context.
  assert.match(tokenizer.decode(e.ids), /Pick size XL\.\nselect_option/);
});

test('a prompt weight gives every prompt token that loss weight; targets keep weight 1, a masked thought 0', () => {
  const e = encodeSample(tokenizer, sample, { ...settings, targets: 'action', promptWeight: 0.1 });
  assert.ok(e.mask.slice(0, e.promptLength).every((m) => m === 0.1));
  const thought = tokenizer.encode('Pick size XL.\n').length;
  assert.ok(e.mask.slice(e.promptLength, e.promptLength + thought).every((m) => m === 0));
  assert.ok(e.mask.slice(e.promptLength + thought).every((m) => m === 1));
  assert.deepEqual(sftBatch([e]).stdWeight.slice(0, e.promptLength - 1), new Float32Array(e.promptLength - 1).fill(0.1));
});

test('a padded SFT batch predicts token i+1 at row i, with loss only where token i+1 is a target; padding carries none', () => {
  const a = { ids: [5, 6, 7, 8], mask: [0, 0, 1, 1], promptLength: 2 };
  const b = { ids: [9, 10, 11], mask: [0, 1, 1], promptLength: 1 };
  const batch = sftBatch([a, b]);
  assert.equal(batch.len, 3);
  assert.deepEqual([...batch.ids], [5, 6, 7, 9, 10, 0]);
  assert.deepEqual([...batch.labels], [6, 7, 8, 10, 11, 0]);
  assert.deepEqual([...batch.stdWeight], [0, 1, 1, 1, 1, 0]);
  assert.deepEqual([...batch.pos], [0, 1, 2, 0, 1, 2]);
  // Causal: row 0 sees only itself.
  assert.equal(batch.bias[0], 0);
  assert.ok(batch.bias[1] < -1e8);
});

test('the prompt drops the per-instance origin, clips history to the last actions, and keeps the viewport first within budget', () => {
  assert.equal(urlPath('http://127.0.0.1:4000/i/abc123/product/7?x=1'), '/product/7?x=1');
  const many = { ...sample.input, history: ['a()', 'b()', 'c()', 'd()', 'e()'] };
  const text = renderPolicyPrompt(many, { ...idFirst, maxHistory: 2 });
  assert.match(text, /History: \(3 earlier\) d\(\) ; e\(\)/);
  assert.doesNotMatch(text, /127\.0\.0\.1/);
  const els = [el('1', 'link', 'Below the fold', false), el('2', 'button', 'Visible')];
  const small = renderPolicyPrompt({ ...sample.input, elements: els }, { ...idFirst, maxPageChars: 25 });
  assert.match(small, /\[2\] button "Visible"\n\(1 more\)/);
});

test('policy outputs: the last line that parses is the action; anything else is an invalid action, passed on as text', () => {
  assert.deepEqual(parsePolicyOutput("Open it.\nclick( '79' )"), { thought: 'Open it.', action: "click('79')", valid: true });
  assert.deepEqual(parsePolicyOutput("\nsend_msg_to_user('9:30')"), { thought: '', action: "send_msg_to_user('9:30')", valid: true });
  const bad = parsePolicyOutput('Open it.\nclick(79');
  assert.equal(bad.valid, false);
  assert.equal(bad.action, 'click(79');
  assert.equal(parsePolicyOutput('').valid, false);
  // A coordinate action is outside the policy's action space (the default sets), as before it existed.
  assert.deepEqual(parsePolicyOutput("Click it.\nmouse_click(10, 20)"), { thought: 'Click it.', action: 'mouse_click(10, 20)', valid: false });
  assert.deepEqual(parsePolicyOutput("click('3')\nkeyboard_type('x')"), { thought: "click('3')", action: "click('3')", valid: true });
});

test('task element order: elements sharing words with the task, controls and overlays fill the budget first, printed in page order', () => {
  const page: PageElement[] = [
    el('1', 'link', 'Home'), el('2', 'link', 'Deals'), el('3', 'link', 'Help'),
    el('4', 'heading', 'Terra Jacket'), el('5', 'text', 'A warm coat for cold days'),
    el('6', 'link', 'Footer link', false),
    el('7', 'button', 'Accept all cookies'), // drawn over the page: in the viewport after an element below it
  ];
  const input = { ...sample.input, instruction: 'Open the Terra Jacket page.', elements: page };
  const task = { ...idFirst, elementOrder: 'task' as const, maxPageChars: 60 };
  const text = renderPolicyPrompt(input, task);
  assert.match(text, /\[4\] heading "Terra Jacket"\n\[7\] button "Accept all cookies"\n\(5 more\)/);
  const pageOrder = renderPolicyPrompt(input, { ...task, elementOrder: 'page' });
  assert.match(pageOrder, /\[1\] link "Home"\n\[2\] link "Deals"\n\[3\] link "Help"\n\(4 more\)/);
  assert.deepEqual([...taskWords('Book the 9:30 flight to Oslo for me, then tell me.')], ['book', '9', '30', 'flight', 'oslo', 'then']);
});

test('task-values element order: the value beside a label the task names comes along with the label', () => {
  const page: PageElement[] = [
    el('10', 'searchbox', 'City, neighborhood or address'), el('11', 'button', 'Search homes'),
    el('24', 'heading', '6915 Meadow Ln, Portland'),
    el('32', 'rowheader', 'Home type'), el('33', 'cell', 'House'),
    el('41', 'rowheader', 'Square feet'), el('42', 'cell', '2,440'),
    el('60', 'textbox', 'Tour date'), el('63', 'textbox', 'Your name'),
  ];
  const input = { ...sample.input, instruction: 'How many square feet is the home at 6915 Meadow Ln, Portland?', elements: page };
  const budget = { ...idFirst, maxPageChars: 140 };
  const plain = renderPolicyPrompt(input, { ...budget, elementOrder: 'task' });
  const values = renderPolicyPrompt(input, { ...budget, elementOrder: 'task-values' });
  assert.match(plain, /\[41\] rowheader "Square feet"/);
  assert.doesNotMatch(plain, /2,440/, 'under the task order the value shares no task word and is cut');
  assert.match(values, /\[41\] rowheader "Square feet"\n\[42\] cell "2,440"/);
  // A label the task does not name brings nothing along.
  assert.doesNotMatch(values, /House/);
});

const at = (e: PageElement, x: number, y: number, width: number, height: number): PageElement => ({ ...e, box: { x, y, width, height } });

test('overlays by layout: an element over an earlier one it neither holds nor sits in; not two-column cards, edge-to-edge rows or nested twins', () => {
  const twoColumns = [at(el('1', 'link', 'Seaside Inn'), 0, 100, 200, 20), at(el('2', 'text', 'from $120', false), 0, 900, 200, 20), at(el('3', 'link', 'Cedar Inn'), 300, 700, 200, 20)];
  assert.deepEqual(overlaysByLayout(twoColumns), [false, false, false], 'the page-order rule would call Cedar Inn an overlay');
  const rows = [at(el('4', 'rowheader', 'Twin Room'), 20, 537.2, 217, 52.8), at(el('5', 'rowheader', 'Deluxe King Room'), 20, 589.9, 217, 52.8)];
  assert.deepEqual(overlaysByLayout(rows), [false, false], 'a tenth of a pixel shared by adjacent rows is not an overlap');
  const nested = [at(el('6', 'heading', 'Copper Inn'), 20, 40, 300, 22), at(el('7', 'link', 'Copper Inn'), 20, 40, 300, 22)];
  assert.deepEqual(overlaysByLayout(nested), [false, false]);
  const banner = [at(el('8', 'heading', 'Shop by brand'), 20, 702, 984, 32), at(el('9', 'link', 'Lumio'), 20, 755, 45, 18), at(el('10', 'button', 'Accept all cookies'), 657, 718, 160, 36)];
  assert.deepEqual(overlaysByLayout(banner), [false, false, true]);
  assert.deepEqual(overlaysByLayout([banner[0], { ...banner[2], inViewport: false }]), [false, false], 'outside the viewport nothing is drawn over');
});

test('task-layout element order: a task word on most of the page does not count, overlays come first, echoes go, text runs get their own limit', () => {
  const days = Array.from({ length: 12 }, (_, i) => el(String(40 + i), 'link', `Monday, ${i + 1} April 2027`));
  const input = { ...sample.input, instruction: 'What time does "Photo shoot" on 4 May 2027 start? Tell me in a message.', elements: [el('16', 'link', 'Today'), el('25', 'link', 'Next month'), ...days] };
  const budget = { ...idFirst, maxPageChars: 90 };
  // Every day shares "2027" with the task: under the task order they crowd out the link the task needs.
  assert.doesNotMatch(renderPolicyPrompt(input, { ...budget, elementOrder: 'task' }), /Next month/);
  assert.match(renderPolicyPrompt(input, { ...budget, elementOrder: 'task-layout' }), /\[16\] link "Today"\n\[25\] link "Next month"\n/);

  const banner = at(el('99', 'button', 'Accept all cookies'), 600, 700, 160, 36);
  const page = [at(el('60', 'heading', 'Seaside Inn'), 20, 100, 200, 22), at(el('61', 'link', 'Seaside Inn'), 20, 100, 200, 22), at(el('62', 'text', 'from $171.00 per night'), 20, 130, 200, 18), at(el('70', 'heading', 'Brand news'), 20, 690, 900, 40), banner];
  const hotels = { ...sample.input, instruction: 'Which hotel with at least 4 stars has the lowest price per night?', elements: page };
  const layout = renderPolicyPrompt(hotels, { ...idFirst, maxPageChars: 45, elementOrder: 'task-layout' });
  assert.match(layout, /^\[99\] button "Accept all cookies"$/m, 'the banner drawn over the page is kept first');
  const roomy = renderPolicyPrompt(hotels, { ...idFirst, maxPageChars: 400, elementOrder: 'task-layout' });
  assert.doesNotMatch(roomy, /heading "Seaside Inn"/, 'the heading echoes the link beside it');
  assert.match(roomy, /\[61\] link "Seaside Inn"/);

  const mail = { ...sample.input, elements: [el('40', 'text', "Let's meet on Thursday at 4:30 PM in the Oak Room to go over the plan."), el('41', 'link', 'Reply to Elena Okafor about the Delta project sync')] };
  const text = renderPolicyPrompt(mail, { ...idFirst, maxPageChars: 400, elementOrder: 'task-layout', maxTextChars: 100 });
  assert.match(text, /in the Oak Room to go over the plan\.$/m);
  assert.match(text, /link "Reply to Elena Okafor about the Delta p…"/, 'other names keep maxNameChars');
  assert.equal(PromptSettings.parse({ maxPageChars: 700, maxNameChars: 40, maxHistory: 3 }).maxTextChars, undefined, 'older policies clip text runs at maxNameChars');
});

test('policy.json and prompt settings written before the element order existed read as page order', () => {
  assert.equal(PromptSettings.parse({ maxPageChars: 700, maxNameChars: 40, maxHistory: 3 }).elementOrder, 'page');
  assert.equal(defaultPromptSettings.elementOrder, 'task');
});

test('task-match marks: the lines sharing the most task words get "* ", options the task names "*"; none without a match', () => {
  const page: PageElement[] = [
    el('1', 'link', 'Terra Jacket'), el('2', 'link', 'Terra Boots'), el('3', 'heading', 'Terra Jacket'),
    { ...el('4', 'combobox', 'Size'), options: ['S', 'XL', 'XXL'] },
  ];
  const input = { ...sample.input, instruction: 'Add the Terra Jacket in size XL to your cart.', elements: page };
  const text = renderPolicyPrompt(input, { ...idFirst, markTaskMatches: true });
  assert.match(text, /^\* \[1\] link "Terra Jacket"\n\[2\] link "Terra Boots"\n\* \[3\] heading "Terra Jacket"\n\[4\] combobox "Size" options: S \| \*XL \| XXL$/m);
  assert.doesNotMatch(renderPolicyPrompt(input, idFirst), /\*/);
  const none = renderPolicyPrompt({ ...input, instruction: 'Open the help page.' }, { ...idFirst, markTaskMatches: true });
  assert.doesNotMatch(none, /^\* /m);
  assert.deepEqual(promptElements(text).at(-1), { id: '4', role: 'combobox', options: ['S', 'XL', 'XXL'] });
  assert.deepEqual(promptElements(text).map((e) => e.id), ['1', '2', '3', '4']);
});

test('value marks: "= " before the value beside a row header, after a short label line and under a column header the task names; nothing else, and nothing without the setting', () => {
  const page: PageElement[] = [
    el('20', 'heading', 'Mogor'),
    el('41', 'rowheader', 'Population'), el('42', 'cell', '341,171'),
    el('43', 'rowheader', 'Mayor'), el('44', 'cell', 'Ilse Holm'),
    el('50', 'text', 'Built'), el('51', 'text', '1840'),
    el('52', 'text', 'Mogor was built on the Elsa River in 1231.'), el('53', 'text', 'A market town'),
    at(el('60', 'columnheader', 'City'), 0, 100, 100, 20), at(el('61', 'columnheader', 'Population'), 100, 100, 100, 20),
    at(el('62', 'link', 'Saloburg'), 0, 120, 60, 20), at(el('63', 'cell', '12,000'), 100, 120, 60, 20),
    at(el('64', 'link', 'Lendoburg'), 0, 140, 60, 20), at(el('65', 'cell', '9,500'), 100, 140, 60, 20),
    at(el('70', 'columnheader', 'Population'), 0, 300, 100, 20), at(el('71', 'button', '1,000'), 0, 320, 100, 20),
  ];
  const input = { ...sample.input, instruction: 'What is the population of Mogor? When was it built?', elements: page };
  const marked = renderPolicyPrompt(input, { ...defaultPromptSettings, elementOrder: 'task-values', markValues: true, maxPageChars: 2000 });
  const lines = marked.split('\n').filter((l) => l.startsWith('= '));
  assert.deepEqual(lines, ['= cell "341,171" [42]', '= 1840', '= cell "12,000" [63]', '= cell "9,500" [65]']);
  // A label the task does not name (Mayor), a sentence that names a task word, the next table's header row and a control: unmarked.
  assert.match(marked, /^cell "Ilse Holm" \[44\]$/m);
  assert.match(marked, /^A market town$/m);
  assert.match(marked, /^button "1,000" \[71\]$/m);
  // The marked line still reads as an element, with its head unmarked and its mark apart (the guide's thoughts match both forms).
  assert.deepEqual(promptElements(marked).find((e) => e.id === '42'), { id: '42', role: 'cell', options: [], head: 'cell "341,171"', mark: '=' });
  // Off (and absent, as in older policy.json files): the prompt is as before.
  const plain = renderPolicyPrompt(input, { ...defaultPromptSettings, elementOrder: 'task-values', maxPageChars: 2000 });
  assert.doesNotMatch(plain, /^= /m);
  assert.equal(PromptSettings.parse({ maxPageChars: 1, maxNameChars: 1, maxHistory: 0 }).markValues, false);
  // Under a tight budget a marked column value comes along with its header, as a row value does.
  const table = { ...input, elements: page.slice(10, 15) };
  const tight = renderPolicyPrompt(table, { ...defaultPromptSettings, elementOrder: 'task-values', markValues: true, maxPageChars: 60 });
  assert.match(tight, /columnheader "Population" \[61\]\n= cell "12,000" \[63\]/);
  assert.doesNotMatch(renderPolicyPrompt(table, { ...defaultPromptSettings, elementOrder: 'task-values', maxPageChars: 60 }), /12,000/);
});

test('name-first element lines put the id after the name; the action guide reads both layouts alike', () => {
  const page: PageElement[] = [el('1', 'link', 'Terra Jacket'), { ...el('4', 'combobox', 'Size'), options: ['S', 'XL'] }, el('9', 'text', 'Price [EUR] 80')];
  const input = { ...sample.input, instruction: 'Buy the Terra Jacket.', elements: page };
  const nameFirst = renderPolicyPrompt(input, defaultPromptSettings);
  assert.equal(defaultPromptSettings.elementLayout, 'name-first');
  assert.match(nameFirst, /^link "Terra Jacket" \[1\]\ncombobox "Size" \[4\] options: S \| XL$/m);
  const old = renderPolicyPrompt(input, idFirst);
  assert.match(old, /^\[1\] link "Terra Jacket"$/m);
  const expected = [{ id: '1', role: 'link', options: [] }, { id: '4', role: 'combobox', options: ['S', 'XL'] }];
  assert.deepEqual(promptElements(nameFirst), [{ ...expected[0], head: 'link "Terra Jacket"' }, { ...expected[1], head: 'combobox "Size"' }]);
  assert.deepEqual(promptElements(old), expected);
  assert.equal(PromptSettings.parse({ maxPageChars: 700, maxNameChars: 40, maxHistory: 3 }).elementLayout, 'id-first', 'older policy.json files keep their layout');
});

test('element thoughts: an action on a listed element learns that element\'s line as the prompt prints it, up to its id; other actions keep the dataset\'s thought', () => {
  const s = { ...defaultPromptSettings, elementLayout: 'name-first' as const, thought: 'element' as const };
  const tok = trainTokenizer(tokenizerTexts([sample], s), 320);
  const e = encodeSample(tok, sample, { ...settings, prompt: s, targets: 'thought+action' });
  const target = tok.decode(e.ids.slice(e.promptLength, -1));
  assert.equal(target, 'combobox "Size" [48]\nselect_option(\'48\', \'XL\')');
  // The thought is a span of the prompt: the line printed for the element starts with it.
  assert.ok(renderPolicyPrompt(sample.input, s).includes('\ncombobox "Size" [48]'));
  const say = { ...sample, target: { thought: 'The cart is right.', action: "send_msg_to_user('Done.')" } };
  assert.equal(policyTarget(say.input, say.target, s).thought, 'The cart is right.');
  const gone = { ...sample, target: { thought: 'Open it.', action: "click('404')" } };
  assert.equal(policyTarget(gone.input, gone.target, s).thought, 'Open it.', 'an element the step did not list keeps the dataset thought');
  assert.equal(policyTarget(sample.input, sample.target, defaultPromptSettings).thought, 'Pick size XL.');
  assert.equal(PromptSettings.parse({ maxPageChars: 1, maxNameChars: 1, maxHistory: 0 }).thought, 'dataset', 'policies trained before the field learned the dataset\'s thought');
});

test('length-bucketed batches: neighbours in length order, equal lengths mixed across episodes, the same order for the same seed', () => {
  const seq = (len: number, tag: number) => ({ ids: Array.from({ length: len }, () => tag), mask: [], promptLength: 0 });
  // Ten samples of each length, in "episode" order: tag says where each came from.
  const seqs = [5, 9, 13].flatMap((len) => Array.from({ length: 10 }, (_, i) => seq(len, i)));
  const pick = batchPicker(seqs, 4, true, new Rng(3), 1);
  for (let b = 0; b < 20; b++) {
    const lengths = pick().map((s) => s.ids.length);
    assert.ok(Math.max(...lengths) - Math.min(...lengths) <= 4, `one batch spans neighbouring lengths: ${lengths}`);
  }
  const firstRun = (seed: number) => batchPicker(seqs, 10, true, new Rng(0), seed)().map((s) => s.ids[0]).join();
  assert.notEqual(firstRun(1), '0,1,2,3,4,5,6,7,8,9', 'equal lengths are not left in dataset order');
  assert.equal(firstRun(1), firstRun(1));
  const uniform = batchPicker(seqs, 4, false, new Rng(3));
  assert.equal(uniform().length, 4);
});
