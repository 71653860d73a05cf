/**
 * The API contract between renderer and main: every method the UI may call and every event it
 * may receive, typed on both ends. Electron exposes it through contextBridge (./index.ts); web
 * mode serves the same methods over a WebSocket (main/server/web.ts).
 */
import type { EpisodeData } from '../main/store/lab.ts';
import type { EpisodeLabels, LabelEdit } from './label-model.ts';
import type { ReplayReport, ReplayStep } from '../main/collection/replay.ts';
import type { HumanInput, InputOutcome } from '../main/collection/demonstration.ts';
import type { EpisodeOutcome } from '../main/collection/episode.ts';
import type { PageElement } from '../main/environment/types.ts';
import type { DatasetFilter } from '../main/datasets/filter.ts';
import type { DatasetStats } from '../main/datasets/manifest.ts';
import type { SplitRatios } from '../main/datasets/split.ts';
import type { ExportFormat, ExportResult } from '../main/datasets/export/index.ts';
import type { DecodeMode, TokenSource } from '../main/decode/index.ts';
import type {
  BenchEntry, SizeCurveEntry, CollectionRunInfo, Comparison, DatasetPreview, DatasetVersionDetail, DatasetVersionInfo, DecideRequest, DecideResult, DecodeBenchRequest, DecodeInfo, DemoStart,
  EpisodeComparison, ForkRequest, EpisodeRow, ExperimentInfo, ExperimentPresetInfo, StartExperimentRequest, FreezeReviewResult, GridColumns, LabInfo, LiveDecodeRequest, LiveDecodeResult, ResultsGrid, ResultsScope,
  ReviewDraft, ReviewTask, SalvagePoint, ScopeInfo, SftPoint, TaskInfo, TrainingList, TrainingRunData,
} from './views.ts';

// The renderer imports every type it shows from the contract (here), never from main/.
export type * from './views.ts';
export type { EpisodeData } from '../main/store/lab.ts';
export type { EpisodeLabels, LabelEdit, StepLabel } from './label-model.ts';
export type { ReplayReport, ReplayStep } from '../main/collection/replay.ts';
export type { HumanInput, InputOutcome } from '../main/collection/demonstration.ts';
export type { EpisodeOutcome } from '../main/collection/episode.ts';
export type { PageElement } from '../main/environment/types.ts';
export type { DatasetFilter } from '../main/datasets/filter.ts';
export type { DatasetStats } from '../main/datasets/manifest.ts';
export type { FreezeWarning } from '../main/datasets/freeze-checks.ts';
import type { FreezeWarning } from '../main/datasets/freeze-checks.ts';
export type { StepRecord } from '../main/store/schema.ts';
export type { ExportFormat, ExportResult } from '../main/datasets/export/index.ts';
export type { DecodeMode } from '../main/decode/index.ts';

