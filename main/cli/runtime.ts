/**
 * What CLI commands share: the lab folder, a browser, the task server, output helpers. Every
 * command module imports this file to declare its options, so it stays light: the browser and the
 * task server (the families' sites) are loaded when a command starts them.
 */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BrowserPool } from '../environment/browser-pool.ts';
import { defaultLabDir } from '../paths.ts';
import { assertLabDirUsable } from '../store/lab-dir.ts';
import { LabStore } from '../store/lab.ts';
import type { TaskServer } from '../tasks/server.ts';
import type { TaskFamily, Tier } from '../tasks/types.ts';
import { taskSetFamilies, taskSetNames } from '../tasks/imported/taskset.ts';
import { miniwobFamilies } from '../tasks/miniwob/loader.ts';
import type { JobHandle } from '../models/worker-job.ts';
import type { Sampling } from '../decode/types.ts';
import { ACTION_SET_NAMES, DEFAULT_ACTION_SETS, parseActionSets, type ActionSetName } from '../environment/action-sets.ts';

export interface BrowserFlags {
  /** Every --browser given (commander collects the repeated flag). */
  browser?: string[];
  /** --browsers FILE: more endpoints, one per line. */
  browsers?: string;
  chromium?: string;
}

/** Add --browser (repeatable), --browsers and --chromium to a command that needs a browser. */
export function withBrowserOptions(cmd: Command): Command {
  return cmd
    .option(
      '--browser <url>',
      'attach to a running browser instead of launching one: a DevTools WebSocket (ws://host:port/devtools/browser/...) or an http(s):// server answering /json/version (Chrome --remote-debugging-port, a grid); repeat it for a pool, over which --parallel environments are spread',
      (v: string, acc: string[] = []) => [...acc, v],
    )
    .option('--browsers <file>', 'a pool of browser endpoints from a file: one ws:// or http(s):// URL per line, # for comments (adds to --browser)')
    .option('--chromium <path>', 'Chromium or Chrome executable to launch (default: $LAB_CHROMIUM, then auto-detect)');
}

export interface ImageFlags {
  imageDetail?: 'low' | 'high' | 'auto';
  imageMaxSide?: number;
}

/** Add --image-detail and --image-max-side to a command with a vision endpoint agent. */
export function withImageOptions(cmd: Command): Command {
  return cmd
    .option('--image-detail <d>', "vision: OpenAI's image detail sent with the screenshot, low | high | auto (default: not sent; vLLM and SGLang ignore it)", (v: string) => {
      if (v !== 'low' && v !== 'high' && v !== 'auto') throw new Error(`--image-detail must be low, high or auto, got "${v}"`);
      return v;
    })
    .option('--image-max-side <px>', 'vision: capture screenshots at most this many pixels on their longer side (scaled by Chromium, marks included; default: the viewport, 1024x768)', intOption('--image-max-side', 64));
}

export interface EndOnGoalFlags {
  /** Commander's reading of --no-end-on-goal: true unless the flag is given. */
  endOnGoal: boolean;
}

/** Add --no-end-on-goal to a command that runs episodes. */
export function withEndOnGoalOption(cmd: Command): Command {
  return cmd.option('--no-end-on-goal', 'run page-state goals until the agent stops, as before, instead of ending them when the checker passes');
}

export interface ActionSetFlags {
  /** --actions, checked: the action sets the agent may use; absent: the environment's default. */
  actions?: ActionSetName[];
}

/** Add --actions to a command that runs episodes. */
export function withActionSetsOption(cmd: Command): Command {
  return cmd.option(
    '--actions <sets>',
    `action sets the agent may use, comma-separated: ${ACTION_SET_NAMES.join(', ')} (default ${DEFAULT_ACTION_SETS.join(',')}; coord adds mouse_click(x, y), mouse_drag_and_drop, keyboard_type, ... for vision agents)`,
    (v: string) => parseActionSets(v, '--actions'),
  );
}

export function openLab(cmd: Command): LabStore {
  const dir = (cmd.optsWithGlobals().lab as string | undefined) ?? defaultLabDir();
  const existed = existsSync(dir);
  const store = new LabStore(dir);
  // A typo in --lab would otherwise quietly start an empty lab and "lose" every episode.
  if (!existed) process.stderr.write(`lab: created a new, empty lab at ${resolve(dir)}\n`);
  return store;
}

/**
 * The browsers a command runs on: the endpoints of --browser and --browsers as one pool, or one
 * Chromium launched here when none is given. Every endpoint is connected before work starts; one
 * that cannot be reached fails the command, named.
 */
