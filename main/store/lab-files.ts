/**
 * The files inside the lab's folders, by folder kind: ./layout.ts says where a run, an evaluation,
 * an experiment or a model lives; this file says what each one holds. Every module that reads or
 * writes one of these files asks here for its path, so a format's file name is written once and a
 * reader can see a folder's whole content in one place.
 *
 * Each folder kind is a function of the folder (`evalFiles(dir).report`), not of the lab, because
 * the same kinds of folder also live outside a lab: a model or policy in resources/models/, an
 * experiment's policies under its own folder, a `--out` chosen on the command line.
 */
import { join } from 'node:path';

/** A collection run, LAB/runs/ID/ (../collection/collect-run.ts). */
export const runFiles = (dir: string) => ({
  /** The run's configuration as started; a resumed run must ask for the same. */
  config: join(dir, 'config.json'),
  /** One line per attempt as it ends: what a resumed run skips. */
  progress: join(dir, 'progress.jsonl'),
  /** The review view's keep/discard decisions, appended (../server/review-decisions.ts). */
  review: join(dir, 'review.jsonl'),
  /** The finished run's totals. */
  summary: join(dir, 'summary.json'),
});

/** A policy evaluation, LAB/evals/ID/ (../evaluation/eval.ts). */
export const evalFiles = (dir: string) => ({
  /** What the evaluation runs; a continuation must ask for the same. */
  request: join(dir, 'request.json'),
  /** Each finished episode with its decoding totals, appended as it ends, so a stopped evaluation can continue. */
  episodes: join(dir, 'episodes.jsonl'),
  /** The finished evaluation's report. */
  report: join(dir, 'report.json'),
  /** The critical states mined from its failures (../policy/mining-file.ts). */
  mining: join(dir, 'mining.json'),
});

/** A one-command experiment, LAB/experiments/ID/ (../experiment/folder.ts). */
export const experimentFiles = (dir: string) => ({
  /** The recorded configuration, with its amendments. */
  config: join(dir, 'config.json'),
  /** One line per stage event (started, progress, done, reopened). */
  stages: join(dir, 'stages.jsonl'),
  /** Which process runs the experiment now (../experiment/run-lock.ts). */
  runLock: join(dir, 'run.lock'),
  /** The finished experiment's report, and its renderings beside it. */
  report: join(dir, 'report.json'),
  reportHtml: join(dir, 'report.html'),
  /** What each finished stage produced (outputs/STAGE.json), read by the stages after it. */
  outputs: join(dir, 'outputs'),
  stageOutputs: (stage: string) => join(dir, 'outputs', `${stage}.json`),
  /** The policies the experiment trains (policies/STAGE/: SFT and each Salvage-DS variant and seed). */
  policies: join(dir, 'policies'),
  policy: (stage: string) => join(dir, 'policies', stage),
  /** The SFT stages' loss curves (curves/STAGE.jsonl), appended as they train. */
  curves: join(dir, 'curves'),
  curve: (stage: string) => join(dir, 'curves', `${stage}.jsonl`),
  /** What an amendment took out of the way of a stage it reopened (set-aside/TIME/). */
  setAside: (stamp: string) => join(dir, 'set-aside', stamp),
});

/**
 * A model or policy folder: LAB/models/NAME/, LAB/policies/NAME/, an experiment's policies, or
 * resources/models/ (../models/checkpoint.ts and the trainers that write into it).
 */
export const modelFiles = (dir: string) => ({
  /** Architecture, configuration and the weights' manifest. */
  model: join(dir, 'model.json'),
  weights: join(dir, 'weights.bin'),
  tokenizer: join(dir, 'tokenizer.json'),
  /** The optimizer's moments at the last checkpoint, so a resumed run continues the same update. */
  optimizer: join(dir, 'optimizer.bin'),
  /** The training loop's state at the last checkpoint and the job that ran it (../models/train-state.ts). */
  trainState: join(dir, 'train-state.json'),
  /** The SFT loop's per-step record (../policy/train-log.ts). */
  trainLog: join(dir, 'train-log.jsonl'),
  /** One line per finished training run in this folder. */
  runs: join(dir, 'runs.jsonl'),
  /** The decoding benchmark the folder ships, which picks the default decoder (../decode/default-mode.ts). */
  benchDecode: join(dir, 'bench-decode.json'),
  /** A policy's prompt and target settings (../policy/settings.ts). */
  policySettings: join(dir, 'policy.json'),
  /** The dataset steps SFT trained on, frozen into the folder (../policy/sft-data.ts). */
  sftSamples: join(dir, 'sft-samples.jsonl'),
  /** Salvage-DS: per-iteration statistics, the job, the loop state, and the states it trains on (../policy/salvage/). */
  salvageStats: join(dir, 'salvage-stats.jsonl'),
  salvageConfig: join(dir, 'salvage-config.json'),
  salvageState: join(dir, 'salvage-state.json'),
  salvageStates: join(dir, 'salvage-states.jsonl'),
});

/** The files of a complete checkpoint (model.json last written, so it marks one). */
export const checkpointFiles = (dir: string) => { const f = modelFiles(dir); return [f.model, f.weights, f.tokenizer]; };

/** A dataset, LAB/datasets/NAME/ (../datasets/draft.ts): the next version as the review view gathers it. */
export const datasetFiles = (dir: string) => ({ draft: join(dir, 'draft.json') });

/** A frozen dataset version, LAB/datasets/NAME/vN/ (../datasets/manifest.ts). */
export const datasetVersionFiles = (dir: string) => ({ manifest: join(dir, 'manifest.json') });

