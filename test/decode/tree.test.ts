import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AutoregressiveDecoder, LookupDecoder, SdsatDecoder, createDecoder } from '../../main/decode/index.ts';
import { lookupContinuations } from '../../main/decode/lookup.ts';
import { topTokens } from '../../main/decode/sampling.ts';
import { DEFAULT_TREE_WIDTHS } from '../../main/decode/sdsat.ts';
import { branchesOf, productTree, treeLayout, trieOf, verifyTree } from '../../main/decode/tree.ts';
import { DEFAULT_LOOKUP_BRANCHES } from '../../main/decode/index.ts';
import { Chooser } from '../../main/decode/verify.ts';
import { emptyStats } from '../../main/decode/types.ts';
import { KVCache, MASKED } from '../../main/models/model.ts';
import { Rng } from '../../main/common/rng.ts';
import { COPY_VARIANTS, randomIds, tinyModel } from '../models/tiny.ts';

test('a trie of continuations shares prefixes, keeps the first one leading and stops at its node budget', () => {
  const t = trieOf([[5, 6, 7], [5, 6, 9], [8]]);
  assert.deepEqual(t.tokens, [5, 6, 7, 9, 8]);
  assert.deepEqual(t.parent, [-1, 0, 1, 1, -1]);
  assert.deepEqual(t.depth, [0, 1, 2, 2, 0]);
  assert.deepEqual(trieOf([[5, 6, 7], [8, 9]], 4).tokens, [5, 6, 7, 8]);
});

test('a product tree drafts widths[d] candidates under every node of depth d-1, in preorder', () => {
  const t = productTree([[1, 2, 3], [4, 5], [6]], [2, 2, 1]);
  assert.deepEqual(t.tokens, [1, 4, 6, 5, 6, 2, 4, 6, 5, 6]);
  assert.deepEqual(t.depth, [0, 1, 2, 1, 2, 0, 1, 2, 1, 2]);
  assert.deepEqual(t.parent, [-1, 0, 1, 0, 3, -1, 5, 6, 5, 8]);
  assert.deepEqual(topTokens(Float32Array.from([0, 3, 1, 3, 2, -1]), 0, 6, 3), [1, 3, 4]);
});

test("a tree's branches, leading first, rebuild it as a trie; merged with another tree they share prefixes", () => {
  const t = productTree([[1, 2], [4, 5], [6]], [2, 2, 1]);
  assert.deepEqual(branchesOf(t), [[1, 4, 6], [1, 5, 6], [2, 4, 6], [2, 5, 6]]);
  assert.deepEqual(trieOf(branchesOf(t)), t);
  assert.deepEqual(branchesOf(trieOf([[5]])), [[5]]);
  assert.deepEqual(branchesOf(trieOf([])), []);
  // Copied [1, 9] first, then the SAT tree: the copy leads and 1 is one node, not two.
  const merged = trieOf([[1, 9], ...branchesOf(productTree([[1, 2], [4]], [2, 1]))]);
  assert.deepEqual(merged.tokens, [1, 9, 4, 2, 4]);
  assert.deepEqual(merged.parent, [-1, 0, 0, -1, 3]);
});

test('the tree layout lets each row see the cache, the root, its ancestors and itself only', () => {
  const tree = trieOf([[5, 6], [7]]);
  const { pos, bias, prevRow } = treeLayout(2, tree);
  assert.deepEqual(pos, [2, 3, 4, 3]);
  // What a copy pointer's key at each row holds as the token before: the cache's last, else the parent.
  assert.deepEqual(prevRow, [-1, 0, 1, 0]);
  const sees = (r: number) => Array.from(bias.subarray(r * 6, (r + 1) * 6), (b) => (b === MASKED ? 0 : 1));
  assert.deepEqual(sees(0), [1, 1, 1, 0, 0, 0]);
  assert.deepEqual(sees(1), [1, 1, 1, 1, 0, 0]);
  assert.deepEqual(sees(2), [1, 1, 1, 1, 1, 0]);
  assert.deepEqual(sees(3), [1, 1, 1, 0, 0, 1]);
});

