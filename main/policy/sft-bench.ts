/**
 * SFT step throughput, measured: the same samples and model shape trained under several step
 * implementations in one process, warm-up first, then repeated timed runs. What `lab bench sft`
 * prints, so a change to the training step is judged against the old step in the same run.
 */
import { TransformerLM, defaultModelConfig, type ModelConfig } from '../models/model.ts';
import { setNativeRowKernels } from '../models/native-backend.ts';
import { Rng } from '../common/rng.ts';
import { AdamW } from '../models/train.ts';
import { batchPicker, sftBatch } from './sft.ts';
import type { EncodedSample } from './sft-data.ts';
import { tMean } from '../common/stats.ts';

export interface SftStepVariant {
  name: string;
  embedding: TransformerLM['trainEmbedding'];
  /** Draw each batch from samples of similar length (less padding) instead of uniformly. */
  lengthBuckets: boolean;
  /**
   * Keep the parsed samples (page text and all) alive while stepping, as `train sft` did until
   * 2026-12-05: every full GC then traces them, and the tensors' memory churn triggers one every
   * ~0.1 s. Measured only when the caller can load them (`holdParsed`).
   */
  holdParsed?: boolean;
  /**
   * Samples per step when not the caller's batch. Larger batches spread the per-op overhead that
   * dominates a step at these model sizes over more tokens (the issue names batching as a lever).
   */
  batch?: number;
  /**
   * The step's kernels as they were until 2026-12-05: the pointer's targets by a broadcast Equal,
   * one-hot label products, TF.js's softmax gradient, the cpu backend's gather and pad.
   */
  legacyKernels?: boolean;
  /** The pointer's continuation bonus (ModelConfig.copyNext, `train sft --copy-next`): what it costs a step. */
  copyNext?: boolean;
}

export const SFT_STEP_VARIANTS: SftStepVariant[] = [
  { name: 'one-hot embeddings, random batches, parsed samples held (before 2026-12-03)', embedding: 'one-hot', lengthBuckets: false, holdParsed: true, legacyKernels: true },
  { name: 'gathered embeddings, random batches, parsed samples held (2026-12-03 to 12-05)', embedding: 'gather', lengthBuckets: false, holdParsed: true, legacyKernels: true },
  { name: 'gathered embeddings, random batches, kernels before 2026-12-05 (12-05 morning)', embedding: 'gather', lengthBuckets: false, legacyKernels: true },
  { name: 'gathered embeddings, length-bucketed batches, kernels before 2026-12-05', embedding: 'gather', lengthBuckets: true, legacyKernels: true },
  { name: 'gathered embeddings, random batches (SFT now)', embedding: 'gather', lengthBuckets: false },
  { name: 'gathered embeddings, length-bucketed batches (--length-buckets)', embedding: 'gather', lengthBuckets: true },
  { name: 'gathered embeddings, length-bucketed batches of 16', embedding: 'gather', lengthBuckets: true, batch: 16 },
  { name: 'gathered embeddings, random batches, the pointer\'s continuation bonus (--copy-next)', embedding: 'gather', lengthBuckets: false, copyNext: true },
];

export interface SftBenchRow {
  variant: string;
  /** Sample tokens (padding excluded) per second: mean over repeats, with a 95% t interval. */
  tokensPerSec: { mean: number; low: number; high: number; runs: number[] };
  /** Share of the processed positions that were padding. */
  paddingShare: number;
  msPerStep: number;
  /** Samples per step. */
  batch: number;
  speedup: number;
  /** Parsed samples held in memory while stepping (variants that hold them). */
  heldSamples?: number;
}

/**
 * @param o.holdParsed loads the parsed samples again, for the variants that hold them while
 *   stepping (without it those variants are left out)
 */
export function benchSftSteps(seqs: readonly EncodedSample[], model: Partial<ModelConfig> & { vocabSize: number }, o: { batch: number; steps: number; warmup: number; repeats: number; variants?: SftStepVariant[]; holdParsed?: () => readonly unknown[] }): SftBenchRow[] {
  const rows: SftBenchRow[] = [];
  for (const v of (o.variants ?? SFT_STEP_VARIANTS).filter((x) => !x.holdParsed || o.holdParsed)) {
    // Reachable until this variant's rows are written (it is read again below), so the GC traces it throughout.
    const held = v.holdParsed ? o.holdParsed!() : [];
    setNativeRowKernels(!v.legacyKernels);
    let timed: ReturnType<typeof timeVariant>;
    try {
      timed = timeVariant(v, seqs, model, o);
    } finally {
      setNativeRowKernels(true);
    }
    const { runs, real, padded, ms } = timed;
    rows.push({ variant: v.name, tokensPerSec: interval(runs), paddingShare: 1 - real / padded, msPerStep: ms / (o.repeats * o.steps), batch: v.batch ?? o.batch, speedup: 1, ...(v.holdParsed ? { heldSamples: held.length } : {}) });
  }
  for (const r of rows) r.speedup = r.tokensPerSec.mean / rows[0].tokensPerSec.mean;
  return rows;
}

/** Warm-up, then `repeats` timed runs of `steps` steps of one variant on a fresh model. */
function timeVariant(v: SftStepVariant, seqs: readonly EncodedSample[], model: Partial<ModelConfig> & { vocabSize: number }, o: { batch: number; steps: number; warmup: number; repeats: number }) {
  const m = new TransformerLM({ ...defaultModelConfig, ...model, satTokens: 0, seed: 1, ...(v.copyNext ? { copyNext: true } : {}) });
  m.trainEmbedding = v.embedding;
  m.legacyTrainStep = !!v.legacyKernels;
  const opt = new AdamW(m, 0.01);
  const next = batchPicker(seqs, v.batch ?? o.batch, v.lengthBuckets, new Rng(7));
  const step = () => {
    const picked = next();
    const b = sftBatch(picked);
    opt.step(b, 1e-3, 1, 0);
    return { real: picked.reduce((n, s) => n + s.ids.length - 1, 0), padded: b.batch * b.len };
  };
  try {
    for (let i = 0; i < o.warmup; i++) step();
    const runs: number[] = [];
    let real = 0;
    let padded = 0;
    let ms = 0;
    for (let r = 0; r < o.repeats; r++) {
      let tokens = 0;
      const t0 = performance.now();
      for (let i = 0; i < o.steps; i++) {
        const n = step();
        tokens += n.real;
        real += n.real;
        padded += n.padded;
      }
      const dt = performance.now() - t0;
      ms += dt;
      runs.push(tokens / (dt / 1000));
    }
    return { runs, real, padded, ms };
  } finally {
    opt.dispose();
    m.dispose();
  }
}

/** Mean and 95% t interval of a few repeated measurements. */
function interval(xs: number[]): SftBenchRow['tokensPerSec'] {
  const m = tMean(xs);
  const mean = m.value ?? NaN;
  return { mean, low: m.ci95?.low ?? mean, high: m.ci95?.high ?? mean, runs: xs };
}
