/**
 * An experiment's folder, lab/experiments/<id>/:
 *   config.json          every parameter and seed (fixed at creation)
 *   stages.jsonl         one status line per stage event: started, resumable (state to continue from), done, stopped, failed
 *   outputs/<stage>.json what a finished stage produced (ids, paths, numbers), written atomically
 *   policies/            the SFT and Salvage-DS policy folders
 *   report.json, report.html
 * A stage counts as finished only when its outputs file exists and a "done" line follows it, so a
 * process killed between the two simply redoes that stage.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { parseExperimentConfig, type ExperimentConfig } from './config.ts';

export const StageEvent = z.object({
  stage: z.string(),
  /** resumable: the stage recorded what it needs to continue (its state). */
  status: z.enum(['started', 'resumable', 'done', 'stopped', 'failed']),
  at: z.string(),
  /** Seconds this attempt at the stage ran (done, stopped, failed). */
  elapsedS: z.number().optional(),
  /** What a stage needs to continue where it stopped (a collection run id). */
  state: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
});
export type StageEvent = z.infer<typeof StageEvent>;

/** Write a file so that a reader sees the old content or the whole new one, never a torn one. */
export function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export class ExperimentFolder {
  private constructor(
    readonly dir: string,
    readonly config: ExperimentConfig,
    readonly events: StageEvent[],
  ) {}

  static newId(): string {
    return `${new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${randomBytes(3).toString('hex')}`;
  }

  static create(labDir: string, config: ExperimentConfig): ExperimentFolder {
    const dir = join(labDir, 'experiments', config.id);
    if (existsSync(join(dir, 'config.json'))) throw new Error(`experiment ${config.id} exists; continue it with --resume ${config.id}`);
    mkdirSync(join(dir, 'outputs'), { recursive: true });
    writeAtomic(join(dir, 'config.json'), JSON.stringify(config, null, 2) + '\n');
    return new ExperimentFolder(dir, config, []);
  }

  static open(labDir: string, id: string): ExperimentFolder {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`--resume: invalid experiment id "${id}"`);
    const dir = join(labDir, 'experiments', id);
    const cfgPath = join(dir, 'config.json');
    if (!existsSync(cfgPath)) throw new Error(`--resume: no experiment ${id} in ${join(labDir, 'experiments')}`);
    const config = parseExperimentConfig(JSON.parse(readFileSync(cfgPath, 'utf8')), cfgPath);
    const log = join(dir, 'stages.jsonl');
    const events: StageEvent[] = [];
    if (existsSync(log)) {
      const lines = readFileSync(log, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (!line.trim()) return;
        let raw: unknown;
        try {
          raw = JSON.parse(line);
        } catch {
          // A kill can tear only the last line; anything else is damage worth naming.
          if (i >= lines.length - 2) return;
          throw new Error(`${log}:${i + 1}: not JSON`);
        }
        const r = StageEvent.safeParse(raw);
        if (!r.success) throw new Error(`${log}:${i + 1}: field ${r.error.issues[0].path.join('.')}: ${r.error.issues[0].message}`);
        events.push(r.data);
      });
      const text = readFileSync(log, 'utf8');
      if (text && !text.endsWith('\n')) writeFileSync(log, text.slice(0, text.lastIndexOf('\n') + 1));
    }
    return new ExperimentFolder(dir, config, events);
  }

  log(e: Omit<StageEvent, 'at'>): void {
    const full = { ...e, at: new Date().toISOString() };
    this.events.push(full);
    appendFileSync(join(this.dir, 'stages.jsonl'), JSON.stringify(full) + '\n');
  }

  outputsPath(stage: string): string {
    return join(this.dir, 'outputs', `${stage}.json`);
  }

  isDone(stage: string): boolean {
    return this.events.some((e) => e.stage === stage && e.status === 'done') && existsSync(this.outputsPath(stage));
  }

  outputs<T>(stage: string): T {
    if (!this.isDone(stage)) throw new Error(`experiment ${this.config.id}: stage ${stage} has not finished`);
    return JSON.parse(readFileSync(this.outputsPath(stage), 'utf8')) as T;
  }

  /** The latest state a stage recorded (to continue it), if any. */
  lastState(stage: string): Record<string, unknown> | undefined {
    return this.events.filter((e) => e.stage === stage && e.state).at(-1)?.state;
  }

  finish(stage: string, outputs: unknown, elapsedS: number): void {
    writeAtomic(this.outputsPath(stage), JSON.stringify(outputs, null, 2) + '\n');
    this.log({ stage, status: 'done', elapsedS });
  }
}
