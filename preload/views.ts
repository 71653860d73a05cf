/**
 * What the UI sees: every type the API contract (./api.ts) sends or takes, declared here so that
 * the renderer and both transports depend on the contract and the server implements it, not the
 * other way round (main/server imports these; nothing here imports main/server).
 */
import type { Arm } from '../main/collection/retries.ts';
import type { CollectConfig, CollectSummary } from '../main/collection/collect-run.ts';
import type { Cut } from '../main/collection/shorten.ts';
import type { DatasetDraft, DraftEntry } from '../main/datasets/draft.ts';
import type { DatasetFilter } from '../main/datasets/filter.ts';
import type { FreezeWarning } from '../main/datasets/freeze-checks.ts';
import type { DatasetStats } from '../main/datasets/manifest.ts';
import type { BenchReport } from '../main/decode/bench.ts';
import type { SizeCurveReport } from '../main/decode/size-curve-report.ts';
import type { DecodeMode, DecodeStats, Sampling, TokenSource, summarize } from '../main/decode/index.ts';
import type { PageElement } from '../main/environment/types.ts';
import type { Interval } from '../main/common/stats.ts';
import type { EvalGroupMetrics, MiningInfo, SalvagePoint, SftPoint } from '../main/policy/output-files.ts';
import type { TrainingKind } from '../main/policy/registry.ts';
import type { EpisodeStatus, EpisodeSummary } from '../main/store/lab.ts';
import type { Provenance } from '../main/store/provenance.ts';

export type { DatasetDraft, DraftEntry, EpisodeStatus, EvalGroupMetrics, MiningInfo, Provenance, SalvagePoint, SftPoint };

/** One line of lab/runs/<id>/review.jsonl (its schema, main/server/review-decisions.ts, is checked against this). */
export interface ReviewDecision {
  type: 'decision';
  task: string;
  episodeId: string;
  decision: 'accept' | 'reject';
  dataset: string;
  /**
   * The dataset version this decision produced, from when each decision froze one; null since
   * decisions go into the dataset's draft (frozen later, many at once), or when nothing changed.
   */
  version: number | null;
  at: string;
}

// ---- training

export interface TrainingRunInfo {
  /** The folder's absolute path: the run's id in the API. */
  dir: string;
  kind: TrainingKind;
  name: string;
  /** Where the run belongs: `experiment ID`, `lab policies`, or `folder PATH` for one registered from elsewhere. */
  group: string;
  /** Steps (SFT) or iterations (Salvage-DS) on disk, and how many the run was asked for (null: not known yet). */
  done: number;
  total: number | null;
  /** When the curve file last changed. */
  updatedAt: string | null;
  /** A few settings worth showing beside the curves (preset, learning rate, ...). */
  settings: Record<string, string | number | boolean | null>;
}

export interface TrainingRunData {
  info: TrainingRunInfo;
  sft: SftPoint[];
  salvage: SalvagePoint[];
  /** Byte offset after the last complete line: watch from here. */
  offset: number;
  errors: string[];
}

export interface EvaluationInfo {
  id: string;
  createdAt: string;
  policyDir: string;
  policyName: string;
  split: string;
  tasks: string;
  seeds: number;
  runs: number;
  tier: number | null;
  overall: EvalGroupMetrics;
  byFamily: Record<string, EvalGroupMetrics>;
  byTier: Record<string, EvalGroupMetrics>;
  /** lab mine's report for this evaluation, when there is one. */
  mining: MiningInfo | null;
}

export interface TrainingList {
  runs: TrainingRunInfo[];
  evaluations: EvaluationInfo[];
  errors: string[];
}

// ---- review

export interface CollectionRunInfo {
  runId: string;
  createdAt: string;
  config: CollectConfig;
  summary: CollectSummary;
  /** Per task instance, in the order the run took them up. */
  tasks: ReviewTaskRow[];
}

export interface ReviewTaskRow {
  task: string;
  family: string;
  seed: number;
  attempts: number;
  /** Per arm: solved within the budget, and at which attempt. */
  arms: Array<{ arm: Arm; success: boolean; solvedAt: number | null }>;
  shortening: { stepsBefore: number; stepsAfter: number; kept: boolean } | null;
  /** The newest decision on any episode of this task, if any. */
  decision: ReviewDecision['decision'] | null;
}

export interface StepView {
  index: number;
  action: string;
  /** The action with its target named from the step's own elements (`click [23] link "Previous day"`). */
  readable: string;
  thought?: string;
  url: string;
  title: string;
  error: string | null;
  /** Page state before the step (normalised URL + element hash): equal keys, same page. */
  state: string;
}

/** Where an attempt parts from the one it retries: the first step whose page state or action differs. */
export interface Divergence {
  step: number;
  kind: 'state' | 'action' | 'length';
  /** What the earlier attempt did at that step (null if it had ended). */
  before: string | null;
  /** What this attempt did there (null if it had ended). */
  after: string | null;
}

