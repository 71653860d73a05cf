/**
 * Comparing two experiments' reports (an original and its replay): every number the report
 * presents, side by side, with the difference and whether the replay's value lies inside the
 * original's 95% interval where the original has one; the claims' verdicts; and whether the two
 * configurations are the same apart from what a replay changes (id, createdAt, replayOf).
 *
 * Reports are read as untrusted files: each figure is looked up by its path and must be a number
 * or null there, so a damaged report.json fails with its file and field named.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { readJsonFile } from '../store/json-file.ts';
import type { Interval } from '../common/stats.ts';
import { parseExperimentConfig, type ExperimentConfig } from './config.ts';
import { readRecordedConfig } from './folder.ts';
import { labPaths } from '../store/layout.ts';
import { experimentFiles } from '../store/lab-files.ts';

export type { Comparison, ComparisonRow, ConfigDifference, VerdictRow } from '../../preload/views.ts';
import type { Comparison, ComparisonRow, ConfigDifference, VerdictRow } from '../../preload/views.ts';

/** What a replay changes on purpose; every other field of the configuration must match. */
const REPLAY_FIELDS = new Set(['id', 'createdAt', 'replayOf', 'amendments']);

/** Differences between two values, leaf by leaf (arrays compared whole: `salvage.seeds: [1] vs [1,2]`). */
export function configDifferences(a: ExperimentConfig, b: ExperimentConfig): ConfigDifference[] {
  const out: ConfigDifference[] = [];
  const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  const walk = (x: unknown, y: unknown, path: string) => {
    if (isObj(x) && isObj(y)) {
      for (const k of [...new Set([...Object.keys(x), ...Object.keys(y)])]) {
        if (!path && REPLAY_FIELDS.has(k)) continue;
        walk(x[k], y[k], path ? `${path}.${k}` : k);
      }
    } else if (JSON.stringify(x) !== JSON.stringify(y)) out.push({ field: path, original: x ?? null, replay: y ?? null });
  };
  walk(a, b, '');
  return out;
}

/** One report, read for comparison: a figure is found by its path. */
class ReportReader {
  constructor(
    readonly file: string,
    private readonly report: unknown,
  ) {}

  private at(path: string): unknown {
    let x: unknown = this.report;
    for (const k of path.split('.')) {
      if (typeof x !== 'object' || x === null) return undefined;
      x = (x as Record<string, unknown>)[k];
    }
    return x;
  }

  /** A number (or null: not measured) at path; a figure object gives its value. Absent: undefined. */
  figure(path: string): { value: number | null; interval: Interval | null } | undefined {
    const x = this.at(path);
    if (x === undefined) return undefined;
    if (x === null) return { value: null, interval: null };
    if (typeof x === 'number') return { value: x, interval: null };
    if (typeof x === 'object' && 'value' in x) {
      const { value, ci95 } = x as { value: unknown; ci95?: unknown };
      if (value !== null && typeof value !== 'number') throw new Error(`${this.file}: field ${path}.value: expected a number or null, got ${JSON.stringify(value)}`);
      if (ci95 !== undefined && ci95 !== null) {
        const c = ci95 as { low?: unknown; high?: unknown };
        if (typeof c.low !== 'number' || typeof c.high !== 'number') throw new Error(`${this.file}: field ${path}.ci95: expected { low, high } numbers`);
      }
      return { value: value as number | null, interval: (ci95 as Interval | null | undefined) ?? null };
    }
    throw new Error(`${this.file}: field ${path}: expected a number, null or a figure with a value, got ${JSON.stringify(x).slice(0, 80)}`);
  }

  text(path: string): string | null {
    const x = this.at(path);
    if (x === undefined || x === null) return null;
    if (typeof x !== 'string') throw new Error(`${this.file}: field ${path}: expected a string`);
    return x;
  }

