import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSftJob, trainSft, type SftJob } from '../../main/policy/sft.ts';
import { defaultPromptSettings } from '../../main/policy/prompt.ts';
import { TrainLogLine } from '../../main/policy/train-log.ts';
import { readJsonl } from '../../main/store/jsonl.ts';
import { shopSamples } from './salvage-fixture.ts';
import { resourcePath } from '../../main/paths.ts';
import { modelFiles } from '../../main/store/lab-files.ts';

function job(outDir: string, samplesFile: string): SftJob {
  return {
    ...defaultSftJob, outDir, samplesFile, dataset: { name: 'synthetic', version: 1 }, steps: 16, batch: 2, warmup: 4, evalEvery: 5,
    checkpointEvery: 1000, vocabSize: 300, model: { dModel: 16, nLayer: 1, nHead: 2, dFF: 32, ctx: 192 }, prompt: defaultPromptSettings, backend: 'wasm',
  };
}

const log = (dir: string) => readJsonl(modelFiles(dir).trainLog, TrainLogLine).records;

test('SFT logs every step to train-log.jsonl; a resumed run drops the lines past its checkpoint and continues the same curve', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-sft-log-'));
  const samples = join(dir, 'samples.jsonl');
  writeFileSync(samples, shopSamples().map((s) => JSON.stringify(s)).join('\n') + '\n');

  const straight = join(dir, 'straight');
  await trainSft(job(straight, samples));
  const full = log(straight);
  assert.deepEqual(full.map((l) => l.step), Array.from({ length: 16 }, (_, i) => i + 1));
  assert.deepEqual(full.filter((l) => l.valLoss !== undefined).map((l) => l.step), [5, 10, 15, 16]);
  assert.ok(full.every((l) => l.loss !== null && l.loss > 0 && l.lr > 0));

  // Stopped after step 6 (checkpoint there); then, as if a later worker was killed past its
  // checkpoint, two more lines and half of a third are on disk.
  const out = join(dir, 'interrupted');
  let steps = 0;
  await trainSft(job(out, samples), { onProgress: (p) => void (steps = p.step), shouldStop: () => steps >= 6 });
  assert.equal(log(out).length, 6);
  appendFileSync(modelFiles(out).trainLog, JSON.stringify({ ...full[6], loss: 99 }) + '\n' + JSON.stringify({ ...full[7], loss: 99 }) + '\n{"step":9,"lo');
  const resumed = await trainSft(job(out, samples));
  assert.equal(resumed.resumedFrom, 6);
  // Line for line the uninterrupted run's curve (resuming is bit-identical); tokens/s is a timing.
  const curve = (ls: TrainLogLine[]) => ls.map(({ tokensPerSec: _, ...rest }) => rest);
  assert.deepEqual(curve(log(out)), curve(full));
  // A run started over (no resume) starts a fresh log.
  await trainSft({ ...job(out, samples), resume: false, steps: 3 });
  assert.deepEqual(log(out).map((l) => l.step), [1, 2, 3]);
  assert.equal(readFileSync(modelFiles(out).trainLog, 'utf8').split('\n').length, 4);
});

test('SFT with init starts from that policy: its tokenizer, its architecture, its weights (the first validation loss is the init\'s)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-sft-init-'));
  const samples = join(dir, 'samples.jsonl');
  writeFileSync(samples, shopSamples().map((s) => JSON.stringify(s)).join('\n') + '\n');
  const base = join(dir, 'base');
  const trained = await trainSft(job(base, samples));
  // A different architecture asked for, which init replaces; lr 0 leaves the weights as they were.
  const tuned = join(dir, 'tuned');
  const result = await trainSft({ ...job(tuned, samples), init: base, steps: 2, lr: 0, minLr: 0, evalEvery: 1, model: { dModel: 32, nLayer: 2, nHead: 2, dFF: 64, ctx: 192 }, vocabSize: 280 });
  assert.equal(result.parameters, trained.parameters);
  assert.equal(readFileSync(modelFiles(tuned).tokenizer, 'utf8'), readFileSync(modelFiles(base).tokenizer, 'utf8'));
  assert.ok(Math.abs(result.valLoss - trained.valLoss) < 1e-5, `validation loss ${result.valLoss} equals the init's ${trained.valLoss}`);
  // The checkpoint records the architecture it trained, not the flags init replaced.
  const meta = (d: string) => JSON.parse(readFileSync(modelFiles(d).model, 'utf8')).meta.job;
  assert.deepEqual(meta(tuned).model, { ...meta(base).model, copy: JSON.parse(readFileSync(modelFiles(base).model, 'utf8')).config.copy });
  assert.equal(meta(tuned).vocabSize, JSON.parse(readFileSync(modelFiles(base).model, 'utf8')).config.vocabSize);
  // Asked for, the pointer's continuation bonus is added to the init's weights at zero: the same validation loss at first.
  const next = join(dir, 'next');
  const withNext = await trainSft({ ...job(next, samples), init: base, steps: 2, lr: 0, minLr: 0, evalEvery: 1, model: { ...job(next, samples).model, copyNext: true } });
  assert.equal(withNext.parameters, trained.parameters + 16 + 1);
  assert.ok(Math.abs(withNext.valLoss - trained.valLoss) < 1e-5, `with the bonus at zero ${withNext.valLoss}, the init's ${trained.valLoss}`);
  assert.equal(JSON.parse(readFileSync(modelFiles(next).model, 'utf8')).config.copyNext, true);
  assert.equal(meta(next).model.copyNext, true);
  // A SAT-tuned model is refused, by name.
  await assert.rejects(trainSft({ ...job(join(dir, 'sat'), samples), init: resourcePath('models', 'sdsat-code') }), /SAT-tuned model/);
  // A fresh run of the same job without init starts from random weights: a far higher loss.
  const scratch = await trainSft({ ...job(join(dir, 'scratch'), samples), steps: 2, lr: 0, minLr: 0, evalEvery: 1 });
  assert.ok(scratch.valLoss > trained.valLoss + 0.5, `from scratch ${scratch.valLoss} against ${trained.valLoss}`);
});
