/**
 * Guided decoding of the policy's action: the guide's rules on a real tokenizer, and the guide in
 * the real decoders on the shipped SAT-tuned model (which never saw a web action): every output is
 * a thought line and an action on an id from the prompt, and SDSAT greedy still equals AR greedy.
 */
import { selectBackend } from '../../main/models/backend.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ActionGuide, NO_REPEAT_NGRAM, citeLinesFor, citedValue, promptElements, promptTextLines, statesValue, thoughtElement } from '../../main/policy/action-guide.ts';
import { trainTokenizer, END_OF_TEXT } from '../../main/models/tokenizer.ts';
import { loadModel } from '../../main/models/checkpoint.ts';
import { resourcePath } from '../../main/paths.ts';
import { AutoregressiveDecoder, SdsatDecoder, SdsatOnePassDecoder } from '../../main/decode/index.ts';
import { parseAction } from '../../main/environment/actions.ts';
import { MAX_THOUGHT_CHARS } from '../../main/policy/prompt.ts';
import { allowedWords, messageVocabulary, wordsAllowed } from '../../main/policy/message-words.ts';

const PROMPT = 'Task: Add the Terra Jacket to the cart.\nPage: /p/7 | Shop\n[12] button "Add to cart"\n[7] link "Home"\nSome text\n[48] combobox "Size" value="S" collapsed options: S | XL\n[30] textbox "Note"\n[5] checkbox "Gift wrap"\nHistory: none\nNext:\n';
const ELEMENTS = promptElements(PROMPT);

test('the elements a prompt shows are its element lines, with their roles and the options printed for a select', () => {
  assert.deepEqual(ELEMENTS, [
    { id: '12', role: 'button', options: [] }, { id: '7', role: 'link', options: [] }, { id: '48', role: 'combobox', options: ['S', 'XL'] },
    { id: '30', role: 'textbox', options: [] }, { id: '5', role: 'checkbox', options: [] },
  ]);
});

