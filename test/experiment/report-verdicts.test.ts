import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rate } from '../../main/policy/stats.ts';
import { gateSummary, halfWidth, meanDifference, rateDifference, verdictOf } from '../../main/experiment/report.ts';

test('verdicts: the claimed side of 0 with the interval on it is reproduced, the point estimate alone inconclusive, the other side not reproduced', () => {
  assert.equal(verdictOf({ value: -1.5, ci95: { low: -2.5, high: -0.2 } }, -1), 'reproduced');
  assert.equal(verdictOf({ value: -1.5, ci95: { low: -2.5, high: 0.4 } }, -1), 'inconclusive');
  assert.equal(verdictOf({ value: 0.3, ci95: { low: -1, high: 1.5 } }, -1), 'not reproduced');
  assert.equal(verdictOf({ value: 0, ci95: { low: -0.3, high: 0.3 } }, 1), 'not reproduced');
  assert.equal(verdictOf({ value: 0.2, ci95: null }, 1), 'inconclusive');
  assert.equal(verdictOf({ value: null, ci95: null }, 1), 'not measurable');
});

test('success-rate difference: Newcombe interval around p1 - p2, wide for few episodes and excluding 0 for a large gap', () => {
  const big = rateDifference(rate(80, 100), rate(40, 100));
  assert.ok(Math.abs(big.value! - 0.4) < 1e-12);
  assert.ok(big.ci95!.low > 0.25 && big.ci95!.high < 0.55, JSON.stringify(big));
  const small = rateDifference(rate(2, 5), rate(1, 5));
  assert.ok(small.ci95!.low < 0 && small.ci95!.high > 0);
  assert.deepEqual(rateDifference(rate(0, 0), rate(1, 2)), { value: null, ci95: null });
});

test('steps difference: the bootstrap interval of the mean difference brackets it, and excludes 0 only for a clear gap', () => {
  const clear = meanDifference([5, 5, 6, 5, 6, 5, 5, 6], [9, 10, 9, 10, 9, 10, 9, 10]);
  assert.ok(Math.abs(clear.value! - (5.375 - 9.5)) < 1e-12);
  assert.ok(clear.ci95!.low <= clear.value! && clear.value! <= clear.ci95!.high && clear.ci95!.high < 0);
  const noisy = meanDifference([3, 12, 5, 9], [4, 11, 6, 10]);
  assert.ok(noisy.ci95!.low < 0 && noisy.ci95!.high > 0);
  assert.deepEqual(meanDifference([], [3]), { value: null, ci95: null });
});

test('half-width: half an interval\'s width, none without an interval; 810 episodes a side at 50% give about +-4.9 points', () => {
  assert.equal(halfWidth({ value: 1, ci95: { low: 0.5, high: 2.5 } }), 1);
  assert.equal(halfWidth({ value: 1, ci95: null }), null);
  const d = halfWidth(rateDifference(rate(405, 810), rate(405, 810)))!;
  assert.ok(d > 0.045 && d < 0.05, String(d));
});

test('gate summary: groups, keeps, refusals by each gate, anchors and drops summed over a run; updates only where an iteration had rows', () => {
  const its = [
    { groups: 8, kept: 2, rejectedByContrast: 5, rejectedByCompetence: 6, anchored: 6, dropped: 0, correctShare: 0.25 },
    { groups: 8, kept: 0, rejectedByContrast: 8, rejectedByCompetence: 8, anchored: 8, dropped: 0, correctShare: 0 },
    { groups: 8, kept: 0, rejectedByContrast: 8, rejectedByCompetence: 8, anchored: 0, dropped: 8, correctShare: 0.5 },
  ];
  assert.deepEqual(gateSummary('salvage', 2, its, 2), {
    variant: 'salvage', seed: 2, groups: 24, kept: 2, rejectedByContrast: 21, rejectedByCompetence: 22, anchored: 14, dropped: 8, updates: 4, meanCorrectShare: 0.25,
  });
  assert.equal(gateSummary('graded', 1, [], 2).meanCorrectShare, null);
});
