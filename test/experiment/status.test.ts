/**
 * `lab experiment status`: an experiment folder written as a run leaves it (stage events, outputs,
 * SFT curves, an evaluation's episodes.jsonl, Salvage-DS statistics), read back as stage status,
 * progress counted from those files, what finished stages measured, and the time left estimated
 * from finished stages of the same kind. Then the same through the CLI, as text and JSON.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { experimentConfig } from '../../main/experiment/config.ts';
import { ExperimentFolder } from '../../main/experiment/folder.ts';
import { experimentStages, rolloutStageNames } from '../../main/experiment/stages.ts';
import { experimentStatus } from '../../main/experiment/status.ts';
import { experimentFiles, modelFiles } from '../../main/store/lab-files.ts';
import { labPaths } from '../../main/store/layout.ts';
import { formatDuration } from '../../preload/duration.ts';

const root = join(import.meta.dirname, '..', '..');

/** A full-preset experiment stopped in its plain-trained SFT evaluation, with the files a real run writes. */
function stoppedMidEval(): { labDir: string; folder: ExperimentFolder } {
  const labDir = mkdtempSync(join(tmpdir(), 'lab-exp-status-'));
  const folder = ExperimentFolder.create(labDir, experimentConfig('full', 'f'));
  const done = (stage: string, elapsedS: number, outputs: unknown) => {
    folder.log({ stage, status: 'started' });
    folder.finish(stage, outputs, elapsedS);
  };
  const arm = (a: string, successes: number) => ({ arm: a, tasks: 360, successes });
  done('collect-reflect', 1000, { runId: 'f-reflect', summary: { arms: [arm('reflect', 355), arm('blind', 340)] } });
  done('collect-plain', 600, { runId: 'f-plain', summary: { arms: [arm('blind', 340)] } });
  done('datasets', 2, { reflect: { name: 'r', version: 1, episodes: 355, steps: 1363 }, plain: { name: 'p', version: 1, episodes: 340, steps: 1564 } });
  done('sft-reflect', 800, { dir: 'x', result: { valLoss: 0.106, valOn: 'train' } });
  done('sft-plain', 700, { dir: 'y', result: { valLoss: 0.239 } });
  // 810 episodes in 1,620 s: 2 s per test episode.
  done('eval-sft-reflect-test', 1620, { evalId: 'e1', overall: { success: { k: 435, n: 810 } } });
  const evalId = '20261205T110722Z-aa093c';
  folder.log({ stage: 'eval-sft-plain-test', status: 'started' });
  folder.log({ stage: 'eval-sft-plain-test', status: 'resumable', state: { evalId } });
  folder.log({ stage: 'eval-sft-plain-test', status: 'stopped', elapsedS: 300 });
  const evalDir = labPaths.eval(labDir, evalId);
  mkdirSync(evalDir, { recursive: true });
  const ep = (family: string, seed: number, run: number) => JSON.stringify({ family, seed, run, success: true }) + '\n';
  // 100 episodes, one written twice (a resume that repeated it) and a torn last line (a kill mid-write).
  for (let i = 0; i < 100; i++) appendFileSync(join(evalDir, 'episodes.jsonl'), ep('shop', 10000 + i, 0));
  appendFileSync(join(evalDir, 'episodes.jsonl'), ep('shop', 10000, 0) + '{"family":"shop","se');
  return { labDir, folder };
}

test('a stopped experiment: finished stages with what they measured, the stopped evaluation\'s episodes counted, time left from the pace of finished stages', () => {
  const { labDir, folder } = stoppedMidEval();
  const s = experimentStatus(labDir, 'f');
  assert.equal(s.state, 'stopped');
  assert.equal(s.stagesDone, 6);
  assert.equal(s.stages.length, experimentStages(folder.config).length);
  const st = (name: string) => s.stages.find((x) => x.name === name)!;
  assert.equal(st('collect-reflect').summary, 'reflect 355/360, blind 340/360');
  assert.equal(st('datasets').summary, 'reflect 355 episodes / 1363 steps, plain 340 / 1564');
  assert.equal(st('sft-plain').summary, 'validation loss 0.239');
  // A dataset without a validation split: the loss is on training samples, and the summary says so.
  assert.equal(st('sft-reflect').summary, 'loss on training samples (no validation split) 0.106');
  assert.equal(st('eval-sft-reflect-test').summary, 'solved 435/810, 53.7%');
  assert.deepEqual(st('eval-sft-reflect-test').progress, { done: 810, total: 810, unit: 'episodes' });

  const ev = st('eval-sft-plain-test');
  assert.equal(ev.status, 'stopped');
  assert.deepEqual(ev.progress, { done: 100, total: 810, unit: 'episodes' });
  assert.equal(ev.elapsedS, 300);
  // 710 episodes left at the finished test evaluation's 2 s each.
  assert.equal(ev.estimateS, 1420);
  // Held-out and training-seed evaluations have no finished stage of their own: the test pace stands in.
  assert.equal(st('eval-sft-reflect-heldout').estimateS, 2 * experimentStages(folder.config).find((x) => x.name === 'eval-sft-reflect-heldout')!.planned!.total);
  for (const r of folder.config.mine.rollouts!) assert.equal(st(`rollout-${r.name}`).estimateS, 2 * folder.config.families.length * r.seeds * r.runs);
  // Nothing to go by for mining or Salvage-DS yet: named, left out of the total.
  assert.ok(st('mine').estimateS === null && s.remaining.unestimated.includes('mine'));
  assert.ok(st('mine-sft-test').estimateS === null, 'mining SFT\'s test failures: nothing to go by either');
  const salvage = s.stages.filter((x) => x.name.startsWith('salvage-'));
  assert.equal(salvage.length, 3 + 5 * 2, 'Salvage-DS at each of 3 seeds, the five ablations at seeds 1 and 2');
  assert.deepEqual(s.remaining.unestimated, ['mine', 'mine-sft-test', ...salvage.map((x) => x.name)]);
  assert.equal(s.remaining.estimateS, s.stages.reduce((n, x) => n + (x.estimateS ?? 0), 0));
  assert.equal(s.elapsedS, 1000 + 600 + 2 + 800 + 700 + 1620 + 300);
});

