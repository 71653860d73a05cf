/**
 * The training loop, top to bottom (nanoGPT style): plain language modelling (`kind: 'lm'`) and
 * SDSAT fine-tuning of a trained model (`kind: 'sdsat'`). Runs wherever it is called; the CLI runs
 * it in a worker thread (./train-worker.ts). Checkpoints (model + optimizer + loop state) go to
 * `outDir` every `checkpointEvery` steps and on cancellation, and a run resumes from them.
 */
import * as tf from '@tensorflow/tfjs';
import { existsSync, readFileSync } from 'node:fs';
import { selectBackend } from './backend.ts';
import { ADAMW_KERNEL } from './native-backend.ts';
import { sampleBatch, buildBatch, type Batch, type SatBlocks } from './batches.ts';
import { isCheckpoint, loadModel, loadTokenizer, saveModel, type SatSettings } from './checkpoint.ts';
import { writeFileAtomic } from '../store/json-file.ts';
import { appendJsonlLine } from '../store/jsonl.ts';
import { readTrainState, writeTrainState } from './train-state.ts';
import { TransformerLM, defaultModelConfig } from './model.ts';
import { Rng } from '../common/rng.ts';
import { Tokenizer, tokenizerSample, trainTokenizer } from './tokenizer.ts';
import { greedyWindows } from './distill.ts';

import type { TrainJob } from './train-job.ts';
import { modelFiles } from '../store/lab-files.ts';
import { runTrainingLoop } from './loop.ts';

export { defaultTrainJob, type TrainJob } from './train-job.ts';

export interface TrainProgress {
  step: number;
  steps: number;
  loss: number;
  satLoss: number | null;
  lr: number;
  tokensPerSec: number;
  elapsedS: number;
  valLoss: number | null;
}

export interface TrainResult {
  outDir: string;
  kind: TrainJob['kind'];
  backend: string;
  stepsDone: number;
  cancelled: boolean;
  resumedFrom: number;
  parameters: number;
  trainTokens: number;
  tokensPerSec: number;
  finalLoss: number;
  /** Validation loss on standard tokens of the final model. */
  valLoss: number;
  /** sdsat: the same measure for the base model, measured in this run on the same tokens. */
  baseValLoss: number | null;
  /** sdsat: SAT loss on validation cut points. */
  valSatLoss: number | null;
  elapsedS: number;
}

export interface TrainHooks {
  onProgress?(p: TrainProgress): void;
  onLog?(line: string): void;
  /** Polled once per step; true stops the run after saving a checkpoint. */
  shouldStop?(): boolean;
}

interface LoopState {
  step: number;
  rng: number;
  tokensSeen: number;
}

