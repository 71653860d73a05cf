/**
 * `lab eval --miniwob` on the fixture checkout (pages written for the tests, no MiniWoB++ code),
 * with the shipped policy in real Chromium: test seeds of each task, one byFamily row per task,
 * the miniwob block with the 56-task mean; the request records the checkout, so `--resume ID`
 * serves the same tasks again without --miniwob, as does `lab mine --eval ID`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useTaskEnvironment, type TaskEnvironmentFixture } from '../helpers/environment.ts';
import { newEvalId, runEval, type EvalRequest } from '../../main/evaluation/eval.ts';
import { findMiniwobRoot, miniwobFamilies } from '../../main/tasks/miniwob/loader.ts';
import { SHIPPED_POLICY } from '../../main/policy/shipped.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { labPaths } from '../../main/store/layout.ts';
import { evalFiles } from '../../main/store/lab-files.ts';
import { runLab } from '../helpers/lab-cli.ts';

const CHECKOUT = join(import.meta.dirname, '..', 'fixtures', 'miniwob');

let fx: TaskEnvironmentFixture;
useTaskEnvironment('lab-eval-miniwob-', (f) => (fx = f), () => {
  const families = builtinFamilies();
  for (const f of miniwobFamilies(CHECKOUT)) families.set(f.name, f);
  return families;
});

test('an evaluation of MiniWoB++ tasks runs their test seeds, reports per task and the two means; lab eval --resume serves the recorded checkout', async () => {
  const request: EvalRequest = {
    policy: { dir: SHIPPED_POLICY, sampling: { kind: 'greedy' }, backend: 'wasm' },
    tasks: 'miniwob.click-button,miniwob.enter-text', split: 'test', seeds: 1, runs: 1, parallel: 1, maxSteps: 2,
    miniwob: { root: findMiniwobRoot(CHECKOUT) },
  };
  const deps = { envs: [fx.env], server: fx.server, store: fx.store, browserKind: 'chromium' };
  const evalId = newEvalId();
  const stop = new AbortController();
  const first = await runEval(deps, request, { evalId, signal: stop.signal, onEpisode: () => stop.abort() });
  assert.equal(first.episodes.length, 1);
  const recorded = JSON.parse(readFileSync(evalFiles(labPaths.eval(fx.store.dir, evalId)).request, 'utf8'));
  assert.equal(recorded.miniwob.root, findMiniwobRoot(CHECKOUT));

  // Continued from the command line with no --miniwob: the recorded checkout is served again.
  const report = JSON.parse((await runLab('--lab', fx.store.dir, 'eval', '--resume', evalId, '--json')).stdout);
  assert.equal(report.episodes.length, 2);
  assert.deepEqual(report.episodes.map((e: { family: string; seed: number }) => `${e.family}:${e.seed}`).sort(), ['miniwob.click-button:10000', 'miniwob.enter-text:10000']);
  assert.deepEqual(Object.keys(report.byFamily), ['miniwob.click-button', 'miniwob.enter-text']);
  assert.equal(report.byFamily['miniwob.click-button'].success.n, 1);
  assert.ok(report.byFamily['miniwob.click-button'].success.ci95, 'a Wilson interval per task');
  const solved = report.episodes.filter((e: { success: boolean }) => e.success).length;
  assert.equal(report.miniwob.set56.tasks, 56);
  assert.equal(report.miniwob.set56.run, 2);
  assert.equal(report.miniwob.set56.notRun.length, 54);
  assert.ok(Math.abs(report.miniwob.set56.mean - solved / 56) < 1e-12);
  assert.deepEqual(report.miniwob.run, { tasks: 2, mean: solved / 2 });
  // Each episode is MiniWoB++'s, as BrowserGym seeds it, and the page decided it.
  const ep = fx.store.readEpisode(report.episodes[0].episodeId);
  assert.equal(ep.header.task.checker, 'page');

  // Mining serves the recorded checkout too: the oracle's references run on the same instances.
  const mined = JSON.parse((await runLab('--lab', fx.store.dir, 'mine', '--eval', evalId, '--json')).stdout);
  assert.equal(mined.failures, 2 - solved);
});

test('lab eval --miniwob names its tasks by set or name, records the checkout, and prints the table with the means', async () => {
  const { stdout, stderr } = await runLab('--lab', fx.store.dir, 'eval', '--miniwob', CHECKOUT, '--tasks', 'click-button,click-color', '--seeds', '1', '--max-steps', '1', '--backend', 'wasm');
  assert.match(stdout, /miniwob\.click-button\s+\d\/1/);
  assert.match(stdout, /miniwob\.click-color\s+\d\/1/, 'a task named runs even where no agent can solve it');
  assert.match(stdout, /MiniWoB\+\+: mean success over the 2 tasks run \d+\.\d%; over the 56-task set \d+\.\d% \(2 run, 54 counted as failures\)/);
  assert.match(stdout, /not run, not a task page of the checkout: book-flight, choose-date, /);
  assert.doesNotMatch(stderr, /not run: /, 'named tasks leave nothing out');
  await assert.rejects(runLab('--lab', fx.store.dir, 'eval', '--miniwob', CHECKOUT, '--tasks', 'book-flight'), /no MiniWoB\+\+ task "book-flight" in the checkout/);
  await assert.rejects(runLab('--lab', fx.store.dir, 'eval', '--miniwob', CHECKOUT, '--split', 'heldout'), /--split test, not heldout/);
});
