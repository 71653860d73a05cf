// The cost model behind `bench forward`: expected accepted drafts, Leviathan's formula, predicted speedups.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costAt, expectedAccepted, leviathanTokensPerLoop, loopPasses, predictedSpeedup, type PassCost } from '../../main/decode/cost.ts';

const pass = (positions: number, ms: number): PassCost => ({ positions, ms: { n: 3, value: ms, ci95: null }, relative: NaN });

test('expected accepted drafts chain the conditional rates, and agree with Leviathan et al. for one rate', () => {
  assert.equal(expectedAccepted([]), 0);
  assert.equal(expectedAccepted([1, 1, 1]), 3);
  assert.equal(expectedAccepted([0, 1, 1]), 0, 'nothing after a rejected first draft counts');
  assert.ok(Math.abs(expectedAccepted([0.5, 0.5]) - 0.75) < 1e-12);
  for (const a of [0.2, 0.6, 0.9]) for (const k of [1, 3, 5]) {
    assert.ok(Math.abs(expectedAccepted(new Array(k).fill(a)) + 1 - leviathanTokensPerLoop(a, k)) < 1e-12);
  }
  assert.equal(leviathanTokensPerLoop(1, 4), 5);
});

test('predicted speedup: flat pass costs give the tokens per pass; the one-pass loop pays for (k+1)^2 positions', () => {
  const flat = costAt([pass(1, 2), pass(32, 2)]);
  assert.deepEqual(loopPasses('sdsat', 3), [4, 4]);
  assert.deepEqual(loopPasses('sdsat-one-pass', 3), [16]);
  // Two passes emit 2 + accepted tokens; at full acceptance with k = 4 that is 6 tokens for 2 passes.
  assert.equal(predictedSpeedup(flat, 'sdsat', 4, 4), 3);
  assert.equal(predictedSpeedup(flat, 'sdsat-one-pass', 4, 4), 5);
  assert.equal(predictedSpeedup(flat, 'sdsat', 4, 0), 1);
  // Cost growing with positions: linear interpolation between measured points, extrapolated past the last.
  const linear = costAt([pass(1, 1), pass(9, 5)]);
  assert.equal(linear(5), 3);
  assert.equal(linear(17), 9);
  assert.equal(predictedSpeedup(linear, 'sdsat-one-pass', 2, 2), 3 / 5);
});
