/**
 * Supervised fine-tuning of the compact policy, top to bottom. Runs wherever it is called; the CLI
 * runs it in a worker thread (./sft-runner.ts). The model folder holds everything: the samples
 * (sft-samples.jsonl, written before training), the tokenizer trained on them, the checkpoint
 * (model, optimizer, loop state) every `checkpointEvery` steps and on cancellation, and
 * policy.json. A run started again on the same folder resumes where the checkpoint left off.
 *
 * Each step draws `batch` samples, pads them to the longest and trains on the masked next-token
 * loss (see ./sft-data.ts): padding carries no loss, prompt tokens the job's prompt weight (0 by
 * default in the data, 0.1 in defaultSftJob), and the validation loss counts target tokens only.
 */
import { existsSync, mkdirSync } from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { selectBackend } from '../models/backend.ts';
import type { Batch } from '../models/batches.ts';
import { isCheckpoint, loadModel, saveModel } from '../models/checkpoint.ts';
import { writeFileAtomic } from '../store/json-file.ts';
import { appendJsonlLine } from '../store/jsonl.ts';
import { readTrainJob, readTrainState, writeTrainState } from '../models/train-state.ts';
import { MASKED, TransformerLM, defaultModelConfig } from '../models/model.ts';
import { Rng } from '../common/rng.ts';
import { END_OF_TEXT, SEPARATE_SPACE_PATTERN, trainTokenizer, type Tokenizer } from '../models/tokenizer.ts';
import { AdamW, batchLosses, learningRate, type TrainHooks, type TrainProgress } from '../models/train.ts';
import { type PolicySettings } from './settings.ts';
import { compactSample, encodeSample, readPolicySamples, tokenizerTexts, type EncodedSample } from './sft-data.ts';
import { appendTrainLog, resetTrainLog } from './train-log.ts';
import { messageVocabulary } from './message-words.ts';
import { defaultSftModel, type SftJob } from './sft-job.ts';
import { modelFiles } from '../store/lab-files.ts';
import { runTrainingLoop } from '../models/loop.ts';

export { TOKENIZER_SPACES, defaultSftJob, defaultSftModel, type SftJob, type TokenizerSpaces } from './sft-job.ts';

export interface SftResult {
  outDir: string;
  backend: string;
  stepsDone: number;
  cancelled: boolean;
  resumedFrom: number;
  parameters: number;
  trainSamples: number;
  validationSamples: number;
  /** Tokens that carried loss per step, on average, and all tokens processed per second. */
  lossTokensPerStep: number;
  tokensPerSec: number;
  finalLoss: number;
  /** Masked loss on validation samples (train samples when the dataset has no validation split). */
  valLoss: number;
  valOn: 'validation' | 'train';
  elapsedS: number;
}

interface LoopState {
  step: number;
  rng: number;
}