export async function train(job: TrainJob, hooks: TrainHooks = {}): Promise<TrainResult> {
  const backend = await selectBackend(job.backend);
  hooks.onLog?.(`backend: ${backend.id}`);
  const t0 = performance.now();
  const trainText = readFileSync(job.trainFile, 'utf8');
  const valText = readFileSync(job.valFile, 'utf8');
  const resuming = job.resume && isCheckpoint(job.outDir) && existsSync(modelFiles(job.outDir).trainState);

  let model: TransformerLM;
  let tokenizer: Tokenizer;
  let sat: SatSettings | null = null;
  // sdsat: the base model stays loaded to report its validation loss beside the tuned one's.
  const baseLoaded = job.kind === 'sdsat' && job.base ? loadModel(job.base) : null;
  const base = baseLoaded?.model ?? null;
  if (resuming) {
    const loaded = loadModel(job.outDir);
    ({ model, tokenizer, sat } = loaded);
    hooks.onLog?.(`resuming from ${job.outDir}`);
  } else if (job.kind === 'lm') {
    tokenizer = job.tokenizerFrom && isCheckpoint(job.tokenizerFrom) ? loadTokenizer(job.tokenizerFrom)
      : trainTokenizer([tokenizerSample(trainText)], job.vocabSize ?? defaultModelConfig.vocabSize);
    model = new TransformerLM({ ...defaultModelConfig, ...job.model, vocabSize: tokenizer.vocabSize, satTokens: 0, seed: job.seed });
  } else {
    if (!baseLoaded || !job.sat) throw new Error('sdsat training needs a base model and SAT settings');
    tokenizer = baseLoaded.tokenizer;
    sat = { mode: job.sat.mode, k: job.sat.k };
    model = baseLoaded.model.withSatTokens(sat.mode === 'shared' ? 1 : sat.k);
  }

  const trainTokens = Int32Array.from(tokenizer.encode(trainText));
  const valTokens = Int32Array.from(tokenizer.encode(valText));
  hooks.onLog?.(`tokens: train ${trainTokens.length}, validation ${valTokens.length}; parameters ${model.parameterCount}`);
  const satBlocks: SatBlocks | undefined = job.kind === 'sdsat' && sat && job.sat
    ? { sat, vocabSize: model.config.vocabSize, blocks: job.sat.blocks } : undefined;

  let distilled: { all: Int32Array; rows: number } | null = null;
  if (base && job.sat?.distillWindows) {
    const d0 = performance.now();
    const windows = greedyWindows(base, trainTokens, job.sat.distillWindows, job.seqLen + 1, 32, new Rng(job.seed + 1));
    const all = new Int32Array(trainTokens.length + windows.length);
    all.set(trainTokens);
    all.set(windows, trainTokens.length);
    distilled = { all, rows: job.sat.distillWindows };
    hooks.onLog?.(`distilled ${windows.length} tokens of greedy continuations in ${((performance.now() - d0) / 1000).toFixed(1)} s`);
  }
  const nextBatch = (): Batch => {
    if (!distilled) return sampleBatch(trainTokens, job.batch, job.seqLen, rng, satBlocks);
    const nDist = Math.round(job.batch * (job.sat?.distillShare ?? 0.5));
    const starts: number[] = [];
    for (let b = 0; b < job.batch; b++) {
      starts.push(b < nDist ? trainTokens.length + rng.below(distilled.rows) * (job.seqLen + 1) : rng.below(trainTokens.length - job.seqLen - 1));
    }
    const batch = buildBatch(distilled.all, starts, job.seqLen, rng, satBlocks);
    batch.stdWeight.fill(0, 0, nDist * batch.len);
    return batch;
  };

  const opt = new AdamW(model, job.weightDecay);
  const state: LoopState = { step: 0, rng: job.seed, tokensSeen: 0 };
  if (resuming) {
    Object.assign(state, readTrainState<LoopState>(job.outDir, job));
    opt.load(modelFiles(job.outDir).optimizer, state.step);
  }
  const resumedFrom = state.step;
  const rng = new Rng(state.rng);
  const meta = () => ({ kind: job.kind, backend: backend.id, tfVersion: backend.tfVersion, step: state.step, job });
  const checkpoint = async (done: number) => {
    state.step = done;
    await saveModel(job.outDir, { model, tokenizer, sat, meta: meta() });
    opt.save(modelFiles(job.outDir).optimizer);
    state.rng = rng.state;
    writeTrainState(job.outDir, state, job);
  };

  let lastLoss = NaN;
  let lastSat: number | null = null;
  const tokensPerStep = job.batch * job.seqLen;
  const loop = await runTrainingLoop({
    from: state.step, steps: job.steps, shouldStop: hooks.shouldStop, checkpointEvery: job.checkpointEvery,
    step: (i) => {
      const lr = learningRate(job, i);
      const { std, satLoss } = opt.step(nextBatch(), lr, job.gradClip, job.sat?.weight ?? 0);
      lastLoss = std;
      lastSat = satBlocks ? satLoss : null;
      state.tokensSeen += tokensPerStep;
      return lr;
    },
    evalEvery: job.evalEvery, evaluate: () => evaluate(model, valTokens, job.seqLen, job.evalTokens),
    record: ({ done, out: lr, valLoss, elapsedS }) => hooks.onProgress?.({
      step: done, steps: job.steps, loss: lastLoss, satLoss: lastSat, lr,
      tokensPerSec: ((done - resumedFrom) * tokensPerStep) / Math.max(elapsedS, 1e-9), elapsedS, valLoss,
    }),
    checkpoint,
  });
  const { cancelled, elapsedS: loopS } = loop;
  const finalVal = evaluate(model, valTokens, job.seqLen, job.evalTokens);
  const baseVal = base ? evaluate(base, valTokens, job.seqLen, job.evalTokens) : null;
  const valSat = satBlocks ? evaluateSat(model, valTokens, job.seqLen, job.evalTokens, satBlocks) : null;
  const result: TrainResult = {
    outDir: job.outDir, kind: job.kind, backend: backend.id, stepsDone: state.step, cancelled, resumedFrom,
    parameters: model.parameterCount, trainTokens: trainTokens.length,
    tokensPerSec: ((state.step - resumedFrom) * tokensPerStep) / Math.max(loopS, 1e-9),
    finalLoss: lastLoss, valLoss: finalVal, baseValLoss: baseVal, valSatLoss: valSat,
    elapsedS: (performance.now() - t0) / 1000,
  };
  appendJsonlLine(modelFiles(job.outDir).runs, { time: new Date().toISOString(), ...result, job });
  model.dispose();
  base?.dispose();
  opt.dispose();
  return result;
}

