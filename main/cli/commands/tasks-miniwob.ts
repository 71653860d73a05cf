/**
 * `lab tasks validate --miniwob DIR --agent NAME`: which MiniWoB++ tasks of a local checkout a
 * given agent solves (random, the scripted oracles, a model behind an endpoint, the compact
 * policy); each task runs on its first test seeds and the page's own reward decides success (raw
 * reward > 0). Prints one row per task. With the oracle (or the noisy expert built on it), a task
 * without an oracle is not run: its row says so, with the reason (main/tasks/miniwob/oracles/).
 */
import { resolve } from 'node:path';
import type { LabStore } from '../../store/lab.ts';
import type { BrowserHost } from '../../environment/cdp.ts';
import type { TaskServer } from '../../tasks/server.ts';
import type { TaskFamily } from '../../tasks/types.ts';
import { MINIWOB_PREFIX } from '../../tasks/miniwob/loader.ts';
import { SHIPPED_POLICY } from '../../policy/shipped.ts';
import { AGENT_NAMES } from '../../agents/names.ts';
import { hasMiniwobOracle, oracleCaveat, whyNoOracle } from '../../tasks/miniwob/oracles/index.ts';

export interface MiniwobValidateFlags {
  agent: string;
  seeds: number;
  endOnGoal: boolean;
  task?: string[];
  endpoint?: string;
  model?: string;
  policy?: string;
}

export interface MiniwobTaskReport {
  task: string;
  episodes: number;
  successes: number;
  successRate: number;
  meanSteps: number | null;
  /** How each episode ended, and the page's reason when it gave one. */
  outcomes: Array<{ seed: number; success: boolean; steps: number; reason: string; pageReason: string | null }>;
  /** Agent oracle (or noisy): why the task was not run, when it has no oracle. */
  noOracle?: string;
  /** Agent oracle (or noisy): why its oracle may fail a seed through no fault of its own (a game against chance). */
  caveat?: string;
}

/** The MiniWoB++ families to run: all of them, or the tasks named (with or without the miniwob. prefix). */
export function pickMiniwobTasks(families: TaskFamily[], names?: string[]): TaskFamily[] {
  const all = families.filter((f) => f.name.startsWith(MINIWOB_PREFIX));
  if (!names?.length) return all;
  return names.map((n) => {
    const full = n.startsWith(MINIWOB_PREFIX) ? n : MINIWOB_PREFIX + n;
    const f = all.find((x) => x.name === full);
    if (!f) throw new Error(`no MiniWoB++ task "${n}" in the checkout (tasks: ${all.map((x) => x.name.slice(MINIWOB_PREFIX.length)).join(', ')})`);
    return f;
  });
}

export async function runMiniwobReport(
  deps: { host: BrowserHost; server: TaskServer; store: LabStore; browserKind: string; signal: AbortSignal; onEpisode?: (line: string) => void },
  families: TaskFamily[],
  flags: MiniwobValidateFlags,
): Promise<MiniwobTaskReport[]> {
  if (!(AGENT_NAMES as readonly string[]).includes(flags.agent)) throw new Error(`unknown agent "${flags.agent}" (known: ${AGENT_NAMES.join(', ')})`);
  const needsOracle = flags.agent === 'oracle' || flags.agent === 'noisy';
  const [{ BrowserEnv }, { runEpisode }, { makeAgent }, { endpointFromEnv }] = await Promise.all([
    import('../../environment/environment.ts'), import('../../collection/episode.ts'), import('../../agents/registry.ts'), import('../../llm/client.ts'),
  ]);
  const endpoint = flags.agent === 'endpoint'
    ? endpointFromEnv({ ...(flags.endpoint ? { baseUrl: flags.endpoint } : {}), ...(flags.model ? { model: flags.model } : {}) })
    : undefined;
  const policy = flags.agent === 'policy' ? { dir: resolve(flags.policy ?? SHIPPED_POLICY) } : undefined;
  const env = new BrowserEnv(deps.host, {});
  const reports: MiniwobTaskReport[] = [];
  try {
    for (const f of families) {
      const task = f.name.slice(MINIWOB_PREFIX.length);
      const rep: MiniwobTaskReport = { task, episodes: 0, successes: 0, successRate: 0, meanSteps: null, outcomes: [] };
      if (needsOracle && !hasMiniwobOracle(task)) {
        rep.noOracle = whyNoOracle(task);
        reports.push(rep);
        deps.onEpisode?.(`${f.name}: no oracle (${rep.noOracle})`);
        continue;
      }
      const caveat = needsOracle ? oracleCaveat(task) : undefined;
      if (caveat) rep.caveat = caveat;
      for (let k = 0; k < flags.seeds && !deps.signal.aborted; k++) {
        const seed = f.seeds.test.from + k;
        const o = await runEpisode(
          { env, server: deps.server, store: deps.store, browserKind: deps.browserKind, signal: deps.signal, endOnGoal: flags.endOnGoal },
          { family: f.name, seed, agent: (instance) => makeAgent(flags.agent, instance, seed, { endpoint: endpoint && { ...endpoint, signal: deps.signal }, policy }) },
        );
        rep.episodes++;
        if (o.success) rep.successes++;
        rep.outcomes.push({ seed, success: o.success, steps: o.steps, reason: o.reason, pageReason: o.reward?.reason ?? null });
        deps.onEpisode?.(`${f.name} seed ${seed}: ${o.success ? 'success' : 'failure'} in ${o.steps} steps${o.reward?.reason ? ` (${o.reward.reason})` : ''}`);
      }
      const solved = rep.outcomes.filter((x) => x.success);
      rep.successRate = rep.episodes ? rep.successes / rep.episodes : 0;
      rep.meanSteps = solved.length ? Math.round((solved.reduce((a, x) => a + x.steps, 0) / solved.length) * 10) / 10 : null;
      reports.push(rep);
    }
  } finally {
    await env.close();
  }
  return reports;
}

/** The report as a table: task, solved/episodes (rate), mean steps of the solved ones; tasks not run say why. */
export function formatMiniwobReport(reports: MiniwobTaskReport[], agent: string): string {
  const width = Math.max(4, ...reports.map((r) => r.task.length)) + 2;
  const row = (r: MiniwobTaskReport) =>
    r.noOracle !== undefined
      ? `${r.task.padEnd(width)}no oracle: ${r.noOracle}`
      : `${r.task.padEnd(width)}${`${r.successes}/${r.episodes} (${Math.round(r.successRate * 100)}%)`.padEnd(14)}${r.meanSteps === null ? 'none solved' : r.meanSteps.toFixed(1)}${r.caveat ? `  (${r.caveat})` : ''}`;
  const run = reports.filter((r) => r.noOracle === undefined);
  const solved = run.filter((r) => r.successes > 0).length;
  const all = run.filter((r) => r.episodes > 0 && r.successes === r.episodes).length;
  const skipped = reports.length - run.length;
  return [
    `\nMiniWoB++ with agent ${agent}`,
    `${'task'.padEnd(width)}${'solved'.padEnd(14)}steps`,
    ...reports.map(row),
    `${solved} of ${run.length} tasks solved at least once, ${all} on every seed.${skipped ? ` ${skipped} tasks not run: no oracle.` : ''}`,
    '',
  ].join('\n');
}
