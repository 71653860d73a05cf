import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapMean, rate, ratioMean, tMean, wilson } from '../../main/common/stats.ts';
import { evalFamilies, evalTasks, groupMetrics, summariseEval, type EvalEpisode } from '../../main/evaluation/eval.ts';
import { TaskServer } from '../../main/tasks/server.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';

const close = (a: number, b: number, eps = 1e-4) => assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);

test('Wilson intervals match the textbook values, stay in [0, 1] at 0 and n successes', () => {
  const z = wilson(0, 10)!;
  assert.equal(z.low, 0);
  close(z.high, 0.2775);
  const h = wilson(5, 10)!;
  close(h.low, 0.2366);
  close(h.high, 0.7634);
  const e = wilson(8, 10)!;
  close(e.low, 0.4902);
  close(e.high, 0.9433);
  const all = wilson(20, 20)!;
  assert.equal(all.high, 1);
  assert.ok(all.low > 0.8 && all.low < 0.85);
  assert.equal(wilson(0, 0), null);
  assert.deepEqual(rate(3, 4).value, 0.75);
  assert.throws(() => wilson(5, 4), /outside 0\.\.4/);
});

test('t interval of a mean: 1..5 gives 3 +- 2.776 * sd / sqrt(5); one value has no interval', () => {
  const m = tMean([1, 2, 3, 4, 5]);
  assert.equal(m.value, 3);
  const half = (2.776 * Math.sqrt(2.5)) / Math.sqrt(5);
  close(m.ci95!.low, 3 - half, 1e-3);
  close(m.ci95!.high, 3 + half, 1e-3);
  assert.equal(tMean([0.4]).ci95, null);
  assert.equal(tMean([]).value, null);
});

test('bootstrap interval: seeded (same input, same interval), brackets the mean, collapses for constant data', () => {
  const xs = [3, 4, 4, 5, 6, 9, 3, 4];
  const a = bootstrapMean(xs);
  assert.deepEqual(bootstrapMean(xs), a);
  assert.equal(a.value, 4.75);
  assert.ok(a.ci95!.low < 4.75 && a.ci95!.high > 4.75 && a.ci95!.low >= 3 && a.ci95!.high <= 9);
  assert.deepEqual(bootstrapMean([4, 4, 4]).ci95, { low: 4, high: 4 });
});

const ep = (family: string, tier: number, run: number, success: boolean, steps: number, invalidSteps: number): EvalEpisode => ({
  family, seed: 10000, run, episodeId: `${family}-${run}-${steps}`, tier, success, steps, invalidSteps,
});

test('evaluation metrics on known episodes: success, steps on solved tasks only, invalid actions per step, per family, tier and run', () => {
  const eps = [
    ep('shop', 1, 0, true, 4, 0), ep('shop', 1, 0, false, 10, 5), ep('webmail', 2, 0, true, 2, 1),
    ep('shop', 1, 1, true, 6, 0), ep('webmail', 2, 1, false, 10, 10), ep('webmail', 1, 1, false, 8, 0),
  ];
  const s = summariseEval(eps, 2);
  assert.equal(s.overall.episodes, 6);
  assert.deepEqual([s.overall.success.k, s.overall.success.n], [3, 6]);
  assert.equal(s.overall.stepsOnSolved.value, 4); // (4 + 2 + 6) / 3: failures do not count
  assert.deepEqual([s.overall.invalidActions.k, s.overall.invalidActions.n], [16, 40]);
  // Run 0: 2 of 3; run 1: 1 of 3.
  close(s.overall.successByRun.value!, 0.5);
  close(s.overall.successByRun.ci95!.high - 0.5, (12.706 * Math.sqrt(((2 / 3 - 0.5) ** 2 + (1 / 3 - 0.5) ** 2) / 1)) / Math.sqrt(2), 1e-3);
  assert.deepEqual(Object.keys(s.byFamily), ['shop', 'webmail']);
  assert.equal(s.byFamily.shop.success.value, 2 / 3);
  assert.equal(s.byFamily.webmail.stepsOnSolved.value, 2);
  assert.deepEqual(Object.keys(s.byTier), ['1', '2']);
  assert.equal(s.byTier['2'].invalidActions.value, 11 / 12);
  assert.equal(groupMetrics([], 1).success.value, null);
});

test('evaluation tasks: runs take consecutive blocks of test seeds; held-out and training families are kept apart', () => {
  const server = new TaskServer(builtinFamilies());
  const tasks = evalTasks({ tasks: 'shop,webmail', split: 'test', seeds: 2, runs: 2 }, server);
  assert.deepEqual(tasks.map((t) => `${t.family}:${t.seed}:${t.run}`), [
    'shop:10000:0', 'webmail:10000:0', 'shop:10001:0', 'webmail:10001:0',
    'shop:10002:1', 'webmail:10002:1', 'shop:10003:1', 'webmail:10003:1',
  ]);
  assert.deepEqual(evalTasks({ tasks: 'shop', split: 'train', seeds: 2, runs: 1 }, server).map((t) => t.seed), [0, 1]);
  assert.deepEqual(evalFamilies('all', 'heldout').sort(), ['restaurants', 'wiki']);
  assert.ok(!evalFamilies('all', 'test').includes('wiki'));
  assert.throws(() => evalFamilies('wiki', 'test'), /"wiki" is not a training or drill family/);
  assert.ok(!evalFamilies('all', 'test').includes('factbook'), 'a drill is not in the default pool');
  assert.deepEqual(evalFamilies('factbook,shop', 'test'), ['factbook', 'shop']);
  assert.throws(() => evalFamilies('factbook', 'heldout'), /not a held-out family/);
  assert.throws(() => evalFamilies('shop', 'heldout'), /not a held-out family/);
});

test('ratio intervals (speedups) come from the logarithms: positive, geometric mean, symmetric in faster and slower', () => {
  const m = ratioMean([2, 8]);
  assert.equal(m.value, 4);
  assert.ok(m.ci95!.low > 0 && m.ci95!.low < 2 && m.ci95!.high > 8);
  // Inverting every ratio inverts the interval.
  const inv = ratioMean([1 / 2, 1 / 8]);
  assert.ok(Math.abs(inv.ci95!.low - 1 / m.ci95!.high) < 1e-9 && Math.abs(inv.ci95!.high - 1 / m.ci95!.low) < 1e-9);
  assert.equal(ratioMean([3]).ci95, null);
});