export async function trainSft(job: SftJob, hooks: TrainHooks = {}): Promise<SftResult> {
  const backend = await selectBackend(job.backend);
  hooks.onLog?.(`backend: ${backend.id}`);
  const t0 = performance.now();
  const resuming = job.resume && isCheckpoint(job.outDir) && existsSync(modelFiles(job.outDir).trainState);
  const resumed = resuming ? loadModel(job.outDir) : null;
  if (resumed) hooks.onLog?.(`resuming from ${job.outDir}`);
  const initial = !resumed && job.init ? loadModel(job.init) : null;
  // SFT trains the plain next-token head; a SAT-tuned model's extra tokens would be saved as if it had none.
  if (initial && initial.model.config.satTokens > 0) throw new Error(`--init ${job.init}: a SAT-tuned model (${initial.model.config.satTokens} SAT tokens); fine-tune from the policy it was tuned from`);
  if (initial) hooks.onLog?.(`starting from the weights and tokenizer of ${job.init}`);
  const start = resumed ?? initial;
  const config = { ...defaultModelConfig, ...defaultSftModel, ...job.model, satTokens: 0, seed: job.seed };
  const { tokenizer, trainSeqs, valSeqs, valOn, valCount, messageWords } = encodeSftData(job, start?.tokenizer ?? null, start?.model.config.ctx ?? config.ctx);
  // A fine-tune may add the pointer's continuation bonus to a policy trained without it (zero weights: the same outputs at step 0).
  const addNext = initial !== null && job.model.copyNext === true && !initial.model.config.copyNext;
  if (addNext) hooks.onLog?.('adding the pointer\'s continuation bonus (copy.wnext, copy.bnext) to the initial policy');
  const model = start ? (addNext ? start.model.withCopyNext() : start.model) : new TransformerLM({ ...config, vocabSize: tokenizer.vocabSize });
  // The job records the architecture it trained: a fine-tune's (or a resumed run's) is its checkpoint's, not the flags' defaults.
  if (start) {
    const c = model.config;
    job = { ...job, vocabSize: c.vocabSize, model: { dModel: c.dModel, nLayer: c.nLayer, nHead: c.nHead, dFF: c.dFF, ctx: c.ctx, copy: c.copy, ...(c.copyNext ? { copyNext: true } : {}) } };
  }
  // Target tokens: the ones the policy writes (weight 1, or 0 for a masked thought); the prompt's weight comes on top.
  const lossTokens = trainSeqs.reduce((n, s) => n + s.mask.slice(s.promptLength).filter((m) => m > 0).length, 0) / trainSeqs.length;
  hooks.onLog?.(`samples: train ${trainSeqs.length}, validation ${valCount}${valCount ? '' : ' (no validation split: "val" below is the loss on training samples)'}; mean length ${(trainSeqs.reduce((n, s) => n + s.ids.length, 0) / trainSeqs.length).toFixed(0)} tokens, ${lossTokens.toFixed(1)} target tokens with loss, prompt tokens at weight ${job.promptWeight ?? 0}; parameters ${model.parameterCount}`);

  const settings: PolicySettings = { format: 'lab-compact-policy', version: 1, prompt: job.prompt, targets: job.targets, reserve: job.reserve, dataset: job.dataset, messageWords };
  const opt = new AdamW(model, job.weightDecay);
  const state: LoopState = { step: 0, rng: job.seed };
  if (resuming) {
    Object.assign(state, readTrainState<LoopState>(job.outDir, job));
    opt.load(modelFiles(job.outDir).optimizer, state.step);
  }
  const resumedFrom = state.step;
  mkdirSync(job.outDir, { recursive: true });
  resetTrainLog(job.outDir, resumedFrom);
  const rng = new Rng(state.rng);
  // A resumed run draws batches as it began: jobs recorded before length buckets existed drew uniformly.
  if (resuming) job = { ...job, lengthBuckets: (readTrainJob(job.outDir) as Partial<SftJob>).lengthBuckets ?? false };
  const nextBatch = batchPicker(trainSeqs, job.batch, job.lengthBuckets ?? false, rng, job.seed);
  const checkpoint = async (done: number) => {
    state.step = done;
    await saveModel(job.outDir, { model, tokenizer, sat: null, meta: { kind: 'sft', backend: backend.id, tfVersion: backend.tfVersion, step: state.step, job } });
    writeFileAtomic(modelFiles(job.outDir).policySettings, JSON.stringify(settings, null, 2));
    opt.save(modelFiles(job.outDir).optimizer);
    state.rng = rng.state;
    writeTrainState(job.outDir, state, job);
  };

  let lastLoss = NaN;
  let tokens = 0;
  const { cancelled, elapsedS: loopS } = await runTrainingLoop({
    from: state.step, steps: job.steps, shouldStop: hooks.shouldStop, checkpointEvery: job.checkpointEvery, checkpoint,
    step: (i) => {
      const lr = learningRate(job, i);
      const batch = sftBatch(nextBatch());
      tokens += batch.batch * batch.len;
      lastLoss = opt.step(batch, lr, job.gradClip, 0).std;
      return lr;
    },
    evalEvery: job.evalEvery, evaluate: () => maskedLoss(model, valSeqs),
    record: ({ done, out: lr, evaluated, valLoss, elapsedS }) => {
      appendTrainLog(job.outDir, { step: done, loss: Number.isFinite(lastLoss) ? lastLoss : null, lr, tokensPerSec: tokens / Math.max(elapsedS, 1e-9), ...(evaluated ? { valLoss, valOn } : {}) });
      hooks.onProgress?.({ step: done, steps: job.steps, loss: lastLoss, satLoss: null, lr, tokensPerSec: tokens / Math.max(elapsedS, 1e-9), elapsedS, valLoss } satisfies TrainProgress);
    },
  });
  const result: SftResult = {
    outDir: job.outDir, backend: backend.id, stepsDone: state.step, cancelled, resumedFrom, parameters: model.parameterCount,
    trainSamples: trainSeqs.length, validationSamples: valCount, lossTokensPerStep: lossTokens * job.batch,
    tokensPerSec: tokens / Math.max(loopS, 1e-9), finalLoss: lastLoss, valLoss: maskedLoss(model, valSeqs), valOn,
    elapsedS: (performance.now() - t0) / 1000,
  };
  appendJsonlLine(modelFiles(job.outDir).runs, { time: new Date().toISOString(), kind: 'sft', ...result, job });
  model.dispose();
  opt.dispose();
  return result;
}

