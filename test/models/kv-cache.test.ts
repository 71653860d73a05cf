import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '@tensorflow/tfjs';
import { KVCache, MASKED } from '../../main/models/model.ts';
import { randomIds, tinyModel } from './tiny.ts';

function maxDiff(a: Float32Array, b: Float32Array): number {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/** Logits of a whole sequence, recomputed from scratch by the training forward pass. */
function fullLogits(model: Awaited<ReturnType<typeof tinyModel>>, ids: number[]): Float32Array {
  const T = ids.length;
  const bias = new Float32Array(T * T);
  for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) bias[i * T + j] = MASKED;
  return tf.tidy(() => model.forwardTrain(tf.tensor1d(ids, 'int32'), tf.range(0, T, 1, 'int32') as tf.Tensor1D,
    tf.tensor4d(bias, [1, 1, T, T]), 1, T).dataSync() as Float32Array);
}

test('decoding with the KV cache equals full recomputation', async () => {
  const model = await tinyModel();
  const V = model.config.vocabSize;
  const ids = randomIds(40, V, 11);
  const full = fullLogits(model, ids);
  // Token by token, then in uneven chunks: every row must match the full pass.
  for (const chunks of [Array(40).fill(1), [7, 1, 12, 3, 17]]) {
    const cache = new KVCache(1);
    let at = 0;
    for (const n of chunks) {
      const out = model.forward([ids.slice(at, at + n)], cache);
      assert.ok(maxDiff(out.logits, full.subarray(at * V, (at + n) * V)) < 1e-4, `chunk at ${at}`);
      at += n;
    }
    assert.equal(cache.length, 40);
    cache.dispose();
  }
  model.dispose();
});

test('cache rollback to any length behaves as if the dropped tokens were never seen', async () => {
  const model = await tinyModel();
  const V = model.config.vocabSize;
  const a = randomIds(30, V, 1);
  const b = randomIds(10, V, 2);
  const cache = new KVCache(1);
  model.forward([a], cache);
  for (const n of [29, 17, 5, 0]) {
    cache.rollback(n);
    assert.equal(cache.length, n);
    const out = model.forward([b], cache);
    const fresh = new KVCache(1);
    const ref = model.forward([[...a.slice(0, n), ...b]], fresh);
    assert.ok(maxDiff(out.logits, ref.logits.subarray(n * V)) < 1e-4, `rollback to ${n}`);
    fresh.dispose();
    cache.rollback(n);
  }
  assert.throws(() => cache.rollback(5));
  cache.dispose();
  model.dispose();
});

test('batched forward equals per-sequence forward', async () => {
  const model = await tinyModel();
  const V = model.config.vocabSize;
  const rows = [randomIds(9, V, 3), randomIds(9, V, 4), randomIds(9, V, 5)];
  const batched = new KVCache(3);
  model.forward(rows.map((r) => r.slice(0, 5)), batched);
  const out = model.forward(rows.map((r) => r.slice(5)), batched);
  rows.forEach((r, i) => {
    const c = new KVCache(1);
    const one = model.forward([r], c);
    assert.ok(maxDiff(out.logits.subarray(i * 4 * V, (i + 1) * 4 * V), one.logits.subarray(5 * V)) < 1e-4);
    c.dispose();
  });
  batched.dispose();
  model.dispose();
});
