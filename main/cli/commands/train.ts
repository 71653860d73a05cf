/** `lab train lm` and `lab train sdsat`: train in a worker thread with a progress bar, Ctrl-C to stop. */
import type { Command } from 'commander';
import { cancelOnSigint, int, labDir } from '../runtime.ts';
import { join, resolve } from 'node:path';
import { resourcePath } from '../../paths.ts';
import { startTraining } from '../../models/train-runner.ts';
import { defaultTrainJob, type TrainJob } from '../../models/train-job.ts';
import type { TrainProgress, TrainResult } from '../../models/train.ts';
import { labPaths } from '../../store/layout.ts';
import { progressBar } from '../progress.ts';
import { startSatTune } from '../../policy/sft-runner.ts';
import { existsSync } from 'node:fs';
import { checkpointFiles } from '../../store/lab-files.ts';

export const DEFAULT_CORPUS = resourcePath('corpus', 'typescript-lib');

interface CommonOpts {
  out?: string;
  name: string;
  corpus: string;
  steps: string;
  batch: string;
  seqLen: string;
  lr: string;
  minLr: string;
  warmup: string;
  seed: string;
  evalEvery: string;
  checkpointEvery: string;
  resume: boolean;
  backend?: string;
  json?: boolean;
}

function addCommon(cmd: Command, name: string, d: Partial<TrainJob>): Command {
  return cmd
    .option('--out <dir>', 'model folder (default: <lab>/models/<name>)')
    .option('--name <name>', 'model name inside the lab folder', name)
    .option('--corpus <dir>', 'folder with train.txt and validation.txt', DEFAULT_CORPUS)
    .option('--steps <n>', 'optimizer steps', String(d.steps ?? defaultTrainJob.steps))
    .option('--batch <n>', 'sequences per step', String(d.batch ?? defaultTrainJob.batch))
    .option('--seq-len <n>', 'tokens per sequence', String(d.seqLen ?? defaultTrainJob.seqLen))
    .option('--lr <x>', 'peak learning rate', String(d.lr ?? defaultTrainJob.lr))
    .option('--min-lr <x>', 'final learning rate (cosine decay)', String(d.minLr ?? defaultTrainJob.minLr))
    .option('--warmup <n>', 'warm-up steps', String(d.warmup ?? defaultTrainJob.warmup))
    .option('--seed <n>', 'random seed', String(defaultTrainJob.seed))
    .option('--eval-every <n>', 'steps between validation evaluations', String(defaultTrainJob.evalEvery))
    .option('--checkpoint-every <n>', 'steps between checkpoints', String(defaultTrainJob.checkpointEvery))
    .option('--no-resume', 'start over even if the model folder holds a checkpoint')
    .option('--backend <id>', 'TensorFlow.js backend (default: best available)')
    .option('--json', 'print the result as JSON');
}

function baseJob(kind: TrainJob['kind'], o: CommonOpts, cmd: Command): TrainJob {
  return {
    ...defaultTrainJob,
    kind,
    outDir: o.out ? resolve(o.out) : labPaths.model(labDir(cmd), o.name),
    trainFile: join(o.corpus, 'train.txt'),
    valFile: join(o.corpus, 'validation.txt'),
    steps: int(o.steps), batch: int(o.batch), seqLen: int(o.seqLen), lr: Number(o.lr), minLr: Number(o.minLr),
    warmup: int(o.warmup), seed: int(o.seed), evalEvery: int(o.evalEvery), checkpointEvery: int(o.checkpointEvery),
    resume: o.resume, backend: o.backend,
  };
}

