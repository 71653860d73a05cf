/**
 * The implementation of the renderer's API (preload/api.ts), shared by the Electron IPC bridge
 * and web mode. Owns a browser and a task server, started on first use, for replays.
 */
import { actionTargetProblem } from '../environment/action-target.ts';
import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import type { LabApi, LabEventName, LabEvents } from '../../preload/api.ts';
import type {
  BenchEntry, CollectionRunInfo, DatasetPreview, DatasetVersionDetail, DatasetVersionInfo, DecideRequest, DecodeBenchRequest, DecodeInfo, DemoStart, EpisodeComparison,
  EpisodeRow, ForkRequest, ExperimentInfo, ExperimentPresetInfo, GridColumns, StartExperimentRequest, LabInfo, LiveDecodeRequest, ResultsGrid, ResultsScope, ScopeInfo, TaskInfo, TrainingList, TrainingRunData,
} from '../../preload/views.ts';
import type { LabStore } from '../store/lab.ts';
import { LabelStore, type LabelEdit } from '../store/labels.ts';
import type { BrowserHost } from '../environment/cdp.ts';
import { BrowserEnv } from '../environment/environment.ts';
import { TaskServer } from '../tasks/server.ts';
import type { TaskFamily } from '../tasks/types.ts';
import { recordedEnvOptions, replayEpisode } from '../collection/replay.ts';
import { DemoSession, humanInputSchema, type HumanInput } from '../collection/demonstration.ts';
import { join } from 'node:path';
import { experimentPresets } from '../experiment/config.ts';
import {
  createDataset,
  exportDataset,
  isExportFormat,
  listDatasetNames,
  listVersions,
  parseDatasetRef,
  parseFilter,
  previewDataset,
  readManifest,
  validateDatasetName,
  type DatasetFilter,
  type FreezeWarning,
  type SplitRatios,
} from '../datasets/index.ts';
import { listRunIds, readReviewTask, readRunInfo } from './review.ts';
import { decide, freezeReview, readReviewDraft } from './review-decisions.ts';
import { DecodingLab } from './decoding.ts';
import { TrainingLab } from './training.ts';
import { ExperimentsLab } from './experiments.ts';
import { configuredEndpoint, ForksLab } from './forks.ts';
import type { ForkPlan } from '../collection/fork.ts';
import type { Comparison } from '../experiment/compare.ts';
import { fieldIssue } from '../store/schema-error.ts';
import { labPaths } from '../store/layout.ts';
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

interface ReplayRun {
  controller: AbortController;
  gate: { release: (() => void) | null; credits: number };
}

/** Thrown by checkReviewDraft's confirm callback: the checks were read, nothing is frozen. */
class ChecksSeen extends Error {}

