/**
 * Imported task sets in the lab: `lab tasks import` writes one validated JSON Lines file per set
 * to lab/tasksets/<name>.jsonl; every command that runs tasks reads them as families named after
 * the set, with the row's position as the seed (0..n-1, all test seeds: benchmarks are for
 * evaluation, never training data).
 */
import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonl } from '../../store/jsonl.ts';
import type { Agent } from '../agent.ts';
import type { TaskFamily } from '../types.ts';
import { importedTaskSchema, type ImportedTask } from './formats.ts';
import { labPaths } from '../../store/layout.ts';

const NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

export function taskSetsDir(labDir: string): string {
  return labPaths.tasksets(labDir);
}

export function checkTaskSetName(name: string, taken: Iterable<string> = []): void {
  if (!NAME.test(name)) throw new Error(`task set name must be lowercase letters, digits, '.', '_' or '-' (at most 64), got "${name}"`);
  if ([...taken].includes(name)) throw new Error(`"${name}" is a built-in task family; choose another --name`);
}

/** Write (or replace) a task set; atomic, so a reader never sees half a set. */
export function saveTaskSet(labDir: string, name: string, tasks: ImportedTask[]): string {
  const dir = taskSetsDir(labDir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.jsonl`);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, tasks.map((t) => JSON.stringify(importedTaskSchema.parse(t))).join('\n') + '\n');
  renameSync(tmp, path);
  return path;
}

export function loadTaskSet(labDir: string, name: string): ImportedTask[] {
  checkTaskSetName(name);
  const path = join(taskSetsDir(labDir), `${name}.jsonl`);
  if (!existsSync(path)) throw new Error(`no task set "${name}" in ${taskSetsDir(labDir)} (import one with: lab tasks import FILE --format F --name ${name})`);
  return readJsonl(path, importedTaskSchema).records;
}

export function taskSetNames(labDir: string): string[] {
  const dir = taskSetsDir(labDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => f.slice(0, -'.jsonl'.length))
    .filter((n) => NAME.test(n))
    .sort();
}

/** An imported set as a family: no site, no checker (judged), no oracle. */
export function importedFamily(name: string, tasks: ImportedTask[]): TaskFamily<ImportedTask> {
  const formats = [...new Set(tasks.map((t) => t.format))].join(', ');
  return {
    name,
    description: `${tasks.length} imported ${formats} tasks on the live web, judged by an LLM judge`,
    // Test seeds only (the empty train range keeps benchmarks out of training data); not marked
    // held out, which names the built-in sites kept back for generalisation results.
    seeds: { train: { from: 0, to: 0 }, test: { from: 0, to: tasks.length } },
    checker: 'judge',
    generate(seed) {
      const t = tasks[seed];
      if (!t) throw new Error(`task set "${name}" has tasks 0..${tasks.length - 1}; there is no task ${seed}`);
      return {
        instruction: t.instruction,
        state: t,
        // Nothing reads the live site's state at run time, so nothing could end the episode early:
        // the agent ends it, with its answer or its last action, as the benchmarks' protocols have it.
        goalKind: 'answer',
        tier: t.tier,
        startPath: '/',
        startUrl: t.startUrl,
        maxSteps: t.maxSteps,
        source: { format: t.format, id: t.id, file: t.file, row: t.row },
      };
    },
    handle: () => ({ kind: 'not_found' }),
    // Nothing on the live web can be read server-side: success is undecided until the judge rules.
    check: () => ({ success: false, keyPoints: [] }),
    oracle(): Agent {
      throw new Error(`task set "${name}" was imported from a benchmark: it has no oracle (use an agent such as random, or a model)`);
    },
  };
}

export function taskSetFamilies(labDir: string, only?: string[]): TaskFamily[] {
  return (only ?? taskSetNames(labDir)).map((n) => importedFamily(n, loadTaskSet(labDir, n)));
}