export interface AttemptView {
  episodeId: string;
  attempt: number;
  arms: Arm[];
  success: boolean;
  reason: string | null;
  retryOf: string | null;
  /** Reflections in this attempt's context, oldest first (the newest is links.reflection). */
  reflections: Array<{ id: string; text: string; reflector: string }>;
  divergence: Divergence | null;
  unmetKeyPoints: string[];
  steps: StepView[];
}

export interface ShortenedView {
  from: string;
  episodeId: string | null;
  stepsBefore: number;
  stepsAfter: number;
  replaySuccess: boolean | null;
  /** Step indices of the original that the shortening kept, and the spans it cut. */
  keep: number[];
  cuts: Cut[];
  steps: StepView[];
}

export interface ReviewTask {
  runId: string;
  task: string;
  family: string;
  seed: number;
  tier: number;
  instruction: string;
  /** Every attempt once (the shared first attempt counts for both arms), reflect arm first. */
  attempts: AttemptView[];
  arms: Array<{ arm: Arm; episodes: string[]; success: boolean }>;
  shortened: ShortenedView[];
  decisions: ReviewDecision[];
}

// ---- experiments

/**
 * running: this service or another live process (a `lab experiment` in a terminal, named by the
 * folder's run.lock) runs it now. started: its last line says started but no process runs it: the
 * one that did was killed mid-stage; Resume continues it.
 */
export type StageStatus = 'pending' | 'running' | 'started' | 'done' | 'stopped' | 'failed';

/** What the app asks for to start an experiment: `lab experiment --preset P [--seeds N] [--out ID]`. */
export interface StartExperimentRequest {
  preset: string;
  /** Salvage-DS training seeds (the preset's own number when left out). */
  seeds?: number;
  /** The experiment's id (folder name); a timestamp when left out. */
  id?: string;
}

/** A preset the app offers, with what it costs. */
export interface ExperimentPresetInfo {
  name: string;
  description: string;
  /** Salvage-DS training seeds it runs by default. */
  seeds: number;
}

/** Something a finished stage produced that another view shows (its link). */
export interface StageOutputRef {
  kind: 'run' | 'dataset' | 'policy' | 'eval' | 'mining';
  /** Run id, `name@vN`, policy folder, evaluation id (for a mining report, the evaluation mined). */
  id: string;
}

export interface ExperimentStageInfo {
  name: string;
  /** What the stage produced, once it finished (empty before). */
  outputs: StageOutputRef[];
  status: StageStatus;
  /** Seconds over every attempt at the stage (null: never ran to an end). */
  elapsedS: number | null;
  attempts: number;
  error: string | null;
  /** How far a stage that ran got, in its own unit (null: counted only as a whole, or pending). */
  progress: StageProgress | null;
  /** One line of what a finished stage measured (solved k/n, validation loss...). */
  summary: string | null;
  /** Seconds left of an unfinished stage, from finished stages of its kind (null: nothing to go by yet). */
  estimateS: number | null;
}

export interface StageProgress {
  done: number;
  total: number;
  unit: 'episodes' | 'steps' | 'iterations';
}

/** The report's headline figures (null where the report has none, or no report yet). */
export interface ExperimentHeadline {
  reflectYield: number | null;
  plainYield: number | null;
  sftReflectTestSuccess: number | null;
  salvageTestSuccess: number | null;
  fewerStepsVerdict: string | null;
  salvageVerdict: string | null;
}

export interface ExperimentInfo {
  id: string;
  preset: string;
  createdAt: string;
  replayOf: string | null;
  /** Changes made to its configuration after it started (config.json's amendments), oldest first. */
  amendments: Array<{ at: string; change: string; why: string; reopened: string[] }>;
  stages: ExperimentStageInfo[];
  stagesDone: number;
  /** Another process running it now (from run.lock); null when this service runs it or none does. */
  runBy: RunLock | null;
  /** finished: report.json written; running: this service or another process runs it now; else stopped or failed where it ended. */
  state: 'finished' | 'running' | 'stopped' | 'failed' | 'not started';
  hasReport: boolean;
  headline: ExperimentHeadline | null;
  /** Seconds of stages so far (every attempt, the running one included). */
  elapsedS: number;
  /** Time left, summed over the unfinished stages that could be estimated; the others are named. */
  remaining: { estimateS: number; unestimated: string[] };
}

// ---- episode-compare

export interface ComparedStep {
  index: number;
  action: string;
  /** The action in words, with its target element's role and name ("click link 'Shoes'"). */
  described: string;
  thought: string | null;
  error: string | null;
  url: string;
  title: string;
  /** The step's screenshot (a blob hash), when the episode recorded one. */
  screenshot: string | null;
}

