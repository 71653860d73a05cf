import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTraining } from '../../main/models/train-runner.ts';
import { defaultTrainJob, type TrainJob } from '../../main/models/train.ts';
import { tinyCorpus } from './corpus.ts';
import { modelFiles } from '../../main/store/lab-files.ts';

test('training runs in a worker thread, reports progress, cancels with a checkpoint and resumes', async () => {
  const corpus = tinyCorpus();
  const job: TrainJob = {
    ...defaultTrainJob, kind: 'lm', outDir: join(corpus.dir, 'lm'), trainFile: corpus.trainFile, valFile: corpus.valFile,
    steps: 40, batch: 4, seqLen: 16, warmup: 2, evalEvery: 1000, evalTokens: 64, checkpointEvery: 1000, resume: true, vocabSize: 280,
    backend: 'wasm', model: { dModel: 16, nLayer: 1, nHead: 2, dFF: 32, ctx: 32 },
  };
  const steps: number[] = [];
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1); // the caller's event loop keeps running meanwhile
  const first = startTraining(job, {
    progress: (p) => {
      steps.push(p.step);
      if (p.step === 3) first.cancel();
    },
  });
  const r1 = await first.result;
  assert.equal(r1.cancelled, true);
  assert.ok(r1.stepsDone >= 3 && r1.stepsDone < 40, `stopped at ${r1.stepsDone}`);
  assert.equal(r1.backend, 'wasm');
  const second = startTraining(job);
  const r2 = await second.result;
  clearInterval(timer);
  assert.ok(ticks > 0);
  assert.equal(r2.resumedFrom, r1.stepsDone);
  assert.equal(r2.stepsDone, 40);
  assert.equal(r2.cancelled, false);
  const runs = readFileSync(modelFiles(job.outDir).runs, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(runs.length, 2);
  assert.ok(runs.every((r) => r.backend === 'wasm'));
});
