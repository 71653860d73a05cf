/**
 * The API contract between renderer and main: every method the UI may call and every event it
 * may receive, typed on both ends. Electron exposes it through contextBridge (./index.ts); web
 * mode serves the same methods over a WebSocket (main/server/web.ts).
 */
import type { EpisodeData, EpisodeSummary } from '../main/store/lab.ts';
import type { EpisodeLabels, LabelEdit } from '../main/store/label-model.ts';
import type { ReplayReport, ReplayStep } from '../main/collection/replay.ts';
import type { HumanInput, InputOutcome } from '../main/collection/demonstration.ts';
import type { EpisodeOutcome } from '../main/collection/episode.ts';
import type { PageElement } from '../main/environment/types.ts';
import type { DatasetFilter } from '../main/datasets/filter.ts';
import type { DatasetStats } from '../main/datasets/manifest.ts';
import type { SplitRatios } from '../main/datasets/split.ts';
import type { ExportFormat, ExportResult } from '../main/datasets/export/index.ts';

export interface DatasetVersionInfo {
  version: number;
  createdAt: string;
  description?: string;
  stats: DatasetStats;
}

export interface DatasetPreview {
  matched: number;
  dropped: number;
  episodes: number;
  stats: DatasetStats;
  errors: string[];
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
}

export interface LabInfo {
  labDir: string;
  mode: 'electron' | 'web';
  episodes: number;
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
  outcome: 'success' | 'failure' | 'incomplete';
  tags: string[];
  labeledSteps: number;
}

export interface LabApi {
  info(): Promise<LabInfo>;
  listEpisodes(): Promise<{ episodes: EpisodeRow[]; errors: string[] }>;
  readEpisode(id: string): Promise<EpisodeData>;
  readLabels(id: string): Promise<EpisodeLabels>;
  editLabels(id: string, edit: LabelEdit): Promise<EpisodeLabels>;
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
  listDatasets(): Promise<Array<{ name: string; versions: DatasetVersionInfo[] }>>;
  /** What a dataset with this filter would hold, without writing anything. */
  previewDataset(filter: DatasetFilter, ratios?: SplitRatios): Promise<DatasetPreview>;
  /** Freeze a new version of a named dataset. */
  createDataset(request: { name: string; description?: string; filter: DatasetFilter; ratios?: SplitRatios }): Promise<{ name: string; version: number; stats: DatasetStats; dropped: number }>;
  /** Export a dataset version; progress arrives as exportProgress events. outDir '' picks lab/exports/... */
  startExport(dataset: string, format: ExportFormat, outDir: string): Promise<{ exportId: string; outDir: string }>;
  cancelExport(exportId: string): Promise<void>;
}

export interface LabEvents {
  replayStep: { replayId: string; step: ReplayStep };
  replayDone: { replayId: string; report: ReplayReport | null; error?: string };
  demoFrame: { demoId: string; data: string; width: number; height: number };
  demoStep: { demoId: string; index: number; action: string; error: string | null };
  demoDone: { demoId: string; outcome: EpisodeOutcome | null; error?: string };
  exportProgress: { exportId: string; done: number; total: number };
  exportDone: { exportId: string; result: ExportResult | null; error?: string };
}

export type LabMethod = keyof LabApi;
export type LabEventName = keyof LabEvents;

export const METHODS: readonly LabMethod[] = [
  'info', 'listEpisodes', 'readEpisode', 'readLabels', 'editLabels', 'listTasks', 'startReplay', 'replayNext', 'cancelReplay',
  'startDemo', 'demoInput', 'cancelDemo', 'listDatasets', 'previewDataset', 'createDataset', 'startExport', 'cancelExport',
];
export const EVENTS: readonly LabEventName[] = ['replayStep', 'replayDone', 'demoFrame', 'demoStep', 'demoDone', 'exportProgress', 'exportDone'];

/** IPC channel of each method and event; nothing else crosses. */
export const channelOf = (name: LabMethod | LabEventName): string => `lab:${name}`;
