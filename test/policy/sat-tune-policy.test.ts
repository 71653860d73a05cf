/**
 * SAT tuning of a compact policy on its own SFT samples (`lab train sdsat --base POLICY --samples
 * FILE`), in the policy's worker: the tuned folder is a policy (its policy.json copied), its
 * standard-token loss is reported beside the base's, and a job with samples is refused by the
 * language-model worker instead of being run there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultTrainJob } from '../../main/models/train-job.ts';
import { startTraining } from '../../main/models/train-runner.ts';
import { startSatTune } from '../../main/policy/sft-runner.ts';
import { loadModel } from '../../main/models/checkpoint.ts';
import { modelFiles } from '../../main/store/lab-files.ts';
import { tinyPolicy } from './salvage-fixture.ts';

test('a policy SAT-tunes on its samples in its own worker; the language-model worker refuses such a job', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-sat-policy-'));
  const base = await tinyPolicy(dir, 30);
  const job = {
    ...defaultTrainJob, kind: 'sdsat' as const, outDir: join(dir, 'sat'), base, samplesFile: modelFiles(dir).sftSamples, trainFile: '', valFile: '',
    steps: 4, batch: 2, warmup: 1, evalEvery: 1000, checkpointEvery: 1000, backend: 'wasm',
    sat: { mode: 'distinct' as const, k: 2, blocks: 1, weight: 1, distillWindows: 0 },
  };
  const steps: number[] = [];
  const result = await startSatTune(job, { progress: (p) => steps.push(p.step) }).result;
  assert.equal(result.stepsDone, 4);
  assert.deepEqual(steps, [1, 2, 3, 4]);
  assert.ok(result.baseValLoss !== null && Number.isFinite(result.valLoss), `losses ${result.valLoss} vs base ${result.baseValLoss}`);
  assert.ok(existsSync(modelFiles(job.outDir).policySettings), 'the tuned folder carries the base policy.json');
  assert.equal(loadModel(job.outDir).model.config.satTokens, 2);

  await assert.rejects(startTraining({ ...job, outDir: join(dir, 'lm') }).result, /startSatTune/);
});