/**
 * Batches of `size` samples: uniform draws, or a random run of neighbours in length order. Samples
 * of equal length are shuffled first (by `orderSeed`, not `rng`, so a resumed run sorts alike):
 * in dataset order they are often steps of one episode, and a batch of them would say one thing.
 */
export function batchPicker(seqs: readonly EncodedSample[], size: number, lengthBuckets: boolean, rng: Rng, orderSeed = 1): () => EncodedSample[] {
  if (!lengthBuckets) return () => Array.from({ length: size }, () => seqs[rng.below(seqs.length)]);
  const order = new Rng(orderSeed);
  const tieBreak = seqs.map(() => order.next());
  const byLength = seqs.map((s, i) => ({ s, t: tieBreak[i] })).sort((a, b) => a.s.ids.length - b.s.ids.length || a.t - b.t).map((x) => x.s);
  return () => {
    const start = rng.below(Math.max(1, byLength.length - size + 1));
    return byLength.slice(start, start + size);
  };
}

/**
 * The job's samples file, encoded (and the tokenizer trained on its training prompts when there is
 * none yet). A function of its own so that the parsed samples, page text and all (about 180 MB of
 * objects for a 51 MB file), are garbage once it returns: an async function's locals live as long
 * as it runs, and with them every full GC of the run traced them. The tensors' memory churn
 * triggers one every ~0.1 s, so steps took twice as long as `lab bench sft`'s on 256 samples.
 */
function encodeSftData(job: SftJob, tokenizer: Tokenizer | null, ctx: number) {
  const samples = readPolicySamples(job.samplesFile);
  const train = samples.filter((s) => s.split === 'train');
  if (!train.length) throw new Error(`${job.samplesFile}: no training samples (split "train")`);
  const val = samples.filter((s) => s.split === 'validation');
  const tok = tokenizer ?? trainTokenizer(tokenizerTexts(train, job.prompt), job.vocabSize, [END_OF_TEXT], job.tokenizerSpaces === 'separate' ? SEPARATE_SPACE_PATTERN : undefined);
  const enc = { prompt: job.prompt, ctx, reserve: job.reserve, targets: job.targets };
  return {
    tokenizer: tok,
    trainSeqs: train.map((s) => compactSample(encodeSample(tok, s, { ...enc, promptWeight: job.promptWeight ?? 0 }))),
    valSeqs: (val.length ? val : train).slice(0, job.evalSamples).map((s) => encodeSample(tok, s, enc)),
    valOn: (val.length ? 'validation' : 'train') as 'validation' | 'train',
    valCount: val.length,
    messageWords: messageVocabulary(train.map((s) => s.target.action)),
  };
}

/**
 * A padded batch of encoded samples: row i predicts token i+1 and carries loss where the mask of
 * token i+1 is 1. Padding sits after each sequence, so causal attention keeps it out of real rows.
 */
export function sftBatch(seqs: readonly EncodedSample[]): Batch {
  const batch = seqs.length;
  const len = Math.max(...seqs.map((s) => s.ids.length)) - 1;
  if (len < 1) throw new Error('SFT samples need at least two tokens');
  const ids = new Int32Array(batch * len);
  const pos = new Int32Array(batch * len);
  const labels = new Int32Array(batch * len);
  const stdWeight = new Float32Array(batch * len);
  seqs.forEach((s, b) => {
    for (let i = 0; i < len; i++) {
      pos[b * len + i] = i;
      if (i + 1 >= s.ids.length) continue;
      ids[b * len + i] = s.ids[i];
      labels[b * len + i] = s.ids[i + 1];
      stdWeight[b * len + i] = s.mask[i + 1];
    }
  });
  const bias = new Float32Array(len * len).fill(MASKED);
  for (let i = 0; i < len; i++) bias.fill(0, i * len, i * len + i + 1);
  return { batch, len, ids, pos, labels, stdWeight, satWeight: new Float32Array(batch * len), bias, biasShared: true };
}

/** Mean loss per loss-carrying token over the samples, in batches of 8. */
export function maskedLoss(model: TransformerLM, seqs: readonly EncodedSample[]): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < seqs.length; i += 8) {
    const b = sftBatch(seqs.slice(i, i + 8));
    const w = b.stdWeight.reduce((a, x) => a + x, 0);
    const l = tf.tidy(() => batchLosses(model, b).std.dataSync()[0]);
    sum += l * w;
    n += w;
  }
  return n ? sum / n : NaN;
}
