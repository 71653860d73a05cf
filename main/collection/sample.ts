/** A small collection: each agent on the first N test seeds of every family. Used by `lab demo` and web mode's first run. */
import type { BrowserEnv } from '../environment/environment.ts';
import type { TaskServer } from '../tasks/server.ts';
import type { LabStore } from '../store/lab.ts';
import { makeAgent } from '../agents/registry.ts';
import { rerunOnLostBrowser, type BrowserLostError } from '../environment/browser-lost.ts';
import { runEpisode, type EpisodeOutcome } from './episode.ts';

export interface SampleRow {
  family: string;
  agent: string;
  episodes: number;
  successes: number;
  meanSteps: number;
}

export interface SampleOptions {
  agents: string[];
  seedsPerFamily: number;
  onEpisode?: (done: number, total: number, label: string, outcome: EpisodeOutcome | null) => void;
  /** An episode lost with its browser, about to run again on another. */
  onRerun?: (label: string, lost: BrowserLostError) => void;
  signal?: AbortSignal;
}

/** Every (family, agent, seed) episode, worked through by the environments at once; rows in family and agent order. */
export async function collectSample(
  deps: { envs: BrowserEnv[]; server: TaskServer; store: LabStore; browserKind: string; endOnGoal?: boolean },
  opts: SampleOptions,
): Promise<SampleRow[]> {
  const jobs = deps.server.familyNames.flatMap((family) =>
    opts.agents.flatMap((agent) => Array.from({ length: opts.seedsPerFamily }, (_, k) => ({ family, agent, seed: deps.server.familySeeds(family).test.from + k }))),
  );
  const total = jobs.length;
  const queue = [...jobs];
  const outcomes = new Map<(typeof jobs)[number], EpisodeOutcome>();
  let done = 0;
  const work = async (env: BrowserEnv) => {
    for (let job = queue.shift(); job && !opts.signal?.aborted; job = queue.shift()) {
      const { family, agent, seed } = job;
      const label = `${family} seed ${seed} ${agent}`;
      opts.onEpisode?.(done, total, label, null);
      const out = await rerunOnLostBrowser(
        () => runEpisode({ ...deps, env, signal: opts.signal }, { family, seed, agent: (instance) => makeAgent(agent, instance, seed) }),
        (lost) => opts.onRerun?.(label, lost),
      );
      if (out.reason === 'cancelled') break;
      outcomes.set(job, out);
      opts.onEpisode?.(++done, total, label, out);
    }
  };
  await Promise.all(deps.envs.map(work));
  const rows: SampleRow[] = [];
  for (const family of deps.server.familyNames) {
    for (const agent of opts.agents) {
      const mine = jobs.filter((j) => j.family === family && j.agent === agent).flatMap((j) => (outcomes.has(j) ? [outcomes.get(j)!] : []));
      const steps = mine.reduce((n, o) => n + o.steps, 0);
      rows.push({ family, agent, episodes: mine.length, successes: mine.filter((o) => o.success).length, meanSteps: mine.length ? Math.round((steps / mine.length) * 10) / 10 : 0 });
    }
  }
  return rows;
}