  /** The names under an object (e.g. failure modes), or the `key` of each element of an array. */
  keys(path: string, key?: string): string[] {
    const x = this.at(path);
    if (x === undefined || x === null) return [];
    if (key) {
      if (!Array.isArray(x)) throw new Error(`${this.file}: field ${path}: expected an array`);
      return x.map((e, i) => {
        const k = (e as Record<string, unknown> | null)?.[key];
        if (typeof k !== 'string') throw new Error(`${this.file}: field ${path}.${i}.${key}: expected a string`);
        return k;
      });
    }
    if (typeof x !== 'object' || Array.isArray(x)) throw new Error(`${this.file}: field ${path}: expected an object`);
    return Object.keys(x);
  }

  /** Index of the array element whose `key` is `name` (methods by method, ablations by variant). */
  indexOf(path: string, key: string, name: string): number {
    return this.keys(path, key).indexOf(name);
  }
}

const union = (a: string[], b: string[]) => [...new Set([...a, ...b])];

/**
 * Compare an original's report with a replay's: parsed report.json files, typed unknown since each
 * figure is checked where it is read. `files` name them in errors.
 */
export function compareReports(original: unknown, replay: unknown, files = { original: 'original report', replay: 'replay report' }): Comparison {
  const a = new ReportReader(files.original, original);
  const b = new ReportReader(files.replay, replay);
  const configA = parseExperimentConfig((original as { config?: unknown })?.config, `${files.original}: config`);
  const configB = parseExperimentConfig((replay as { config?: unknown })?.config, `${files.replay}: config`);
  const rows: ComparisonRow[] = [];

  // A row; `pathB` differs from `path` only where an array element sits at another index in the replay.
  const row = (group: string, label: string, path: string, pathB = path) => {
    const x = a.figure(path);
    const y = b.figure(pathB);
    if (x === undefined && y === undefined) return;
    const o = x?.value ?? null;
    const r = y?.value ?? null;
    const interval = x?.interval ?? null;
    rows.push({
      group, label, field: path, original: o, replay: r,
      difference: o !== null && r !== null ? r - o : null,
      interval,
      inside: interval && r !== null ? r >= interval.low && r <= interval.high : null,
    });
  };

  for (const arm of ['reflect', 'plain'] as const) {
    const armsA = a.keys(`collection.${arm}.arms`, 'arm');
    const armsB = b.keys(`collection.${arm}.arms`, 'arm');
    for (const name of union(armsA, armsB)) {
      const p = (arms: string[]) => `collection.${arm}.arms.${arms.indexOf(name)}`;
      for (const [k, label] of [['successes', 'tasks solved'], ['yield', 'yield'], ['attempts', 'attempts'], ['attemptsPerSuccess', 'attempts per success'], ['stepsPerSuccess', 'steps per success'], ['stepsPerSuccessShortened', 'steps per success, shortened']] as const) {
        row('collection', `${arm} run, ${name} arm: ${label}`, `${p(armsA)}.${k}`, `${p(armsB)}.${k}`);
      }
    }
    for (const [k, label] of [['trajectories', 'trajectories'], ['shortened', 'shortened'], ['stepsBefore', 'steps before'], ['stepsAfter', 'steps after']] as const) {
      row('collection', `${arm} run, shortening: ${label}`, `collection.${arm}.shortening.${k}`);
    }
  }
  for (const arm of ['reflect', 'plain'] as const) {
    row('datasets', `${arm} dataset: episodes`, `datasets.${arm}.episodes`);
    row('datasets', `${arm} dataset: steps`, `datasets.${arm}.steps`);
  }
  for (const arm of ['reflect', 'plain'] as const) {
    for (const [k, label] of [['finalLoss', 'final training loss'], ['valLoss', 'validation loss'], ['steps', 'steps'], ['trainSamples', 'training samples']] as const) {
      row('sft', `SFT on ${arm} data: ${label}`, `sft.${arm}.${k}`);
    }
  }
  const c1 = 'claims.fewerSteps';
  row('claims', 'claim 1: steps on solved test tasks, reflection-trained', `${c1}.reflect`);
  row('claims', 'claim 1: steps on solved test tasks, plain-trained', `${c1}.plain`);
  row('claims', 'claim 1: difference (reflect - plain)', `${c1}.difference`);
  row('claims', 'claim 1: relative reduction', `${c1}.relativeReduction`);
  row('claims', 'claim 1: test tasks both solved', `${c1}.common.tasks`);
  row('claims', 'claim 1: difference on tasks both solved', `${c1}.common.difference`);
  row('claims', 'claim 2: Salvage-DS - SFT success, test', 'claims.salvageBeatsSft.test.difference');
  row('claims', 'claim 2: Salvage-DS - SFT success, held-out', 'claims.salvageBeatsSft.heldout.difference');

  const methodsA = a.keys('methods', 'method');
  const methodsB = b.keys('methods', 'method');
  for (const m of union(methodsA, methodsB)) {
    for (const split of ['test', 'heldout'] as const) {
      for (const [k, label] of [['success', 'success rate'], ['successBySeed', 'success rate, mean over seeds'], ['stepsOnSolved', 'steps on solved tasks'], ['invalidActions', 'invalid-action rate']] as const) {
        row('methods', `${m}, ${split === 'test' ? 'test' : 'held-out'}: ${label}`, `methods.${methodsA.indexOf(m)}.${split}.${k}`, `methods.${methodsB.indexOf(m)}.${split}.${k}`);
      }
    }
  }
  const ablA = a.keys('ablations', 'variant');
  const ablB = b.keys('ablations', 'variant');
  for (const v of union(ablA, ablB)) {
    for (const split of ['test', 'heldout'] as const) {
      for (const [k, label] of [['vsSft', 'vs SFT'], ['vsSalvage', 'vs Salvage-DS']] as const) {
        row('ablations', `${v} ${label}, ${split === 'test' ? 'test' : 'held-out'} (success points)`, `ablations.${ablA.indexOf(v)}.${split}.${k}`, `ablations.${ablB.indexOf(v)}.${split}.${k}`);
      }
    }
  }
  row('failure modes', 'failures mined', 'failureModes.failures');
  row('failure modes', 'failed rollouts', 'failureModes.failed');
  for (const mode of union(a.keys('failureModes.byMode'), b.keys('failureModes.byMode'))) row('failure modes', `mode ${mode}`, `failureModes.byMode.${mode}`);
  for (const s of union(a.keys('failureModes.confirmation'), b.keys('failureModes.confirmation'))) row('failure modes', `branching ${s}`, `failureModes.confirmation.${s}`);
  row('time', 'seconds in stages', 'totalS');

  const verdicts: VerdictRow[] = [
    ['claim 1: fewer steps on solved tasks', `${c1}.verdict`],
    ['claim 2: Salvage-DS beats SFT, test', 'claims.salvageBeatsSft.test.verdict'],
    ['claim 2: Salvage-DS beats SFT, held-out', 'claims.salvageBeatsSft.heldout.verdict'],
    ['claim 2: Salvage-DS beats SFT', 'claims.salvageBeatsSft.verdict'],
  ].map(([claim, field]) => ({ claim, field, original: a.text(field), replay: b.text(field) }));

  const differences = configDifferences(configA, configB);
  return { original: configA.id, replay: configB.id, configsIdentical: differences.length === 0, configDifferences: differences, rows, verdicts };
}

/** An experiment's report.json, read as JSON (compareReports checks each figure it uses). */
export function readExperimentReport(labDir: string, id: string): { report: unknown; path: string } {
  readRecordedConfig(labDir, id); // the id is valid and names an experiment (errors say which)
  const path = experimentFiles(labPaths.experiment(labDir, id)).report;
  if (!existsSync(path)) throw new Error(`experiment ${id} has no report.json yet (it has not finished; continue it with lab experiment --resume ${id})`);
  return { report: readJsonFile(path, z.unknown(), 'JSON'), path };
}

/** Compare two experiments of a lab by id (A the original, B the replay). */
export function compareExperiments(labDir: string, originalId: string, replayId: string): Comparison {
  const a = readExperimentReport(labDir, originalId);
  const b = readExperimentReport(labDir, replayId);
  return compareReports(a.report, b.report, { original: a.path, replay: b.path });
}
