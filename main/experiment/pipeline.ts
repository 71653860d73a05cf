/**
 * Runs an experiment's stages in order: a finished stage (outputs written, then its "done" line) is
 * skipped, the one that stopped continues from its own resumable state, and the report is written
 * from the stages' outputs at the end (again on every resume, so it always reflects the folder).
 * One process at a time: the folder's run.lock names it (./run-lock.ts).
 */
import type { BrowserEnv } from '../environment/environment.ts';
import type { TaskServer } from '../tasks/server.ts';
import type { LabStore } from '../store/lab.ts';
import type { ExperimentFolder } from './folder.ts';
import { experimentStages, StageStopped, type StageContext } from './stages.ts';
import type { ExperimentReport } from './report.ts';
import { writeReport } from './report-files.ts';
import { acquireRunLock } from './run-lock.ts';

export interface PipelineHooks {
  signal: AbortSignal;
  /** Stop once this stage is done (the rest stays pending; `--resume` goes on). */
  until?: string;
  /** A stage begins (skipped: it had finished before). */
  onStage?(name: string, index: number, total: number, skipped: boolean): void;
  onStageEnd?(name: string, elapsedS: number): void;
  onProgress?(name: string, done: number, total: number, note?: string): void;
  onLog?(line: string): void;
}

export type PipelineDeps = { folder: ExperimentFolder; store: LabStore; server: TaskServer; envs: BrowserEnv[]; browserKind: string };

/** stopped: cancelled in `stage`, or (until) stopped before it as asked. */
export type PipelineResult = { stopped: true; stage: string; until?: boolean } | { stopped: false; report: ExperimentReport; reportPath: string; htmlPath: string };

export async function runExperiment(
  deps: PipelineDeps,
  hooks: PipelineHooks,
): Promise<PipelineResult> {
  const { folder } = deps;
  const release = acquireRunLock(folder.dir, folder.config.id);
  try {
    return await runStages(deps, hooks);
  } finally {
    release();
  }
}

async function runStages(
  deps: PipelineDeps,
  hooks: PipelineHooks,
): Promise<PipelineResult> {
  const { folder } = deps;
  const stages = experimentStages(folder.config);
  const untilAt = hooks.until === undefined ? -1 : stages.findIndex((s) => s.name === hooks.until);
  if (hooks.until !== undefined && untilAt < 0) throw new Error(`--until: experiment ${folder.config.id} has no stage ${hooks.until} (${stages.map((s) => s.name).join(', ')})`);
  for (const [i, stage] of stages.entries()) {
    if (untilAt >= 0 && i > untilAt) return { stopped: true, stage: stage.name, until: true };
    if (folder.isDone(stage.name)) {
      hooks.onStage?.(stage.name, i, stages.length, true);
      continue;
    }
    if (hooks.signal.aborted) return { stopped: true, stage: stage.name };
    hooks.onStage?.(stage.name, i, stages.length, false);
    const t0 = performance.now();
    const ctx: StageContext = {
      folder, config: folder.config, store: deps.store, server: deps.server, envs: deps.envs, browserKind: deps.browserKind, signal: hooks.signal,
      progress: (done, total, note) => hooks.onProgress?.(stage.name, done, total, note),
      log: (line) => hooks.onLog?.(line),
    };
    folder.log({ stage: stage.name, status: 'started' });
    const elapsed = () => Math.round((performance.now() - t0) / 10) / 100;
    try {
      const outputs = await stage.run(ctx);
      folder.finish(stage.name, outputs, elapsed());
      hooks.onStageEnd?.(stage.name, elapsed());
    } catch (err) {
      if (err instanceof StageStopped || hooks.signal.aborted) {
        folder.log({ stage: stage.name, status: 'stopped', elapsedS: elapsed() });
        return { stopped: true, stage: stage.name };
      }
      folder.log({ stage: stage.name, status: 'failed', elapsedS: elapsed(), error: err instanceof Error ? err.message : String(err) });
      throw err;
    }
  }
  const { report, reportPath, htmlPath } = await writeReport(folder, deps.browserKind);
  return { stopped: false, report, reportPath, htmlPath };
}
