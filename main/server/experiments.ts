/**
 * The experiments view's side of the service: the experiments in lab/experiments/ (configuration,
 * stage status from stages.jsonl, headline numbers from report.json), their report.html, replays
 * and resumes run in the background with progress events and cancel, and the comparison of a
 * replay with its original.
 *
 * A replay runs in this process through runExperiment, the same function `lab experiment` calls:
 * cancel is its AbortSignal (the running stage stops and keeps its resumable state, as on Ctrl-C),
 * and its hooks become experimentStage / experimentProgress / experimentDone events. One run at a
 * time: stages already use every core, and they share the service's browser.
 *
 * Folders are read without ExperimentFolder.open, which trims a torn last line of stages.jsonl:
 * here another process (a `lab experiment` in a terminal) may be writing that line right now.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserEnv } from '../environment/environment.ts';
import type { LabStore } from '../store/lab.ts';
import { ExperimentFolder, readRecordedConfig } from '../experiment/folder.ts';
import { EXPERIMENT_ID, experimentConfig } from '../experiment/config.ts';
import { experimentStatus } from '../experiment/status.ts';
import { runExperiment } from '../experiment/pipeline.ts';
import { createReplay } from '../experiment/replay.ts';
import { compareExperiments, type Comparison } from '../experiment/compare.ts';
import { labPaths } from '../store/layout.ts';
import type { ExperimentInfo } from '../../preload/views.ts';
import type { Emit, Runtime } from './lab-parts.ts';
import { experimentFiles } from '../store/lab-files.ts';

export interface ExperimentsDeps {
  store: LabStore;
  /** The service's browser and task server (started on first use). */
  runtime: Runtime;
  emit: Emit;
}

/** Progress events at most this often per stage (an SFT stage reports every step). */
const PROGRESS_EVERY_MS = 100;

export class ExperimentsLab {
  private running: { id: string; controller: AbortController; done: Promise<void> } | null = null;

  constructor(private readonly deps: ExperimentsDeps) {}

  private get dir(): string {
    return labPaths.experiments(this.deps.store.dir);
  }

  /** Every experiment folder with a config.json, newest first; unreadable ones are listed as errors. */
  list(): { experiments: ExperimentInfo[]; errors: string[] } {
    const experiments: ExperimentInfo[] = [];
    const errors: string[] = [];
    if (!existsSync(this.dir)) return { experiments, errors };
    for (const id of readdirSync(this.dir)) {
      if (!existsSync(experimentFiles(join(this.dir, id)).config)) continue;
      try {
        experiments.push(this.read(id));
      } catch (err) {
        errors.push((err as Error).message);
      }
    }
    experiments.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
    return { experiments, errors };
  }

  /** One experiment's configuration summary, stage status and progress, headline figures and time left. */
  read(id: string): ExperimentInfo {
    return experimentStatus(this.deps.store.dir, id, { runningHere: this.running?.id === id });
  }

  /** report.html of an experiment (for the web server's report route), or null where there is none. */
  reportHtmlPath(id: string): string | null {
    if (!EXPERIMENT_ID.test(id)) return null;
    const path = experimentFiles(join(this.dir, id)).reportHtml;
    return existsSync(path) ? path : null;
  }

  compare(originalId: string, replayId: string): Comparison {
    return compareExperiments(this.deps.store.dir, String(originalId), String(replayId));
  }

  /** Create an experiment from a preset (the app's `lab experiment --preset P [--seeds N] [--out ID]`) and run it in the background. */
  async start(request: { preset: string; seeds?: number; id?: string }): Promise<{ experimentId: string }> {
    this.refuseWhileRunning();
    const config = experimentConfig(request.preset, request.id ?? ExperimentFolder.newId(), { seeds: request.seeds });
    const folder = ExperimentFolder.create(this.deps.store.dir, config);
    this.run(folder);
    return { experimentId: config.id };
  }

  /** Create a replay of a finished experiment and run it in the background. */
  async startReplay(id: string): Promise<{ experimentId: string }> {
    this.refuseWhileRunning();
    const folder = createReplay(this.deps.store.dir, id);
    this.run(folder);
    return { experimentId: folder.config.id };
  }

  /** Continue a stopped (or failed) experiment: finished stages are skipped, the stopped one continues. */
  async resume(id: string): Promise<{ experimentId: string }> {
    this.refuseWhileRunning();
    readRecordedConfig(this.deps.store.dir, id); // errors name the file and field
    if (existsSync(experimentFiles(join(this.dir, id)).report)) throw new Error(`experiment ${id} has finished; there is nothing to resume`);
    const folder = ExperimentFolder.open(this.deps.store.dir, id);
    this.run(folder);
    return { experimentId: folder.config.id };
  }

  /** Stop the running experiment (its stage keeps what it needs to continue). */
  cancel(id: string): void {
    if (this.running?.id === id) this.running.controller.abort();
  }

  get runningId(): string | null {
    return this.running?.id ?? null;
  }

  private refuseWhileRunning(): void {
    if (this.running) throw new Error(`experiment ${this.running.id} is running; cancel it or wait for it to finish`);
  }

  private run(folder: ExperimentFolder): void {
    const experimentId = folder.config.id;
    const controller = new AbortController();
    const { emit } = this.deps;
    const lastProgress = new Map<string, number>();
    const work = async (): Promise<void> => {
      const { host, server } = await this.deps.runtime();
      const cfg = folder.config;
      const envs = Array.from({ length: Math.max(cfg.collect.parallel, cfg.eval.parallel) }, () => new BrowserEnv(host));
      try {
        const result = await runExperiment({ folder, store: this.deps.store, server, envs, browserKind: host.kind }, {
          signal: controller.signal,
          onStage: (stage, index, total, skipped) => emit('experimentStage', { experimentId, stage, index, total, status: skipped ? 'skipped' : 'started', elapsedS: null }),
          onStageEnd: (stage, elapsedS) => emit('experimentStage', { experimentId, stage, index: -1, total: -1, status: 'done', elapsedS }),
          onProgress: (stage, done, total, note) => {
            const now = Date.now();
            if (done < total && now - (lastProgress.get(stage) ?? 0) < PROGRESS_EVERY_MS) return;
            lastProgress.set(stage, now);
            emit('experimentProgress', { experimentId, stage, done, total, note: note ?? null });
          },
        });
        this.running = null;
        if (result.stopped) return emit('experimentDone', { experimentId, status: 'stopped', stage: result.stage, comparison: null });
        // The replay finished either way; a comparison that cannot be made (the original's report
        // gone or damaged) is said beside it, not as the run's failure.
        let comparison: Comparison | null = null;
        let error: string | undefined;
        try {
          comparison = cfg.replayOf ? this.compare(cfg.replayOf, experimentId) : null;
        } catch (err) {
          error = `comparison with ${cfg.replayOf}: ${(err as Error).message}`;
        }
        emit('experimentDone', { experimentId, status: 'finished', stage: null, comparison, ...(error ? { error } : {}) });
      } finally {
        await Promise.all(envs.map((e) => e.close().catch(() => {})));
      }
    };
    const done = work()
      .catch((err: unknown) => {
        this.running = null;
        emit('experimentDone', { experimentId, status: 'failed', stage: null, comparison: null, error: err instanceof Error ? err.message : String(err) });
      })
      .finally(() => {
        if (this.running?.id === experimentId) this.running = null;
      });
    this.running = { id: experimentId, controller, done };
  }

  /** Cancel a running experiment and wait until its stage has stopped (on service close). */
  async close(): Promise<void> {
    const r = this.running;
    if (!r) return;
    r.controller.abort();
    await r.done;
  }
}