export interface LabApi {
  info(): Promise<LabInfo>;
  listEpisodes(): Promise<{ episodes: EpisodeRow[]; errors: string[] }>;
  readEpisode(id: string): Promise<EpisodeData>;
  readLabels(id: string): Promise<EpisodeLabels>;
  editLabels(id: string, edit: LabelEdit): Promise<EpisodeLabels>;
  /** Two or more episodes of one task instance side by side (refused for different instances). */
  compareEpisodes(ids: string[]): Promise<EpisodeComparison>;
  /** The collection runs, evaluations and experiments the lab's episodes came from. */
  listResultScopes(): Promise<ScopeInfo[]>;
  /** Agent x task (family or instance) success and steps of one run, evaluation or experiment. */
  resultsGrid(scope: ResultsScope, columns: GridColumns): Promise<ResultsGrid>;
  listTasks(): Promise<TaskInfo[]>;
  /** Start replaying an episode; 'step' waits for replayNext before each step. */
  startReplay(id: string, mode: 'run' | 'step'): Promise<{ replayId: string }>;
  replayNext(replayId: string): Promise<void>;
  cancelReplay(replayId: string): Promise<void>;
  /** Open a task in a live page for a person to demonstrate; frames arrive as demoFrame events. */
  startDemo(family: string, seed: number): Promise<DemoStart>;
  /** A click, entry or key from the live view; resolves when its action has run. */
  demoInput(demoId: string, input: HumanInput): Promise<InputOutcome & { stepError?: string | null; elements: PageElement[] }>;
  cancelDemo(demoId: string): Promise<void>;
  /**
   * Fork an episode at a step with an agent, in the background: the parent's steps before it are
   * replayed on a fresh instance (each page checked), then the agent continues; the fork is a new
   * episode linked to parent and step. Events forkStep, forkDone. An unknown episode, a step out of
   * range or an agent that is not available is refused here.
   */
  startFork(request: ForkRequest): Promise<{ forkId: string }>;
  cancelFork(forkId: string): Promise<void>;
  /**
   * Fork an episode at a step (0-based) with a person: resolves once the parent's earlier steps are
   * replayed and the page is theirs; then a demonstration like startDemo's (demoInput, demoDone).
   */
  startForkDemo(episodeId: string, step: number): Promise<DemoStart>;
  /** Every dataset's readable versions; a version whose manifest cannot be read is named in `unreadable` with the reason, not fatal to the list. */
  listDatasets(): Promise<Array<{ name: string; versions: DatasetVersionInfo[]; unreadable?: Array<{ version: number; error: string }> }>>;
  /** The episodes one frozen version holds (id, task, split, outcome), with the filter it was made from. */
  readDatasetVersion(name: string, version: number): Promise<DatasetVersionDetail>;
  /** What a dataset with this filter would hold, without writing anything. */
  previewDataset(filter: DatasetFilter, ratios?: SplitRatios): Promise<DatasetPreview>;
  /** Freeze a new version of a named dataset. */
  /** Refused while the selection raises freeze checks (see previewDataset), unless confirmWarnings says a person saw them. */
  createDataset(request: { name: string; description?: string; filter: DatasetFilter; ratios?: SplitRatios; confirmWarnings?: boolean }): Promise<{ name: string; version: number; stats: DatasetStats; dropped: number }>;
  /** Export a dataset version; progress arrives as exportProgress events. outDir '' picks lab/exports/... */
  startExport(dataset: string, format: ExportFormat, outDir: string): Promise<{ exportId: string; outDir: string }>;
  cancelExport(exportId: string): Promise<void>;
  /** Collection runs (lab/runs/), newest first, each with its summary and task rows. */
  listCollectionRuns(): Promise<{ runs: CollectionRunInfo[]; errors: string[] }>;
  /** One task instance of a run: attempts, reflections, divergence steps, shortened trajectories. */
  readReviewTask(runId: string, task: string): Promise<ReviewTask>;
  /** Accept or reject a trajectory into a dataset's draft of its next version (nothing is frozen). */
  reviewDecide(request: DecideRequest): Promise<DecideResult>;
  /** A dataset's draft (accepted and rejected trajectories not frozen yet) beside its latest version. */
  readReviewDraft(dataset: string): Promise<ReviewDraft>;
  /** Freeze the draft as one new version of the dataset; the draft is empty afterwards. */
  /** Freeze the review draft; the freeze checks (test seeds or held-out families in train, empty splits) refuse it unless `confirmWarnings`. */
  freezeReviewDraft(dataset: string, confirmWarnings?: boolean): Promise<FreezeReviewResult>;
  /** The freeze checks the review draft would raise, for a person to confirm first. */
  checkReviewDraft(dataset: string): Promise<FreezeWarning[]>;
  decodeInfo(): Promise<DecodeInfo>;
  listDecodeBenches(): Promise<{ benches: BenchEntry[]; errors: string[] }>;
  /** `bench sizes` reports: resources/models/bench-sizes.json first, then the lab's, newest first. */
  listSizeCurves(): Promise<{ curves: SizeCurveEntry[]; errors: string[] }>;
  /** Run `bench decode` in the main process; progress arrives as decodeBenchProgress events. */
  startDecodeBench(request: DecodeBenchRequest): Promise<{ benchId: string }>;
  /** AR then SDSAT on one prompt; tokens stream as decodeLoop events, results as decodeDone. */
  startLiveDecode(request: LiveDecodeRequest): Promise<{ decodeId: string }>;
  /** Cancel a benchmark or a live decode. */
  cancelDecode(id: string): Promise<void>;
  /** Training runs (SFT, Salvage-DS) and evaluations (with their mining reports) the lab knows. */
  listTraining(): Promise<TrainingList>;
  /** A training run's curve: every step (SFT) or iteration (Salvage-DS) on disk. */
  readTrainingRun(dir: string): Promise<TrainingRunData>;
  /** Follow a run from the offset readTrainingRun returned; new lines arrive as trainingLines events. */
  watchTrainingRun(dir: string, offset: number): Promise<{ watchId: string }>;
  unwatchTraining(watchId: string): Promise<void>;
  /** Experiments in lab/experiments/, newest first, and the one this service runs now (if any). */
  listExperiments(): Promise<{ experiments: ExperimentInfo[]; errors: string[]; running: string | null; presets: ExperimentPresetInfo[] }>;
  readExperiment(id: string): Promise<ExperimentInfo>;
  /** Every figure of two reports side by side (original, replay), and their configurations. */
  compareExperiments(originalId: string, replayId: string): Promise<Comparison>;
  /** Create an experiment from a preset (as `lab experiment --preset P [--seeds N] [--out ID]`) and run it in the background, with the same events as a replay. */
  startExperiment(request: StartExperimentRequest): Promise<{ experimentId: string }>;
  /** Replay a finished experiment from its recorded config.json, in the background; events experimentStage, experimentProgress, experimentDone. */
  replayExperiment(id: string): Promise<{ experimentId: string }>;
  /** Continue a stopped experiment (a cancelled replay, say) in the background, with the same events. */
  resumeExperiment(id: string): Promise<{ experimentId: string }>;
  /** Stop the running experiment; its stage keeps what it needs to continue. */
  cancelExperiment(id: string): Promise<void>;
}

