// Native elementwise, reduction, transpose and softmax kernels must equal wasm's results,
// and gradients through a small transformer must match too.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '@tensorflow/tfjs';
import { assertSameAsWasm, needsNative, randomData } from './compare.ts';
import { buildTinyTransformer } from './tiny-transformer.ts';
import { ADAMW_KERNEL, CAUSAL_SOFTMAX_KERNEL, SOFTMAX_GRAD_KERNEL, setNativeRowKernels } from '../../main/models/native-backend.ts';
import { TransformerLM, defaultModelConfig } from '../../main/models/model.ts';

const t = (shape: number[], seed: number, lo = -1, hi = 1) =>
  tf.tensor(randomData(shape.reduce((a, b) => a * b, 1), seed, lo, hi), shape);

describe('native elementwise and reductions', needsNative, () => {
  it('binary ops with broadcasting', async () => {
    const pairs: Array<[number[], number[]]> = [
      [[2, 3], [2, 3]], [[3, 1, 5], [4, 1]], [[], [4, 5]], [[6, 7], []], [[64, 128], [128]],
      [[5, 1], [1, 6]], [[2, 3, 4, 5], [3, 1, 5]], [[1], [7]], [[0, 3], [3]],
    ];
    for (const [sa, sb] of pairs) {
      await assertSameAsWasm(() => {
        const a = t(sa, 1);
        const b = t(sb, 2, 0.5, 2);
        return [a.add(b), a.sub(b), a.mul(b), a.div(b), tf.squaredDifference(a, b)];
      }, `${sa} op ${sb}`);
    }
  });

  it('unary ops', async () => {
    await assertSameAsWasm(() => {
      const x = t([33, 17], 3, -3, 3);
      const p = t([33, 17], 4, 0.1, 4);
      return [tf.relu(x), tf.step(x), tf.step(x, 0.3), tf.exp(x), tf.neg(x), tf.square(x), tf.rsqrt(p), tf.sqrt(p), tf.log(p)];
    }, 'unary');
  });

  it('exp edge values and range (native exp is a polynomial)', async () => {
    const edges = [-1e9, -100, -87.5, -87.3, -50, -1e-3, 0, 1e-3, 1, 50, 88, 88.7, 88.8, 100, Infinity, -Infinity, NaN];
    await assertSameAsWasm(() => [tf.exp(tf.tensor1d(edges)), tf.exp(t([4099], 14, -80, 80))], 'exp', 2e-6, 1e-30);
    await assertSameAsWasm(() => tf.softmax(tf.tensor2d([[0, -1e9, 3, 1e-3, NaN], [5, 5, 5, 5, 5]])), 'softmax edges');
  });

  it('transpose', async () => {
    await assertSameAsWasm(() => [
      t([8, 16, 4, 32], 5).transpose([0, 2, 1, 3]),
      t([3, 5], 6).transpose(),
      t([2, 3, 4], 7).transpose([2, 0, 1]),
      t([1, 5, 1, 3], 8).transpose([3, 2, 1, 0]),
    ], 'transpose');
  });

  it('gather of rows and constant padding (the embedding lookups and the gradient of slice)', async () => {
    await assertSameAsWasm(() => {
      const table = t([11, 6], 19);
      return [
        tf.gather(table, tf.tensor1d([3, 0, 10, 3, 7], 'int32')), tf.gather(table, tf.tensor2d([[1, 2], [9, 9]], [2, 2], 'int32')),
        tf.gather(t([5, 2, 3], 20), tf.tensor1d([4, 1], 'int32')), tf.gather(table, tf.tensor1d([2, 5], 'int32'), 1),
        tf.pad(t([8, 7, 4], 21), [[0, 0], [1, 0], [0, 0]]), tf.pad(t([3, 5], 22), [[2, 1], [0, 3]], 0.5),
        tf.pad(t([2, 1, 3, 2], 23), [[1, 1], [2, 0], [0, 1], [1, 2]]), tf.pad(t([6], 24), [[3, 2]], -1),
      ];
    }, 'gather/pad');
    // The gradient of a slice is a pad (gather's, a segment sum, has no wasm kernel to compare with:
    // test/models/embedding-gradient.test.ts checks it).
    await assertSameAsWasm(() => {
      const x = t([4, 9, 3], 25);
      return tf.grad((v: tf.Tensor) => tf.sum(tf.mul(v.slice([0, 1, 0], [4, 7, 3]), t([4, 7, 3], 26))))(x);
    }, 'gradient of slice');
    // An index out of range keeps the cpu kernel's error.
    await tf.setBackend('native');
    assert.throws(() => tf.gather(t([3, 2], 29), tf.tensor1d([3], 'int32')).dataSync(), /index|range/i);
  });

  it('slice, split and concat (any axis, odd sizes, size-1 dims)', async () => {
    await assertSameAsWasm(() => {
      const x = t([3, 12, 7, 5], 15);
      const [a, b, c] = tf.split(x, 3, 1);
      const [d, e] = tf.split(x, [2, 5], 2);
      return [
        a, b, c, d, e,
        x.slice([1, 2, 3, 1], [2, 5, 4, 3]), x.slice([0, 0, 6, 0], [3, 12, 1, 5]), t([9], 16).slice(4, 3),
        tf.concat([a, c, b], 1), tf.concat([d, e], 2), tf.concat([x, x], 0), tf.concat([t([2, 1], 17), t([2, 4], 18)], -1),
      ];
    }, 'slice/split/concat');
  });

  it('float32 tensors stored over other typed arrays (a cast from bool) and the gradient of minimum/maximum', async () => {
    await assertSameAsWasm(() => {
      const x = t([7], 25, -1, 1);
      const mask = tf.cast(tf.greater(x, tf.scalar(0)), 'float32');
      const g = tf.grad((q: tf.Tensor) => tf.sum(tf.add(tf.minimum(q, tf.scalar(0.2)), tf.maximum(q, tf.scalar(-0.3)))))(x);
      return [tf.mul(mask, x), tf.add(mask, 1), g];
    }, 'cast/minimum grad');
  });

  it('sigmoid and the attention block gradient through split', async () => {
    await assertSameAsWasm(() => {
      const x = t([5, 24], 19, -6, 6);
      const g = tf.grad((q: tf.Tensor) => {
        const [a, b, c] = tf.split(q.reshape([5, 3, 8]), 3, 1);
        return tf.sum(tf.mul(tf.sigmoid(a), tf.concat([b, c], 1).sum(1, true)));
      })(x);
      return [tf.sigmoid(x), g];
    }, 'sigmoid/split grad');
  });

  it('sum / mean / max over contiguous and scattered axes', async () => {
    await assertSameAsWasm(() => {
      const x = t([4, 5, 6], 9);
      return [
        x.sum(-1), x.sum(0), x.sum([1, 2]), x.sum([0, 1], true), x.sum([0, 2]), x.sum(),
        x.mean(-1, true), x.mean(0), x.mean([0, 2]), x.max(-1), x.max(0), x.max([1, 2], true),
      ];
    }, 'reductions');
  });

  it('softmax and its gradient', async () => {
    await assertSameAsWasm(() => [tf.softmax(t([6, 33], 10, -5, 5)), tf.softmax(t([2, 3, 64], 11))], 'softmax');
    await assertSameAsWasm(() => tf.grad((x: tf.Tensor) => tf.softmax(x).mul(t([5, 9], 13)).sum())(t([5, 9], 12)), 'softmax grad');
  });

  it('tiny transformer loss and every gradient equal wasm', async () => {
    const cfg = { vocab: 16, dModel: 16, heads: 2, layers: 1, seq: 8, batch: 2 };
    await assertSameAsWasm(() => {
      const m = buildTinyTransformer(cfg, 7);
      const { x, y } = m.batch(3);
      const { value, grads } = tf.variableGrads(() => m.loss(x, y), m.variables);
      const out = [value, ...m.variables.map((v) => grads[v.name])];
      m.dispose();
      return out;
    }, 'transformer grads', 1e-3, 1e-5);
  });
});

