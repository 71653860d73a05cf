// The cost model behind `bench forward`: expected accepted drafts, Leviathan's formula, predicted speedups.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costAt, expectedAccepted, leviathanTokensPerLoop, loopPasses, predictedSpeedup, rateNeeded, type PassCost } from '../../main/decode/cost.ts';

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

test('the rate needed to pay: solved from the pass costs, null where even every draft accepted falls short', () => {
  // Two passes of k + 1 = 2 positions at 1.1x a one-token pass: (2 + a) / 2.2 = 1.2 needs a = 0.64.
  const cost = costAt([pass(1, 10), pass(2, 11), pass(5, 20)]);
  assert.ok(Math.abs(rateNeeded(cost, 'sdsat', 1, 1.2)! - 0.64) < 1e-6);
  for (const k of [1, 2, 4]) for (const target of [1.05, 1.2]) {
    const a = rateNeeded(cost, 'sdsat', k, target);
    if (a === null) {
      assert.ok(predictedSpeedup(cost, 'sdsat', k, k) < target, `k=${k}: null only where the ceiling misses ${target}`);
      continue;
    }
    const at = (r: number) => predictedSpeedup(cost, 'sdsat', k, expectedAccepted(new Array(k).fill(r)));
    assert.ok(Math.abs(at(a) - target) < 1e-6, `k=${k}: the rate reaches the target`);
    assert.ok(at(a - 0.01) < target, `k=${k}: a lower rate does not`);
  }
  // Passes as costly as k + 1 tokens: no acceptance rate reaches 1.2x at k = 1 ((2 + 1) / (2 x 2) = 0.75).
  assert.equal(rateNeeded(costAt([pass(1, 10), pass(2, 20)]), 'sdsat', 1, 1.2), null);
  // Already paying with nothing accepted (passes cheaper than 2/1.2 of one token): rate 0.
  assert.equal(rateNeeded(costAt([pass(1, 10), pass(2, 8)]), 'sdsat', 1, 1.2), 0);
});
