/**
 * The implementation of the renderer's API (preload/api.ts), shared by the Electron IPC bridge
 * and web mode. Owns a browser and a task server, started on first use, for replays.
 */
import { actionTargetProblem } from '../environment/action-target.ts';
import { EventEmitter } from 'node:events';
import type { LabApi, LabEventName, LabEvents } from '../../preload/api.ts';
import type {
  BenchEntry, SizeCurveEntry, CollectionRunInfo, DatasetPreview, DatasetVersionDetail, DatasetVersionInfo, DecideRequest, DecodeBenchRequest, DecodeInfo, DemoStart, EpisodeComparison,
  EpisodeRow, ForkRequest, ExperimentInfo, ExperimentPresetInfo, GridColumns, StartExperimentRequest, LabInfo, LiveDecodeRequest, ResultsGrid, ResultsScope, ScopeInfo, TaskInfo, TrainingList, TrainingRunData,
} from '../../preload/views.ts';
import type { LabStore } from '../store/lab.ts';
import { LabelStore, type LabelEdit } from '../store/labels.ts';
import type { BrowserHost } from '../environment/cdp.ts';
import { TaskServer } from '../tasks/server.ts';
import type { TaskFamily } from '../tasks/types.ts';
import type { HumanInput } from '../collection/demonstration.ts';
import { experimentPresets } from '../experiment/config.ts';
import type { DatasetFilter, FreezeWarning, SplitRatios } from '../datasets/index.ts';
import { listRunIds, readReviewTask, readRunInfo } from './review.ts';
import { decide, freezeReview, readReviewDraft } from './review-decisions.ts';
import { DecodingLab } from './decoding.ts';
import { TrainingLab } from './training.ts';
import { ExperimentsLab } from './experiments.ts';
import { configuredEndpoint, ForksLab } from './forks.ts';
import { ReplaysLab } from './replays.ts';
import { DemosLab } from './demos.ts';
import { DatasetsLab } from './datasets.ts';
import type { Comparison } from '../experiment/compare.ts';
import { compareEpisodes } from './episode-compare.ts';
import { listScopes, resultsGrid } from './results-grid.ts';

export interface ServiceDeps {
  store: LabStore;
  families: Map<string, TaskFamily>;
  mode: LabInfo['mode'];
  /** Starts the browser for replays and demonstrations (a Chromium process, or Electron views). */
  startBrowser: () => Promise<BrowserHost>;
  /** TensorFlow.js backend for the decoding dashboard (default: the best available). */
  decodeBackend?: string;
}

/** Thrown by checkReviewDraft's confirm callback: the checks were read, nothing is frozen. */
class ChecksSeen extends Error {}

export class LabService implements LabApi {
  readonly events = new EventEmitter();
  readonly labels: LabelStore;
  private browser: Promise<BrowserHost> | null = null;
  private taskServer: Promise<TaskServer> | null = null;
  private startedTaskServer: TaskServer | null = null;
  private replays: ReplaysLab;
  private demos: DemosLab;
  private datasets: DatasetsLab;
  private decoding: DecodingLab;
  private training: TrainingLab;
  private forks: ForksLab;
  readonly experiments: ExperimentsLab;

  constructor(private deps: ServiceDeps) {
    this.labels = new LabelStore(deps.store.dir);
    this.decoding = new DecodingLab(deps.store.dir, (event, data) => this.emit(event, data), { backend: deps.decodeBackend });
    this.training = new TrainingLab(deps.store.dir, (event, data) => this.emit(event, data));
    this.experiments = new ExperimentsLab({
      store: deps.store,
      runtime: async () => {
        const [host, server] = await Promise.all([this.host(), this.tasks()]);
        return { host, server };
      },
      emit: (event, data) => this.emit(event, data),
    });
    const runtime = async () => {
      const [host, server] = await Promise.all([this.host(), this.tasks()]);
      return { host, server };
    };
    const emit = <E extends LabEventName>(event: E, data: LabEvents[E]) => this.emit(event, data);
    this.forks = new ForksLab({ store: deps.store, families: deps.families, runtime, emit });
    this.replays = new ReplaysLab({ store: deps.store, runtime, emit });
    this.demos = new DemosLab({ store: deps.store, families: deps.families, runtime, emit });
    this.datasets = new DatasetsLab({ store: deps.store, families: deps.families, emit });
  }

  get blobs() {
    return this.deps.store.blobs;
  }

  emit<E extends LabEventName>(event: E, data: LabEvents[E]): void {
    this.events.emit(event, data);
  }

  async info(): Promise<LabInfo> {
    return { labDir: this.deps.store.dir, mode: this.deps.mode, episodes: this.deps.store.episodeIds().length, endpoint: configuredEndpoint() };
  }