describe('causal softmax', needsNative, () => {
  it('equals the softmax of the scores plus a causal mask, for prefills with and without cached positions and widths that are not multiples of four', async () => {
    await tf.setBackend('native');
    assert.ok(tf.getKernel(CAUSAL_SOFTMAX_KERNEL, 'native'), 'the addon exports causalSoftmax');
    for (const [blocks, lq, past] of [[4, 7, 0], [3, 5, 11], [2, 1, 6], [1, 9, 3]]) {
      const lk = past + lq;
      const x = tf.tensor(randomData(blocks * lq * lk, 40 + lq, -6, 6), [1, blocks, lq, lk]);
      const mask = new Float32Array(lq * lk);
      for (let i = 0; i < lq; i++) for (let j = past + i + 1; j < lk; j++) mask[i * lk + j] = -1e9;
      const want = tf.softmax(tf.add(x, tf.tensor(mask, [1, 1, lq, lk]))).dataSync();
      const got = (tf.engine().runKernel(CAUSAL_SOFTMAX_KERNEL, { x }, { past }) as tf.Tensor).dataSync();
      for (let i = 0; i < want.length; i++) {
        const masked = mask[i % (lq * lk)] !== 0;
        if (masked) assert.equal(got[i], 0, `masked [${blocks}, ${lq}, ${past}] element ${i}`);
        else assert.ok(Math.abs(got[i] - want[i]) <= 1e-7 + 1e-5 * want[i], `[${blocks}, ${lq}, ${past}] element ${i}: ${got[i]} vs ${want[i]}`);
      }
    }
    assert.throws(() => tf.engine().runKernel(CAUSAL_SOFTMAX_KERNEL, { x: tf.zeros([2, 3, 4]) }, { past: 2 }), /past \+ lq <= lk/);
  });
});

