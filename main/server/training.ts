/**
 * The training view's side of the service: which training runs and evaluations the lab knows,
 * a run's curves, and live tails of runs that are still training (new lines arrive as
 * trainingLines events).
 *
 * Runs are found in three places, since policy folders live wherever --out said: the lab's
 * registry (lab/policies.jsonl, appended when `lab train sft|salvage` starts), folders under
 * lab/policies/, and the policy folders evaluation reports name. A folder with salvage-config.json
 * is a Salvage-DS run; one with train-log.jsonl or train-state.json an SFT run. Only those folders
 * can be read or watched through the API.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { registeredRuns, type TrainingKind } from '../policy/registry.ts';
import { JsonlTail, readCompleteLines } from './jsonl-tail.ts';
import { readJsonFile } from '../store/json-file.ts';
import {
  EvalReportFile, MiningFile, SalvagePoint, TrainLogLine, parseLines,
  type EvalGroupMetrics, type MiningInfo, type SalvagePoint as SalvagePointT, type SftPoint,
} from '../policy/output-files.ts';
import { labPaths } from '../store/layout.ts';
import { experimentFiles, modelFiles, evalFiles } from '../store/lab-files.ts';
import type { EvaluationInfo, TrainingList, TrainingRunData, TrainingRunInfo } from '../../preload/views.ts';
import type { Emit } from './lab-parts.ts';
import { z } from 'zod';

export type { EvalGroupMetrics, MiningInfo, SalvagePointT as SalvagePoint, SftPoint };

/**
 * Tails open at once. A window that reloads never says unwatch for the old page's tails; past this
 * many the oldest is closed (a view follows one run at a time).
 */
export const MAX_WATCHES = 8;

/** The file a run's curve is read from: SFT's per-step log, or Salvage-DS's per-iteration statistics. */
const curveFile = (dir: string, kind: TrainingKind) => (kind === 'sft' ? modelFiles(dir).trainLog : modelFiles(dir).salvageStats);

function kindOf(dir: string): TrainingKind | null {
  if (existsSync(modelFiles(dir).salvageConfig)) return 'salvage';
  if (existsSync(modelFiles(dir).trainLog) || existsSync(modelFiles(dir).trainState)) return 'sft';
  return null;
}

/** A job as recorded: salvage-config.json is the job; train-state.json holds it under `job`. */
const JobHolder = z.object({ job: z.record(z.string(), z.unknown()).optional() }).catchall(z.unknown());

function readJob(path: string): Record<string, unknown> | null {
  try {
    const raw = readJsonFile(path, JobHolder, 'JSON');
    return raw.job ?? raw;
  } catch {
    return null;
  }
}

const pick = (job: Record<string, unknown> | null, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => job && ['string', 'number', 'boolean'].includes(typeof job[k])).map((k) => [k, job![k] as string | number | boolean]));

/**
 * Where a run belongs, as the run list heads it: its experiment (a replay is an experiment of its
 * own, so its runs no longer look like the original's), the lab's own policies, or the folder a
 * run registered from elsewhere lives in.
 */
export function runGroup(labDir: string, dir: string): string {
  const rel = relative(resolve(labDir), resolve(dir)).split(sep);
  if (rel[0] === 'experiments' && rel[2] === 'policies' && rel.length === 4) return `experiment ${rel[1]}`;
  if (rel[0] === 'policies' && rel.length === 2) return 'lab policies';
  return `folder ${dirname(resolve(dir))}`;
}

function runInfo(labDir: string, dir: string, kind: TrainingKind, done: number): TrainingRunInfo {
  const group = runGroup(labDir, dir);
  const file = curveFile(dir, kind);
  const updatedAt = existsSync(file) ? statSync(file).mtime.toISOString() : null;
  if (kind === 'salvage') {
    const job = readJob(modelFiles(dir).salvageConfig);
    const reward = (job?.reward as { kind?: string } | undefined)?.kind ?? null;
    return {
      dir, kind, name: basename(dir), group, done, total: typeof job?.iterations === 'number' ? job.iterations : null, updatedAt,
      settings: { ...pick(job, ['preset', 'states', 'statesPerIter', 'group', 'lr', 'beta', 'clipEps', 'rejected', 'seed']), reward },
    };
  }
  const job = readJob(modelFiles(dir).trainState);
  const dataset = job?.dataset as { name: string; version: number } | null | undefined;
  return {
    dir, kind, name: basename(dir), group, done, total: typeof job?.steps === 'number' ? job.steps : null, updatedAt,
    settings: { ...pick(job, ['steps', 'batch', 'lr', 'minLr', 'targets', 'seed']), dataset: dataset ? `${dataset.name} v${dataset.version}` : null },
  };
}

export class TrainingLab {
  private watches = new Map<string, JsonlTail>();

  constructor(
    private readonly labDir: string,
    private readonly emit: Emit,
  ) {}

  private get evalsDir(): string {
    return labPaths.evals(this.labDir);
  }

