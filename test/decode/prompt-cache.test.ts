import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDecoder, DECODE_MODES, type DecodeMode } from '../../main/decode/index.ts';
import { PromptCache, sharedPrefix } from '../../main/decode/prompt-cache.ts';
import { KVCache } from '../../main/models/model.ts';
import { loadModel } from '../../main/models/checkpoint.ts';
import { resourcePath } from '../../main/paths.ts';
import { COPY_VARIANTS, randomIds, tinyModel } from '../models/tiny.ts';

test('sharedPrefix counts the tokens two sequences start with', () => {
  assert.equal(sharedPrefix([1, 2, 3], [1, 2, 4]), 2);
  assert.equal(sharedPrefix([1, 2], [1, 2, 3]), 2);
  assert.equal(sharedPrefix([], [1]), 0);
  assert.equal(sharedPrefix([5], [1]), 0);
});

test('the prompt cache hands out the entry sharing most, rolled back to the shared part, and evicts the oldest', async () => {
  const model = await tinyModel();
  const pc = new PromptCache(2);
  const fill = (ids: number[]) => {
    const c = new KVCache(1);
    model.forward([ids], c, true);
    return c;
  };
  const a = [1, 2, 3, 4, 5, 6];
  const b = [1, 2, 9, 9];
  pc.put(fill(a), a);
  pc.put(fill(b), b);
  const hit = pc.take([1, 2, 3, 4, 7, 7, 7]);
  assert.equal(hit.reused, 4, 'a shares four tokens, b two');
  assert.equal(hit.cache.length, 4);
  assert.deepEqual(hit.cache.ids[0], [1, 2, 3, 4]);
  // Taken out: a second caller cannot get the same cache while the first uses it.
  const second = pc.take([1, 2, 3, 4]);
  assert.equal(second.reused, 2);
  const none = pc.take([8, 8]);
  assert.equal(none.reused, 0, 'nothing shares a token: a fresh cache');
  assert.equal(none.cache.length, 0);
  for (const t of [hit, second, none]) t.cache.dispose();
  assert.deepEqual(pc.stats, { lookups: 3, hits: 2, promptTokens: 13, reusedTokens: 6 });

  // Capacity 2: a third entry pushes out the oldest.
  const c = [3, 3, 3];
  pc.put(fill(a), a);
  pc.put(fill(b), b);
  pc.put(fill(c), c);
  const afterEviction = pc.take([1, 2, 3, 4]);
  assert.equal(afterEviction.reused, 2, 'a was evicted, b remains');
  afterEviction.cache.dispose();
  // A cache whose positions are not the prompt it is filed under is dropped, not trusted.
  const wrong = fill([4, 4, 4]);
  pc.put(wrong, [1, 2, 3]);
  assert.equal(wrong.length, 0, 'disposed');
  assert.equal(pc.take([1, 2, 3]).reused, 0);
  // A one-token prompt leaves an empty prefix: freed, not kept where it would push out a useful entry.
  pc.clear();
  pc.put(fill(b), b);
  const empty = new KVCache(1);
  pc.put(empty, []);
  pc.put(new KVCache(1), []);
  assert.equal(pc.take([1, 2]).reused, 2, 'b is still kept after two empty prefixes in a cache of 2');
  pc.clear();
  model.dispose();
});

/** Prompts as a policy's steps make them: a fixed head, a page that stays or changes, a growing history. */
function stepPrompts(vocab: number, seed: number, len: number): number[][] {
  const head = randomIds(Math.floor(len / 3), vocab, seed);
  const page1 = randomIds(Math.floor(len / 3), vocab, seed + 1);
  const page2 = randomIds(Math.floor(len / 3), vocab, seed + 2);
  const hist = randomIds(8, vocab, seed + 3);
  return [
    [...head, ...page1, ...hist.slice(0, 2)],
    [...head, ...page1, ...hist.slice(0, 4)], // same page, one more action
    [...head, ...page2, ...hist.slice(0, 6)], // a new page
    [...head, ...page2, ...hist.slice(0, 6)], // the same prompt again: everything but the last token reused
    [...head.slice(0, 3)], // shorter than what is cached
  ];
}