test('the guide: no end before an action, known names, element actions on shown ids whose role takes them, a select\'s own options, free text after the id on one line, nothing after the action', () => {
  const tok = trainTokenizer([PROMPT, "Add it.\nclick('12')", "Pick.\nfill('48', 'XL')", "send_msg_to_user('done')"], 400);
  const eot = tok.specialId(END_OF_TEXT);
  const guide = new ActionGuide(tok, ELEMENTS, eot, false);
  const ok = (text: string, next: string) => {
    const mask = guide.allowed(tok.encode(text));
    const ids = tok.encode(next);
    assert.equal(ids.length, 1, `"${next}" is one token here`);
    return mask === null || mask[ids[0]] === 1;
  };
  const allows = (text: string, next: string) => assert.ok(ok(text, next), `after ${JSON.stringify(text)} ${JSON.stringify(next)} is allowed`);
  const forbids = (text: string, next: string) => assert.ok(!ok(text, next), `after ${JSON.stringify(text)} ${JSON.stringify(next)} is forbidden`);
  const endAllowed = (text: string) => guide.allowed(tok.encode(text))?.[eot] === 1;

  assert.equal(endAllowed('Add it.'), false, 'no end inside the thought');
  allows('Add it', 'd');
  allows('Add it.\n', 'c');
  forbids('Add it.\n', 'x');
  allows("Add it.\nclick('", '1');
  allows("Add it.\nclick('", '7');
  forbids("Add it.\nclick('", '9');
  allows("Add it.\nclick('1", '2');
  forbids("Add it.\nclick('1", '9');
  forbids("Add it.\nclick(", '"');
  assert.equal(endAllowed("Add it.\nclick('12'"), false, 'no end before the action parses');
  assert.equal(endAllowed("Add it.\nclick('12')"), true);
  forbids("Add it.\nclick('12')", ' ');
  forbids("Add it.\nclick('12')", '\n');
  allows("Pick.\nfill('30', '", 'Q');
  allows("Pick.\nfill('30', 'X", 'L');
  forbids("Pick.\nfill('30', 'X", '\n');
  // Roles: text goes into text fields (not a select, a button or a link), check into checkboxes.
  allows("Pick.\nfill('", '3');
  forbids("Pick.\nfill('", '4');
  forbids("Pick.\nfill('", '1');
  forbids("Pick.\nfill('", '7');
  allows("Pick.\ncheck('", '5');
  forbids("Pick.\ncheck('", '3');
  allows("Pick.\nselect_option('", '4');
  forbids("Pick.\nselect_option('", '1');
  allows("Pick.\nselect_option('48', '", 'X');
  forbids("Pick.\nselect_option('48', '", 'Q');
  forbids("Pick.\nselect_option('48', 'X", 'X');
  assert.equal(endAllowed("Pick.\nselect_option('48', 'XL')"), true);
  // The trained form to the end: a click's only extra argument is its button; a string closes with the call.
  allows("Add it.\nclick('12'", ')');
  // A click takes no button argument (no collecting agent writes one): only the call's close.
  assert.ok([...guide.allowed(tok.encode("Add it.\nclick('12'"))!].every((m, t) => !m || tok.decode([t]).startsWith(')')));
  forbids("Pick.\nfill('30', 'XL'", ' ');
  allows("Pick.\nfill('30', 'XL'", ')');
  allows("Pick.\nfill('30', 'X\\", "'");
  forbids("Pick.\nfill('30'", ')');
  allows("Done.\nsend_msg_to_user('", 'd');
  forbids("Done.\nsend_msg_to_user('d", '\n');
  // An action no element on the page takes is not begun: with a button only, no check(.
  const buttonOnly = new ActionGuide(tok, [{ id: '12', role: 'button', options: [] }], eot, false);
  assert.equal(buttonOnly.allowed(tok.encode('Pick.\nc'))?.[tok.encode('h')[0]], 0);
  assert.equal(buttonOnly.allowed(tok.encode('Pick.\nc'))?.[tok.encode('l')[0]], 1);
  allows('Pick.\nc', 'h');
  // The thought ends by the length policies are trained on.
  const long = 'x'.repeat(120);
  forbids(long, 'x');
  allows(long, '\n');

  // A policy trained on actions only starts in the action.
  const actionOnly = new ActionGuide(tok, [{ id: '12', role: 'button', options: [] }], eot, true);
  const m = actionOnly.allowed(tok.encode(''))!;
  assert.equal(m[tok.encode('c')[0]], 1);
  assert.equal(m[tok.encode('A')[0]], 0);
  assert.equal(m[eot], 0);

  // The coordinate actions are not the compact policy's: no prompt of it lists them, so none is begun.
  assert.equal(guide.scan('keyboard_'), 'open', 'keyboard_press is');
  assert.equal(guide.scan('keyboard_t'), 'dead');
  assert.equal(guide.scan('mouse_'), 'dead');
  assert.equal(guide.scan('mouse_click(10, 20)'), 'dead');
});

test('a thought that ends on an element\'s id binds the action to that element when the element takes the action', () => {
  const tok = trainTokenizer([PROMPT, 'button "Add to cart" [12]\nclick(\'12\')', 'textbox "Note" [30]\nfill(\'30\', \'x\')'], 400);
  const eot = tok.specialId(END_OF_TEXT);
  const guide = new ActionGuide(tok, ELEMENTS, eot, false);
  const allowed = (text: string, next: string) => guide.allowed(tok.encode(text))![tok.encode(next)[0]] === 1;
  assert.equal(thoughtElement('button "Add to cart" [12]'), '12');
  assert.equal(thoughtElement('Add it to the cart.'), undefined);
  assert.ok(allowed('button "Add to cart" [12]\nclick(\'', '1'));
  assert.ok(!allowed('button "Add to cart" [12]\nclick(\'', '7'), 'the thought named 12, not 7');
  assert.ok(!allowed('button "Add to cart" [12]\nclick(\'1', '9'));
  // A named element that cannot take the action (fill on a button) leaves every field open.
  assert.ok(allowed('button "Add to cart" [12]\nfill(\'', '3'));
  // A dataset-style thought binds nothing.
  assert.ok(allowed('Go home.\nclick(\'', '7'));
});