  async listEpisodes(): Promise<{ episodes: EpisodeRow[]; errors: string[] }> {
    const { episodes, errors } = this.deps.store.listEpisodes();
    const rows = episodes.map((e): EpisodeRow => {
      const { labels, problem } = this.labels.readOrReport(e.id);
      if (problem) errors.push(problem);
      return {
        ...e,
        outcome: labels.outcome ?? e.status,
        tags: labels.tags,
        labeledSteps: Object.keys(labels.steps).length,
      };
    });
    return { episodes: rows, errors };
  }

  async readEpisode(id: string) {
    return this.deps.store.readEpisode(id);
  }

  async readLabels(id: string) {
    return this.labels.read(id);
  }

  async editLabels(id: string, edit: LabelEdit) {
    const episode = this.deps.store.readEpisode(id);
    if ((edit.type === 'step' || edit.type === 'correction' || edit.type === 'comment') && edit.step >= episode.steps.length) {
      throw new Error(`episode ${id} has ${episode.steps.length} steps; there is no step ${edit.step}`);
    }
    if (edit.type === 'correction' && edit.action !== null) {
      const problem = actionTargetProblem(edit.action, episode.steps[edit.step].observation.elements);
      if (problem) throw new Error(`correction for step ${edit.step} of ${id} refused: ${problem}`);
    }
    return this.labels.append(id, edit);
  }

  async compareEpisodes(ids: string[]): Promise<EpisodeComparison> {
    if (!Array.isArray(ids)) throw new Error('compare: ids must be a list of episode ids');
    // The outcome a person's label set wins, as in the episode list.
    return compareEpisodes(this.deps.store, ids, (id, status) => this.labels.readOrReport(id).labels.outcome ?? status);
  }

  async listResultScopes(): Promise<ScopeInfo[]> {
    return listScopes((await this.listEpisodes()).episodes);
  }

  async resultsGrid(scope: ResultsScope, columns: GridColumns): Promise<ResultsGrid> {
    if (!scope || typeof scope !== 'object') throw new Error('results grid: scope must be {kind, id}');
    return resultsGrid((await this.listEpisodes()).episodes, scope, columns, new Set(this.datasets.heldOutFamilies()));
  }

  async listTasks(): Promise<TaskInfo[]> {
    return [...this.deps.families.values()].map((f) => ({
      family: f.name,
      description: f.description,
      trainSeeds: [f.seeds.train.from, f.seeds.train.to - 1],
      testSeeds: [f.seeds.test.from, f.seeds.test.to - 1],
    }));
  }

  async startReplay(id: string, mode: 'run' | 'step'): Promise<{ replayId: string }> {
    return this.replays.start(id, mode);
  }

  async replayNext(replayId: string): Promise<void> {
    this.replays.next(replayId);
  }

  async cancelReplay(replayId: string): Promise<void> {
    this.replays.cancel(replayId);
  }

  async startDemo(family: string, seed: number): Promise<DemoStart> {
    return this.demos.start(family, seed);
  }

  async startFork(request: ForkRequest): Promise<{ forkId: string }> {
    return this.forks.start(request);
  }

  async cancelFork(forkId: string): Promise<void> {
    this.forks.cancel(forkId);
  }

  async startForkDemo(episodeId: string, step: number): Promise<DemoStart> {
    return this.demos.startFork(this.forks.plan(episodeId, step));
  }

  async demoInput(demoId: string, input: HumanInput) {
    return this.demos.input(demoId, input);
  }

  async cancelDemo(demoId: string): Promise<void> {
    await this.demos.cancel(demoId);
  }

  async listDatasets(): Promise<Array<{ name: string; versions: DatasetVersionInfo[]; unreadable?: Array<{ version: number; error: string }> }>> {
    return this.datasets.list();
  }

  async previewDataset(filter: DatasetFilter, ratios?: SplitRatios): Promise<DatasetPreview> {
    return this.datasets.preview(filter, ratios);
  }

  async createDataset(request: { name: string; description?: string; filter: DatasetFilter; ratios?: SplitRatios; confirmWarnings?: boolean }) {
    return this.datasets.create(request);
  }

  async readDatasetVersion(name: string, version: number): Promise<DatasetVersionDetail> {
    return this.datasets.readVersion(name, version);
  }

  /** The folder of an export this service finished, for the web server's download; null for any other id. */
  finishedExportDir(exportId: string): string | null {
    return this.datasets.finishedExportDir(exportId);
  }

  async startExport(dataset: string, format: string, outDir: string): Promise<{ exportId: string; outDir: string }> {
    return this.datasets.startExport(dataset, format, outDir);
  }

  async cancelExport(exportId: string): Promise<void> {
    this.datasets.cancelExport(exportId);
  }

