/**
 * Amending a stopped experiment (`lab experiment amend`): change recorded config values, say why,
 * and send stages back to run again under them. The amendment is recorded in config.json, so the
 * status, the app and the report show it and a replay runs the new values from the start.
 *
 * A reopened stage continues its own work on the next resume (an evaluation takes more runs under
 * its id, an SFT or Salvage-DS run resumes from its checkpoint); a redone one starts over (its
 * policy folder and loss curve are set aside, an evaluation gets a new id). Every finished stage
 * that reads a reopened or redone stage's outputs is redone too. Nothing is deleted: outputs and
 * folders taken out of the way go to set-aside/<time>/ in the experiment's folder.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { z } from 'zod';
import { isDeepStrictEqual } from 'node:util';
import { ExperimentConfig } from './config.ts';
import { ExperimentFolder } from './folder.ts';
import { experimentStages, type Stage } from './stages.ts';
import { acquireRunLock } from './run-lock.ts';
import { readJsonFile, writeFileAtomic } from '../store/json-file.ts';
import { experimentFiles } from '../store/lab-files.ts';

/** Fields that name the experiment rather than configure it. */
const FIXED_FIELDS = new Set(['id', 'preset', 'createdAt', 'replayOf', 'amendments']);

export interface AmendRequest {
  /** Dotted config paths and their new values (`eval.runs`, `salvage.rl.lr`). */
  set: Array<{ path: string; value: unknown }>;
  why: string;
  /** Stages to run again, continuing their own work. */
  reopen?: string[];
  /** Stages to run again from scratch. */
  redo?: string[];
  /** Report what would change without writing anything. */
  dryRun?: boolean;
  now?: Date;
}

export interface AmendResult {
  change: string;
  /** Every stage sent back, in pipeline order, and how. */
  stages: Array<{ stage: string; how: 'reopened' | 'redone' }>;
  /** What was moved out of the way, and where, relative to the experiment's folder. */
  setAside: Array<{ from: string; to: string }>;
  dryRun: boolean;
}

/** `eval.runs=3` → { path, value }: the value is read as JSON (numbers, booleans, objects, quoted strings), else as a plain string. */
export function parseSetting(arg: string): { path: string; value: unknown } {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new Error(`--set "${arg}": expected PATH=VALUE, such as eval.runs=3`);
  const path = arg.slice(0, eq).trim();
  const raw = arg.slice(eq + 1);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = raw;
  }
  return { path, value };
}

/** The config with one dotted path set; the path's parent must exist and be an object. Returns the old value. */
function setPath(config: Record<string, unknown>, path: string, value: unknown): unknown {
  const keys = path.split('.');
  if (keys.some((k) => !k)) throw new Error(`--set ${path}: not a dotted field path`);
  if (FIXED_FIELDS.has(keys[0])) throw new Error(`--set ${path}: ${keys[0]} names the experiment and cannot be amended`);
  let node: unknown = config;
  for (const [i, k] of keys.slice(0, -1).entries()) {
    node = (node as Record<string, unknown>)[k];
    if (!node || typeof node !== 'object' || Array.isArray(node)) throw new Error(`--set ${path}: ${keys.slice(0, i + 1).join('.')} is not a section of the config`);
  }
  const parent = node as Record<string, unknown>;
  const last = keys.at(-1)!;
  const old = parent[last];
  parent[last] = value;
  return old;
}

const show = (v: unknown) => (v === undefined ? 'unset' : JSON.stringify(v));

/**
 * The stages to send back: the named ones, and every stage that reads (directly or through
 * another) the outputs of one of them. Only stages that have run are sent back; the others run anyway.
 */
function stagesToSendBack(stages: Stage[], reopen: string[], redo: string[], begun: (s: string) => boolean): AmendResult['stages'] {
  const how = new Map<string, 'reopened' | 'redone'>();
  for (const s of reopen) how.set(s, 'reopened');
  for (const s of redo) how.set(s, 'redone');
  // Stages come in pipeline order and read only earlier ones, so one pass finds every dependent.
  for (const s of stages) if (!how.has(s.name) && s.inputs.some((i) => how.has(i))) how.set(s.name, 'redone');
  return stages.filter((s) => how.has(s.name) && begun(s.name)).map((s) => ({ stage: s.name, how: how.get(s.name)! }));
}