test('lookup continuations: different texts that followed the suffix, longest match and latest first', () => {
  // "1 2" was followed by 3 4, then by 7 8, then (latest) by 5 6.
  const seq = [1, 2, 3, 4, 0, 1, 2, 7, 8, 0, 1, 2, 5, 6, 0, 1, 2];
  assert.deepEqual(lookupContinuations(seq, 2, 3), [[5, 6], [7, 8], [3, 4]]);
  assert.deepEqual(lookupContinuations(seq, 2, 2), [[5, 6], [7, 8]]);
  assert.deepEqual(lookupContinuations([1, 2, 3], 2, 3), []);
});

test('verifying a tree whose right branch is not the first keeps exactly the cache AR would have, copy path too', async () => {
  for (const variant of COPY_VARIANTS) {
  const copy = JSON.stringify(variant);
  const model = await tinyModel({ satTokens: 0, ...variant });
  const ar = new AutoregressiveDecoder(model);
  for (let p = 0; p < 4; p++) {
    const prompt = randomIds(10 + p, 61, 40 + p);
    const truth = (await ar.generate(prompt, { maxNew: 4 })).tokens;
    // A wrong first branch, then a branch holding AR's next three tokens (the fourth is the one to come).
    const wrong = [(truth[1] + 1) % 61, truth[2]];
    const tree = trieOf([wrong, truth.slice(1, 4)]);
    const cache = new KVCache(1);
    model.forward([prompt.slice(0, -1)], cache, true);
    model.forward([[prompt.at(-1)!]], cache, true);
    const stats = emptyStats('test', prompt.length);
    const pick = new Chooser({ kind: 'greedy' }, 61, new Rng(0));
    const { accepted, next } = verifyTree(model, cache, truth[0], tree, pick, [], stats);
    assert.deepEqual(accepted, truth.slice(1, 4), `prompt ${p}`);
    // The cache now holds prompt + truth[0..3]: its next prediction is AR's, token for token.
    assert.equal(cache.length, prompt.length + 4);
    const afterTree = model.forward([[next]], cache, true).logits;
    const arCache = new KVCache(1);
    model.forward([[...prompt, ...truth.slice(0, 4)]], arCache, true);
    const afterAr = model.forward([[next]], arCache, true).logits;
    for (let i = 0; i < afterAr.length; i++) assert.ok(Math.abs(afterAr[i] - afterTree[i]) < 1e-4, `copy ${copy} prompt ${p} logit ${i}`);
    cache.dispose();
    arCache.dispose();
  }
  model.dispose();
  }
});

