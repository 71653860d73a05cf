import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AutoregressiveDecoder, LookupDecoder, createDecoder, summarize } from '../../main/decode/index.ts';
import { lookupDrafts } from '../../main/decode/lookup.ts';
import { randomIds, tinyModel } from '../models/tiny.ts';

test('lookup drafts: what followed the latest earlier occurrence of the last 3, else 2 tokens', () => {
  // ... 1 2 3 [9 8] ... 1 2 3 [7 6 5] ... 1 2 3  -> the latest match of "1 2 3" is followed by 7 6 5
  assert.deepEqual(lookupDrafts([1, 2, 3, 9, 8, 0, 1, 2, 3, 7, 6, 5, 4, 1, 2, 3], 3), [7, 6, 5]);
  // A 3-token match wins over a later 2-token one.
  assert.deepEqual(lookupDrafts([5, 2, 3, 4, 4, 9, 2, 3, 8, 5, 2, 3], 2), [4, 4]);
  // Only a 2-token match: used; at most k tokens, and never past the end of the sequence.
  assert.deepEqual(lookupDrafts([4, 7, 1, 2, 9, 7, 1], 4), [2, 9, 7, 1]);
  assert.deepEqual(lookupDrafts([7, 1, 7, 1], 4), [7, 1]);
  // One token alone does not draft; nothing repeated: no drafts.
  assert.deepEqual(lookupDrafts([3, 9, 4, 3], 4), []);
  assert.deepEqual(lookupDrafts([1, 2, 3, 4], 4), []);
  assert.deepEqual(lookupDrafts([1], 4), []);
});

test('lookup greedy equals AR greedy on a tiny random model, with drafts tried and accepted', async () => {
  const model = await tinyModel();
  const ar = new AutoregressiveDecoder(model);
  let drafted = 0;
  let accepted = 0;
  for (const k of [1, 2, 4, 6]) {
    const lookup = new LookupDecoder(model, k);
    for (let p = 0; p < 6; p++) {
      // Prompts that repeat themselves, as a policy's thought repeats a line of its page.
      const unit = randomIds(3 + p, 61, 10 * k + p);
      const prompt = [...unit, ...randomIds(4, 61, p), ...unit, ...unit.slice(0, 2)];
      const a = await ar.generate(prompt, { maxNew: 30 });
      const b = await lookup.generate(prompt, { maxNew: 30 });
      assert.deepEqual(b.tokens, a.tokens, `k ${k} prompt ${p}`);
      drafted += b.stats.drafted;
      accepted += b.stats.accepted;
      assert.equal(b.stats.acceptedPerPosition.reduce((x, y) => x + y, 0), b.stats.accepted);
      assert.ok(b.stats.forwardPasses <= a.stats.forwardPasses);
    }
  }
  assert.ok(drafted > 0 && accepted > 0, `drafted ${drafted}, accepted ${accepted}`);
  // Up to the end of the context, and with a stop token, like AR.
  const prompt = randomIds(20, 61, 5);
  const a = await ar.generate(prompt, { maxNew: 1000 });
  const b = await new LookupDecoder(model, 4).generate(prompt, { maxNew: 1000 });
  assert.equal(a.stoppedBy, 'context');
  assert.deepEqual(b.tokens, a.tokens);
  const stop = a.tokens[10];
  assert.deepEqual((await new LookupDecoder(model, 4).generate(prompt, { maxNew: 1000, stopTokens: [stop] })).tokens, (await ar.generate(prompt, { maxNew: 1000, stopTokens: [stop] })).tokens);
  model.dispose();
});

test('lookup needs no SAT tokens, and its mean acceptance length is reported', async () => {
  const model = await tinyModel({ satTokens: 0 });
  const decoder = createDecoder({ model, sat: null }, 'lookup', 3);
  assert.equal(decoder.mode, 'lookup');
  const r = await decoder.generate([1, 2, 3, 4, 1, 2, 3, 4, 1, 2], { maxNew: 12 });
  assert.equal(r.tokens.length, 12);
  const s = summarize(r.stats);
  assert.ok(r.stats.drafted > 0 && s.meanAcceptanceLength !== null && s.meanAcceptanceLength >= 1);
  model.dispose();
});

