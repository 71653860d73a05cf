import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rate } from '../../main/common/stats.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gateSummary, halfWidth, meanDifference, rateDifference, salvageByMode, verdictOf } from '../../main/experiment/report.ts';
import type { EvalOutputs } from '../../main/experiment/stages.ts';

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

test('salvage rate per failure mode pairs SFT\'s failed test instances with Salvage-DS\'s episodes on the same instances', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-salvage-rate-'));
  const evalOut = (name: string, episodes: Array<{ episodeId: string; family: string; seed: number; success: boolean }>) => {
    const path = join(dir, `${name}.json`);
    writeFileSync(path, JSON.stringify({ episodes: episodes.map((e) => ({ ...e, run: 0, steps: 3, invalidSteps: 0, tier: 1 })) }));
    return { evalId: name, path } as unknown as EvalOutputs;
  };
  const sft = evalOut('sft', [
    { episodeId: 's1', family: 'shop', seed: 1, success: false }, { episodeId: 's2', family: 'shop', seed: 2, success: false },
    { episodeId: 's3', family: 'jobs', seed: 1, success: true }, { episodeId: 's4', family: 'jobs', seed: 9, success: false },
  ]);
  const seed1 = evalOut('x1', [{ episodeId: 'a', family: 'shop', seed: 1, success: true }, { episodeId: 'b', family: 'shop', seed: 2, success: false }, { episodeId: 'c', family: 'jobs', seed: 1, success: false }]);
  const seed2 = evalOut('x2', [{ episodeId: 'd', family: 'shop', seed: 1, success: true }, { episodeId: 'e', family: 'shop', seed: 2, success: true }, { episodeId: 'f', family: 'jobs', seed: 1, success: true }]);
  const mining = join(dir, 'mining.json');
  const f = (episodeId: string, mode: string) => ({ episodeId, referenceId: 'r', family: 'shop', seed: 1, tier: 1, step: 0, mode, action: null, referenceAction: null });
  writeFileSync(mining, JSON.stringify({ all: [f('s1', 'wrong_element'), f('s2', 'loop'), f('s4', 'loop')] }));
  const r = salvageByMode({ evalId: 'sft', path: mining }, sft, [seed1, seed2]);
  // jobs seed 9 was never evaluated by Salvage-DS: left out of every figure.
  assert.deepEqual(Object.fromEntries(Object.entries(r.byMode).map(([m, c]) => [m, [c.sftFailed, c.salvage.k, c.salvage.n]])), { wrong_element: [1, 2, 2], loop: [1, 1, 2] });
  assert.deepEqual([r.allFailed.k, r.allFailed.n], [3, 4]);
  assert.deepEqual([r.lostOfSolved.k, r.lostOfSolved.n], [1, 2], 'SFT solved jobs seed 1; one of the two Salvage-DS episodes there failed');
});