test('a finished stage whose outputs were set aside (reopened by an amendment) counts as stopped: it runs again on resume', () => {
  const { labDir, folder } = stoppedMidEval();
  renameSync(folder.outputsPath('eval-sft-reflect-test'), join(labDir, 'set-aside.json'));
  const s = experimentStatus(labDir, 'f');
  const st = s.stages.find((x) => x.name === 'eval-sft-reflect-test')!;
  assert.equal(st.status, 'stopped');
  assert.equal(st.summary, null);
  assert.equal(s.stagesDone, 5);
  assert.equal(ExperimentFolder.read(labDir, 'f').isDone('eval-sft-reflect-test'), false, 'the pipeline sees it the same way');
});

test('a running Salvage-DS stage is estimated from its own iterations until one finishes; the running attempt\'s seconds count', () => {
  const { labDir, folder } = stoppedMidEval();
  folder.finish('eval-sft-plain-test', { evalId: 'e2', overall: { success: { k: 400, n: 810 } } }, 1320);
  for (const stage of ['eval-sft-reflect-heldout', ...rolloutStageNames(folder.config), 'mine', 'mine-sft-test']) {
    folder.log({ stage, status: 'started' });
    folder.finish(stage, stage === 'mine' ? { evalId: 'r', failures: 50, failed: 60 } : { evalId: stage, overall: { success: { k: 1, n: 2 } } }, 100);
  }
  const stats = join(folder.dir, 'policies', 'salvage-salvage-s1');
  mkdirSync(stats, { recursive: true });
  for (let i = 0; i < 6; i++) appendFileSync(modelFiles(stats).salvageStats, JSON.stringify({ iteration: i }) + '\n');
  folder.log({ stage: 'salvage-salvage-s1', status: 'started' });
  const startedAt = Date.parse(folder.events.at(-1)!.at);
  // This process holds the lock: the experiment is running, its last stage 60 s into its attempt.
  writeFileSync(experimentFiles(folder.dir).runLock, JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date(startedAt).toISOString() }));
  const s = experimentStatus(labDir, 'f', { now: startedAt + 60_000 });
  const st = (name: string) => s.stages.find((x) => x.name === name)!;
  assert.equal(s.state, 'running');
  const run = st('salvage-salvage-s1');
  assert.equal(run.status, 'running');
  assert.equal(run.elapsedS, 60);
  assert.deepEqual(run.progress, { done: 6, total: folder.config.salvage.iterations, unit: 'iterations' });
  assert.equal(run.estimateS, (folder.config.salvage.iterations - 6) * 10);
  // The other Salvage-DS stages wait for one to finish; mining, finished, is no longer unestimated.
  assert.deepEqual(s.remaining.unestimated, s.stages.filter((x) => x.name.startsWith('salvage-') && x.name !== 'salvage-salvage-s1').map((x) => x.name));
  assert.equal(st('mine').summary, '50 failures mined of 60 failed');
});

test('lab experiment status prints the table and the time left, --json the same object; an unknown id is named', () => {
  const { labDir } = stoppedMidEval();
  const cli = (...args: string[]) => execFileSync(process.execPath, ['--import', 'tsx', 'main/cli/index.ts', '--lab', labDir, 'experiment', 'status', ...args], { cwd: root, encoding: 'utf8' });
  const text = cli('f');
  assert.match(text, /^experiment f \(preset full, created .*\): stopped$/m);
  assert.match(text, /^6 of 53 stages done, 1 h 24 min of stages so far$/m);
  assert.match(text, /^stopped\s+eval-sft-plain-test\s+5 min\s+100\/810 episodes\s+about 24 min left$/m);
  assert.match(text, /^done\s+eval-sft-reflect-test\s+27 min\s+solved 435\/810, 53.7%$/m);
  const left = experimentStatus(labDir, 'f').remaining.estimateS;
  assert.match(text, new RegExp(`^time left: about ${formatDuration(left)}, plus 15 stage\\(s\\) with nothing to estimate from yet \\(mine, mine-sft-test, salvage-salvage-s1, \\.\\.\\.\\)$`, 'm'));
  const json = JSON.parse(cli('f', '--json'));
  assert.deepEqual(json, JSON.parse(JSON.stringify(experimentStatus(labDir, 'f'))));
  assert.throws(() => execFileSync(process.execPath, ['--import', 'tsx', 'main/cli/index.ts', '--lab', labDir, 'experiment', 'status', 'nope'], { cwd: root, encoding: 'utf8', stdio: 'pipe' }), /no experiment nope in .*experiments/);
});

test('durations read as a person says them', () => {
  assert.deepEqual([40, 59.4, 60, 12 * 60, 3599, 3600, 2 * 3600 + 5 * 60].map(formatDuration), ['40 s', '59 s', '1 min', '12 min', '1 h 00 min', '1 h 00 min', '2 h 05 min']);
});
