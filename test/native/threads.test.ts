// The addon's thread pool is process-wide. Two JS threads (main + a worker_thread) calling
// kernels at the same time must both get correct results: the second caller runs its job
// itself instead of sharing the pool's job state.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { loadNativeAddon } from '../../main/models/native-addon.ts';
import { needsNative } from './compare.ts';

// Plain JS so the worker needs no TypeScript loader; fills matrices with exact small
// integers so every product is exact and results can be compared with ===.
const workerSource = `
  const { parentPort, workerData } = require('node:worker_threads');
  const addon = require(workerData.path);
  const M = 192, N = 160, K = 256; // big enough to use the pool (> 8 Mflop)
  const a = Float32Array.from({ length: M * K }, (_, i) => (i % 7) - 3);
  const b = Float32Array.from({ length: K * N }, (_, i) => (i % 5) - 2);
  const first = new Float32Array(M * N);
  addon.matmul(a, b, first, 1, 1, 1, M, N, K, false, false);
  let mismatches = 0;
  for (let r = 0; r < workerData.reps; r++) {
    const c = new Float32Array(M * N);
    addon.matmul(a, b, c, 1, 1, 1, M, N, K, false, false);
    for (let i = 0; i < c.length; i++) if (c[i] !== first[i]) mismatches++;
  }
  parentPort.postMessage(mismatches);
`;

describe('native addon from two JS threads', needsNative, () => {
  // Without the pool's busy lock this hangs or corrupts results; the timeout turns a hang
  // into a failure.
  it('concurrent matmuls stay correct', { timeout: 20_000 }, async () => {
    const load = loadNativeAddon();
    assert.ok(load.ok);
    const { addon, path } = load;
    const worker = new Worker(workerSource, { eval: true, workerData: { path, reps: 100 } });
    const done = new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const M = 256, N = 128, K = 256;
    const a = Float32Array.from({ length: M * K }, (_, i) => (i % 3) - 1);
    const b = Float32Array.from({ length: K * N }, (_, i) => (i % 4) - 1);
    const ref = new Float32Array(M * N);
    addon.matmul(a, b, ref, 1, 1, 1, M, N, K, false, false);
    let mismatches = 0;
    for (let r = 0; r < 100; r++) {
      const c = new Float32Array(M * N);
      addon.matmul(a, b, c, 1, 1, 1, M, N, K, false, false);
      for (let i = 0; i < c.length; i++) if (c[i] !== ref[i]) mismatches++;
    }
    assert.equal(mismatches, 0, 'main thread results changed');
    assert.equal(await done, 0, 'worker thread results changed');
    await worker.terminate();
  });
});