  /** Every known folder that holds a training run, registry first, each once. */
  private runDirs(evaluations: EvaluationInfo[]): Array<{ dir: string; kind: TrainingKind }> {
    const dirs: string[] = registeredRuns(this.labDir).map((r) => r.dir);
    const children = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort().map((d) => join(dir, d)) : []);
    dirs.push(...children(labPaths.policies(this.labDir)));
    // An experiment's policies train before any evaluation names them (its stages link here).
    for (const x of children(labPaths.experiments(this.labDir))) dirs.push(...children(experimentFiles(x).policies));
    for (const e of evaluations) dirs.push(e.policyDir);
    const seen = new Set<string>();
    const out: Array<{ dir: string; kind: TrainingKind }> = [];
    for (const d of dirs.map((x) => resolve(x))) {
      if (seen.has(d)) continue;
      seen.add(d);
      const kind = existsSync(d) ? kindOf(d) : null;
      if (kind) out.push({ dir: d, kind });
    }
    return out;
  }

  private listEvaluations(errors: string[]): EvaluationInfo[] {
    if (!existsSync(this.evalsDir)) return [];
    const out: EvaluationInfo[] = [];
    for (const id of readdirSync(this.evalsDir).sort()) {
      const files = evalFiles(join(this.evalsDir, id));
      const reportPath = files.report;
      if (!existsSync(reportPath)) continue;
      try {
        const r = readJsonFile(reportPath, EvalReportFile);
        const miningPath = files.mining;
        let mining: MiningInfo | null = null;
        if (existsSync(miningPath)) {
          try {
            mining = readJsonFile(miningPath, MiningFile);
          } catch (err) {
            errors.push((err as Error).message);
          }
        }
        out.push({
          id, createdAt: r.createdAt, policyDir: resolve(r.policy.dir), policyName: basename(r.policy.dir), split: r.request.split, tasks: r.request.tasks,
          seeds: r.request.seeds, runs: r.request.runs, tier: r.request.tier ?? null, overall: r.overall, byFamily: r.byFamily, byTier: r.byTier, mining,
        });
      } catch (err) {
        errors.push((err as Error).message);
      }
    }
    return out;
  }

  list(): TrainingList {
    const errors: string[] = [];
    const evaluations = this.listEvaluations(errors);
    const runs: TrainingRunInfo[] = [];
    for (const { dir, kind } of this.runDirs(evaluations)) {
      try {
        const { lines } = readCompleteLines(curveFile(dir, kind), 0);
        runs.push(runInfo(this.labDir, dir, kind, lines.length));
      } catch (err) {
        errors.push(`${dir}: ${(err as Error).message}`);
      }
    }
    return { runs, evaluations, errors };
  }

  private known(dir: string): { dir: string; kind: TrainingKind } {
    const d = resolve(String(dir));
    const hit = this.runDirs(this.listEvaluations([])).find((r) => r.dir === d);
    if (!hit) throw new Error(`${d} is not a training run this lab knows (lab/policies.jsonl, lab/policies/, evaluation reports)`);
    return hit;
  }

  read(dir: string): TrainingRunData {
    const run = this.known(dir);
    const path = curveFile(run.dir, run.kind);
    const file = basename(path);
    const { lines, offset } = readCompleteLines(path, 0);
    const data: TrainingRunData = { info: runInfo(this.labDir, run.dir, run.kind, lines.length), sft: [], salvage: [], offset, errors: [] };
    if (run.kind === 'sft') {
      const r = parseLines(lines, TrainLogLine, file);
      data.sft = r.points;
      data.errors = r.errors;
    } else {
      const r = parseLines(lines, SalvagePoint, file);
      data.salvage = r.points;
      data.errors = r.errors;
    }
    return data;
  }

  /** Follow a run's curve file from `offset` (what read() returned); new lines arrive as trainingLines events. */
  watch(dir: string, offset: number): { watchId: string } {
    const run = this.known(dir);
    if (!Number.isInteger(offset) || offset < 0) throw new Error(`offset must be a non-negative integer, got ${JSON.stringify(offset)}`);
    const watchId = randomBytes(6).toString('hex');
    const path = curveFile(run.dir, run.kind);
    const file = basename(path);
    const tail = new JsonlTail(path, offset, (chunk) => {
      const base = { watchId, dir: run.dir, reset: chunk.reset, offset: chunk.offset };
      if (run.kind === 'sft') {
        const r = parseLines(chunk.lines, TrainLogLine, file);
        this.emit('trainingLines', { ...base, sft: r.points, salvage: [], errors: r.errors });
      } else {
        const r = parseLines(chunk.lines, SalvagePoint, file);
        this.emit('trainingLines', { ...base, sft: [], salvage: r.points, errors: r.errors });
      }
    });
    this.watches.set(watchId, tail);
    for (const [id, t] of this.watches) {
      if (this.watches.size <= MAX_WATCHES) break;
      t.close();
      this.watches.delete(id);
    }
    setImmediate(() => tail.check()); // lines written between read() and now, after the reply has gone out
    return { watchId };
  }

  /** Ids of the open tails, oldest first. */
  get watching(): string[] {
    return [...this.watches.keys()];
  }

  unwatch(watchId: string): void {
    this.watches.get(String(watchId))?.close();
    this.watches.delete(String(watchId));
  }

  close(): void {
    for (const t of this.watches.values()) t.close();
    this.watches.clear();
  }
}