export function amendExperiment(labDir: string, id: string, req: AmendRequest): AmendResult {
  if (req.dryRun) return amend(labDir, id, req);
  // The run lock from reading config.json to writing it back: not while the experiment runs (the
  // running process holds the config in memory and would overwrite outputs), and not beside another
  // amend, which would write back the config it read and lose this amendment (or this one, its).
  const release = acquireRunLock(ExperimentFolder.read(labDir, id).dir, id);
  try {
    return amend(labDir, id, req);
  } finally {
    release();
  }
}

function amend(labDir: string, id: string, req: AmendRequest): AmendResult {
  const folder = ExperimentFolder.read(labDir, id);
  const files = experimentFiles(folder.dir);
  const why = req.why.trim();
  if (!why) throw new Error('--why: say why the experiment is amended (it is recorded with the change)');
  const reopen = req.reopen ?? [];
  const redo = req.redo ?? [];
  if (!req.set.length && !reopen.length && !redo.length) throw new Error('nothing to amend: give --set, --reopen or --redo');

  // The recorded file as written (not the parsed config, whose defaults would be written back as if amended).
  const configPath = files.config;
  const raw = readJsonFile(configPath, z.record(z.string(), z.unknown()), 'JSON');
  const changes: string[] = [];
  for (const { path, value } of req.set) {
    const old = setPath(raw, path, value);
    if (isDeepStrictEqual(old, value)) throw new Error(`--set ${path}: already ${show(value)}`);
    changes.push(`${path} ${show(old)} -> ${show(value)}`);
  }
  const checked = ExperimentConfig.safeParse(raw);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new Error(`--set: ${configPath}: field ${issue.path.join('.')}: ${issue.message}`);
  }

  const stages = experimentStages(checked.data);
  const names = new Set(stages.map((s) => s.name));
  for (const s of [...reopen, ...redo]) {
    if (!names.has(s)) throw new Error(`stage ${s}: experiment ${id} has no such stage (see \`lab experiment status ${id}\`)`);
    // A collection's episodes are the lab's and its run folder is named by the experiment: it can only run again in a replay.
    if (s.startsWith('collect-')) throw new Error(`stage ${s}: a collection cannot run again inside its experiment; replay the experiment instead`);
  }
  const both = reopen.filter((s) => redo.includes(s));
  if (both.length) throw new Error(`stage ${both[0]}: give it to --reopen or --redo, not both`);
  const begun = (s: string) => folder.events.some((e) => e.stage === s);
  const sendBack = stagesToSendBack(stages, reopen, redo, begun);
  const notRun = [...reopen, ...redo].filter((s) => !begun(s));
  if (notRun.length) throw new Error(`stage ${notRun[0]}: it has not run yet, so it will run under the amended config anyway`);

  const at = (req.now ?? new Date()).toISOString();
  // One folder per amendment: a second one in the same second must not overwrite the first's files.
  const stamp = at.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  let setAsideDir = files.setAside(stamp);
  for (let n = 2; existsSync(setAsideDir); n++) setAsideDir = files.setAside(`${stamp}-${n}`);
  const moves: Array<[string, string]> = [];
  const aside = (path: string) => {
    if (existsSync(path)) moves.push([path, join(setAsideDir, relative(folder.dir, path))]);
  };
  for (const { stage, how } of sendBack) {
    // Mining writes its report beside the evaluation it mined (in the lab's evals/): running again would overwrite it.
    if (stage === 'mine' && existsSync(folder.outputsPath(stage))) {
      const { path: report } = readJsonFile(folder.outputsPath(stage), z.object({ path: z.string().optional() }).passthrough(), 'JSON');
      if (report && existsSync(report)) moves.push([report, join(setAsideDir, basename(report))]);
    }
    aside(folder.outputsPath(stage));
    if (how === 'redone') {
      // Their resumable work: an SFT or Salvage-DS policy folder (with its checkpoint) and an SFT loss curve.
      aside(files.policy(stage));
      aside(files.curve(stage));
    }
  }
  const change = changes.length ? changes.join('; ') : 'no config value changed';
  const result: AmendResult = { change, stages: sendBack, setAside: moves.map(([from, to]) => ({ from: relative(folder.dir, from), to: relative(folder.dir, to) })), dryRun: req.dryRun === true };
  if (req.dryRun) return result;

  for (const [from, to] of moves) {
    mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
  }
  const amendments = [...((raw.amendments as unknown[]) ?? []), { at, change, why, reopened: sendBack.map((s) => s.stage) }];
  writeFileAtomic(configPath, JSON.stringify({ ...raw, amendments }, null, 2) + '\n');
  const open = ExperimentFolder.open(labDir, id);
  for (const { stage, how } of sendBack) open.log({ stage, status: 'reopened', ...(how === 'redone' ? { redo: true } : {}) });
  return result;
}