test('an element thought names an element as the prompt prints it: after a printed head only its ids, then the line ends', () => {
  const prompt = 'Task: Open the Shoes page.\nPage: / | Shop\nlink "Shoes" [12]\nlink "Shoes" [19]\nlink "Home" [7]\nbutton "Go" [3]\nHistory: none\nNext:\n';
  const elements = promptElements(prompt);
  assert.deepEqual(elements.map((e) => e.head), ['link "Shoes"', 'link "Shoes"', 'link "Home"', 'button "Go"']);
  const tok = trainTokenizer([prompt, 'link "Shoes" [12]\nclick(\'12\')', 'x1'], 400);
  const eot = tok.specialId(END_OF_TEXT);
  const guide = new ActionGuide(tok, elements, eot, false);
  const allowedPieces = (text: string) => {
    const mask = guide.allowed(tok.encode(text))!;
    return [...mask].flatMap((m, t) => (m ? [tok.decode([t])] : []));
  };
  const after = allowedPieces('link "Shoes" [');
  assert.ok(after.includes('1'), 'an id printed after that head begins');
  assert.ok(!after.includes('7') && !after.includes('3'), `ids of other heads do not: ${after}`);
  assert.deepEqual(allowedPieces('link "Shoes" [1').filter((p) => !p.startsWith('2') && !p.startsWith('9')), [], 'only 12 or 19 go on');
  assert.ok(allowedPieces('link "Shoes" [12').every((p) => p.startsWith(']')));
  assert.ok(allowedPieces('link "Shoes" [12]').every((p) => p.startsWith('\n')), 'the thought ends at the id');
  // A head the prompt does not print leaves the thought free.
  assert.ok(allowedPieces('link "Boots" [').includes('x'));
});

test('element thoughts: a thought in lower case is a printed element line up to its id, one in upper case a free sentence', () => {
  const prompt = 'Task: Open the Shoes page.\nPage: / | Shop\nlink "Shoes" [12]\nlink "Home" [7]\nbutton "Go" [3]\nHistory: none\nNext:\n';
  const tok = trainTokenizer([prompt, 'link "Shoes" [12]\nclick(\'12\')', 'Done.\nsend_msg_to_user(\'ok\')', '"x'], 400);
  const eot = tok.specialId(END_OF_TEXT);
  const guide = new ActionGuide(tok, promptElements(prompt), eot, false, undefined, 0, true);
  const allowed = (text: string) => {
    const mask = guide.allowed(tok.encode(text))!;
    return [...mask].flatMap((m, t) => (m ? [tok.decode([t])] : []));
  };
  const first = allowed('');
  assert.ok(first.some((p) => p.startsWith('l')) && first.some((p) => p.startsWith('b')), 'element lines begin');
  assert.ok(!first.some((p) => /^t/.test(p)), `no line begins with "t": ${first}`);
  assert.ok(first.includes('D') && !first.includes('"'), 'a sentence may begin, other characters not');
  assert.ok(allowed('link "').every((p) => 'Shoes"'.startsWith(p) || 'Home"'.startsWith(p) || p.startsWith('Sh') || p.startsWith('Ho')), 'only printed names go on');
  assert.ok(allowed('link "Shoes" [').every((p) => '12]'.startsWith(p) || p.startsWith('12]')), 'the id printed with that line');
  assert.ok(allowed('link "Shoes" [12]').every((p) => p.startsWith('\n')));
  assert.ok(allowed('Done').includes('.'), 'a sentence stays free');
  // Without the setting, a lower-case thought is free.
  const free = new ActionGuide(tok, promptElements(prompt), eot, false);
  assert.equal(free.allowed(tok.encode('link "'))![tok.encode('x')[0]], 1);
});

