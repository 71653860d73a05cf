import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { AutoregressiveDecoder, SdsatDecoder, SdsatOnePassDecoder } from '../../main/decode/index.ts';
import { loadModel, saveModel } from '../../main/models/checkpoint.ts';
import { KVCache, MASKED, type ModelConfig, type TransformerLM } from '../../main/models/model.ts';
import { Rng } from '../../main/common/rng.ts';
import { trainTokenizer } from '../../main/models/tokenizer.ts';
import { AdamW, batchLosses } from '../../main/models/train.ts';
import { sftBatch } from '../../main/policy/sft.ts';
import { COPY_VARIANTS, randomIds, tinyModel } from './tiny.ts';

function causal(T: number): tf.Tensor4D {
  const bias = new Float32Array(T * T);
  for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) bias[i * T + j] = MASKED;
  return tf.tensor4d(bias, [1, 1, T, T]);
}

function trainLogits(model: TransformerLM, ids: number[]): Float32Array {
  const T = ids.length;
  return tf.tidy(() => model.forwardTrain(tf.tensor1d(ids, 'int32'), tf.range(0, T, 1, 'int32') as tf.Tensor1D, causal(T), 1, T).dataSync() as Float32Array);
}

for (const variant of COPY_VARIANTS.filter((v) => v.copy)) test(`a copying model${variant.copyNext ? ' with the continuation bonus' : ''} outputs one distribution per row, the same from the training pass, the label pass and the KV cache`, async () => {
  const model = await tinyModel(variant);
  const V = model.config.vocabSize;
  const ids = randomIds(40, V, 3);
  const full = trainLogits(model, ids);
  for (let r = 0; r < 40; r++) {
    let sum = 0;
    for (let v = 0; v < V; v++) sum += Math.exp(full[r * V + v]);
    assert.ok(Math.abs(sum - 1) < 1e-4, `row ${r} sums to ${sum}`);
  }
  const labels = [...ids.slice(1), 0];
  const lp = tf.tidy(() => model.labelLogProbs(tf.tensor1d(ids, 'int32'), tf.range(0, 40, 1, 'int32') as tf.Tensor1D, causal(40), 1, 40, tf.tensor1d(labels, 'int32')).dataSync());
  for (let r = 0; r < 40; r++) assert.ok(Math.abs(lp[r] - full[r * V + labels[r]]) < 1e-4, `label log-prob of row ${r}`);
  for (const chunks of [Array(40).fill(1), [7, 1, 12, 3, 17]]) {
    const cache = new KVCache(1);
    let at = 0;
    for (const n of chunks) {
      const out = model.forward([ids.slice(at, at + n)], cache);
      for (let i = 0; i < out.logits.length; i++) assert.ok(Math.abs(out.logits[i] - full[at * V + i]) < 1e-4, `chunk at ${at}, value ${i}`);
      at += n;
    }
    cache.rollback(25);
    const again = model.forward([ids.slice(25, 30)], cache);
    for (let i = 0; i < again.logits.length; i++) assert.ok(Math.abs(again.logits[i] - full[25 * V + i]) < 1e-4, 'after rollback');
    cache.dispose();
  }
  model.dispose();
});

test('the copy path puts probability on tokens of the context: a token never seen gets only the vocabulary share', async () => {
  const model = await tinyModel({ copy: true });
  const V = model.config.vocabSize;
  const ids = [5, 9, 5, 9, 5, 9, 5];
  const noCopy = await tinyModel();
  const a = trainLogits(model, ids);
  const b = trainLogits(noCopy, ids);
  // The gate mixes: seen tokens (5, 9) gain against unseen ones compared with the vocabulary alone.
  const last = ids.length - 1;
  const gain = (tok: number) => a[last * V + tok] - b[last * V + tok];
  assert.ok(gain(5) > gain(17) && gain(9) > gain(17), `seen ${gain(5)}, ${gain(9)}; unseen ${gain(17)}`);
  model.dispose();
  noCopy.dispose();
});

for (const variant of COPY_VARIANTS.filter((v) => v.copy)) test(`SDSAT greedy equals AR greedy on a copying model${variant.copyNext ? ' with the continuation bonus' : ''} (two-pass and one-pass, k = 1..4)`, async () => {
  const model = await tinyModel(variant);
  const ar = new AutoregressiveDecoder(model);
  for (let k = 1; k <= 4; k++) {
    for (const sd of [new SdsatDecoder(model, { mode: 'distinct', k: 4 }, k), new SdsatOnePassDecoder(model, { mode: 'distinct', k: 4 }, k)]) {
      for (let p = 0; p < 3; p++) {
        const prompt = randomIds(4 + p * 6, 61, 300 * k + p);
        const a = await ar.generate(prompt, { maxNew: 25 });
        const b = await sd.generate(prompt, { maxNew: 25 });
        assert.deepEqual(b.tokens, a.tokens, `${sd.mode} k ${k} prompt ${p}`);
      }
    }
  }
  model.dispose();
});

