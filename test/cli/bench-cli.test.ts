// `lab bench decode --backends` and `lab bench train --backends` report each backend side by side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runLab as lab } from '../helpers/lab-cli.ts';

test('bench decode --backends runs the shipped model on each backend: one report per backend, greedy outputs identical to AR', async () => {
  const out = JSON.parse((await lab('bench', 'decode', '--backends', 'wasm,cpu', '--k', '2', '--modes', 'sdsat,sdsat-one-pass', '--limit', '1', '--max-new', '8', '--json')).stdout);
  assert.deepEqual(out.byBackend.map((b: { backend: string }) => b.backend), ['wasm', 'cpu']);
  assert.equal(out.runs.length, 2);
  for (const run of out.runs) {
    assert.deepEqual(run.results.map((r: { mode: string }) => r.mode), ['sdsat', 'sdsat-one-pass']);
    for (const r of run.results) {
      assert.equal(r.identicalOutputs, true);
      assert.equal(r.newTokens, 8);
      assert.ok(r.tokensPerSec > 0 && r.arTokensPerSec > 0);
      // At full acceptance a loop emits the most tokens it can, so the ceiling bounds the speedup.
      assert.ok(r.ceilingSpeedup >= r.speedup * (1 - 1e-9), JSON.stringify(r));
      assert.ok(r.ceilingSpeedup <= r.speedup * (r.mode === 'sdsat' ? 4 : 3) / r.tokensPerLoop + 1e-9, JSON.stringify(r));
    }
  }
  await assert.rejects(lab('bench', 'decode', '--backends', 'tpu', '--limit', '1'), /tpu/);
});

test('bench train --backends reports tokens/s and effective GFLOP/s per backend', async () => {
  const out = JSON.parse((await lab('bench', 'train', '--backends', 'wasm,cpu', '--steps', '2', '--batch', '2', '--seq-len', '32', '--json')).stdout);
  assert.deepEqual(out.results.map((r: { backend: string }) => r.backend), ['wasm', 'cpu']);
  for (const r of out.results) assert.ok(r.tokensPerSec > 0 && r.effectiveGflops > 0 && r.parameters > 0, JSON.stringify(r));
});
