/**
 * An experiment's folder, lab/experiments/<id>/:
 *   config.json          every parameter and seed (fixed at creation)
 *   stages.jsonl         one status line per stage event: started, resumable (state to continue from), done, stopped, failed
 *   outputs/<stage>.json what a finished stage produced (ids, paths, numbers), written atomically
 *   policies/            the SFT and Salvage-DS policy folders
 *   report.json, report.html
 *   set-aside/<time>/    what an amendment took out of the way of a stage it reopened (outputs, policy folders, curves)
 * A stage counts as finished only when its outputs file exists and a "done" line follows it (and
 * follows any "reopened" line), so a process killed between the two simply redoes that stage.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { stampedId } from '../store/stamped-id.ts';
import { z } from 'zod';
import { EXPERIMENT_ID, ExperimentConfig } from './config.ts';
import { appendJsonlLine, readJsonl, repairTornTail } from '../store/jsonl.ts';
import { readJsonFile, writeFileAtomic } from '../store/json-file.ts';
import { labPaths } from '../store/layout.ts';
import { experimentFiles } from '../store/lab-files.ts';

export const StageEvent = z.object({
  stage: z.string(),
  /**
   * resumable: the stage recorded what it needs to continue (its state). reopened: an amendment
   * sent a finished stage back to run again (`lab experiment amend`); with `redo`, from scratch:
   * the states it recorded before no longer count.
   */
  status: z.enum(['started', 'resumable', 'done', 'stopped', 'failed', 'reopened']),
  redo: z.boolean().optional(),
  at: z.string(),
  /** Seconds this attempt at the stage ran (done, stopped, failed). */
  elapsedS: z.number().optional(),
  /** What a stage needs to continue where it stopped (a collection run id). */
  state: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
});
export type StageEvent = z.infer<typeof StageEvent>;

/** An experiment's config.json, parsed; errors name the id, the file and the field. */
export function readRecordedConfig(labDir: string, id: string): ExperimentConfig {
  if (!EXPERIMENT_ID.test(id)) throw new Error(`invalid experiment id "${id}" (letters, digits, '_' and '-')`);
  const path = experimentFiles(labPaths.experiment(labDir, id)).config;
  if (!existsSync(path)) throw new Error(`no experiment ${id} in ${labPaths.experiments(labDir)} (no ${path})`);
  return readJsonFile(path, ExperimentConfig, 'JSON');
}

/**
 * The events of a stages.jsonl, each validated (errors name file, line and field); a torn last
 * line (a write cut short by a kill) is left out. Reads only: a running experiment may be writing.
 */
export function readStageEvents(log: string): StageEvent[] {
  return existsSync(log) ? readJsonl(log, StageEvent).records : [];
}

export class ExperimentFolder {
  private constructor(
    readonly dir: string,
    readonly config: ExperimentConfig,
    readonly events: StageEvent[],
  ) {}

  static newId(): string {
    return stampedId();
  }

  static create(labDir: string, config: ExperimentConfig): ExperimentFolder {
    const dir = labPaths.experiment(labDir, config.id);
    const files = experimentFiles(dir);
    if (existsSync(files.config)) throw new Error(`experiment ${config.id} exists; continue it with --resume ${config.id}`);
    mkdirSync(files.outputs, { recursive: true });
    writeFileAtomic(files.config, JSON.stringify(config, null, 2) + '\n');
    return new ExperimentFolder(dir, config, []);
  }

  static open(labDir: string, id: string): ExperimentFolder {
    let config: ExperimentConfig;
    try {
      config = readRecordedConfig(labDir, id);
    } catch (err) {
      throw new Error(`--resume: ${(err as Error).message}`);
    }
    const dir = labPaths.experiment(labDir, id);
    const log = experimentFiles(dir).stages;
    const events = readStageEvents(log);
    // A kill can tear only the last line: cut it, so the next event starts a line of its own.
    repairTornTail(log);
    return new ExperimentFolder(dir, config, events);
  }

  /**
   * The folder as it stands, to read only (a partial report): another process may be running the
   * experiment, so a torn last line is skipped rather than cut, and nothing is written.
   */
  static read(labDir: string, id: string): ExperimentFolder {
    const config = readRecordedConfig(labDir, id);
    const dir = labPaths.experiment(labDir, id);
    return new ExperimentFolder(dir, config, readStageEvents(experimentFiles(dir).stages));
  }

  log(e: Omit<StageEvent, 'at'>): void {
    const full = { ...e, at: new Date().toISOString() };
    this.events.push(full);
    appendJsonlLine(experimentFiles(this.dir).stages, full);
  }

  outputsPath(stage: string): string {
    return experimentFiles(this.dir).stageOutputs(stage);
  }

  /** The stage's events since it was last reopened (all of them if it never was); `redo`: only since the last reopening from scratch. */
  private current(stage: string, which: 'reopened' | 'redo'): StageEvent[] {
    const mine = this.events.filter((e) => e.stage === stage);
    const cut = mine.findLastIndex((e) => e.status === 'reopened' && (which === 'reopened' || e.redo === true));
    return mine.slice(cut + 1);
  }

  isDone(stage: string): boolean {
    return this.current(stage, 'reopened').some((e) => e.status === 'done') && existsSync(this.outputsPath(stage));
  }

  outputs<T>(stage: string): T {
    if (!this.isDone(stage)) throw new Error(`experiment ${this.config.id}: stage ${stage} has not finished`);
    // Each stage's outputs type is its own (stages.ts writes and reads it); the file is checked to be JSON here.
    return readJsonFile(this.outputsPath(stage), z.unknown(), 'JSON') as T;
  }

  /** The latest state a stage recorded (to continue it), if any; none recorded before it was last reopened from scratch. */
  lastState(stage: string): Record<string, unknown> | undefined {
    return this.current(stage, 'redo').filter((e) => e.state).at(-1)?.state;
  }

  finish(stage: string, outputs: unknown, elapsedS: number): void {
    writeFileAtomic(this.outputsPath(stage), JSON.stringify(outputs, null, 2) + '\n');
    this.log({ stage, status: 'done', elapsedS });
  }
}
