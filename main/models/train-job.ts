/**
 * A training job's settings and their defaults, apart from the training loop (./train.ts) so the
 * CLI can print the defaults in its help without loading TF.js.
 */
import type { SatSettings } from './checkpoint.ts';
import type { ModelConfig } from './model.ts';

/** The optimisation loop's settings, shared by language-model training and SFT (policy/sft-job.ts). */
export interface LoopSettings {
  steps: number;
  batch: number;
  lr: number;
  minLr: number;
  warmup: number;
  weightDecay: number;
  gradClip: number;
  seed: number;
  evalEvery: number;
  checkpointEvery: number;
  resume: boolean;
  backend?: string;
}

export interface TrainJob extends LoopSettings {
  kind: 'lm' | 'sdsat';
  /** Model folder: checkpoints go here and a resumed run reads them back. */
  outDir: string;
  trainFile: string;
  valFile: string;
  seqLen: number;
  /** Validation tokens per evaluation (the whole file when larger). */
  evalTokens: number;
  /** lm: model shape and tokenizer size. */
  model?: Partial<ModelConfig>;
  vocabSize?: number;
  /** lm: take the tokenizer of this model folder instead of training one (benchmarks). */
  tokenizerFrom?: string;
  /** sdsat: the trained model to start from, SAT settings, blocks per sequence, SAT loss weight. */
  base?: string;
  /**
   * sdsat of a compact policy: its SFT samples (sft-samples.jsonl). The SAT blocks are cut inside
   * the targets and trainFile/valFile are not read (../policy/sat-tune.ts).
   */
  samplesFile?: string;
  sat?: SatSettings & {
    blocks: number;
    weight: number;
    /**
     * Self-distillation (optional): this many windows continued greedily by the base model, and
     * the share of each batch's rows drawn from them. Those rows train SATs only (no standard loss),
     * so the standard predictions still learn from real text alone.
     */
    distillWindows?: number;
    distillShare?: number;
  };
}

export const defaultTrainJob: Omit<TrainJob, 'kind' | 'outDir' | 'trainFile' | 'valFile'> = {
  steps: 400,
  batch: 16,
  seqLen: 128,
  lr: 2e-3,
  minLr: 3e-4,
  warmup: 50,
  weightDecay: 0.01,
  gradClip: 1,
  seed: 1,
  evalEvery: 200,
  evalTokens: 8192,
  checkpointEvery: 200,
  resume: true,
};