export function registerTrainCommands(program: Command): void {
  const train = program.command('train').description('train models (in a worker thread; Ctrl-C stops and keeps a resumable checkpoint)');

  addCommon(train.command('lm').description('train the code language model and its tokenizer'), 'ts-base', {})
    .option('--vocab <n>', 'tokenizer vocabulary size', '768')
    .option('--d-model <n>', 'model width', '64')
    .option('--layers <n>', 'transformer blocks', '3')
    .option('--heads <n>', 'attention heads', '4')
    .option('--d-ff <n>', 'MLP width', '256')
    .option('--ctx <n>', 'context length', '256')
    .option('--tokenizer-from <dir>', 'use this model folder\'s tokenizer instead of training one (models of several sizes that share one tokenizer compare token for token; --vocab is then unused)')
    .action(async (o: CommonOpts & { vocab: string; dModel: string; layers: string; heads: string; dFf: string; ctx: string; tokenizerFrom?: string }, cmd: Command) => {
      const tokenizerFrom = o.tokenizerFrom && resolve(o.tokenizerFrom);
      if (tokenizerFrom && !checkpointFiles(tokenizerFrom).every((f) => existsSync(f))) throw new Error(`--tokenizer-from ${o.tokenizerFrom}: not a model folder (no model.json, weights.bin and tokenizer.json)`);
      const job: TrainJob = {
        ...baseJob('lm', o, cmd),
        vocabSize: int(o.vocab),
        ...(tokenizerFrom ? { tokenizerFrom } : {}),
        model: { dModel: int(o.dModel), nLayer: int(o.layers), nHead: int(o.heads), dFF: int(o.dFf), ctx: int(o.ctx) },
      };
      await runJob(job, !!o.json);
    });

  // Defaults are the recipe of the tiny model (resources/models/sdsat-ts); the shipped one is scripts/train-shipped-model.sh.
  addCommon(train.command('sdsat').description('fine-tune a trained model with semantic adaptive tokens (SDSAT)'), 'ts-sdsat', { steps: 250, lr: 1e-3, minLr: 1e-4, warmup: 20 })
    .requiredOption('--base <dir>', 'trained model folder to start from')
    .option('--k <n>', 'SAT block length (drafts per loop)', '6')
    .option('--sat-mode <mode>', 'shared (one SAT id repeated) or distinct (k ids)', 'distinct')
    .option('--blocks <n>', 'SAT blocks per training sequence', '8')
    .option('--sat-weight <x>', 'weight of the SAT loss beside the standard loss', '1')
    .option('--distill <n>', 'windows of the base model\'s own greedy continuations to train SATs on as well (0: off)', '384')
    .option('--distill-share <x>', 'share of each batch drawn from the distilled windows', '0.5')
    .option('--samples <file>', 'a compact policy\'s SFT samples (sft-samples.jsonl): SAT blocks cut inside its outputs, where it drafts when acting (--corpus, --seq-len and --distill are then unused)')
    .action(async (o: CommonOpts & { base: string; k: string; satMode: string; blocks: string; satWeight: string; distill: string; distillShare: string; samples?: string }, cmd: Command) => {
      if (o.satMode !== 'shared' && o.satMode !== 'distinct') throw new Error('--sat-mode must be shared or distinct');
      const job: TrainJob = {
        ...baseJob('sdsat', o, cmd),
        base: resolve(o.base),
        ...(o.samples ? { samplesFile: resolve(o.samples) } : {}),
        sat: {
          mode: o.satMode, k: int(o.k), blocks: int(o.blocks), weight: Number(o.satWeight),
          distillWindows: int(o.distill), distillShare: Number(o.distillShare),
        },
      };
      await runJob(job, !!o.json);
    });
}

/** Run one job in a worker: progress bar on a TTY, first Ctrl-C stops cleanly, a second one kills. */
export async function runJob(job: TrainJob, json: boolean): Promise<TrainResult> {
  const bar = await progressBar('{kind} [{bar}] {value}/{total} loss {loss} sat {sat} val {val} | {tps} tok/s', { quiet: json });
  let printed = 0;
  const onProgress = (p: TrainProgress) => {
    const fields = { kind: job.kind, loss: p.loss.toFixed(3), sat: p.satLoss?.toFixed(3) ?? 'n/a', val: p.valLoss?.toFixed(3) ?? 'not yet', tps: p.tokensPerSec.toFixed(0) };
    bar.update(p.step, p.steps, fields);
    if (!bar.drawn && !json && (p.step - printed >= 50 || p.step === p.steps)) {
      process.stderr.write(`${job.kind} step ${p.step}/${p.steps} loss ${fields.loss} sat ${fields.sat} val ${fields.val} ${fields.tps} tok/s\n`);
      printed = p.step;
    }
  };
  // A policy's SAT tuning (--samples) runs in the policy's worker; a language model's in the models' one.
  const handle = (job.samplesFile ? startSatTune : startTraining)(job, { progress: onProgress, log: (line) => { if (!json && !bar.drawn) process.stderr.write(`${line}\n`); } });
  const stopSigint = cancelOnSigint(handle, 'step');
  try {
    const result = await handle.result;
    bar.stop();
    if (json) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    else {
      process.stdout.write(`${result.cancelled ? 'cancelled' : 'done'}: ${result.stepsDone} steps on ${result.backend}, ${result.tokensPerSec.toFixed(0)} tok/s, model in ${result.outDir}\n`);
      process.stdout.write(`validation loss (standard tokens): ${result.valLoss.toFixed(4)}`);
      if (result.baseValLoss !== null) process.stdout.write(`, base model ${result.baseValLoss.toFixed(4)}; SAT loss ${result.valSatLoss?.toFixed(4)}`);
      process.stdout.write('\n');
    }
    return result;
  } finally {
    bar.stop();
    stopSigint();
  }
}
