import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useTaskEnvironment, type TaskEnvironmentFixture } from '../helpers/environment.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import { createDataset } from '../../main/datasets/index.ts';
import { registeredRuns } from '../../main/policy/registry.ts';
import { runLab as lab } from '../helpers/lab-cli.ts';
import { modelFiles } from '../../main/store/lab-files.ts';

let fx: TaskEnvironmentFixture;
useTaskEnvironment('lab-policy-cli-', (f) => (fx = f));

test('`lab train sft` from a manifest file and `lab eval --json` write a policy folder and a report with intervals', async () => {
  const deps = { env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind };
  const oracle = await runEpisode(deps, { family: 'calendar', seed: 3, tier: 1, agent: (i) => i.family.oracle(i.ctx) });
  createDataset(fx.store, { name: 'one', filter: { ids: [oracle.id] }, ratios: { train: 1, validation: 0, test: 0 } });
  const manifestPath = join(fx.store.dir, 'datasets', 'one', 'v1', 'manifest.json');
  const out = mkdtempSync(join(tmpdir(), 'lab-policy-cli-'));
  const tiny = ['--d-model', '16', '--layers', '1', '--heads', '2', '--d-ff', '32', '--ctx', '256', '--vocab', '300', '--max-page-chars', '200'];
  const trained = JSON.parse((await lab('train', 'sft', '--dataset', manifestPath, '--out', out, '--steps', '3', '--backend', 'wasm', '--targets', 'action', '--mark-task-matches', '--prompt-weight', '0.2', ...tiny, '--json')).stdout);
  assert.equal(trained.stepsDone, 3);
  for (const f of ['model.json', 'weights.bin', 'tokenizer.json', 'policy.json', 'sft-samples.jsonl', 'corpus/train.txt']) assert.ok(existsSync(join(out, f)), f);
  const settings = JSON.parse(readFileSync(modelFiles(out).policySettings, 'utf8'));
  assert.equal(settings.targets, 'action');
  assert.equal(settings.prompt.markTaskMatches, true);
  assert.equal(settings.prompt.elementOrder, 'task');
  // Run again without those flags: it resumes (nothing left to do) with the recorded prompt, targets and weight.
  const again = JSON.parse((await lab('train', 'sft', '--dataset', manifestPath, '--out', out, '--steps', '3', '--backend', 'wasm', ...tiny, '--json')).stdout);
  assert.equal(again.resumedFrom, 3);
  assert.deepEqual(JSON.parse(readFileSync(modelFiles(out).policySettings, 'utf8')), settings);
  assert.equal(JSON.parse(readFileSync(modelFiles(out).trainState, 'utf8')).job.promptWeight, 0.2);
  await assert.rejects(lab('train', 'sft', '--dataset', manifestPath, '--out', out, '--steps', '5', '--backend', 'wasm', ...tiny), /cannot resume with steps 5 \(the run has 3\)/);
  // The app's training view finds the run through the lab's registry, and draws its per-step log.
  assert.deepEqual(registeredRuns(fx.store.dir).map((r) => [r.kind, r.dir]), [['sft', out]]);
  assert.equal(readFileSync(modelFiles(out).trainLog, 'utf8').trim().split('\n').length, 3);
  const report = JSON.parse((await lab('--lab', fx.store.dir, 'eval', '--policy', out, '--tasks', 'calendar', '--seeds', '1', '--runs', '2', '--tier', '1', '--max-steps', '2', '--screenshots', '--json')).stdout);
  assert.equal(report.overall.episodes, 2);
  const evalEpisode = fx.store.readEpisode(report.episodes[0].episodeId);
  assert.ok(evalEpisode.steps.every((st) => st.observation.screenshot && fx.store.blobs.has(st.observation.screenshot)), 'eval --screenshots stores a screenshot per step');
  assert.deepEqual(report.episodes.map((e: { seed: number; run: number }) => [e.seed, e.run]), [[10000, 0], [10001, 1]]);
  assert.ok(report.overall.success.ci95.high > 0);
  assert.ok(existsSync(report.path));
  assert.equal(fx.store.readEpisode(report.episodes[0].episodeId).header.agent.name, 'policy');
  await assert.rejects(lab('train', 'sft', '--dataset', manifestPath, '--out', out, '--targets', 'thoughts'), /--targets must be thought\+action or action/);
  await assert.rejects(lab('train', 'sft', '--dataset', manifestPath, '--out', out, '--prompt-weight', '2'), /--prompt-weight must be a number from 0 to 1, got "2"/);
  await assert.rejects(lab('train', 'sft', '--dataset', manifestPath, '--out', out, '--answer', 'cite'), /--answer cite needs --thought element/);
  await assert.rejects(lab('train', 'sft', '--dataset', manifestPath, '--out', out, '--copy-next', '--no-copy'), /--copy-next is part of the copy path/);
});