test('every decoder writes the same tokens with the prompt cache as without, on tiny models with and without the copy pointer', async () => {
  for (const variant of COPY_VARIANTS) {
    const model = await tinyModel(variant);
    const loaded = { model, sat: { mode: 'distinct' as const, k: 4 } };
    for (const mode of DECODE_MODES as readonly DecodeMode[]) {
      const decoder = createDecoder(loaded, mode, 3);
      const pc = new PromptCache(2);
      let reused = 0;
      for (const [i, prompt] of stepPrompts(61, 11, 36).entries()) {
        const plain = await decoder.generate(prompt, { maxNew: 20 });
        const cached = await decoder.generate(prompt, { maxNew: 20, promptCache: pc });
        assert.deepEqual(cached.tokens, plain.tokens, `${mode} ${JSON.stringify(variant)} prompt ${i}`);
        reused += cached.stats.reusedPromptTokens;
      }
      assert.ok(reused > 0, `${mode}: the cache was used`);
      pc.clear();
    }
    model.dispose();
  }
});

test('nucleus sampling with the prompt cache draws the same tokens for the same seed', async () => {
  const model = await tinyModel({ copy: true, copyNext: true });
  const decoder = createDecoder({ model, sat: { mode: 'distinct', k: 4 } }, 'sdsat', 3);
  const pc = new PromptCache();
  for (const prompt of stepPrompts(61, 5, 30)) {
    const sampling = { kind: 'nucleus' as const, topP: 0.9, temperature: 1 };
    const plain = await decoder.generate(prompt, { maxNew: 16, sampling, seed: 3 });
    const cached = await decoder.generate(prompt, { maxNew: 16, sampling, seed: 3, promptCache: pc });
    assert.deepEqual(cached.tokens, plain.tokens);
  }
  pc.clear();
  model.dispose();
});

test('on the shipped policy, a cached prefill gives the logits a fresh one does, and the policy decoders agree', async () => {
  const { model, tokenizer } = loadModel(resourcePath('models', 'web-policy'));
  const task = 'Task: Find the cheapest hotel in Lisbon for two nights and book it\nPage: /search | Hotels\n';
  const page = '[3] textbox "Where to" value "Lisbon"\n[4] button "Search"\n[7] link "Hotel Sol" $120\n[8] link "Casa Azul" $95\n';
  const prompts = [
    `${task}${page}History: none\nNext:\n`,
    `${task}${page}History: fill('3', 'Lisbon')\nNext:\n`,
    `${task}[9] heading "Casa Azul"\n[10] button "Book"\nHistory: fill('3', 'Lisbon') ; click('8')\nNext:\n`,
  ].map((t) => tokenizer.encode(t));

  // Logits after a cached prefix against logits after a fresh prefill of the same prompt.
  const fresh = new KVCache(1);
  const full = model.forward([prompts[1]], fresh, true).logits;
  const pc = new PromptCache();
  const first = new KVCache(1);
  model.forward([prompts[0].slice(0, -1)], first, true);
  pc.put(first, prompts[0].slice(0, -1));
  const { cache, reused } = pc.take(prompts[1]);
  assert.ok(reused > 40, `the task line and the page are shared (${reused} tokens)`);
  const viaCache = model.forward([prompts[1].slice(reused)], cache, true).logits;
  let maxDiff = 0;
  for (let i = 0; i < full.length; i++) maxDiff = Math.max(maxDiff, Math.abs(full[i] - viaCache[i]));
  assert.ok(maxDiff < 1e-3, `max logit difference ${maxDiff}`);
  fresh.dispose();
  cache.dispose();

  for (const mode of ['ar', 'lookup', 'lookup-tree'] as const) {
    const decoder = createDecoder({ model, sat: null }, mode, 4);
    const steps = new PromptCache();
    for (const prompt of prompts) {
      const plain = await decoder.generate(prompt, { maxNew: 24 });
      const cached = await decoder.generate(prompt, { maxNew: 24, promptCache: steps });
      assert.deepEqual(cached.tokens, plain.tokens, mode);
    }
    assert.ok(steps.stats.reusedTokens > 0);
    steps.clear();
  }
  pc.clear();
  model.dispose();
});
