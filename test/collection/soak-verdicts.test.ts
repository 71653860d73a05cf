/**
 * The soak benchmark's verdicts from its samples: a workbench whose memory, open files or browser
 * processes keep growing, or whose steps slow down, must fail; a flat run with noise must pass.
 * (The command itself runs real episodes for minutes; it is run by hand, see docs/benchmarks.md.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slopePerSecond, summarise, type SoakSample } from '../../main/collection/bench-soak.ts';

const run = { episodes: 100, steps: 900, errors: 0, firstErrors: [], browserVersion: 'Chrome/1', opts: { families: ['shop'], parallel: 2, screenshots: false }, elapsedS: 1800 };

/** 181 samples, one every 10 s over 30 min; `f` shapes each one. */
function samples(f: (t: number, i: number) => Partial<SoakSample>): SoakSample[] {
  return Array.from({ length: 181 }, (_, i) => {
    const t = i * 10;
    const noise = ((i * 7919) % 13) - 6; // deterministic wobble of +-6
    return { elapsedS: t, episodes: i, steps: i * 9, errors: 0, rssMb: 300 + noise, heapUsedMb: 80, fds: 40, browserProcesses: 9, browserRssMb: 600 + noise, stepP50Ms: 45, stepP95Ms: 90, ...f(t, i) };
  });
}

test('a flat run with noise meets every target', () => {
  const r = summarise(samples(() => ({})), run);
  assert.deepEqual(Object.values(r.meetsTargets), [true, true, true, true, true, true, true]);
  assert.ok(Math.abs(r.growth.rssMbPerHour!) < 30, String(r.growth.rssMbPerHour));
});

test('steady memory growth, leaked files or processes, slower steps and errors each fail their target', () => {
  const leak = summarise(samples((t) => ({ rssMb: 300 + t / 10 })), run); // 1 MB per 10 s = 360 MB/h
  assert.equal(leak.meetsTargets.rssMbPerHour, false);
  assert.ok(Math.abs(leak.growth.rssMbPerHour! - 360) < 10, String(leak.growth.rssMbPerHour));
  // The leak the soak found: the heap gaining 5 MB per 10 minutes is already too much.
  assert.equal(summarise(samples((t) => ({ heapUsedMb: 80 + t / 100 })), run).meetsTargets.heapMbPerHour, false);
  assert.equal(summarise(samples((_t, i) => ({ fds: 40 + Math.floor(i / 4) })), run).meetsTargets.fdGrowth, false);
  assert.equal(summarise(samples((_t, i) => ({ browserProcesses: 9 + Math.floor(i / 20) })), run).meetsTargets.browserProcessGrowth, false);
  assert.equal(summarise(samples((t) => ({ stepP50Ms: 45 + t / 30 })), run).meetsTargets.stepP50Ratio, false);
  assert.equal(summarise(samples(() => ({})), { ...run, errors: 2 }).meetsTargets.errors, false);
});

test('the warm-up is left out: a jump while caches fill is not a leak', () => {
  const r = summarise(samples((_t, i) => ({ rssMb: i < 20 ? 150 + i * 7 : 300 })), run);
  assert.equal(r.meetsTargets.rssMbPerHour, true, String(r.growth.rssMbPerHour));
});

test('what cannot be measured (a remote browser) is null, not a pass', () => {
  const r = summarise(samples(() => ({ browserProcesses: null, browserRssMb: null })), run);
  assert.equal(r.meetsTargets.browserProcessGrowth, null);
  assert.equal(r.meetsTargets.browserRssMbPerHour, null);
  assert.equal(slopePerSecond([[0, 1], [1, null]]), null);
  assert.equal(slopePerSecond([[0, 0], [1, 2], [2, 4]]), 2);
});
