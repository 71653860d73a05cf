/**
 * SDSAT tuning of a compact policy on its own SFT samples (`lab train sdsat --base POLICY --samples
 * FILE`): the SAT objective of ../models/train.ts on the SFT data path. Each sequence is a whole
 * prompt and target at its true positions; the standard loss falls on the target only (as in SFT);
 * SAT blocks are cut inside the target, where the policy drafts when it acts.
 *
 * Why not the generic recipe on the policy's text corpus: random windows put nearly every SAT block
 * in page text, and the policy tuned that way drafted its actions poorly (mean acceptance length
 * 1.13, SDSAT at 0.78x AR on 133 evaluation steps).
 */
import { existsSync, copyFileSync } from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { selectBackend } from '../models/backend.ts';
import type { Batch } from '../models/batches.ts';
import { satId } from '../models/batches.ts';
import { isCheckpoint, loadModel, saveModel, type SatSettings } from '../models/checkpoint.ts';
import { MASKED, type TransformerLM } from '../models/model.ts';
import { Rng } from '../common/rng.ts';
import { readTrainState, writeTrainState } from '../models/train-state.ts';
import { AdamW, batchLosses, learningRate, type TrainHooks, type TrainJob, type TrainResult } from '../models/train.ts';
import { appendJsonlLine } from '../store/jsonl.ts';
import { readPolicySettings } from './settings.ts';
import { compactSample, encodeSample, readPolicySamples, type EncodeSettings, type EncodedSample } from './sft-data.ts';
import type { Tokenizer } from '../models/tokenizer.ts';
import { modelFiles } from '../store/lab-files.ts';
import { runTrainingLoop } from '../models/loop.ts';

/**
 * An SFT batch (target tokens carry the standard loss) with `blocks` SAT blocks per sequence. Block
 * cut c is the last standard token a block sees; SAT i sits at position c+i and learns the token at
 * c+i+1. Cuts fall from the prompt's last token (where acting starts) to the end of the target.
 */
export function satSftBatch(seqs: readonly EncodedSample[], sat: SatSettings, vocabSize: number, blocks: number, rng: Rng): Batch {
  const batch = seqs.length;
  const k = sat.k;
  const std = Math.max(...seqs.map((s) => s.ids.length)) - 1;
  if (std < 1) throw new Error('SFT samples need at least two tokens');
  const len = std + blocks * k;
  const ids = new Int32Array(batch * len);
  const pos = new Int32Array(batch * len);
  const labels = new Int32Array(batch * len);
  const stdWeight = new Float32Array(batch * len);
  const satWeight = new Float32Array(batch * len);
  const bias = new Float32Array(batch * len * len).fill(MASKED);
  seqs.forEach((s, b) => {
    const n = s.ids.length;
    for (let i = 0; i < std; i++) {
      pos[b * len + i] = i;
      bias.fill(0, b * len * len + i * len, b * len * len + i * len + i + 1);
      if (i + 1 >= n) continue;
      ids[b * len + i] = s.ids[i];
      labels[b * len + i] = s.ids[i + 1];
      stdWeight[b * len + i] = s.mask[i + 1];
    }
    const lo = Math.max(0, s.promptLength - 1);
    const hi = Math.max(lo, n - 3);
    for (let blk = 0; blk < blocks; blk++) {
      const c = lo + rng.below(hi - lo + 1);
      for (let i = 1; i <= k; i++) {
        const row = std + blk * k + (i - 1);
        ids[b * len + row] = satId(sat, vocabSize, i - 1);
        pos[b * len + row] = c + i;
        // A target shorter than the block: positions past its end carry no label.
        if (c + i + 1 < n) {
          labels[b * len + row] = s.ids[c + i + 1];
          satWeight[b * len + row] = 1;
        }
        const base = b * len * len + row * len;
        bias.fill(0, base, base + c + 1);
        bias.fill(0, base + std + blk * k, base + row + 1);
      }
    }
  });
  return { batch, len, ids, pos, labels, stdWeight, satWeight, bias, biasShared: false };
}

/** Mean standard (target) and SAT losses over the samples, with fixed cuts (seeded) so runs compare. */
function losses(model: TransformerLM, seqs: readonly EncodedSample[], sat: SatSettings | null, blocks: number): { std: number; sat: number | null } {
  const rng = new Rng(12345);
  let stdSum = 0, stdN = 0, satSum = 0, satN = 0;
  for (let i = 0; i < seqs.length; i += 8) {
    const b = satSftBatch(seqs.slice(i, i + 8), sat ?? { mode: 'distinct', k: 1 }, model.config.vocabSize, sat ? blocks : 0, rng);
    const ws = b.stdWeight.reduce((a, x) => a + x, 0);
    const wt = b.satWeight.reduce((a, x) => a + x, 0);
    const [l, t] = tf.tidy(() => {
      const r = batchLosses(model, b);
      return [r.std.dataSync()[0], r.sat.dataSync()[0]];
    });
    stdSum += l * ws;
    stdN += ws;
    satSum += t * wt;
    satN += wt;
  }
  return { std: stdN ? stdSum / stdN : NaN, sat: sat && satN ? satSum / satN : null };
}