/** Linear warm-up, then cosine decay to minLr. */
export function learningRate(job: Pick<TrainJob, 'lr' | 'minLr' | 'warmup' | 'steps'>, step: number): number {
  if (step < job.warmup) return (job.lr * (step + 1)) / job.warmup;
  const t = Math.min(1, (step - job.warmup) / Math.max(1, job.steps - job.warmup));
  return job.minLr + 0.5 * (job.lr - job.minLr) * (1 + Math.cos(Math.PI * t));
}

/** Losses (mean cross-entropy) of one batch: standard rows and SAT rows separately. */
export function batchLosses(model: TransformerLM, b: Batch): { std: tf.Scalar; sat: tf.Scalar } {
  const ids = tf.tensor1d(b.ids, 'int32');
  const pos = tf.tensor1d(b.pos, 'int32');
  const bias = tf.tensor4d(b.bias, [b.biasShared ? 1 : b.batch, 1, b.len, b.len]);
  const nll = tf.neg(model.labelLogProbs(ids, pos, bias, b.batch, b.len, tf.tensor1d(b.labels, 'int32')));
  const mean = (w: Float32Array) => {
    const n = w.reduce((a, x) => a + x, 0);
    return n === 0 ? tf.scalar(0) : tf.div(tf.sum(tf.mul(nll, tf.tensor1d(w))), n) as tf.Scalar;
  };
  return { std: mean(b.stdWeight), sat: mean(b.satWeight) };
}

/** Mean next-token loss on standard tokens over consecutive windows of validation text. */
export function evaluate(model: TransformerLM, tokens: Int32Array, seqLen: number, maxTokens: number): number {
  return evaluateWindows(model, tokens, seqLen, maxTokens, undefined).std;
}

/** Mean SAT loss at fixed-seed cut points of the validation windows. */
export function evaluateSat(model: TransformerLM, tokens: Int32Array, seqLen: number, maxTokens: number, sat: SatBlocks): number {
  return evaluateWindows(model, tokens, seqLen, maxTokens, sat).sat;
}

function evaluateWindows(model: TransformerLM, tokens: Int32Array, seqLen: number, maxTokens: number, sat: SatBlocks | undefined) {
  const starts: number[] = [];
  for (let s = 0; s + seqLen + 1 <= tokens.length && starts.length * seqLen < maxTokens; s += seqLen) starts.push(s);
  if (starts.length === 0) throw new Error(`validation text shorter than one window of ${seqLen + 1} tokens`);
  const rng = new Rng(12345);
  let std = 0;
  let satSum = 0;
  let n = 0;
  for (let i = 0; i < starts.length; i += 8) {
    const b = buildBatch(tokens, starts.slice(i, i + 8), seqLen, rng, sat);
    const [s, t] = tf.tidy(() => {
      const l = batchLosses(model, b);
      return [l.std.dataSync()[0], l.sat.dataSync()[0]];
    });
    const w = b.batch;
    std += s * w;
    satSum += t * w;
    n += w;
  }
  return { std: std / n, sat: satSum / n };
}

