// Native BatchMatMul / _FusedMatMul must equal the wasm backend's results.
import { describe, it } from 'node:test';
import * as tf from '@tensorflow/tfjs';
import { assertSameAsWasm, needsNative, randomData } from './compare.ts';

const t = (shape: number[], seed: number) => tf.tensor(randomData(shape.reduce((a, b) => a * b, 1), seed), shape);

// [batchA..., M, K] x [batchB..., K, N] before transposition.
const cases: Array<{ a: number[]; b: number[] }> = [
  { a: [1, 1], b: [1, 1] },
  { a: [3, 5], b: [5, 7] },
  { a: [2, 3, 5], b: [2, 5, 7] },
  { a: [67, 129], b: [129, 33] },
  { a: [13, 300], b: [300, 17] },
  { a: [4, 64, 32], b: [4, 32, 64] },
  { a: [130, 257], b: [257, 45] },
  { a: [3, 4, 0], b: [3, 0, 5] }, // K = 0: all zeros
];

describe('native matMul', needsNative, () => {
  for (const c of cases) {
    for (const tA of [false, true]) {
      for (const tB of [false, true]) {
        it(`${c.a} x ${c.b} transposeA=${tA} transposeB=${tB}`, async () => {
          // Transposed operands are stored transposed, so the same product is checked.
          const swap = (s: number[]) => [...s.slice(0, -2), s[s.length - 1], s[s.length - 2]];
          await assertSameAsWasm(() => tf.matMul(t(tA ? swap(c.a) : c.a, 1), t(tB ? swap(c.b) : c.b, 2), tA, tB), 'matMul');
        });
      }
    }
  }

  it('broadcasts batch dims (rank 3 x rank 2, batch 1 x batch 3, rank 4)', async () => {
    await assertSameAsWasm(() => tf.matMul(t([3, 4, 5], 3), t([5, 6], 4)), '3d x 2d');
    await assertSameAsWasm(() => tf.matMul(t([1, 4, 5], 5), t([3, 5, 6], 6)), 'batch 1 x 3');
    await assertSameAsWasm(() => tf.matMul(t([2, 3, 8, 4], 7), t([2, 3, 8, 4], 8), false, true), 'rank 4 tB');
  });

  it('fused matMul with bias and activations', async () => {
    for (const activation of ['linear', 'relu', 'relu6', 'elu', 'sigmoid', 'leakyrelu'] as const) {
      await assertSameAsWasm(() => tf.fused.matMul({ a: t([9, 11], 9), b: t([11, 7], 10), bias: t([7], 11), activation }), activation);
    }
    await assertSameAsWasm(() => tf.fused.matMul({ a: t([11, 9], 12), b: t([7, 11], 13), transposeA: true, transposeB: true }), 'no bias, tA tB');
  });

  it('gradients through matMul equal wasm', async () => {
    for (const [tA, tB] of [[false, false], [true, false], [false, true], [true, true]]) {
      const a = () => t(tA ? [7, 5] : [5, 7], 20);
      const b = () => t(tB ? [3, 7] : [7, 3], 21);
      await assertSameAsWasm(() => tf.grads((x: tf.Tensor, y: tf.Tensor) => tf.matMul(x, y, tA, tB).square().sum())([a(), b()]), `grad tA=${tA} tB=${tB}`);
    }
    await assertSameAsWasm(() => tf.grads((x: tf.Tensor, y: tf.Tensor) => tf.matMul(x, y).sum())([t([2, 4, 6], 22), t([2, 6, 3], 23)]), 'batched grad');
  });
});