export class LabService implements LabApi {
  readonly events = new EventEmitter();
  readonly labels: LabelStore;
  private browser: Promise<BrowserHost> | null = null;
  private taskServer: Promise<TaskServer> | null = null;
  private startedTaskServer: TaskServer | null = null;
  private replays = new Map<string, ReplayRun>();
  private demos = new Map<string, DemoSession>();
  private exports = new Map<string, AbortController>();
  /** Exports finished in this process, by id: the only folders the web server offers for download. */
  private finishedExports = new Map<string, string>();
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
    this.forks = new ForksLab({
      store: deps.store,
      families: deps.families,
      runtime: async () => {
        const [host, server] = await Promise.all([this.host(), this.tasks()]);
        return { host, server };
      },
      emit: (event, data) => this.emit(event, data),
    });
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
    return resultsGrid((await this.listEpisodes()).episodes, scope, columns, new Set(this.heldOutFamilies()));
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
    const episodeId = id;
    const { header } = this.deps.store.readEpisode(episodeId); // fail now, with the file named, if it is unreadable
    const envOptions = { screenshots: true, ...recordedEnvOptions(header) };
    const replayId = randomBytes(6).toString('hex');
    const run: ReplayRun = { controller: new AbortController(), gate: { release: null, credits: 0 } };
    this.replays.set(replayId, run);
    const [host, server] = await Promise.all([this.host(), this.tasks()]);
    const env = new BrowserEnv(host, envOptions);
    const beforeStep =
      mode === 'step'
        ? () =>
            new Promise<void>((resolve) => {
              if (run.gate.credits > 0) {
                run.gate.credits--;
                resolve();
              } else run.gate.release = resolve;
            })
        : undefined;
    replayEpisode({ env, server, store: this.deps.store }, episodeId, {
      signal: run.controller.signal,
      beforeStep,
      onStep: (step) => this.emit('replayStep', { replayId, step }),
    })
      .then(
        (report) => this.emit('replayDone', { replayId, report }),
        (err: unknown) => this.emit('replayDone', { replayId, report: null, error: (err as Error).message }),
      )
      .finally(() => {
        this.replays.delete(replayId);
        void env.close();
      });
    return { replayId };
  }

  async replayNext(replayId: string): Promise<void> {
    const run = this.replays.get(replayId);
    if (!run) throw new Error(`no replay ${replayId} is running`);
    if (run.gate.release) {
      const release = run.gate.release;
      run.gate.release = null;
      release();
    } else run.gate.credits++;
  }

  async cancelReplay(replayId: string): Promise<void> {
    const run = this.replays.get(replayId);
    if (!run) return;
    run.controller.abort();
    run.gate.release?.();
  }

  async startDemo(family: string, seed: number): Promise<DemoStart> {
    const f = this.deps.families.get(family);
    if (!f) throw new Error(`unknown task family "${family}"`);
    if (!Number.isInteger(seed) || seed < 0) throw new Error(`seed must be a non-negative integer, got ${seed}`);
    return this.openDemo({ family: f.name, seed });
  }

  async startFork(request: ForkRequest): Promise<{ forkId: string }> {
    return this.forks.start(request);
  }

  async cancelFork(forkId: string): Promise<void> {
    this.forks.cancel(forkId);
  }

  async startForkDemo(episodeId: string, step: number): Promise<DemoStart> {
    const fork = this.forks.plan(episodeId, step);
    const task = fork.parent.header.task;
    return this.openDemo({ family: task.family, seed: task.seed, fork });
  }

  /** A live demonstration (a fork's, after its replayed prefix), registered for demoInput and cancelDemo. */
  private async openDemo(request: { family: string; seed: number; fork?: ForkPlan }): Promise<DemoStart> {
    const [host, server] = await Promise.all([this.host(), this.tasks()]);
    // No marks drawn into the page: the person watches it live (the viewer draws boxes itself).
    const env = new BrowserEnv(host, { screenshots: true, marks: false, ...request.fork?.envOptions });
    const demoId = randomBytes(6).toString('hex');
    const demo = new DemoSession({ env, server, store: this.deps.store, browserKind: host.kind }, request, {
      frame: (frame) => this.emit('demoFrame', { demoId, ...frame }),
      step: (step) => this.emit('demoStep', { demoId, ...step }),
      done: (outcome, error) => {
        this.demos.delete(demoId);
        void env.close();
        this.emit('demoDone', { demoId, outcome, ...(error ? { error } : {}) });
      },
    });
    this.demos.set(demoId, demo);
    await demo.started;
    const spec = demo.spec!;
    return {
      demoId,
      family: spec.family,
      seed: spec.seed,
      tier: spec.tier,
      instruction: spec.instruction,
      viewport: env.options.viewport,
      elements: [...env.elements],
      ...(request.fork ? { forkOf: { episodeId: request.fork.parent.header.id, step: request.fork.step } } : {}),
      steps: [...demo.steps],
    };
  }

  async demoInput(demoId: string, input: HumanInput) {
    const demo = this.demos.get(demoId);
    if (!demo) throw new Error(`no demonstration ${demoId} is running`);
    const parsed = humanInputSchema.safeParse(input);
    if (!parsed.success) throw new Error(`bad demonstration input: ${fieldIssue(parsed.error, 'input')}`);
    return { ...(await demo.input(parsed.data)), elements: [...demo.elements] };
  }

  async cancelDemo(demoId: string): Promise<void> {
    await this.demos.get(demoId)?.cancel();
  }

  async listDatasets(): Promise<Array<{ name: string; versions: DatasetVersionInfo[]; unreadable?: Array<{ version: number; error: string }> }>> {
    const dir = this.deps.store.dir;
    return listDatasetNames(dir).map((name) => {
      const versions: DatasetVersionInfo[] = [];
      const unreadable: Array<{ version: number; error: string }> = [];
      for (const version of listVersions(dir, name)) {
        // One damaged manifest must not hide every other dataset: it is listed as unreadable, with why.
        try {
          const m = readManifest(dir, { name, version }, { verify: false });
          versions.push({ version, createdAt: m.createdAt, ...(m.description ? { description: m.description } : {}), stats: m.stats });
        } catch (err) {
          unreadable.push({ version, error: (err as Error).message });
        }
      }
      return { name, versions, ...(unreadable.length ? { unreadable } : {}) };
    });
  }

  /** Families evaluations hold out, which the freeze checks keep out of training data. */
  private heldOutFamilies(): string[] {
    return [...this.deps.families.values()].filter((f) => f.heldOut).map((f) => f.name);
  }

  async previewDataset(filter: DatasetFilter, ratios?: SplitRatios): Promise<DatasetPreview> {
    const r = previewDataset(this.deps.store, { filter: parseFilter(filter), ratios, heldOutFamilies: this.heldOutFamilies() });
    return { matched: r.matched, dropped: r.dropped.length, orphans: r.orphans, episodes: r.episodes.length, stats: r.stats, errors: [...r.errors, ...r.warnings], checks: r.checks };
  }

  async createDataset(request: { name: string; description?: string; filter: DatasetFilter; ratios?: SplitRatios; confirmWarnings?: boolean }) {
    const { confirmWarnings, ...rest } = request;
    const filter = parseFilter(request.filter);
    const r = createDataset(this.deps.store, { ...rest, filter, ...this.freezeGuard(request.name, confirmWarnings) });
    return { name: r.manifest.name, version: r.manifest.version, stats: r.manifest.stats, dropped: r.dropped };
  }

  /**
   * What every freeze from the app goes through (Datasets and Review alike): held-out families kept
   * out, and the checks (test seeds or held-out families in train, empty splits) run again on what is
   * frozen now (the lab may have changed since a preview), refused unless a person confirmed them.
   */
  private freezeGuard(name: string, confirmWarnings: boolean | undefined) {
    const confirm = confirmWarnings === true ? undefined : (checks: readonly FreezeWarning[]) => {
      if (checks.length) throw new Error(`dataset ${name} was not frozen; confirm first: ${checks.map((c) => c.message).join('; ')}`);
    };
    return { heldOutFamilies: this.heldOutFamilies(), ...(confirm ? { confirm } : {}) };
  }

  async readDatasetVersion(name: string, version: number): Promise<DatasetVersionDetail> {
    const m = readManifest(this.deps.store.dir, { name: validateDatasetName(name), version }, { verify: false });
    return {
      name: m.name,
      version: m.version,
      filter: m.filter,
      episodes: m.episodes.map((e) => ({ id: e.id, family: e.family, seed: e.seed, agent: e.agent, outcome: e.outcome, steps: e.steps, split: e.split })),
    };
  }

  /** The folder of an export this service finished, for the web server's download; null for any other id. */
  finishedExportDir(exportId: string): string | null {
    return this.finishedExports.get(exportId) ?? null;
  }

  async startExport(dataset: string, format: string, outDir: string): Promise<{ exportId: string; outDir: string }> {
    if (!isExportFormat(format)) throw new Error(`unknown export format "${format}"`);
    const ref = parseDatasetRef(dataset);
    const manifest = readManifest(this.deps.store.dir, ref); // fail now if it is missing or changed
    const exportId = randomBytes(6).toString('hex');
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, '');
    const target = outDir || join(labPaths.exports(this.deps.store.dir), `${manifest.name}-v${manifest.version}-${format}-${stamp}`);
    const controller = new AbortController();
    this.exports.set(exportId, controller);
    exportDataset(this.deps.store, {
      dataset: { name: manifest.name, version: manifest.version },
      format,
      outDir: target,
      signal: controller.signal,
      onProgress: (p) => this.emit('exportProgress', { exportId, done: p.done, total: p.total }),
    })
      .then(
        (result) => {
          this.finishedExports.set(exportId, result.outDir);
          this.emit('exportDone', { exportId, result });
        },
        (err: Error) => this.emit('exportDone', { exportId, result: null, error: err.message }),
      )
      .finally(() => this.exports.delete(exportId));
    return { exportId, outDir: target };
  }

  async cancelExport(exportId: string): Promise<void> {
    this.exports.get(exportId)?.abort();
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
    return freezeReview(this.deps.store, dataset, this.freezeGuard(dataset, confirmWarnings));
  }

  /** The freeze checks the review draft would raise, for a person to confirm before freezing it. */
  async checkReviewDraft(dataset: string): Promise<FreezeWarning[]> {
    let checks: FreezeWarning[] = [];
    try {
      freezeReview(this.deps.store, dataset, { heldOutFamilies: this.heldOutFamilies(), confirm: (c) => { checks = [...c]; throw new ChecksSeen(); } });
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
    for (const id of this.replays.keys()) await this.cancelReplay(id);
    for (const id of this.demos.keys()) await this.cancelDemo(id);
    await this.forks.close();
    this.decoding.close();
    this.training.close();
    await this.experiments.close(); // before the browser: its stage stops cleanly first
    if (this.browser) await (await this.browser).close().catch(() => {});
    if (this.taskServer) await (await this.taskServer).stop().catch(() => {});
  }
}
