/**
 * A stopped evaluation continues, in-process and with `lab eval --resume ID`: the episodes it
 * finished are kept (episodes.jsonl), only the others run, and the report counts them all; a
 * finished one takes more runs the same way; a different request under the same id is refused.
 * Real Chromium, the built-in tasks and the shipped policy.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useTaskEnvironment, type TaskEnvironmentFixture } from '../helpers/environment.ts';
import { newEvalId, runEval, type EvalRequest } from '../../main/evaluation/eval.ts';
import { SHIPPED_POLICY } from '../../main/policy/shipped.ts';
import { labPaths } from '../../main/store/layout.ts';
import { runLab } from '../helpers/lab-cli.ts';
import { evalFiles } from '../../main/store/lab-files.ts';

let fx: TaskEnvironmentFixture;
useTaskEnvironment('lab-eval-resume-', (f) => (fx = f));

const request: EvalRequest = {
  policy: { dir: SHIPPED_POLICY, sampling: { kind: 'greedy' }, backend: 'wasm' },
  tasks: 'calendar,shop', split: 'test', seeds: 1, runs: 2, tier: 1, parallel: 1, maxSteps: 2,
};

test('an evaluation stopped after one episode continues under its id with the other three', async () => {
  const deps = { envs: [fx.env], server: fx.server, store: fx.store, browserKind: 'chromium' };
  const evalId = newEvalId();
  const stop = new AbortController();
  const first = await runEval(deps, request, { evalId, signal: stop.signal, onEpisode: () => stop.abort() });
  assert.equal(first.episodes.length, 1);
  const progress = evalFiles(labPaths.eval(fx.store.dir, evalId)).episodes;
  assert.equal(readFileSync(progress, 'utf8').trim().split('\n').length, 1);

  const seen: Array<[number, number]> = [];
  const whole = await runEval(deps, request, { evalId, onEpisode: (done, total) => seen.push([done, total]) });
  assert.deepEqual(seen, [[2, 4], [3, 4], [4, 4]], 'only the three unfinished episodes ran');
  assert.equal(whole.evalId, evalId);
  assert.equal(whole.episodes.length, 4);
  assert.equal(whole.overall.success.n, 4);
  assert.ok(whole.episodes.some((e) => e.episodeId === first.episodes[0].episodeId), 'the finished episode is kept, not rerun');
  assert.deepEqual(new Set(whole.episodes.map((e) => `${e.family}:${e.seed}:${e.run}`)).size, 4);
  assert.equal(whole.decoding.steps, whole.episodes.reduce((n, e) => n + e.steps, 0), 'decoding totals include the earlier episode');
  assert.equal(JSON.parse(readFileSync(whole.path, 'utf8')).episodes.length, 4);

  // The same id with another request is refused before anything runs.
  await assert.rejects(runEval(deps, { ...request, seeds: 2 }, { evalId }), new RegExp(`evaluation ${evalId}: .*request\\.json records a different request`));
  await assert.rejects(runEval(deps, { ...request, runs: 1 }, { evalId }), new RegExp(`evaluation ${evalId}: .*records 2 runs; a continuation may add runs, not drop them`));
});

test('a finished evaluation asked for another run keeps its episodes and runs only the new run\'s', async () => {
  const deps = { envs: [fx.env], server: fx.server, store: fx.store, browserKind: 'chromium' };
  const evalId = newEvalId();
  const first = await runEval(deps, { ...request, runs: 1 }, { evalId });
  assert.equal(first.episodes.length, 2);
  const seen: Array<[number, number]> = [];
  const more = await runEval(deps, request, { evalId, onEpisode: (done, total) => seen.push([done, total]) });
  assert.deepEqual(seen, [[3, 4], [4, 4]], 'only run 1 ran');
  assert.deepEqual(more.episodes.filter((e) => e.run === 0).map((e) => e.episodeId).sort(), first.episodes.map((e) => e.episodeId).sort());
  assert.equal(more.overall.success.n, 4);
  // The request now records two runs: continuing it with one would drop a run.
  assert.equal(JSON.parse(readFileSync(evalFiles(labPaths.eval(fx.store.dir, evalId)).request, 'utf8')).runs, 2);
  await assert.rejects(runEval(deps, { ...request, runs: 1 }, { evalId }), /records 2 runs/);
});

test('lab eval --resume ID continues a stopped evaluation with its recorded request; an unknown id is refused', async () => {
  const deps = { envs: [fx.env], server: fx.server, store: fx.store, browserKind: 'chromium' };
  const evalId = newEvalId();
  const stop = new AbortController();
  const first = await runEval(deps, request, { evalId, signal: stop.signal, onEpisode: () => stop.abort() });
  // Flags that would describe another evaluation are ignored: the recorded request runs.
  const report = JSON.parse((await runLab('--lab', fx.store.dir, 'eval', '--resume', evalId, '--tasks', 'flights', '--seeds', '3', '--json')).stdout);
  assert.equal(report.evalId, evalId);
  assert.equal(report.request.tasks, 'calendar,shop');
  assert.equal(report.episodes.length, 4);
  assert.ok(report.episodes.some((e: { episodeId: string }) => e.episodeId === first.episodes[0].episodeId));
  // --runs on the command line adds runs to it.
  const extended = JSON.parse((await runLab('--lab', fx.store.dir, 'eval', '--resume', evalId, '--runs', '3', '--json')).stdout);
  assert.equal(extended.episodes.length, 6);
  assert.equal(extended.request.runs, 3);
  await assert.rejects(runLab('--lab', fx.store.dir, 'eval', '--resume', 'nope'), /--resume: no evaluation nope to continue in .*evals/);
  // "all" is recorded as the families it meant then, so a continuation after families are added runs the same set.
  const held = JSON.parse((await runLab('--lab', fx.store.dir, 'eval', '--split', 'heldout', '--seeds', '1', '--max-steps', '1', '--backend', 'wasm', '--json')).stdout);
  assert.equal(held.request.tasks, 'restaurants,wiki');
});

test('greedy evaluation is deterministic: the same request twice gives the same episodes, action for action and output for output', async () => {
  // What every comparison of evaluations rests on: a difference between two policies' results
  // comes from their weights, not from the run (page timing, decoding order, seeds).
  const deps = { envs: [fx.env], server: fx.server, store: fx.store, browserKind: 'chromium' };
  const req: EvalRequest = { ...request, tasks: 'flights,shop', runs: 1, maxSteps: 4 };
  const trace = async () => {
    const r = await runEval(deps, req, { evalId: newEvalId() });
    return r.episodes.map((e) => {
      const ep = fx.store.readEpisode(e.episodeId);
      return { task: `${e.family}:${e.seed}`, success: e.success, steps: ep.steps.map((s) => [s.action, s.io?.output]) };
    });
  };
  const first = await trace();
  assert.equal(first.length, 2);
  assert.ok(first.every((e) => e.steps.length > 0 && e.steps.every(([, out]) => typeof out === 'string' && out.length > 0)), 'every step recorded its output');
  assert.deepEqual(await trace(), first);
});