/** AdamW with global-norm gradient clipping; its moments are saved with checkpoints. */
export class AdamW {
  private readonly names: string[];
  private m: tf.Variable[];
  private v: tf.Variable[];
  private t = 0;

  constructor(private readonly model: TransformerLM, private readonly weightDecay: number,
    private readonly b1 = 0.9, private readonly b2 = 0.95, private readonly eps = 1e-8) {
    this.names = [...model.params.keys()];
    this.m = this.names.map((n) => tf.variable(tf.zerosLike(model.p(n)), false));
    this.v = this.names.map((n) => tf.variable(tf.zerosLike(model.p(n)), false));
  }

  step(batch: Batch, lr: number, clip: number, satWeight: number): { std: number; satLoss: number } {
    let std = 0;
    let sat = 0;
    this.minimize(() => {
      const l = batchLosses(this.model, batch);
      std = l.std.dataSync()[0];
      sat = l.sat.dataSync()[0];
      return (satWeight > 0 ? tf.add(l.std, tf.mul(l.sat, satWeight)) : l.std) as tf.Scalar;
    }, lr, clip);
    return { std, satLoss: sat };
  }

  /**
   * One update on any scalar loss of the model's parameters (what losses other than next-token
   * cross-entropy, such as the Salvage-DS objective, train with). Returns the gradient's global
   * norm before clipping.
   */
  minimize(loss: () => tf.Scalar, lr: number, clip: number): { gradNorm: number } {
    this.t++;
    return tf.tidy(() => {
      const vars = this.names.map((n) => this.model.p(n));
      const { grads } = tf.variableGrads(loss, vars);
      const gs = vars.map((v) => grads[v.name]);
      const norm = Math.sqrt(tf.addN(gs.map((g) => tf.sum(tf.square(g)))).dataSync()[0]);
      const scale = norm > clip ? clip / norm : 1;
      const c1 = 1 - this.b1 ** this.t;
      const c2 = 1 - this.b2 ** this.t;
      const fused = tf.getKernel(ADAMW_KERNEL, tf.getBackend()) !== undefined;
      this.names.forEach((name, i) => {
        const p = vars[i];
        // Decay matrices only; gains, biases and embeddings keep their scale (GPT-2 practice).
        const decays = p.rank === 2 && name !== 'wte' && name !== 'wpe';
        if (fused) {
          const attrs = { lr, b1: this.b1, b2: this.b2, eps: this.eps, c1, c2, wd: decays ? this.weightDecay : 0, gradScale: scale };
          const [np, nm, nv] = tf.engine().runKernel(ADAMW_KERNEL, { p, g: gs[i], m: this.m[i], v: this.v[i] }, attrs) as tf.Tensor[];
          p.assign(np);
          this.m[i].assign(nm);
          this.v[i].assign(nv);
          return;
        }
        const g = tf.mul(gs[i], scale);
        this.m[i].assign(tf.add(tf.mul(this.m[i], this.b1), tf.mul(g, 1 - this.b1)));
        this.v[i].assign(tf.add(tf.mul(this.v[i], this.b2), tf.mul(tf.square(g), 1 - this.b2)));
        let update = tf.div(tf.div(this.m[i], c1), tf.add(tf.sqrt(tf.div(this.v[i], c2)), this.eps));
        if (decays) update = tf.add(update, tf.mul(p, this.weightDecay));
        p.assign(tf.sub(p, tf.mul(update, lr)));
      });
      return { gradNorm: norm };
    });
  }

  save(path: string): void {
    const parts = [...this.m, ...this.v].map((t) => t.dataSync() as Float32Array);
    const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
    writeFileAtomic(path, new Uint8Array(out.buffer));
  }

  load(path: string, step: number): void {
    const raw = readFileSync(path);
    const data = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
    let o = 0;
    for (const t of [...this.m, ...this.v]) {
      t.assign(tf.tensor(data.subarray(o, o + t.size), t.shape));
      o += t.size;
    }
    if (o !== data.length) throw new Error(`optimizer state in ${path} does not match the model`);
    this.t = step;
  }

  dispose(): void {
    for (const t of [...this.m, ...this.v]) t.dispose();
  }
}