test('lookup nucleus sampling keeps the model distribution: a copied draft is accepted only as often as the model would pick it', async () => {
  const model = await tinyModel();
  // The prompt ends in "x y" seen before, followed by c: every first loop drafts c.
  const prompt = [11, 12, 40, 7, 11, 12];
  const sampling = { kind: 'nucleus', topP: 1, temperature: 1.5 } as const;
  const ar = new AutoregressiveDecoder(model);
  const lookup = new LookupDecoder(model, 2);
  const n = 1500;
  const counts = (xs: number[]) => xs.reduce((m, t) => m.set(t, (m.get(t) ?? 0) + 1), new Map<number, number>());
  const first = async (d: AutoregressiveDecoder | LookupDecoder, seed0: number) => {
    const out: number[] = [];
    for (let s = 0; s < n; s++) out.push((await d.generate(prompt, { maxNew: 1, sampling, seed: seed0 + s })).tokens[0]);
    return counts(out);
  };
  const [pa, pb] = [await first(ar, 1), await first(lookup, 100_000)];
  let tv = 0;
  for (const t of new Set([...pa.keys(), ...pb.keys()])) tv += Math.abs((pa.get(t) ?? 0) - (pb.get(t) ?? 0)) / n / 2;
  // The draft token's share under AR, and under a rule that always took the draft it would be 1.
  const draftShare = (pa.get(40) ?? 0) / n;
  assert.ok(draftShare < 0.5, `the draft is the model's likely choice (${draftShare}); the test needs a less likely one`);
  assert.ok(tv < 0.1, `total variation between AR and lookup first tokens ${tv.toFixed(3)}`);
  model.dispose();
});

test('output history: continuations of the longest matching suffix from the most recent output first, none repeated or excluded, each entry led by its prompt\'s last tokens', async () => {
  const { OutputHistory } = await import('../../main/decode/output-history.ts');
  const h = new OutputHistory(2);
  h.add([90, 91, 92, 93], [1, 2, 3, 4, 5]);
  h.add([80, 92, 93], [1, 2, 7, 8]);
  // "1 2" after the prompt's tail: the newer output's continuation first.
  assert.deepEqual(h.continuations([50, 1, 2], 3, 2), [[7, 8], [3, 4, 5]]);
  // The longest suffix wins: "9 1 2" matches nowhere, "1 2" does; "92 93" leads both entries.
  assert.deepEqual(h.continuations([92, 93], 2, 1), [[1, 2]]);
  assert.deepEqual(h.continuations([50, 1, 2], 3, 2, [[7, 8]]), [[3, 4, 5]], 'an excluded continuation is skipped');
  assert.deepEqual(h.continuations([50, 60], 3, 2), [], 'a suffix found nowhere');
  assert.deepEqual(h.continuations([5, 7], 3, 2), [], 'one token alone is no match at the default floor');
  h.add([1], [6, 6, 6]);
  assert.equal(h.size, 2, 'the oldest output leaves');
  assert.deepEqual(h.continuations([50, 3, 4], 2, 1), [], 'the oldest output is gone');
  assert.throws(() => new OutputHistory(0), /capacity/);
});

test('lookup-tree with an output history: drafts where the prompt holds no continuation, greedy output stays AR\'s, and each output joins the history', async () => {
  const { OutputHistory } = await import('../../main/decode/output-history.ts');
  const { draftsFor } = await import('../../main/decode/lookup.ts');
  const history = new OutputHistory(4);
  history.add([7, 8, 9], [20, 21, 22, 23]);
  assert.deepEqual(draftsFor([1, 2, 8, 9], 3, 2, history), [[20, 21, 22]], 'the prompt holds no continuation of "8 9": the history drafts one');
  assert.deepEqual(draftsFor([8, 9, 5, 8, 9], 3, 2, history), [[5, 8, 9]], 'the prompt holds one: no history draft beside it');
  const model = await tinyModel();
  const ar = new AutoregressiveDecoder(model);
  const tree = new LookupDecoder(model, 4, 2);
  const outputs = new OutputHistory();
  let drafted = 0;
  for (let p = 0; p < 6; p++) {
    // Prompts of one kind that share no text with their outputs: only earlier outputs can draft.
    const prompt = [...randomIds(6, 61, 100 + p), 3, 4, 5];
    const a = await ar.generate(prompt, { maxNew: 16 });
    const b = await tree.generate(prompt, { maxNew: 16, outputHistory: outputs });
    assert.deepEqual(b.tokens, a.tokens, `prompt ${p}`);
    assert.equal(outputs.size, p + 1);
    if (p > 0) drafted += b.stats.drafted;
  }
  assert.ok(drafted > 0, 'later prompts drafted from earlier outputs');
  model.dispose();
});