describe('fused softmax gradient', needsNative, () => {
  it('equals TF.js\'s softmax gradient, masked scores included', async () => {
    await tf.setBackend('native');
    assert.ok(tf.getKernel(SOFTMAX_GRAD_KERNEL, 'native'), 'the addon exports softmaxGrad');
    const x = tf.tensor(randomData(3 * 5 * 37, 30, -4, 4), [3, 5, 37]).add(tf.tensor(randomData(37, 31)).greater(0.5).cast('float32').mul(-1e9));
    const dy = tf.tensor(randomData(3 * 5 * 37, 32, -2, 2), [3, 5, 37]);
    const want = tf.grad((v: tf.Tensor) => tf.sum(tf.mul(tf.softmax(v), dy)))(x).dataSync();
    const got = (tf.engine().runKernel(SOFTMAX_GRAD_KERNEL, { y: tf.softmax(x), dy }) as tf.Tensor).dataSync();
    for (let i = 0; i < want.length; i++) assert.ok(Math.abs(got[i] - want[i]) <= 1e-6 + 1e-4 * Math.abs(want[i]), `dx[${i}] ${got[i]} vs ${want[i]}`);
  });

  it('the copying transformer\'s label log-probabilities and every gradient equal wasm\'s', async () => {
    // Native trains with gathered embeddings and labels, the fused softmax gradient and the
    // pointer's targets built on the CPU; wasm with one-hot products and TF.js's gradients.
    const batch = 2;
    const len = 9;
    const ids = Int32Array.from({ length: batch * len }, (_, i) => (i * 5 + 3) % 13);
    const labels = Int32Array.from({ length: batch * len }, (_, i) => (i * 7 + 1) % 13);
    const pos = Int32Array.from({ length: batch * len }, (_, i) => i % len);
    const bias = new Float32Array(len * len).fill(-1e9);
    for (let i = 0; i < len; i++) bias.fill(0, i * len, i * len + i + 1);
    await assertSameAsWasm(() => {
      const m = new TransformerLM({ ...defaultModelConfig, vocabSize: 16, dModel: 16, nLayer: 2, nHead: 2, dFF: 32, ctx: 16, copy: true, satTokens: 0, seed: 3 });
      const vars = [...m.params.values()];
      const { value, grads } = tf.variableGrads(() => tf.neg(tf.mean(m.labelLogProbs(tf.tensor1d(ids, 'int32'), tf.tensor1d(pos, 'int32'), tf.tensor4d(bias, [1, 1, len, len]), batch, len, tf.tensor1d(labels, 'int32')))), vars);
      const out = [value, ...vars.map((v) => grads[v.name])];
      m.dispose();
      return out;
    }, 'copying transformer grads', 1e-3, 1e-5);
    // The old step that `bench sft` times (legacyTrainStep, cpu gather and pad) gives the same numbers on native.
    const run = (legacy: boolean) => tf.tidy(() => {
      setNativeRowKernels(!legacy);
      const m = new TransformerLM({ ...defaultModelConfig, vocabSize: 16, dModel: 16, nLayer: 2, nHead: 2, dFF: 32, ctx: 16, copy: true, satTokens: 0, seed: 3 });
      m.legacyTrainStep = legacy;
      const vars = [...m.params.values()];
      const { value, grads } = tf.variableGrads(() => tf.neg(tf.mean(m.labelLogProbs(tf.tensor1d(ids, 'int32'), tf.tensor1d(pos, 'int32'), tf.tensor4d(bias, [1, 1, len, len]), batch, len, tf.tensor1d(labels, 'int32')))), vars);
      const out = [value, ...vars.map((v) => grads[v.name])].map((x) => Float32Array.from(x.dataSync()));
      m.dispose();
      setNativeRowKernels(true);
      return out;
    });
    await tf.setBackend('native');
    const [now, before] = [run(false), run(true)];
    now.forEach((xs, k) => xs.forEach((x, i) => assert.ok(Math.abs(x - before[k][i]) <= 1e-5 + 1e-4 * Math.abs(before[k][i]), `output ${k}[${i}]: ${x} vs ${before[k][i]}`)));
  });
});

