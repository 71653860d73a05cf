/**
 * An SFT job's settings and their defaults, apart from the training loop (./sft.ts) so the CLI and
 * the experiment's configuration can name them without loading TF.js.
 */
import type { ModelConfig } from '../models/model.ts';
import type { LoopSettings } from '../models/train-job.ts';
import type { PromptSettings } from './prompt.ts';
import type { Targets } from './sft-data.ts';

export interface SftJob extends LoopSettings {
  outDir: string;
  /** sft-samples.jsonl: the dataset's steps as policy samples (split field: train / validation / test). */
  samplesFile: string;
  dataset: { name: string; version: number } | null;
  model: Partial<ModelConfig>;
  vocabSize: number;
  targets: Targets;
  prompt: PromptSettings;
  reserve: number;
  /** Validation samples per evaluation (all when fewer). */
  evalSamples: number;
  /** Loss weight of prompt tokens in training (see EncodeSettings.promptWeight); validation loss counts target tokens only. Absent in jobs recorded before it existed: 0. */
  promptWeight?: number;
  /**
   * How the tokenizer chunks text: `separate` keeps spaces out of words (SEPARATE_SPACE_PATTERN), so
   * the copy path can copy a word wherever it stands. Absent in jobs recorded before it: `attached`.
   */
  tokenizerSpaces?: TokenizerSpaces;
  /**
   * Draw each batch from samples of similar length (a random run of neighbours in length order), so
   * less of a step is padding (`lab bench sft`: 1.10x tokens/s). Off by default: whether batches of
   * neighbours learn as well as uniform ones is not measured yet. Absent in older jobs: false.
   */
  lengthBuckets?: boolean;
  /**
   * A policy folder whose weights and tokenizer a new run starts from (a fine-tune: its
   * architecture replaces `model` and `vocabSize`; the optimizer starts fresh). Absent: random weights.
   */
  init?: string;
}

export const TOKENIZER_SPACES = ['attached', 'separate'] as const;
export type TokenizerSpaces = (typeof TOKENIZER_SPACES)[number];

/**
 * Defaults sized for two CPU cores: a 2-layer, 64-wide model with a 384-token context (prompts
 * average ~290 tokens with the default page budget). Measured on the shared 2-core machine under
 * load: 1,517 tokens/s on the native kernels, 1,068 on wasm (same run), so 300 steps of 8 take
 * ~8 minutes there; an idle machine is roughly twice as fast.
 */
export const defaultSftModel: Partial<ModelConfig> = { dModel: 64, nLayer: 2, nHead: 4, dFF: 256, ctx: 384, copy: true };

export const defaultSftJob = {
  steps: 300, batch: 8, lr: 3e-3, minLr: 3e-4, warmup: 30, weightDecay: 0.01, gradClip: 1, seed: 1,
  evalEvery: 50, checkpointEvery: 50, resume: true, vocabSize: 1024, targets: 'thought+action' as Targets, reserve: 64, evalSamples: 64, promptWeight: 0.1,
  tokenizerSpaces: 'separate' as TokenizerSpaces, lengthBuckets: false,
};