export interface ComparedEpisode {
  id: string;
  agent: string;
  provenance: Provenance;
  outcome: EpisodeStatus;
  reason: string | null;
  steps: ComparedStep[];
  durationMs: number | null;
}

export interface EpisodeComparison {
  task: { family: string; seed: number; tier: number; instruction: string };
  episodes: ComparedEpisode[];
  /** The steps lined up by page state: per row, each episode's step index there (null: none). */
  rows: Array<{ steps: Array<number | null>; parts: boolean }>;
  /** The first row where the episodes part (an action of another meaning, or a step only some took); null when none. */
  firstDifference: number | null;
  /** How many rows part. */
  partingRows: number;
}

// ---- results-grid

export const SCOPE_KINDS = ['run', 'eval', 'experiment'] as const;

export type ScopeKind = (typeof SCOPE_KINDS)[number];

export interface ResultsScope {
  kind: ScopeKind;
  id: string;
}

/** Columns: one per task family, or one per task instance (family, seed, tier). */
export type GridColumns = 'family' | 'instance';

/** What the grid reads of an episode row. */
export interface GridEpisode {
  id: string;
  family: string;
  seed: number;
  tier: number;
  /** The task seed's split (train, test); held-out families are told apart by the grid. */
  split: string;
  agent: string;
  steps: number;
  outcome: EpisodeStatus;
  provenance: Provenance;
}

export interface GridCell {
  /** Finished episodes (success or failure): the denominator of the success rate. */
  episodes: number;
  successes: number;
  successRate: number | null;
  /** Wilson 95% interval of the success rate; null without finished episodes. */
  ci95: { low: number; high: number } | null;
  /** Mean steps of the finished episodes, and of the solved ones. */
  meanSteps: number | null;
  meanStepsSolved: number | null;
  /** Cancelled or incomplete episodes: listed with the cell, counted in neither figure. */
  unfinished: number;
  /** Every episode of the cell, finished or not, oldest id first. */
  ids: string[];
}

export interface ResultsGrid {
  scope: ResultsScope;
  columns: GridColumns;
  /**
   * Row labels: the agent, with its policy folder or its collection arm where the scope has several,
   * and the split (test, held out, training instances) where the scope has several: an evaluation's
   * test, held-out and training-rollout episodes are never pooled in one cell.
   */
  rows: string[];
  /** Column labels: a family name, or `family #seed t<tier>`. */
  cols: string[];
  /** cells[row][col]; absent where that agent never ran that task. */
  cells: Record<string, Record<string, GridCell>>;
  /** Each row over all its columns. */
  totals: Record<string, GridCell>;
}

export interface ScopeInfo extends ResultsScope {
  episodes: number;
}

// ---- review-decisions

export interface DecideRequest {
  runId: string;
  task: string;
  episodeId: string;
  decision: 'accept' | 'reject';
  dataset: string;
}

export interface DecideResult {
  decision: ReviewDecision;
  /** The dataset's draft after the decision. */
  draft: ReviewDraft;
  message: string;
}

/** A dataset's draft of its next version (main/datasets/draft.ts) beside its latest frozen version. */
export interface ReviewDraft extends DatasetDraft {
  dataset: string;
  /** The latest frozen version, null when there is none yet. */
  latestVersion: number | null;
  /** The episode ids that version holds. */
  inLatest: string[];
}

export interface FreezeReviewResult {
  dataset: string;
  version: number;
  /** Episodes the new version holds, and how many of them are new to it or left out of it. */
  episodes: number;
  added: number;
  removed: number;
  /** The draft after freezing: empty. */
  draft: ReviewDraft;
  message: string;
}

// ---- api

export interface DatasetVersionInfo {
  version: number;
  createdAt: string;
  description?: string;
  stats: DatasetStats;
}

export interface DatasetPreview {
  matched: number;
  dropped: number;
  /** Orphaned episodes (no step, no end record) the filter matched and left out. */
  orphans: number;
  episodes: number;
  stats: DatasetStats;
  errors: string[];
  /** Empty splits, held-out families or test seeds in the train split: freezing asks to confirm these. */
  checks: FreezeWarning[];
}

/** One frozen dataset version's episodes, for the datasets view. */
export interface DatasetVersionDetail {
  name: string;
  version: number;
  filter: DatasetFilter;
  episodes: Array<{ id: string; family: string; seed: number; agent: string; outcome: string; steps: number; split: string }>;
}

export interface DemoStart {
  demoId: string;
  family: string;
  seed: number;
  tier: number;
  instruction: string;
  viewport: { width: number; height: number };
  /** The live page's element list, for hover highlights in the live view. */
  elements: PageElement[];
  /** A fork's demonstration: the parent and the step (0-based) where the person takes over. */
  forkOf?: { episodeId: string; step: number };
  /** The steps recorded before the page became the person's (a fork's replayed prefix), in order. */
  steps: Array<{ index: number; action: string; error: string | null }>;
}