test('lookup-tree, sdsat-tree and merged-tree greedy equal AR greedy, with and without the copy path, to the end of the context', async () => {
  for (const variant of COPY_VARIANTS) {
    const copy = JSON.stringify(variant);
    const model = await tinyModel(variant);
    const ar = new AutoregressiveDecoder(model);
    let accepted = 0;
    for (const k of [1, 2, 4]) {
      const decoders = [
        new LookupDecoder(model, k, 3), new SdsatDecoder(model, { mode: 'distinct', k: 4 }, k, DEFAULT_TREE_WIDTHS), new SdsatDecoder(model, { mode: 'shared', k: 4 }, k, [2, 2]),
        new SdsatDecoder(model, { mode: 'distinct', k: 4 }, k, DEFAULT_TREE_WIDTHS, 2),
      ];
      for (const d of decoders) {
        for (let p = 0; p < 4; p++) {
          // Prompts whose pieces repeat with different continuations, so lookup-tree has branches.
          const unit = randomIds(3 + p, 61, 10 * k + p);
          const prompt = [...unit, ...randomIds(3, 61, p), ...unit, ...randomIds(2, 61, 50 + p), ...unit.slice(0, 2)];
          const a = await ar.generate(prompt, { maxNew: 30 });
          const b = await d.generate(prompt, { maxNew: 30 });
          assert.deepEqual(b.tokens, a.tokens, `${d.mode} copy ${copy} k ${k} prompt ${p}`);
          assert.equal(b.stats.acceptedPerPosition.reduce((x, y) => x + y, 0), b.stats.accepted);
          accepted += b.stats.accepted;
        }
      }
    }
    assert.ok(accepted > 0, 'some drafts accepted');
    const prompt = randomIds(20, 61, 5);
    const a = await ar.generate(prompt, { maxNew: 1000 });
    const stop = a.tokens[10];
    for (const d of [new LookupDecoder(model, 4, 3), new SdsatDecoder(model, { mode: 'distinct', k: 4 }, 4, DEFAULT_TREE_WIDTHS), new SdsatDecoder(model, { mode: 'distinct', k: 4 }, 4, DEFAULT_TREE_WIDTHS, 2)]) {
      assert.deepEqual((await d.generate(prompt, { maxNew: 1000 })).tokens, a.tokens, d.mode);
      assert.deepEqual((await d.generate(prompt, { maxNew: 1000, stopTokens: [stop] })).tokens, (await ar.generate(prompt, { maxNew: 1000, stopTokens: [stop] })).tokens, d.mode);
    }
    model.dispose();
  }
});

test('tree modes by name; nucleus sampling through a tree keeps the first token distribution', async () => {
  const model = await tinyModel();
  assert.equal(createDecoder({ model, sat: null }, 'lookup-tree', 3).mode, 'lookup-tree');
  assert.equal(createDecoder({ model, sat: { mode: 'distinct', k: 4 } }, 'sdsat-tree').mode, 'sdsat-tree');
  assert.throws(() => createDecoder({ model, sat: null }, 'sdsat-tree'), /no SAT tokens/);
  const merged = createDecoder({ model, sat: { mode: 'distinct', k: 4 } }, 'merged-tree') as SdsatDecoder;
  assert.deepEqual([merged.mode, merged.copyBranches, merged.widths], ['merged-tree', DEFAULT_LOOKUP_BRANCHES, DEFAULT_TREE_WIDTHS]);
  assert.throws(() => new SdsatDecoder(model, { mode: 'distinct', k: 4 }, 4, undefined, 2), /give tree widths/);
  // The prompt ends in "11 12", seen before followed by 40 and by 41: every first loop drafts both.
  const prompt = [11, 12, 40, 7, 11, 12, 41, 9, 11, 12];
  const sampling = { kind: 'nucleus', topP: 1, temperature: 1.5 } as const;
  const ar = new AutoregressiveDecoder(model);
  const tree = new LookupDecoder(model, 2, 3);
  const n = 1500;
  const counts = async (d: AutoregressiveDecoder | LookupDecoder, seed0: number) => {
    const m = new Map<number, number>();
    for (let s = 0; s < n; s++) {
      const t = (await d.generate(prompt, { maxNew: 2, sampling, seed: seed0 + s })).tokens.join();
      m.set(t as unknown as number, (m.get(t as unknown as number) ?? 0) + 1);
    }
    return m;
  };
  const [pa, pb] = [await counts(ar, 1), await counts(tree, 100_000)];
  // Compare the first token's distribution (the pair's has too many outcomes for 1,500 samples).
  const first = (m: Map<number, number>) => [...m].reduce((f, [k, c]) => f.set(String(k).split(',')[0], (f.get(String(k).split(',')[0]) ?? 0) + c), new Map<string, number>());
  const [fa, fb] = [first(pa), first(pb)];
  let tv = 0;
  for (const t of new Set([...fa.keys(), ...fb.keys()])) tv += Math.abs((fa.get(t) ?? 0) - (fb.get(t) ?? 0)) / n / 2;
  assert.ok(tv < 0.1, `total variation between AR and lookup-tree first tokens ${tv.toFixed(3)}`);
  model.dispose();
});