describe('fused AdamW kernel', needsNative, () => {
  it('equals the AdamW formula, with and without weight decay and clipping', async () => {
    await tf.setBackend('native');
    const n = 1000; // several grains, so the threaded split is exercised
    const p = randomData(n, 21), g = randomData(n, 22), m = randomData(n, 23, -0.1, 0.1), v = randomData(n, 24, 0, 0.01);
    for (const attrs of [
      { lr: 1e-3, b1: 0.9, b2: 0.95, eps: 1e-8, c1: 1 - 0.9 ** 3, c2: 1 - 0.95 ** 3, wd: 0.01, gradScale: 0.5 },
      { lr: 3e-2, b1: 0.8, b2: 0.99, eps: 1e-6, c1: 0.2, c2: 0.01, wd: 0, gradScale: 1 },
    ]) {
      const outs = tf.tidy(() => (tf.engine().runKernel(ADAMW_KERNEL, { p: tf.tensor1d(p), g: tf.tensor1d(g), m: tf.tensor1d(m), v: tf.tensor1d(v) }, attrs) as tf.Tensor[])
        .map((t) => t.dataSync() as Float32Array));
      for (let i = 0; i < n; i++) {
        const gi = g[i] * attrs.gradScale;
        const mi = attrs.b1 * m[i] + (1 - attrs.b1) * gi;
        const vi = attrs.b2 * v[i] + (1 - attrs.b2) * gi * gi;
        const pi = p[i] - attrs.lr * ((mi / attrs.c1) / (Math.sqrt(vi / attrs.c2) + attrs.eps) + attrs.wd * p[i]);
        for (const [got, want, what] of [[outs[0][i], pi, 'p'], [outs[1][i], mi, 'm'], [outs[2][i], vi, 'v']] as const) {
          if (Math.abs(got - want) > 1e-6 + 1e-5 * Math.abs(want)) throw new Error(`${what}[${i}]: ${got} != ${want}`);
        }
      }
    }
  });
});