/**
 * The samples file, encoded; in a function of its own so the parsed samples (page text and all)
 * are garbage once it returns instead of being traced by every full GC of the run (see
 * ./sft.ts encodeSftData).
 */
function encodeSatData(path: string, tokenizer: Tokenizer, enc: EncodeSettings) {
  const samples = readPolicySamples(path);
  const train = samples.filter((s) => s.split === 'train').map((s) => compactSample(encodeSample(tokenizer, s, enc)));
  if (!train.length) throw new Error(`${path}: no training samples (split "train")`);
  const validation = samples.filter((s) => s.split === 'validation');
  const val = (validation.length ? validation : samples.slice(0, 64)).slice(0, 128).map((s) => encodeSample(tokenizer, s, enc));
  return { train, val, validationCount: validation.length };
}

export async function satTunePolicy(job: TrainJob, hooks: TrainHooks = {}): Promise<TrainResult> {
  if (!job.base || !job.sat || !job.samplesFile) throw new Error('policy SAT tuning needs a base policy, SAT settings and a samples file');
  const backend = await selectBackend(job.backend);
  hooks.onLog?.(`backend: ${backend.id}`);
  const t0 = performance.now();
  const settings = readPolicySettings(job.base);
  const base = loadModel(job.base);
  const sat: SatSettings = { mode: job.sat.mode, k: job.sat.k };
  const resuming = job.resume && isCheckpoint(job.outDir) && existsSync(modelFiles(job.outDir).trainState);
  const model = resuming ? loadModel(job.outDir).model : base.model.withSatTokens(sat.mode === 'shared' ? 1 : sat.k);
  const { tokenizer } = base;

  const { train, val, validationCount } = encodeSatData(job.samplesFile, tokenizer, { prompt: settings.prompt, ctx: model.config.ctx, reserve: settings.reserve, targets: settings.targets, promptWeight: 0 });
  const baseLoss = losses(base.model, val, null, 0).std;
  hooks.onLog?.(`samples: train ${train.length}, validation ${validationCount}; base policy target loss ${baseLoss.toFixed(4)}; parameters ${model.parameterCount}`);

  const opt = new AdamW(model, job.weightDecay);
  const state = { step: 0, rng: job.seed, tokensSeen: 0 };
  if (resuming) {
    Object.assign(state, readTrainState<typeof state>(job.outDir, job));
    opt.load(modelFiles(job.outDir).optimizer, state.step);
  }
  const resumedFrom = state.step;
  const rng = new Rng(state.rng);
  const checkpoint = async (done: number) => {
    state.step = done;
    await saveModel(job.outDir, { model, tokenizer, sat, meta: { kind: 'sdsat-policy', backend: backend.id, tfVersion: backend.tfVersion, step: state.step, job } });
    copyFileSync(modelFiles(job.base as string).policySettings, modelFiles(job.outDir).policySettings);
    opt.save(modelFiles(job.outDir).optimizer);
    state.rng = rng.state;
    writeTrainState(job.outDir, state, job);
  };

  let lastLoss = NaN;
  let lastSat: number | null = null;
  let tokens = 0;
  const satJob = job.sat;
  const { cancelled, elapsedS: loopS } = await runTrainingLoop({
    from: state.step, steps: job.steps, shouldStop: hooks.shouldStop, checkpointEvery: job.checkpointEvery, checkpoint,
    step: (i) => {
      const lr = learningRate(job, i);
      const picked = Array.from({ length: job.batch }, () => train[rng.below(train.length)]);
      const batch = satSftBatch(picked, sat, model.config.vocabSize, satJob.blocks, rng);
      tokens += picked.reduce((n, s) => n + s.ids.length, 0);
      const l = opt.step(batch, lr, job.gradClip, satJob.weight);
      lastLoss = l.std;
      lastSat = l.satLoss;
      state.tokensSeen = tokens;
      return lr;
    },
    evalEvery: job.evalEvery, evaluate: () => losses(model, val, sat, satJob.blocks).std,
    record: ({ done, out: lr, valLoss, elapsedS }) =>
      hooks.onProgress?.({ step: done, steps: job.steps, loss: lastLoss, satLoss: lastSat, lr, tokensPerSec: tokens / Math.max(elapsedS, 1e-9), elapsedS, valLoss }),
  });
  const final = losses(model, val, sat, satJob.blocks);
  const result: TrainResult = {
    outDir: job.outDir, kind: 'sdsat', backend: backend.id, stepsDone: state.step, cancelled, resumedFrom, parameters: model.parameterCount,
    trainTokens: train.reduce((n, s) => n + s.ids.length, 0), tokensPerSec: tokens / Math.max(loopS, 1e-9), finalLoss: lastLoss,
    valLoss: final.std, baseValLoss: baseLoss, valSatLoss: final.sat, elapsedS: (performance.now() - t0) / 1000,
  };
  appendJsonlLine(modelFiles(job.outDir).runs, { time: new Date().toISOString(), ...result, samples: job.samplesFile, job });
  model.dispose();
  base.model.dispose();
  opt.dispose();
  return result;
}