export interface LabEvents {
  /** Work the server does on its own that adds episodes (web mode's first-run sample): the app lists them as they land. */
  labActivity: { kind: 'sample'; done: number; total: number; finished: boolean };
  replayStep: { replayId: string; step: ReplayStep };
  replayDone: { replayId: string; report: ReplayReport | null; error?: string };
  demoFrame: { demoId: string; data: string; width: number; height: number };
  demoStep: { demoId: string; index: number; action: string; error: string | null };
  demoDone: { demoId: string; outcome: EpisodeOutcome | null; error?: string };
  /** One step of a fork: replayed from the parent, or the agent's own. */
  forkStep: { forkId: string; index: number; action: string; error: string | null; replayed: boolean };
  /** The fork ended: the new episode's outcome, or why it could not be made (no episode is kept then). */
  forkDone: { forkId: string; outcome: EpisodeOutcome | null; error?: string };
  exportProgress: { exportId: string; done: number; total: number };
  exportDone: { exportId: string; result: ExportResult | null; error?: string };
  decodeBenchProgress: { benchId: string; done: number; total: number };
  decodeBenchDone: { benchId: string; entry: BenchEntry | null; error?: string };
  /** One decoding loop: the tokens it emitted, with the running count and time since decoding began. */
  decodeLoop: { decodeId: string; mode: DecodeMode; emitted: number; elapsedMs: number; tokens: Array<{ text: string; source: TokenSource }> };
  /** One decoder finished (final: the last of the run, or it failed). */
  decodeDone: { decodeId: string; mode: DecodeMode; final: boolean; result: LiveDecodeResult | null; error?: string };
  /** New complete lines of a watched run (reset: the file was rewritten, these start it over). */
  trainingLines: { watchId: string; dir: string; reset: boolean; offset: number; sft: SftPoint[]; salvage: SalvagePoint[]; errors: string[] };
  /** A stage of a running experiment began (or was skipped: finished before) or finished (index and total -1). */
  experimentStage: { experimentId: string; stage: string; index: number; total: number; status: 'started' | 'skipped' | 'done'; elapsedS: number | null };
  experimentProgress: { experimentId: string; stage: string; done: number; total: number; note: string | null };
  /** The run ended: finished (with the comparison, for a replay), stopped (cancelled, in `stage`) or failed. */
  experimentDone: { experimentId: string; status: 'finished' | 'stopped' | 'failed'; stage: string | null; comparison: Comparison | null; error?: string };
}

export type LabMethod = keyof LabApi;
export type LabEventName = keyof LabEvents;

export const METHODS: readonly LabMethod[] = [
  'info', 'listEpisodes', 'readEpisode', 'readLabels', 'editLabels', 'compareEpisodes', 'listResultScopes', 'resultsGrid', 'listTasks', 'startReplay', 'replayNext', 'cancelReplay',
  'startDemo', 'demoInput', 'cancelDemo', 'startFork', 'cancelFork', 'startForkDemo', 'listDatasets', 'previewDataset', 'createDataset', 'startExport', 'cancelExport',
  'listCollectionRuns', 'readReviewTask', 'reviewDecide', 'readReviewDraft', 'freezeReviewDraft', 'checkReviewDraft',
  'decodeInfo', 'listDecodeBenches', 'listSizeCurves', 'startDecodeBench', 'startLiveDecode', 'cancelDecode',
  'listTraining', 'readTrainingRun', 'watchTrainingRun', 'unwatchTraining',
  'listExperiments', 'readExperiment', 'compareExperiments', 'startExperiment', 'replayExperiment', 'resumeExperiment', 'cancelExperiment',
  'readDatasetVersion',
];
export const EVENTS: readonly LabEventName[] = [
  'replayStep', 'replayDone', 'demoFrame', 'demoStep', 'demoDone', 'forkStep', 'forkDone', 'exportProgress', 'exportDone',
  'decodeBenchProgress', 'decodeBenchDone', 'decodeLoop', 'decodeDone', 'trainingLines',
  'experimentStage', 'experimentProgress', 'experimentDone',
];

/** IPC channel of each method and event; nothing else crosses. */
export const channelOf = (name: LabMethod | LabEventName): string => `lab:${name}`;