export async function startBrowser(flags: BrowserFlags): Promise<BrowserPool> {
  const { BrowserPool, checkEndpoint, readEndpointFile } = await import('../environment/browser-pool.ts');
  for (const url of flags.browser ?? []) checkEndpoint(url);
  const endpoints = [...(flags.browser ?? []), ...(flags.browsers ? readEndpointFile(flags.browsers) : [])];
  return BrowserPool.start({ endpoints, executable: flags.chromium });
}

/** The task server with the built-in families, plus any others a command was given (task sets, MiniWoB++). */
export async function startTaskServer(extra: TaskFamily[] = []): Promise<TaskServer> {
  const [{ builtinFamilies }, { TaskServer }] = await Promise.all([import('../tasks/registry.ts'), import('../tasks/server.ts')]);
  const families = builtinFamilies();
  for (const f of extra) {
    if (families.has(f.name)) throw new Error(`task family "${f.name}" is defined twice`);
    families.set(f.name, f);
  }
  return new TaskServer(families).start();
}

/** What a command that runs tasks in a browser works with, from withTaskBrowser. */
export interface TaskBrowser {
  server: TaskServer;
  host: BrowserPool;
  /** Aborted on Ctrl-C: the command stops after the episode it is in. */
  signal: AbortSignal;
  /** Release this too when the command ends (environments, a progress bar): the last added first, all before the browser closes. */
  release(cleanup: () => Promise<void> | void): void;
}

/**
 * The task server (the built-in families and `extra`) and the browsers, started together: a
 * browser that cannot start stops the server it would have used, so the command exits with its
 * error instead of waiting on a listening socket.
 */
export async function startTaskBrowser(flags: BrowserFlags, extra: TaskFamily[] = []): Promise<{ server: TaskServer; host: BrowserPool }> {
  const server = await startTaskServer(extra);
  const host = await startBrowser(flags).catch(async (err: unknown) => {
    await server.stop();
    throw err;
  });
  return { server, host };
}

/** Run fn with startTaskBrowser's server and browsers, and release them on any end: success, an error or Ctrl-C. */
export async function withTaskBrowser<T>(flags: BrowserFlags, extra: TaskFamily[], fn: (run: TaskBrowser) => Promise<T>): Promise<T> {
  const { server, host } = await startTaskBrowser(flags, extra);
  const releases: Array<() => Promise<void> | void> = [];
  const releaseAll = async () => {
    // One that fails (even by throwing at once) does not keep the others from running.
    for (const r of releases.reverse()) await (async () => r())().catch(() => {});
  };
  return withCleanup([() => server.stop(), () => host.close(), releaseAll], (signal) =>
    fn({ server, host, signal, release: (cleanup) => void releases.push(cleanup) }));
}

export interface ExtraTaskFlags {
  miniwob?: string;
  miniwobTime?: number;
  miniwobDisplay?: boolean;
}

/** Add --miniwob to a command that runs tasks. */
export function withMiniwobOption(cmd: Command): Command {
  return cmd
    .option('--miniwob <dir>', 'also serve the MiniWoB++ tasks of this local checkout (families miniwob.<task>)')
    .option('--miniwob-time <ms>', "MiniWoB++ episode time limit, core.EPISODE_MAX_TIME (default 1000000 as BrowserGym; MiniWoB++'s own is 10000)", intOption('--miniwob-time', 1))
    .option('--miniwob-display', 'keep MiniWoB++\'s human display in the page (instruction, reward, time left, start cover); BrowserGym removes it');
}

/**
 * Families beyond the built-in ones: the lab's imported task sets (all of them, or only those
 * named) and, with --miniwob, every task page of that checkout.
 */
export function extraFamilies(labDir: string, flags: ExtraTaskFlags, names?: string[]): TaskFamily[] {
  const sets = taskSetNames(labDir);
  const wanted = names ? sets.filter((n) => names.includes(n)) : sets;
  return [...taskSetFamilies(labDir, wanted), ...(flags.miniwob ? miniwobFamilies(flags.miniwob, { episodeMaxTimeMs: flags.miniwobTime, keepHumanDisplay: flags.miniwobDisplay }) : [])];
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** An integer option's value, naming the flag in the error (the one integer parser of the CLI). */
export function int(value: string, flag = 'value', min = -Infinity): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min) throw new Error(`${flag} must be an integer${min > -Infinity ? ` >= ${min}` : ''}, got "${value}"`);
  return n;
}