  async listCollectionRuns(): Promise<{ runs: CollectionRunInfo[]; errors: string[] }> {
    const runs: CollectionRunInfo[] = [];
    const errors: string[] = [];
    for (const id of listRunIds(this.deps.store.dir)) {
      try {
        runs.push(readRunInfo(this.deps.store.dir, id));
      } catch (err) {
        errors.push(`run ${id}: ${(err as Error).message}`);
      }
    }
    return { runs, errors };
  }

  async readReviewTask(runId: string, task: string) {
    return readReviewTask(this.deps.store, runId, task);
  }

  async reviewDecide(request: DecideRequest) {
    return decide(this.deps.store, request);
  }

  async readReviewDraft(dataset: string) {
    return readReviewDraft(this.deps.store, dataset);
  }

  /** Freezes the review draft under the same checks as any dataset: refused with them named unless `confirmWarnings`. */
  async freezeReviewDraft(dataset: string, confirmWarnings?: boolean) {
    return freezeReview(this.deps.store, dataset, this.datasets.freezeGuard(dataset, confirmWarnings));
  }

  /** The freeze checks the review draft would raise, for a person to confirm before freezing it. */
  async checkReviewDraft(dataset: string): Promise<FreezeWarning[]> {
    let checks: FreezeWarning[] = [];
    try {
      freezeReview(this.deps.store, dataset, { heldOutFamilies: this.datasets.heldOutFamilies(), confirm: (c) => { checks = [...c]; throw new ChecksSeen(); } });
    } catch (err) {
      if (!(err instanceof ChecksSeen)) throw err;
    }
    return checks;
  }

  async decodeInfo(): Promise<DecodeInfo> {
    return this.decoding.info();
  }

  async listDecodeBenches(): Promise<{ benches: BenchEntry[]; errors: string[] }> {
    return this.decoding.listBenches();
  }

  async listSizeCurves(): Promise<{ curves: SizeCurveEntry[]; errors: string[] }> {
    return this.decoding.listSizeCurves();
  }

  async startDecodeBench(request: DecodeBenchRequest): Promise<{ benchId: string }> {
    return this.decoding.startBench(request);
  }

  async startLiveDecode(request: LiveDecodeRequest): Promise<{ decodeId: string }> {
    return this.decoding.startLive(request);
  }

  async cancelDecode(id: string): Promise<void> {
    this.decoding.cancel(id);
  }

  async listTraining(): Promise<TrainingList> {
    return this.training.list();
  }

  async readTrainingRun(dir: string): Promise<TrainingRunData> {
    return this.training.read(dir);
  }

  async watchTrainingRun(dir: string, offset: number): Promise<{ watchId: string }> {
    return this.training.watch(dir, offset);
  }

  async unwatchTraining(watchId: string): Promise<void> {
    this.training.unwatch(watchId);
  }

  async listExperiments(): Promise<{ experiments: ExperimentInfo[]; errors: string[]; running: string | null; presets: ExperimentPresetInfo[] }> {
    return { ...this.experiments.list(), running: this.experiments.runningId, presets: experimentPresets() };
  }

  async readExperiment(id: string): Promise<ExperimentInfo> {
    return this.experiments.read(id);
  }

  async compareExperiments(originalId: string, replayId: string): Promise<Comparison> {
    return this.experiments.compare(originalId, replayId);
  }

  async startExperiment(request: StartExperimentRequest): Promise<{ experimentId: string }> {
    return this.experiments.start(request);
  }

  async replayExperiment(id: string): Promise<{ experimentId: string }> {
    return this.experiments.startReplay(id);
  }

  async resumeExperiment(id: string): Promise<{ experimentId: string }> {
    return this.experiments.resume(id);
  }

  async cancelExperiment(id: string): Promise<void> {
    this.experiments.cancel(id);
  }

  /** Origins environment pages may navigate within: the task server's, once it runs. */
  taskOrigins(): string[] {
    return this.startedTaskServer ? [this.startedTaskServer.url] : [];
  }

  private host(): Promise<BrowserHost> {
    this.browser ??= this.deps.startBrowser();
    return this.browser;
  }

  private tasks(): Promise<TaskServer> {
    this.taskServer ??= new TaskServer(this.deps.families).start().then((s) => (this.startedTaskServer = s));
    return this.taskServer;
  }

  async close(): Promise<void> {
    this.replays.close();
    await this.demos.close();
    await this.forks.close();
    this.decoding.close();
    this.training.close();
    await this.experiments.close(); // before the browser: its stage stops cleanly first
    if (this.browser) await (await this.browser).close().catch(() => {});
    if (this.taskServer) await (await this.taskServer).stop().catch(() => {});
  }
}