test('a policy that cites may write a text line of the page, marked or not, as its thought; one that does not, not', () => {
  // The line a cited answer copies need not begin with a role or a capital: a phone number, a figure, a mark.
  const prompt = 'Task: What is the phone number of Juniper Diner? Tell me in a message.\nPage: /restaurant/3 | Juniper Diner\nheading "Juniper Diner" [42]\nPhone\n= (761) 414-5288\n= cell "1653" [50]\n2 reviews\nbutton "Find a table" [75]\n(34 more)\nHistory: click(\'68\')\nNext:\n';
  assert.deepEqual(promptTextLines(prompt), ['Phone', '= (761) 414-5288', '2 reviews']);
  assert.deepEqual(citeLinesFor(prompt, 'message'), []);
  assert.deepEqual(promptElements(prompt).map((e) => e.mark), [undefined, '=', undefined]);
  const tok = trainTokenizer([prompt, "= (761) 414-5288\nsend_msg_to_user('The phone number is (761) 414-5288.')", '= cell "1653" [50]\nclick(\'50\')', '(9x'], 400);
  const eot = tok.specialId(END_OF_TEXT);
  const citing = new ActionGuide(tok, promptElements(prompt), eot, false, undefined, 0, true, undefined, citeLinesFor(prompt, 'cite'));
  const plain = new ActionGuide(tok, promptElements(prompt), eot, false, undefined, 0, true);
  const allowed = (g: ActionGuide, text: string) => [...g.allowed(tok.encode(text))!].flatMap((m, t) => (m ? [tok.decode([t])] : []));
  const first = allowed(citing, '');
  assert.ok(first.some((p) => p.startsWith('=')) && first.some((p) => p.startsWith('(')) && first.some((p) => p.startsWith('2')), `marked and unmarked lines begin: ${first}`);
  assert.ok(!allowed(plain, '').some((p) => p.startsWith('(') || p.startsWith('2')), 'without cite lines, no figure begins a thought');
  // A cited line is copied as printed, then ends.
  assert.ok(allowed(citing, '= (761) 414-').every((p) => '5288\n'.startsWith(p) || p.startsWith('5288\n')), 'the printed line goes on');
  assert.ok(!allowed(citing, '= (761').some((p) => p.startsWith('9')), 'not a number the page does not print');
  assert.ok(allowed(citing, '= (761) 414-5288').every((p) => p.startsWith('\n')));
  assert.ok(allowed(citing, '= (761) 414-5288\n').some((p) => 'send_msg_to_user('.startsWith(p)), 'then an action');
  // A marked element line is a thought as printed, and names its element.
  assert.ok(allowed(citing, '= cell "1653" [').every((p) => '50]'.startsWith(p) || p.startsWith('50]')));
  assert.equal(thoughtElement('= cell "1653" [50]'), '50');
});

test('a search box\'s text holds no question mark, comma, colon, semicolon or exclamation mark; another field\'s may', () => {
  const prompt = 'Task: What is the elevation of Kapraville, in metres?\nPage: / | Wiki\nsearchbox "Search the wiki" [10]\ntextbox "Note" [11]\nHistory: none\nNext:\n';
  const tok = trainTokenizer([prompt, "Search.\nfill('10', 'Kapraville')", "Note.\nfill('11', 'Kapraville, in metres?')"], 400);
  const guide = new ActionGuide(tok, promptElements(prompt), tok.specialId(END_OF_TEXT), false);
  for (const stop of ['?', ',', ':', ';', '!']) {
    assert.equal(guide.scan(`fill('10', 'Kapraville${stop}`), 'dead', `"${stop}" in a search`);
    assert.equal(guide.scan(`fill('11', 'Kapraville${stop}`), 'open', `"${stop}" in a note`);
  }
  assert.equal(guide.scan("fill('10', 'St. Ives')"), 'whole', 'a full stop may stand in a name');
  assert.equal(guide.scan("fill('10', 'Kapraville')"), 'whole');
});

