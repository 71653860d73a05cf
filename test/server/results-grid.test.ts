/**
 * The results grid and the episode comparison, on episode rows and episode files written the way
 * collection and evaluation write them (no browser: what is checked is the grouping).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabStore, type EpisodeStatus } from '../../main/store/lab.ts';
import { UNKNOWN_PROVENANCE, type Provenance } from '../../main/store/provenance.ts';
import type { ObservationRecord } from '../../main/store/schema.ts';
import { listScopes, resultsGrid } from '../../main/server/results-grid.ts';
import type { GridEpisode } from '../../preload/views.ts';
import { compareEpisodes } from '../../main/server/episode-compare.ts';

let n = 0;
const row = (family: string, seed: number, outcome: EpisodeStatus, steps: number, p: Partial<Provenance>, agent = 'noisy', split = 'test'): GridEpisode => ({
  id: `e${String(n++).padStart(3, '0')}`, family, seed, tier: 1, split, agent, steps, outcome, provenance: { ...UNKNOWN_PROVENANCE, ...p },
});

test('a run grid has one row per arm, counts the shared first attempt in both, and leaves unfinished episodes out of the rates', () => {
  const run = { run: 'r1' };
  const rows = [
    row('shop', 1, 'failure', 10, { ...run, attempt: 0, arm: 'shared' }),
    row('shop', 1, 'success', 4, { ...run, attempt: 1, arm: 'reflect' }),
    row('shop', 1, 'failure', 8, { ...run, attempt: 1, arm: 'blind' }),
    row('shop', 1, 'cancelled', 2, { ...run, attempt: 2, arm: 'blind' }),
    row('webmail', 5, 'success', 3, { ...run, attempt: 0, arm: 'shared' }),
    row('shop', 1, 'success', 4, { run: 'other', attempt: 0, arm: 'shared' }),
  ];
  const g = resultsGrid(rows, { kind: 'run', id: 'r1' });
  assert.deepEqual(g.rows, ['noisy · blind', 'noisy · reflect']);
  assert.deepEqual(g.cols, ['shop', 'webmail']);
  const reflectShop = g.cells['noisy · reflect'].shop;
  assert.equal(reflectShop.episodes, 2);
  assert.equal(reflectShop.successes, 1);
  assert.equal(reflectShop.meanSteps, 7);
  assert.equal(reflectShop.meanStepsSolved, 4);
  const blindShop = g.cells['noisy · blind'].shop;
  assert.deepEqual([blindShop.episodes, blindShop.successes, blindShop.unfinished, blindShop.ids.length], [2, 0, 1, 3], 'the cancelled attempt is listed, not counted');
  assert.equal(g.totals['noisy · reflect'].successRate, 2 / 3);
  assert.equal(g.cells['noisy · blind'].webmail.successes, 1, 'a solved first attempt counts in both arms');
});

test('an experiment grid never pools test, held-out and training-rollout episodes in one cell, and every rate carries its Wilson interval', () => {
  const x = { experiment: 'x2', policy: 'sft-reflect' };
  const rows = [
    row('shop', 10001, 'success', 3, { ...x, eval: 't' }, 'policy', 'test'),
    row('shop', 10002, 'success', 3, { ...x, eval: 't' }, 'policy', 'test'),
    row('shop', 10003, 'success', 3, { ...x, eval: 't' }, 'policy', 'test'),
    row('wiki', 10001, 'failure', 9, { ...x, eval: 'h' }, 'policy', 'test'),
    row('shop', 4, 'failure', 9, { ...x, eval: 'r' }, 'policy', 'train'),
  ];
  const g = resultsGrid(rows, { kind: 'experiment', id: 'x2' }, 'family', new Set(['wiki']));
  assert.deepEqual(g.rows, ['policy sft-reflect · held out', 'policy sft-reflect · test', 'policy sft-reflect · training instances']);
  const test3 = g.cells['policy sft-reflect · test'].shop;
  assert.deepEqual([test3.successes, test3.episodes], [3, 3]);
  assert.equal(test3.ci95!.high, 1);
  assert.ok(test3.ci95!.low > 0.4 && test3.ci95!.low < 0.5, `3/3 is 100% [${test3.ci95!.low}, 1], not a certainty`);
  // One split only: no split in the label.
  assert.deepEqual(resultsGrid(rows, { kind: 'eval', id: 't' }).rows, ['policy sft-reflect']);
});

test('an experiment grid tells policies apart and can split columns by task instance (seeds in numeric order)', () => {
  const x = { experiment: 'x1' };
  const rows = [
    row('shop', 10, 'success', 3, { ...x, eval: 'ev1', policy: 'sft-reflect' }, 'policy'),
    row('shop', 9, 'failure', 6, { ...x, eval: 'ev1', policy: 'sft-reflect' }, 'policy'),
    row('shop', 9, 'success', 5, { ...x, eval: 'ev2', policy: 'sft-plain' }, 'policy'),
  ];
  const byFamily = resultsGrid(rows, { kind: 'experiment', id: 'x1' });
  assert.deepEqual(byFamily.rows, ['policy sft-plain', 'policy sft-reflect']);
  assert.equal(byFamily.cells['policy sft-reflect'].shop.successRate, 0.5);
  const byInstance = resultsGrid(rows, { kind: 'experiment', id: 'x1' }, 'instance');
  assert.deepEqual(byInstance.cols, ['shop #9 t1', 'shop #10 t1']);
  assert.equal(byInstance.cells['policy sft-plain']['shop #10 t1'], undefined, 'no cell where the agent never ran the task');
  assert.deepEqual(listScopes(rows).map((s) => `${s.kind}:${s.id}:${s.episodes}`), ['eval:ev2:1', 'eval:ev1:2', 'experiment:x1:3']);
  assert.throws(() => resultsGrid(rows, { kind: 'run', id: 'nope' }), /no episode of run nope/);
});

const obs = (url: string): ObservationRecord => ({ url, title: url, elements: [{ id: '3', role: 'link', name: 'Shoes', tag: 'a', box: { x: 0, y: 0, width: 1, height: 1 }, visible: true, inViewport: true }], screenshot: null, lastActionError: null });
const timing = { agentMs: 1, actionMs: 1, settleMs: 1, observeMs: 1, totalMs: 4 };

test('attempts at one task instance are compared step by step from the first action where they part; other instances are refused', () => {
  const lab = new LabStore(mkdtempSync(join(tmpdir(), 'lab-compare-')));
  const task = { family: 'shop', seed: 7, tier: 1, instruction: 'Buy shoes', startUrl: 'http://x/', split: 'test' as const };
  const write = (actions: string[], success: boolean, attempt: number, seed = 7) => {
    const w = lab.createEpisode({ task: { ...task, seed }, agent: { name: 'noisy' }, env: { viewport: { width: 1, height: 1 }, screenshots: false, browser: 'chromium' }, links: {}, provenance: { run: 'r1', attempt, arm: 'reflect' } });
    for (const action of actions) w.step({ observation: obs('http://x/'), action, error: null, timing });
    w.end({ success, reason: success ? 'goal_reached' : 'max_steps', keyPoints: [], messages: [], finalObservation: obs('http://x/'), durationMs: 1 });
    return w.id;
  };
  const a = write(["click('3')", "fill('5', 'x')", "click('9')"], false, 0);
  const b = write(["click('3')", "click('8')"], true, 1);
  const c = compareEpisodes(lab, [a, b]);
  assert.deepEqual(c.task, { family: 'shop', seed: 7, tier: 1, instruction: 'Buy shoes' });
  assert.deepEqual(c.episodes.map((e) => [e.outcome, e.steps.length, e.provenance.attempt]), [['failure', 3, 0], ['success', 2, 1]]);
  assert.equal(c.firstDifference, 1);
  assert.deepEqual(c.rows.map((r) => [r.steps, r.parts]), [[[0, 0], false], [[1, 1], true], [[2, null], true]]);
  assert.equal(c.partingRows, 2);
  assert.equal(c.episodes[0].steps[0].described, 'click [3] link "Shoes"', 'the action named with its target');
  assert.equal(compareEpisodes(lab, [a, b], () => 'cancelled').episodes[0].outcome, 'cancelled', 'the outcome a label set is shown');

  // A detour lines up by page: the rows after it match again, and only the detour's rows part.
  const page = (url: string) => obs(url);
  const detour = (pages: string[], success: boolean, attempt: number) => {
    const w = lab.createEpisode({ task, agent: { name: 'noisy' }, env: { viewport: { width: 1, height: 1 }, screenshots: false, browser: 'chromium' }, links: {}, provenance: { run: 'r1', attempt, arm: 'reflect' } });
    for (const url of pages) w.step({ observation: page(url), action: "click('3')", error: null, timing });
    w.end({ success, reason: success ? 'goal_reached' : 'max_steps', keyPoints: [], messages: [], finalObservation: page('http://x/end'), durationMs: 1 });
    return w.id;
  };
  const straight = detour(['http://x/', 'http://x/a', 'http://x/b'], true, 2);
  const wandering = detour(['http://x/', 'http://x/lost1', 'http://x/lost2', 'http://x/a', 'http://x/b'], true, 3);
  const aligned = compareEpisodes(lab, [straight, wandering]);
  assert.deepEqual(aligned.rows.map((r) => r.steps), [[0, 0], [null, 1], [null, 2], [1, 3], [2, 4]]);
  assert.deepEqual(aligned.rows.map((r) => r.parts), [false, true, true, false, false]);
  assert.equal(aligned.firstDifference, 1);
  assert.equal(aligned.partingRows, 2);

  const elsewhere = write(["click('3')"], true, 0, 8);
  assert.throws(() => compareEpisodes(lab, [a, elsewhere]), /different task instances .*shop #7 t1.*shop #8 t1/);
  assert.throws(() => compareEpisodes(lab, [a, a]), /two or more/);
});
