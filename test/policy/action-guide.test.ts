/**
 * Guided decoding of the policy's action: the guide's rules on a real tokenizer, and the guide in
 * the real decoders on the shipped SAT-tuned model (which never saw a web action): every output is
 * a thought line and an action on an id from the prompt, and SDSAT greedy still equals AR greedy.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ActionGuide, promptElementIds } from '../../main/policy/action-guide.ts';
import { trainTokenizer, END_OF_TEXT } from '../../main/models/tokenizer.ts';
import { loadModel } from '../../main/models/checkpoint.ts';
import { resourcePath } from '../../main/paths.ts';
import { AutoregressiveDecoder, SdsatDecoder, SdsatOnePassDecoder } from '../../main/decode/index.ts';
import { parseAction } from '../../main/environment/actions.ts';

const PROMPT = 'Task: Add the Terra Jacket to the cart.\nPage: /p/7 | Shop\n[12] button "Add to cart"\n[7] link "Home"\nSome text\n[48] combobox "Size"\nHistory: none\nNext:\n';

test('the element ids a prompt shows are its element lines\' ids', () => {
  assert.deepEqual(promptElementIds(PROMPT), ['12', '7', '48']);
});

test('the guide: no end before an action, known action names, element actions on shown ids only, free text after the id', () => {
  const tok = trainTokenizer([PROMPT, "Add it.\nclick('12')", "Pick.\nfill('48', 'XL')", "send_msg_to_user('done')"], 400);
  const eot = tok.specialId(END_OF_TEXT);
  const guide = new ActionGuide(tok, ['12', '7', '48'], eot, false);
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
  allows("Pick.\nfill('48', '", 'X');
  allows("Pick.\nfill('48', 'X", 'L');
  allows("Done.\nsend_msg_to_user('", 'd');

  // A policy trained on actions only starts in the action.
  const actionOnly = new ActionGuide(tok, ['12'], eot, true);
  const m = actionOnly.allowed(tok.encode(''))!;
  assert.equal(m[tok.encode('c')[0]], 1);
  assert.equal(m[tok.encode('A')[0]], 0);
  assert.equal(m[eot], 0);
});

test('guided decoding on the shipped model: an action on a shown id, and SDSAT greedy equals AR greedy under the guide', async () => {
  const { model, tokenizer, sat } = loadModel(resourcePath('models', 'sdsat-ts'));
  assert.ok(sat);
  const eot = tokenizer.specialId(END_OF_TEXT);
  const ids = promptElementIds(PROMPT);
  const ar = new AutoregressiveDecoder(model);
  const decoders = [new SdsatDecoder(model, sat, sat.k), new SdsatOnePassDecoder(model, sat, sat.k)];
  for (const [i, thought] of ['', 'The cart button', 'Open '].entries()) {
    const prompt = tokenizer.encode(PROMPT + thought);
    const opts = { maxNew: 48, stopTokens: [eot] };
    const guided = (inAction: boolean) => ({ ...opts, constraint: new ActionGuide(tokenizer, ids, eot, inAction) });
    const a = await ar.generate(prompt, guided(i === 0));
    const text = tokenizer.decode(a.tokens.filter((t) => t !== eot));
    const action = i === 0 ? text : text.slice(text.indexOf('\n') + 1);
    if (a.stoppedBy === 'stopToken') {
      const parsed = parseAction(action) as { id?: string };
      if (parsed.id !== undefined) assert.ok(ids.includes(parsed.id), `${parsed.id} is on the page`);
    } else {
      assert.match(action, /^(|[a-z_]+(\(.*)?)$/s, `an unfinished output is an action's beginning: ${JSON.stringify(text)}`);
    }
    for (const sd of decoders) assert.deepEqual((await sd.generate(prompt, guided(i === 0))).tokens, a.tokens, `${sd.mode}, prompt ${i}`);
  }
  model.dispose();
});