test('the last tokens of the output budget close the call, so a long message ends terminated', () => {
  const tok = trainTokenizer([PROMPT, "Done.\nsend_msg_to_user('the price is 80')"], 400);
  const eot = tok.specialId(END_OF_TEXT);
  const budget = tok.encode("Done.\nsend_msg_to_user('the price").length + 2;
  const guide = new ActionGuide(tok, ELEMENTS, eot, false, budget);
  const allowed = [...guide.allowed(tok.encode("Done.\nsend_msg_to_user('the price"))!].flatMap((m, t) => (m ? [tok.decode([t])] : []));
  assert.ok(allowed.length > 0 && allowed.every((p) => /^[')]+$/.test(p)), `only closing pieces: ${allowed}`);
  // With room left, the text goes on.
  const roomy = new ActionGuide(tok, ELEMENTS, eot, false, budget + 10);
  assert.equal(roomy.allowed(tok.encode("Done.\nsend_msg_to_user('the price"))![tok.encode(' ')[0]], 1);
});

test('message words: a message or typed text holds only words of the prompt (numbers also without separators) and of the policy\'s vocabulary', () => {
  const prompt = 'Task: How much does the Kimchi pancake cost at Basil Table?\nPage: /r/2 | Basil Table\ncell "Kimchi pancake" [93]\ncell "$16.50" [94]\nSquare feet 2,440\n[30] textbox "Note"\nNext:\n';
  const elements = promptElements(prompt);
  const tok = trainTokenizer([prompt, "Answer.\nsend_msg_to_user('The Kimchi pancake costs $16.50 at Basil Table.')", 'Kimable costson 2440 1990 Bas'], 500, [END_OF_TEXT]);
  const eot = tok.specialId(END_OF_TEXT);
  const guide = new ActionGuide(tok, elements, eot, false, undefined, 0, false, { prompt, vocabulary: ['The', 'costs', 'at'] });
  // Whether the guide lets `text` be followed by `next`, character by character (each a token of this tokenizer or not, the scan is on text).
  const open = (text: string) => guide.scan(text) !== 'dead';
  assert.ok(open("send_msg_to_user('The Kimchi pancake costs $16.50 at Basil Table.')"));
  assert.ok(open("send_msg_to_user('The Kim"), 'a word still growing into an allowed one');
  assert.ok(!open("send_msg_to_user('The Kimable"), 'glued pieces of a name');
  assert.ok(!open("send_msg_to_user('The pancake costson"), 'a vocabulary word glued to another');
  assert.ok(open("send_msg_to_user('The Table 2440"), 'the page\'s 2,440 as answers write it');
  assert.ok(!open("send_msg_to_user('The Table 1990 "), 'a number the page does not show');
  assert.ok(open("fill('30', 'Kimchi pancake')") && !open("fill('30', 'Kimable"), 'typed text too');
  // The mask agrees: no token continues a word into one that is not allowed.
  const mask = guide.allowed(tok.encode("Answer.\nsend_msg_to_user('The Kim"))!;
  const pieces = [...mask].flatMap((m, t) => (m ? [tok.decode([t])] : []));
  assert.ok(pieces.length > 0 && pieces.every((p) => !/^[a-z]/.test(p) || 'chi'.startsWith(p) || p.startsWith('chi')), `continuations of "Kim": ${pieces}`);
  // Without the words, messages stay free.
  assert.notEqual(new ActionGuide(tok, elements, eot, false).scan("send_msg_to_user('The Kimable"), 'dead');
});

test('the message vocabulary: digit-free words that recur across the targets\' messages and typed text', () => {
  const actions = [
    ...Array.from({ length: 10 }, (_, i) => `send_msg_to_user('The Room ${i} costs $${100 + i}.00 per night.')`),
    "send_msg_to_user('Seaside Inn is the cheapest.')", "fill('12', 'Oslo')", "click('4')", 'not an action',
  ];
  assert.deepEqual(messageVocabulary(actions), ['Room', 'The', 'costs', 'night', 'per']);
});

test('a message\'s numbers with separators are ones the prompt shows: "1653." may not run on into "1653.1653"', () => {
  const words = allowedWords('Founded 1653\nPopulation 2,082,181\nPrice $259.80\nTotal $1,299.00', ['The', 'is']);
  const ok = (text: string, open = false) => wordsAllowed(text, open, words);
  assert.ok(ok('The Founded is 1653.'));
  assert.ok(ok('2,082,181') && ok('2082181') && ok('$259.80'), 'as shown, and without thousands separators');
  assert.ok(!ok('1653.1653'), 'a second copy after the full stop is not a number the page shows');
  assert.ok(!ok('1653.1', true), 'nor the start of one');
  assert.ok(ok('259.8', true), 'a number still being written may be the start of one the page shows');
  assert.ok(!ok('259.8'), 'but not end there');
  assert.ok(!ok('2,082'), 'a piece of a separated number is not one');
  assert.ok(ok('$1,299.00') && ok('$1,299') && ok('1299'), 'a price with or without its cents');
});

test('a banned action cannot be written, nor begun where it is the only way on; other actions stay open', () => {
  const tok = trainTokenizer([PROMPT, "Add it.\nclick('12')", "Back.\ngo_back()", "Pick.\nfill('30', 'XL')"], 400);
  const eot = tok.specialId(END_OF_TEXT);
  const guide = new ActionGuide(tok, ELEMENTS, eot, false).banAction("click('12')").banAction('go_back()').banAction("fill('30', 'XL')");
  const allowed = (text: string) => [...guide.allowed(tok.encode(text))!].flatMap((m, t) => (m ? [tok.decode([t])] : []));
  assert.ok(!allowed("Add it.\nclick('").some((p) => p.startsWith('1')), 'the banned id is not begun (no other id starts with 1)');
  assert.ok(allowed("Add it.\nclick('").some((p) => p.startsWith('7')), 'another element is');
  assert.ok(!allowed('Back.\ngo_').some((p) => p.startsWith('back')), 'a banned call without arguments is not begun');
  assert.ok(allowed("Pick.\nfill('30', 'XL").every((p) => !p.startsWith("')")), 'the banned text is not closed');
  assert.ok(allowed("Pick.\nfill('30', 'XL").length > 0, 'but the text may go on');
  // Unbanned, the same outputs are allowed.
  const free = new ActionGuide(tok, ELEMENTS, eot, false);
  assert.equal(free.allowed(tok.encode("Add it.\nclick('1"))![tok.encode('2')[0]], 1);
});

test('guided decoding on the shipped model: an action on a shown id, and SDSAT greedy equals AR greedy under the guide', async () => {
  await selectBackend(); // the backend a policy decodes on (native kernels where built): tfjs's plain JS one is 10x slower
  const { model, tokenizer, sat } = loadModel(resourcePath('models', 'sdsat-ts'));
  assert.ok(sat);
  const eot = tokenizer.specialId(END_OF_TEXT);
  const ids = ELEMENTS.map((e) => e.id);
  const ar = new AutoregressiveDecoder(model);
  const decoders = [new SdsatDecoder(model, sat, sat.k), new SdsatOnePassDecoder(model, sat, sat.k)];
  for (const [i, thought] of ['', 'The cart button', 'Open '].entries()) {
    const prompt = tokenizer.encode(PROMPT + thought);
    const opts = { maxNew: 48, stopTokens: [eot] };
    const guided = (inAction: boolean) => ({ ...opts, constraint: new ActionGuide(tokenizer, ELEMENTS, eot, inAction) });
    const a = await ar.generate(prompt, guided(i === 0));
    const text = tokenizer.decode(a.tokens.filter((t) => t !== eot));
    const inThought = i > 0 && !text.includes('\n');
    const action = i === 0 ? text : text.slice(text.indexOf('\n') + 1);
    if (inThought) {
      assert.equal(a.stoppedBy, 'maxNew', 'no end inside the thought');
      assert.ok(text.length <= MAX_THOUGHT_CHARS, 'the thought stays within the trained length');
    } else if (a.stoppedBy === 'stopToken') {
      const parsed = parseAction(action) as { id?: string };
      if (parsed.id !== undefined) assert.ok(ids.includes(parsed.id), `${parsed.id} is on the page`);
    } else {
      assert.match(action, /^(|[a-z_]+(\([^\n]*)?)$/, `an unfinished output is an action's beginning, on one line: ${JSON.stringify(text)}`);
    }
    for (const sd of decoders) assert.deepEqual((await sd.generate(prompt, guided(i === 0))).tokens, a.tokens, `${sd.mode}, prompt ${i}`);
  }
  model.dispose();
});

test('the no-repeat n-gram ban: a token that would repeat an n-gram of the current line is cleared, earlier lines do not count, and it never clears the last allowed token', async () => {
  const { banRepeats } = await import('../../main/policy/action-guide.ts');
  const NL = 9;
  const endsLine = (t: number) => t === NL;
  const mask = () => new Uint8Array(12).fill(1);
  // Line "1 2 1 2 1": with n = 3, the tail (2, 1) was followed by 2 before, so 2 is banned.
  let m = mask();
  banRepeats(m, [1, 2, 1, 2, 1], 3, endsLine);
  assert.equal(m[2], 0);
  assert.equal(m[1], 1);
  // The same tokens before a newline belong to another line: nothing is banned.
  m = mask();
  banRepeats(m, [1, 2, 1, 2, NL, 2, 1], 3, endsLine);
  assert.ok(m.every((x) => x === 1));
  // When the repeat is the only token allowed, it stays (the grammar wins over the ban).
  m = new Uint8Array(12);
  m[2] = 1;
  banRepeats(m, [1, 2, 1, 2, 1], 3, endsLine);
  assert.equal(m[2], 1);
});

test('the value a marked cited thought shows: a figure without its unit, a name whole; an unmarked or clipped line none', () => {
  assert.equal(citedValue('= cell "1,189 m" [45]'), '1,189');
  assert.equal(citedValue('= (804) 952-6600'), '(804) 952-6600');
  assert.equal(citedValue('= $3,429.00'), '$3,429.00');
  assert.equal(citedValue('= 18,409 seats'), '18,409');
  assert.equal(citedValue('= cell "Meridan" [33]'), 'Meridan');
  assert.equal(citedValue('= At least 1 year'), 'At least 1 year');
  assert.equal(citedValue('= cell "Say \\"hi\\"" [3]'), 'Say "hi"');
  assert.equal(citedValue('(804) 952-6600'), undefined, 'unmarked: may be a sentence holding the value');
  assert.equal(citedValue('link "Elrenfen" [37]'), undefined);
  assert.equal(citedValue('= Please find invoice INV-3415 for last month\'s services. Amount…'), undefined);
});

test('a message states the value it cited: whole before it closes, and once begun to its end', () => {
  assert.ok(statesValue('The phone of Golden House is (804) 952-6600.', false, '(804) 952-6600'));
  assert.ok(!statesValue('The phone of Golden House is (804).', false, '(804) 952-6600'));
  assert.ok(statesValue('The phone of Golden House is (804', true, '(804) 952-6600'), 'begun, still going');
  assert.ok(!statesValue('The phone of Golden House is (804).', true, '(804) 952-6600'), 'begun, then left');
  assert.ok(statesValue('The population of Doquaia Doquaia', true, '1,429,824'), 'not yet begun: may come later');
  assert.ok(!statesValue('The population of Doquaia Doquaia.', false, '1,429,824'));
  assert.ok(statesValue('The visitors per year of Lumlumfo is 42,41', true, '42,412'), '"41" after the comma is no new start');
  assert.ok(statesValue('The year built of 1329 Pine St, Portland is 19', true, '1992'), 'another figure sharing a first digit');
  assert.ok(statesValue('The Data Analyst at Summit Energy job requires at least 1 years.', false, 'At least 1 year'), 'case aside');
  assert.ok(statesValue('The Data Analyst at Summit', true, 'At least 1 year'), 'a lone shared word is no beginning');
  assert.ok(!statesValue('It needs at least 2', true, 'At least 1 year'));
});

test('guided, a cite policy\'s message after a cited value states it; with the rule off, or after an unmarked line, it may close without it', () => {
  const prompt = 'Task: What is the phone number of Golden House? Tell me in a message.\nPage: /restaurant/3 | Golden House\nheading "Golden House" [42]\nPhone\n= (804) 952-6600\n(804) 555-0000\nHistory: none\nNext:\n';
  const tok = trainTokenizer([prompt, "= (804) 952-6600\nsend_msg_to_user('The phone of Golden House is (804) 952-6600.')", "send_msg_to_user('(804).')"], 400);
  const eot = tok.specialId(END_OF_TEXT);
  const make = (stated: boolean) => new ActionGuide(tok, promptElements(prompt), eot, false, undefined, 0, true, undefined, citeLinesFor(prompt, 'cite'), stated);
  const closes = (g: ActionGuide, text: string) => g.allowed(tok.encode(text))?.[tok.encode("'")[0]] === 1;
  const cited = '= (804) 952-6600\nsend_msg_to_user(';
  assert.ok(!closes(make(true), `${cited}'The phone is (804).`), 'the value was left half-written');
  assert.ok(!closes(make(true), `${cited}'The phone is Golden House.`), 'the value was never written');
  assert.ok(closes(make(true), `${cited}'The phone is (804) 952-6600.`));
  assert.ok(closes(make(false), `${cited}'The phone is (804).`), 'the rule off');
  assert.ok(closes(make(true), "(804) 555-0000\nsend_msg_to_user('The phone is (804)."), 'an unmarked line holds no value');
  assert.equal(make(true).scan("send_msg_to_user('The phone is (804).')", undefined, '(804) 952-6600'), 'dead');
  // Near the end of the output budget, a message that has not stated the value writes it, then closes.
  const budget = (text: string, spare: number) => new ActionGuide(tok, promptElements(prompt), eot, false, tok.encode(text).length + spare, 0, true, undefined, citeLinesFor(prompt, 'cite'));
  const pieces = (g: ActionGuide, text: string) => [...g.allowed(tok.encode(text))!].flatMap((m, t) => (m ? [tok.decode([t])] : []));
  const wandering = `${cited}'The phone of Golden House Golden`;
  assert.ok(pieces(budget(wandering, 40), wandering).length > 5, 'with room to spare, free');
  assert.ok(pieces(budget(wandering, 12), wandering).every((p) => " (804) 952-6600')".startsWith(p)), 'then the value after a space');
  const begun = `${cited}'The phone is (80`;
  assert.ok(pieces(budget(begun, 8), begun).every((p) => "4) 952-6600')".startsWith(p)), 'a begun value goes on');
  // A policy that does not cite is not held to it, whatever its thought.
  const plain = new ActionGuide(tok, promptElements(prompt), eot, false, undefined, 0, true);
  assert.equal(plain.scan("send_msg_to_user('The phone is (804).')"), 'whole');
});

test('greedy through firstAllowed picks exactly what the argmax of the masked row picks: every prefix of real outputs, random and adversarial logits, budgets near the end, repeat bans, a banned action', async () => {
  const { readFileSync } = await import('node:fs');
  const { loadTokenizer } = await import('../../main/models/checkpoint.ts');
  const { Chooser } = await import('../../main/decode/verify.ts');
  const { argmax, maskedRow } = await import('../../main/decode/sampling.ts');
  const { Rng } = await import('../../main/common/rng.ts');
  const dir = resourcePath('models', 'web-policy');
  const tok = loadTokenizer(dir);
  const vocabulary = JSON.parse(readFileSync(`${dir}/policy.json`, 'utf8')).messageWords as string[];
  const eot = tok.specialId(END_OF_TEXT);
  const V = tok.vocabSize;
  const prompt = 'Task: What is the phone number of Golden House? Tell me in a message.\nPage: /restaurant/3 | Golden House\nheading "Golden House" [42]\nlink "Menu" [43]\nlink "Menu" [44]\nsearchbox "Find" [45]\nbutton "Search" [46]\ncombobox "Size" [48] value="S" collapsed options: S | XL\nPhone\n= (804) 952-6600\nHistory: none\nNext:\n';
  const outputs = ['= (804) 952-6600\nsend_msg_to_user(\'The phone of Golden House is (804) 952-6600.\')', 'link "Menu" [44]\nclick(\'44\')', 'searchbox "Find" [45]\nfill(\'45\', \'Golden House\')',
    'combobox "Size" [48]\nselect_option(\'48\', \'XL\')', 'The the the the the menu menu menu\nclick(\'43\')', 'heading "Golden House" [42]\nclick(\'42\')'];
  const rng = new Rng(7);
  let lazy = 0;
  let rows = 0;
  for (const budget of [undefined, 12, 20, 40]) {
    const guide = new ActionGuide(tok, promptElements(prompt), eot, false, budget, NO_REPEAT_NGRAM, true, { prompt, vocabulary }, citeLinesFor(prompt, 'cite'));
    guide.banAction("click('43')");
    // Counts the rows the guide decided without its mask.
    const counting = { allowed: (e: readonly number[]) => guide.allowed(e), firstAllowed: (e: readonly number[], r: Iterable<number>) => { const t = guide.firstAllowed(e, r); if (t !== undefined) lazy++; return t; } };
    const chooser = new Chooser({ kind: 'greedy' }, V, rng, counting);
    for (const output of outputs) {
      const ids = [...tok.encode(output), eot];
      for (let n = 0; n < ids.length; n++) {
        const emitted = ids.slice(0, n);
        for (const regime of ['random', 'truth first', 'truth eighth']) {
          const logits = Float32Array.from({ length: V }, () => rng.next() * 4);
          if (regime === 'truth first') logits[ids[n]] = 10;
          if (regime === 'truth eighth') { logits[ids[n]] = 5; for (let i = 0; i < 7; i++) logits[Math.floor(rng.next() * V)] = 6 + i; }
          const mask = guide.allowed(emitted);
          const want = mask ? argmax(maskedRow(logits, 0, V, mask)) : argmax(logits);
          assert.equal(chooser.choose(logits, 0, emitted), want, `budget ${budget}, ${JSON.stringify(tok.decode(emitted))}, ${regime}`);
          rows++;
        }
      }
    }
  }
  assert.ok(lazy > rows / 3, `the lazy path decided ${lazy} of ${rows} rows`);
});
