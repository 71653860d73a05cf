// `lab bench decode --backends` and `lab bench train --backends` report each backend side by side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runLab as lab } from '../helpers/lab-cli.ts';
import { resourcePath } from '../../main/paths.ts';

const TINY = resourcePath('models', 'sdsat-ts');

test('bench decode --backends runs the shipped model on each backend: one report per backend, greedy outputs identical to AR', async () => {
  const out = JSON.parse((await lab('bench', 'decode', '--backends', 'wasm,cpu', '--k', '2', '--modes', 'sdsat,sdsat-one-pass', '--limit', '1', '--max-new', '8', '--repeats', '2', '--json')).stdout);
  assert.deepEqual(out.byBackend.map((b: { backend: string }) => b.backend), ['wasm', 'cpu']);
  assert.equal(out.runs.length, 2);
  for (const run of out.runs) {
    // Paths inside the project are recorded from its root, so a shipped report names the same files on every clone.
    assert.equal(run.model, join('resources', 'models', 'sdsat-code'));
    assert.equal(run.promptsFile, join('resources', 'corpus', 'npm-code', 'prompts.jsonl'));
    assert.deepEqual(run.results.map((r: { mode: string }) => r.mode), ['sdsat', 'sdsat-one-pass']);
    for (const r of run.results) {
      assert.equal(r.identicalOutputs, true);
      // Two repeats of one prompt: 16 tokens, two speedups and an interval spanning them.
      assert.equal(r.newTokens, 16);
      assert.equal(r.speedupPerRepeat.length, 2);
      assert.ok(r.speedupCi95.low <= Math.min(...r.speedupPerRepeat) && r.speedupCi95.high >= Math.max(...r.speedupPerRepeat));
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

test('bench forward times passes per position count for each size and backend, and predicts SDSAT speedups from the costs', async () => {
  const out = JSON.parse((await lab('bench', 'forward', '--backends', 'wasm', '--sizes', '32x1', '--positions', '1,2,3,4,9', '--k', '1,2',
    '--repeats', '3', '--warmup', '1', '--cache', '16', '--json')).stdout);
  assert.equal(out.backends.length, 1);
  const [random, shipped] = out.backends[0].models;
  assert.equal(random.model, '32x1');
  assert.equal(shipped.model, 'model');
  for (const m of [random, shipped]) {
    assert.deepEqual(m.passes.map((p: { positions: number }) => p.positions), [1, 2, 3, 4, 9]);
    for (const p of m.passes) assert.ok(p.ms.value > 0 && p.ms.n === 3 && p.ms.ci95.low <= p.ms.value, JSON.stringify(p));
    assert.equal(m.passes[0].relative, 1);
    // One-pass at k = 2 runs (k+1)^2 = 9 positions in its single pass.
    assert.deepEqual(m.perK.find((r: { k: number; mode: string }) => r.k === 2 && r.mode === 'sdsat-one-pass').passPositions, [9]);
    for (const r of m.perK) assert.ok(r.ceiling > 0);
  }
  // The shipped report was measured on native, not wasm: no expectation is borrowed across backends.
  assert.ok(shipped.perK.every((r: { expected: number | null }) => r.expected === null));
  await assert.rejects(lab('bench', 'forward', '--sizes', '30x2'), /--sizes takes WIDTHxBLOCKS/);
  await assert.rejects(lab('bench', 'forward', '--cache', '250', '--positions', '32', '--backends', 'wasm', '--sizes', '32x1'), /exceeds the context/);
});

test('decode prints the prompt, then the continuation, then its figures; --lab is in every command\'s help', async () => {
  const { stdout } = await lab('decode', '--model', TINY, '--max-new', '6', 'function ');
  assert.ok(stdout.startsWith('function '), stdout);
  assert.match(stdout, /\n\n\[sdsat on \w+\] 6 tokens, /);
  assert.match((await lab('decode', '--help')).stdout, /Global Options:\n\s+--lab <dir>/);
  // One sampling grammar for every decoding command, checked before anything loads.
  await assert.rejects(lab('decode', '--model', TINY, '--sampling', 'nucleus', '--top-p', '2', 'x'), /--top-p must be in \(0, 1\], got "2"/);
  await assert.rejects(lab('eval', '--sampling', 'nucleus:0.9'), /--sampling must be greedy or nucleus, got "nucleus:0.9"/);
  assert.match((await lab('eval', '--help')).stdout, /--top-p <p>/);
});
