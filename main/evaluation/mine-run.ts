/**
 * Mining at scale: the critical states of every failed rollout of one or more evaluations (greedy
 * and sampled, any tier), mined on several browsers at once, optionally confirmed by branching,
 * and written to one mining.json that a stop leaves whole and the same call continues.
 *
 * Both front doors call this: `lab mine --eval ID...` and the experiment's mine stage.
 *
 * Cost: one oracle reference per task instance, not per failed rollout (rollouts of the same
 * instance share it: the sites are deterministic per seed, and the oracle is too), and two branch
 * episodes per confirmed state. With `confirmMax`, only that many states are branched, taken in
 * an order fixed by a hash of their rollout's id: a sample that does not favour any family, mode
 * or evaluation, so the confirmed share per mode estimates that of all mined states.
 */
import { z } from 'zod';
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { BrowserEnv } from '../environment/environment.ts';
import type { TaskServer } from '../tasks/server.ts';
import type { LabStore } from '../store/lab.ts';
import type { EpisodeDeps } from '../collection/episode.ts';
import { readJsonFile } from '../store/json-file.ts';
import { labPaths } from '../store/layout.ts';
import { mineFailure, type ReferenceCache } from './mine-failure.ts';
import { confirmCriticalState, miningFileReport } from './branching.ts';
import { readMiningFile, writeMiningFile, type MinedFailureRecord } from '../policy/mining-file.ts';
import { evalFiles } from '../store/lab-files.ts';

export interface MineRunDeps {
  envs: BrowserEnv[];
  server: TaskServer;
  store: LabStore;
  browserKind: string;
  signal?: AbortSignal;
  /** What the reference and branch episodes belong to (an experiment's mining stage). */
  provenance?: EpisodeDeps['provenance'];
}

export interface MineRunOptions {
  /** Branch from mined states to confirm them (see ./branching.ts). */
  confirm: boolean;
  /** Branch at most this many states in all (absent: every one). */
  confirmMax?: number;
  /** Runs per branch. */
  branches?: number;
  examplesPerMode?: number;
  onProgress?(phase: 'mining' | 'branching', done: number, total: number, note?: string): void;
}

export interface MineRunResult {
  path: string;
  /** mining.json's content: the report, the branching counts, every state, and the evaluations mined. */
  report: ReturnType<typeof miningFileReport> & { evalIds: string[] };
  /** Failed episodes of the evaluations, and how many were mined (a failure without a successful reference is not). */
  failed: number;
  cancelled: boolean;
}


/** What mining reads of an evaluation's report: which episodes failed (the rest passes through). */
const EvalOutcomes = z.object({ episodes: z.array(z.object({ episodeId: z.string(), success: z.boolean() }).passthrough()) }).passthrough();

/** The failed episodes of evaluations, in order, each once. */
export function failedEpisodes(labDir: string, evalIds: readonly string[]): string[] {
  const out = new Set<string>();
  for (const id of evalIds) {
    const path = evalFiles(labPaths.eval(labDir, id)).report;
    if (!existsSync(path)) throw new Error(`no finished evaluation ${id} (${path} is missing)`);
    for (const e of readJsonFile(path, EvalOutcomes, 'an evaluation report').episodes) if (!e.success) out.add(e.episodeId);
  }
  return [...out];
}

/** A stable pseudo-random rank of a mined state (the branching order under `confirmMax`). */
function branchRank(f: Pick<MinedFailureRecord, 'episodeId'>): string {
  return createHash('sha256').update(f.episodeId).digest('hex');
}

/** Run `work` over `items` on every environment at once; stops taking items when the signal aborts. */
async function onEveryEnv<T>(envs: readonly BrowserEnv[], items: T[], signal: AbortSignal | undefined, work: (env: BrowserEnv, item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(envs.map(async (env) => {
    for (let item = queue.shift(); item !== undefined && !signal?.aborted; item = queue.shift()) await work(env, item);
  }));
}

/**
 * Mine the failed rollouts of `evalIds` into `path` (mining.json), keeping what an earlier,
 * stopped call there already mined and branched. The file is rewritten after every state, so a
 * stop at any moment loses at most the episode in flight.
 */
export async function mineEvaluations(deps: MineRunDeps, evalIds: readonly string[], path: string, opts: MineRunOptions): Promise<MineRunResult> {
  if (!evalIds.length) throw new Error('mining needs at least one evaluation');
  const failed = failedEpisodes(deps.store.dir, evalIds);
  const known = new Map((existsSync(path) ? readMiningFile(path) : []).map((f) => [f.episodeId, f]));
  const save = () => writeMiningFile(path, report());
  const report = () => ({ ...miningFileReport(evalIds[0], failed.flatMap((id) => known.get(id) ?? []), opts.examplesPerMode ?? 5), evalIds: [...evalIds] });

  // One reference per instance: those of states mined before are reused.
  const references: ReferenceCache = new Map();
  for (const f of known.values()) references.set(`${f.family}:${f.seed}:${f.tier}`, Promise.resolve({ id: f.referenceId, success: true }));
  const on = (env: BrowserEnv) => ({ env, server: deps.server, store: deps.store, browserKind: deps.browserKind, signal: deps.signal, provenance: deps.provenance });
  const toMine = failed.filter((id) => !known.has(id));
  let done = failed.length - toMine.length;
  await onEveryEnv(deps.envs, toMine, deps.signal, async (env, episodeId) => {
    const mined = await mineFailure(on(env), episodeId, references);
    if (deps.signal?.aborted) return;
    if (mined) {
      known.set(episodeId, mined);
      save();
    }
    opts.onProgress?.('mining', ++done, failed.length, mined ? `${mined.family}:${mined.seed} ${mined.mode}` : 'no successful reference');
  });
  if (opts.confirm && !deps.signal?.aborted) {
    const mined = failed.flatMap((id) => known.get(id) ?? []);
    const order = [...mined].sort((a, b) => branchRank(a).localeCompare(branchRank(b)));
    const chosen = order.slice(0, opts.confirmMax ?? order.length);
    const todo = chosen.filter((f) => !f.confirmation);
    let branched = chosen.length - todo.length;
    await onEveryEnv(deps.envs, todo, deps.signal, async (env, f) => {
      const c = await confirmCriticalState(on(env), f, opts.branches ?? 1);
      if (!c) return; // cancelled part-way: the state stays unbranched
      known.set(f.episodeId, { ...f, confirmation: c });
      save();
      opts.onProgress?.('branching', ++branched, chosen.length, `${f.family} seed ${f.seed} step ${f.step + 1}, ${f.mode}: ${c.status}`);
    });
  }
  save();
  return { path, report: report(), failed: failed.length, cancelled: !!deps.signal?.aborted };
}