/** The agents the app forks an episode with in the background (a person forks through startForkDemo). */
export const FORK_AGENTS = ['oracle', 'policy', 'endpoint'] as const;
export type ForkAgent = (typeof FORK_AGENTS)[number];

export interface ForkRequest {
  episodeId: string;
  /** The step (0-based, as stored) where the agent takes over; the parent's steps before it are replayed. */
  step: number;
  /** The task family's oracle, the shipped compact policy, or the model behind the configured endpoint. */
  agent: ForkAgent;
}

export interface LabInfo {
  labDir: string;
  mode: 'electron' | 'web';
  episodes: number;
  /** The model behind the endpoint the workbench was started with ($LAB_ENDPOINT_URL, $LAB_ENDPOINT_MODEL); null when none is set, and no endpoint agent is offered. */
  endpoint: { model: string } | null;
}

export interface TaskInfo {
  family: string;
  description: string;
  trainSeeds: [number, number];
  testSeeds: [number, number];
}

/** An episode row for the browser: the summary plus what the filters need. */
export interface EpisodeRow extends EpisodeSummary {
  instruction: string;
  split: string;
  /** The status after a person's outcome label, if any. */
  outcome: EpisodeStatus;
  tags: string[];
  labeledSteps: number;
}

/** A report the decoding dashboard lists: the one shipped in resources/, or a run saved in the lab. */
export interface ReportEntry<R> {
  id: string;
  source: 'shipped' | 'run';
  path: string;
  report: R;
}

/** A `bench decode` report: the one shipped with the model, or a run started from the app. */
export type BenchEntry = ReportEntry<BenchReport>;

/** A `bench sizes` report: SDSAT against model size (the one shipped beside the models, or one run in this lab). */
export type SizeCurveEntry = ReportEntry<SizeCurveReport>;

export interface DecodeInfo {
  /** The model the dashboard decodes with (the shipped SAT-tuned model). */
  model: string;
  backend: string;
  sat: { mode: 'shared' | 'distinct'; k: number };
  ctx: number;
  /** The held-out benchmark prompts. */
  prompts: Array<{ id: string; text: string }>;
  /** A benchmark or live decode in progress (one at a time). */
  running: { id: string; kind: 'bench' | 'decode' } | null;
  /** The decoder the model's own benchmark measured fastest (main/decode/default-mode.ts), and why. */
  defaultMode: { mode: DecodeMode; k: number | null; why: string };
}

export interface DecodeBenchRequest {
  ks: number[];
  maxNew: number;
  /** Use the first N benchmark prompts (default: all). */
  prompts?: number;
  modes?: Exclude<DecodeMode, 'ar'>[];
  sampling?: Sampling;
  seed?: number;
  /** Times each k's prompt set is decoded (default 3): the speedup gets an interval over them. */
  repeats?: number;
}

export interface LiveDecodeRequest {
  prompt: string;
  mode?: Exclude<DecodeMode, 'ar'>;
  k: number;
  maxNew: number;
  sampling?: Sampling;
  seed?: number;
}

export interface LiveDecodeResult {
  mode: DecodeMode;
  k: number;
  text: string;
  /** Each emitted token's text and where it came from (accepted drafts are the highlighted ones). */
  tokens: Array<{ text: string; source: TokenSource }>;
  stoppedBy: 'maxNew' | 'stopToken' | 'context';
  stats: DecodeStats;
  summary: ReturnType<typeof summarize>;
}

/** Which process runs an experiment now (its run.lock). */
export interface RunLock {
  pid: number;
  host: string;
  startedAt: string;
}

/** Two experiments' reports side by side (`lab experiment compare`, the Experiments view). */
export interface ComparisonRow {
  /** Section of the report: collection, datasets, sft, claims, methods, ablations, failure modes, time. */
  group: string;
  label: string;
  /** The figure's path in report.json (its `.value` for a rate, mean or difference). */
  field: string;
  original: number | null;
  replay: number | null;
  /** replay - original (null where either is missing). */
  difference: number | null;
  /** The original's 95% interval, where the report gives one. */
  interval: Interval | null;
  /** Whether the replay's value lies inside that interval (null: no interval or no value). */
  inside: boolean | null;
}

export interface VerdictRow {
  claim: string;
  field: string;
  original: string | null;
  replay: string | null;
}

export interface ConfigDifference {
  field: string;
  original: unknown;
  replay: unknown;
}

export interface Comparison {
  original: string;
  replay: string;
  /** Whether the configurations are identical apart from id, createdAt and replayOf. */
  configsIdentical: boolean;
  configDifferences: ConfigDifference[];
  rows: ComparisonRow[];
  verdicts: VerdictRow[];
}