/** An integer option's parser for commander, naming the flag in the error. */
export function intOption(flag: string, min = 0): (value: string) => number {
  return (value: string) => int(value, flag, min);
}

/** The lab folder given with the global --lab option, else the default. */
export function labDir(cmd: Command): string {
  const root = cmd.optsWithGlobals<{ lab?: string }>();
  const dir = root.lab ? resolve(root.lab) : defaultLabDir();
  assertLabDirUsable(dir);
  return dir;
}

/** A task tier flag: 1, 2 or 3. */
export function tierOption(flag = '--tier'): (value: string) => Tier {
  return (value: string) => {
    const n = Number(value);
    if (n !== 1 && n !== 2 && n !== 3) throw new Error(`${flag} must be 1, 2 or 3, got "${value}"`);
    return n;
  };
}

/** Run fn with resources that must be released even on Ctrl-C or an error. */
export async function withCleanup<T>(cleanups: Array<() => Promise<void> | void>, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const stopListening = onInterrupt(
    () => {
      process.stderr.write('\nlab: cancelling (Ctrl-C again to quit at once)...\n');
      controller.abort();
    },
    () => process.exit(130),
  );
  try {
    return await fn(controller.signal);
  } finally {
    stopListening();
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => {});
  }
}

/**
 * Ctrl-C for a job in a worker: the first stops it after the current `unit` (it saves a checkpoint
 * to resume from), a second kills the worker. Returns the function that removes the handler.
 */
export function cancelOnSigint(handle: JobHandle<unknown>, unit: string): () => void {
  return onInterrupt(
    () => {
      process.stderr.write(`\nstopping after this ${unit} and saving a checkpoint (Ctrl-C again to abort)\n`);
      handle.cancel();
    },
    () => void handle.kill(),
  );
}

/**
 * Ctrl-C handling: `first` on the first interrupt, `again` on a later one. An interrupt within
 * REPEAT_WINDOW_MS of the first is the same Ctrl-C delivered twice, not a second press: a wrapper
 * such as the tsx CLI relays the signal to its child when the child has not confirmed it within
 * 30 ms, so a busy child can receive one keypress twice and would otherwise abort what the first
 * asked to stop cleanly. Returns the function that removes the handler.
 */
export function onInterrupt(first: () => void, again: () => void): () => void {
  let firstAt: number | null = null;
  const handler = () => {
    const now = performance.now();
    if (firstAt === null) {
      firstAt = now;
      first();
    } else if (now - firstAt > REPEAT_WINDOW_MS) again();
  };
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}

export const REPEAT_WINDOW_MS = 500;

/**
 * A figure for a summary, or `n/a (why)` where there is none: a reader of a summary should learn
 * why a number is missing (nothing solved, not run), never meet a bare dash.
 */
export function figure(x: string | number | null | undefined, why: string): string {
  return x === null || x === undefined ? `n/a (${why})` : String(x);
}

/** Rows of cells as aligned text columns (each as wide as its widest cell), one line per row. */
export function formatColumns(rows: readonly (readonly (string | number)[])[], gap = 2): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, String(c).length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? String(c) : String(c).padEnd(widths[i] + gap))).join('')).join('\n') + '\n';
}

/** The sampling flags every decoding command takes (decode, bench decode, eval): one grammar. */
export interface SamplingOpts {
  sampling: string;
  topP: string;
  temperature: string;
  acceptance: string;
}

export function addSamplingOptions(cmd: Command): Command {
  return cmd
    .option('--sampling <kind>', 'greedy or nucleus', 'greedy')
    .option('--top-p <p>', 'nucleus mass', '0.9')
    .option('--temperature <t>', 'softmax temperature for nucleus sampling', '1')
    .option('--acceptance <rule>', 'SDSAT nucleus verification: speculative (min(1,p/q)) or match', 'speculative');
}

export function parseSampling(o: SamplingOpts): Sampling {
  if (o.sampling === 'greedy') return { kind: 'greedy' };
  if (o.sampling !== 'nucleus') throw new Error(`--sampling must be greedy or nucleus, got "${o.sampling}"`);
  const topP = Number(o.topP);
  const temperature = Number(o.temperature);
  if (!(topP > 0 && topP <= 1)) throw new Error(`--top-p must be in (0, 1], got "${o.topP}"`);
  if (!(temperature > 0)) throw new Error(`--temperature must be above 0, got "${o.temperature}"`);
  if (o.acceptance !== 'speculative' && o.acceptance !== 'match') throw new Error('--acceptance must be speculative or match');
  return { kind: 'nucleus', topP, temperature, acceptance: o.acceptance };
}
