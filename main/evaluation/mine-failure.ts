/**
 * Mining's rollout half: the oracle's reference episode on a failed rollout's instance, and the
 * rollout's critical state found against it (../policy/mining.ts compares the two; this file runs
 * the reference in the environment, so it sits above collection).
 */
import type { BrowserEnv } from '../environment/environment.ts';
import type { TaskServer } from '../tasks/server.ts';
import type { LabStore } from '../store/lab.ts';
import { runEpisode, type EpisodeDeps } from '../collection/episode.ts';
import { findCriticalState, type MinedFailure } from '../policy/mining.ts';

export interface MineDeps {
  env: BrowserEnv;
  server: TaskServer;
  store: LabStore;
  browserKind: string;
  signal?: AbortSignal;
  /** What the reference episodes belong to (an experiment's mining stage). */
  provenance?: EpisodeDeps['provenance'];
}

/** A successful-or-not oracle reference per task instance (family:seed:tier), shared by the rollouts of that instance. */
export type ReferenceCache = Map<string, Promise<{ id: string; success: boolean }>>;

/**
 * The oracle's episode on a rollout's instance (same family, seed and tier; recorded in the lab
 * with agent config role "reference"), run once per instance: the sites and the oracles are
 * deterministic per seed, so every rollout of the instance is compared with the same trajectory.
 */
export function referenceFor(deps: MineDeps, task: { family: string; seed: number; tier: number }, forEpisode: string, cache: ReferenceCache): Promise<{ id: string; success: boolean }> {
  const key = `${task.family}:${task.seed}:${task.tier}`;
  let ref = cache.get(key);
  if (!ref) {
    ref = runEpisode(deps, {
      family: task.family, seed: task.seed, tier: task.tier as 1 | 2 | 3, agent: (i) => i.family.oracle(i.ctx), agentConfig: { role: 'reference', for: forEpisode },
    }).then((o) => {
      // A cancelled reference is not one: a later call runs it again. A failed one stays failed (the oracle is deterministic).
      if (o.reason === 'cancelled') cache.delete(key);
      return { id: o.id, success: o.success && o.reason !== 'cancelled' };
    });
    ref.catch(() => cache.delete(key));
    cache.set(key, ref);
  }
  return ref;
}

/** The critical state of one failed episode, or null when no successful reference could be run (or the run was cancelled). */
export async function mineFailure(deps: MineDeps, episodeId: string, references: ReferenceCache): Promise<MinedFailure | null> {
  const rollout = deps.store.readEpisode(episodeId);
  const { family, seed, tier } = rollout.header.task;
  const ref = await referenceFor(deps, { family, seed, tier }, episodeId, references);
  if (!ref.success || deps.signal?.aborted) return null; // no successful reference, nothing to compare against
  const critical = findCriticalState(rollout, deps.store.readEpisode(ref.id));
  return { ...critical, episodeId, referenceId: ref.id, family, seed, tier };
}