test('a copying model saves and loads (with or without the continuation bonus); a model without the copy path loads without it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'copy-ckpt-'));
  try {
    const tokenizer = trainTokenizer(['abc abc abd'], 260);
    for (const variant of COPY_VARIANTS) {
      const model = await tinyModel({ ...variant, vocabSize: tokenizer.vocabSize, satTokens: 0 });
      const name = JSON.stringify(variant).replace(/\W/g, '');
      await saveModel(join(dir, name), { model, tokenizer, sat: null });
      const loaded = loadModel(join(dir, name));
      assert.equal(Boolean(loaded.model.config.copy), Boolean(variant.copy));
      assert.equal(Boolean(loaded.model.config.copyNext), Boolean(variant.copyNext));
      assert.equal(loaded.model.parameterCount, model.parameterCount);
      const ids = [1, 2, 3, 1, 2];
      assert.deepEqual(trainLogits(loaded.model, ids), trainLogits(model, ids));
      model.dispose();
      loaded.model.dispose();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * Sequences "noise of random length, BOS, random tokens, SEP, the same tokens again": the second half
 * is pure copying from a position that moves, which a one-layer model cannot find by position.
 */
function copySamples(n: number, rng: Rng) {
  return Array.from({ length: n }, () => {
    const noise = Array.from({ length: rng.below(7) }, () => 1 + rng.below(56));
    const half = Array.from({ length: 8 }, () => 1 + rng.below(56));
    const ids = [...noise, 58, ...half, 59, ...half];
    const sep = noise.length + 9;
    return { ids, mask: ids.map((_, i) => (i > sep ? 1 : 0)), promptLength: sep + 1 };
  });
}

/** Validation loss on copySamples of a one-layer tiny model trained `steps` steps on them. */
async function copyTaskLoss(config: Partial<ModelConfig>, steps: number): Promise<number> {
  const model = await tinyModel({ ...config, initStd: 0.02, nLayer: 1 });
  const opt = new AdamW(model, 0);
  const rng = new Rng(1);
  for (let step = 0; step < steps; step++) opt.step(sftBatch(copySamples(16, rng)), 1e-2, 1, 0);
  const val = sftBatch(copySamples(32, new Rng(99)));
  const loss = tf.tidy(() => batchLosses(model, val).std.dataSync()[0]);
  opt.dispose();
  model.dispose();
  return loss;
}

test('with the copy path a tiny model learns to copy unseen sequences far sooner than without it', async () => {
  const losses: Record<string, number> = {};
  for (const copy of [true, false]) losses[String(copy)] = await copyTaskLoss({ copy }, 120);
  // Chance is ln 56 = 4.03 nats per copied token.
  assert.ok(losses.true < 0.2, `copy: ${losses.true}`);
  assert.ok(losses.false > 4 * losses.true, `without copy ${losses.false}, with ${losses.true}`);
});

test('adding the continuation bonus to a trained copying model changes nothing until it is trained', async () => {
  const model = await tinyModel({ copy: true });
  const ids = randomIds(30, 61, 11);
  const before = trainLogits(model, ids);
  const next = model.withCopyNext();
  assert.equal(next.config.copyNext, true);
  assert.equal(next.parameterCount, model.parameterCount + model.config.dModel + 1);
  assert.deepEqual(trainLogits(next, ids), before);
  // A bonus now moves the pointer toward continuations: the logits change.
  next.p('copy.bnext').assign(tf.tensor1d([3]));
  assert.notDeepEqual(trainLogits(next, ids), before);
  await assert.rejects(async () => (await tinyModel()).withCopyNext(), /no(ne)? .*copy|copy path/);
  next.dispose();
});

test('the continuation bonus makes a tiny model copy a span after its first token at once, where the pointer alone is still learning', async () => {
  // The same copying task, 40 steps only: the bonus is one learned number per position away from
  // "after 17 comes what followed 17 before"; the keys' predecessor embedding has to be learned first.
  const losses: Record<string, number> = {};
  for (const copyNext of [true, false]) losses[String(copyNext)] = await copyTaskLoss({ copy: true, copyNext }, 40);
  assert.ok(losses.true < 0.5 * losses.false, `with the bonus ${losses.true}, without ${losses.false}`);
});
