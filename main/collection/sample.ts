/** A small collection: each agent on the first N test seeds of every family. Used by `lab demo` and web mode's first run. */
import type { BrowserEnv } from '../environment/environment.ts';
import type { TaskServer } from '../tasks/server.ts';
import type { LabStore } from '../store/lab.ts';
import { makeAgent } from '../agents/registry.ts';
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
  signal?: AbortSignal;
}

export async function collectSample(
  deps: { env: BrowserEnv; server: TaskServer; store: LabStore; browserKind: string; endOnGoal?: boolean },
  opts: SampleOptions,
): Promise<SampleRow[]> {
  const families = deps.server.familyNames;
  const total = families.length * opts.agents.length * opts.seedsPerFamily;
  const rows: SampleRow[] = [];
  let done = 0;
  for (const family of families) {
    for (const agent of opts.agents) {
      const row: SampleRow = { family, agent, episodes: 0, successes: 0, meanSteps: 0 };
      let steps = 0;
      for (let k = 0; k < opts.seedsPerFamily && !opts.signal?.aborted; k++) {
        const seed = deps.server.familySeeds(family).test.from + k;
        const label = `${family} seed ${seed} ${agent}`;
        opts.onEpisode?.(done, total, label, null);
        const out = await runEpisode(
          { ...deps, signal: opts.signal },
          { family, seed, agent: (instance) => makeAgent(agent, instance, seed) },
        );
        row.episodes++;
        row.successes += out.success ? 1 : 0;
        steps += out.steps;
        opts.onEpisode?.(++done, total, label, out);
      }
      row.meanSteps = row.episodes ? Math.round((steps / row.episodes) * 10) / 10 : 0;
      rows.push(row);
    }
  }
  return rows;
}
