/**
 * Throughput against the number of browsers: steps/s of oracle episodes with k browsers in a pool
 * (k from a list, e.g. 1,2,3) and `envsPerBrowser` environments on each, so a person can size a
 * browser grid. Each count is measured `repeats` times, the counts interleaved within a repeat so
 * that a shared machine's drift falls on all of them alike; a warm-up episode per environment
 * comes before each timed window. Steps/s get a Student-t 95% interval over the repeats.
 *
 * What a browser costs is read from /proc for browsers launched here: resident memory of its
 * process tree and the CPU time it spent per step. Remote browsers report throughput only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { BrowserPool } from '../environment/browser-pool.ts';
import type { ChromiumHost } from '../environment/chromium.ts';
import { BrowserEnv } from '../environment/environment.ts';
import type { TaskServer } from '../tasks/server.ts';
import { LabStore } from '../store/lab.ts';
import { tMean, type Mean } from '../common/stats.ts';
import { runEpisode } from './episode.ts';
import { processTreeUsage } from './process-tree.ts';

export interface PoolBenchOptions {
  counts: number[];
  envsPerBrowser: number;
  /** Timed episodes per environment in each window. */
  episodesPerEnv: number;
  repeats: number;
  families: string[];
  onProgress?: (phase: string, done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface PoolWindow {
  steps: number;
  seconds: number;
  stepsPerSec: number;
  /** CPU seconds the browsers' process trees spent in the window, per step, in ms (launched browsers only). */
  browserCpuMsPerStep: number | null;
  /** CPU the workbench process (agents, task server, CDP client) spent per step, in ms. */
  workbenchCpuMsPerStep: number;
  /** Memory of each browser's process tree at the window's end, in MB (launched browsers only): proportional set size (shared pages split, counted once), and the plain RSS sum that counts them in every process. */
  browserPssMb: number[] | null;
  browserRssSumMb: number[] | null;
}

export interface PoolCountResult {
  browsers: number;
  environments: number;
  stepsPerSec: Mean;
  windows: PoolWindow[];
}

export interface PoolBenchResult {
  machine: { cpus: number; memGb: number; node: string; browser: string; loadAvgAtStart: number[]; loadAvgAtEnd: number[] };
  workload: string;
  settings: { counts: number[]; envsPerBrowser: number; episodesPerEnv: number; repeats: number; warmup: string; browsers: string };
  results: PoolCountResult[];
  /** Per browser, from the launched browsers' windows: what to budget per node of a grid. */
  perBrowser: { pssMb: Mean; cpuMsPerStep: Mean; stepsPerSecPerBrowser: Mean } | null;
  /** Best count's steps/s over one browser's. */
  scaling: Array<{ browsers: number; speedup: number | null }>;
}

export async function benchPool(hosts: readonly ChromiumHost[], server: TaskServer, browserVersion: string, opts: PoolBenchOptions): Promise<PoolBenchResult> {
  const max = Math.max(...opts.counts);
  if (hosts.length < max) throw new Error(`--pool-sizes asks for ${max} browsers but ${hosts.length} are there (give that many --browser endpoints, or none to launch them here)`);
  const labDir = mkdtempSync(join(tmpdir(), 'lab-bench-pool-'));
  const store = new LabStore(labDir);
  const loadAvgAtStart = loadavg().map(round);
  let next = 0;
  const nextTask = () => {
    const family = opts.families[next % opts.families.length];
    const seed = server.familySeeds(family).test.from + (Math.floor(next / opts.families.length) % 1000);
    next++;
    return { family, seed };
  };
  const windows = new Map<number, PoolWindow[]>(opts.counts.map((k) => [k, []]));
  const total = opts.counts.length * opts.repeats;
  let done = 0;
  try {
    for (let r = 0; r < opts.repeats && !opts.signal?.aborted; r++) {
      for (const k of opts.counts) {
        if (opts.signal?.aborted) break;
        opts.onProgress?.(`${k} browser(s), repeat ${r + 1}`, done, total);
        windows.get(k)!.push(await measure(hosts.slice(0, k), k * opts.envsPerBrowser));
        opts.onProgress?.(`${k} browser(s), repeat ${r + 1}`, ++done, total);
      }
    }
  } finally {
    rmSync(labDir, { recursive: true, force: true });
  }

  async function measure(members: readonly ChromiumHost[], envCount: number): Promise<PoolWindow> {
    const pool = BrowserPool.over([...members]);
    const envs = Array.from({ length: envCount }, () => new BrowserEnv(pool, { screenshots: false }));
    const episode = async (env: BrowserEnv) => {
      const { family, seed } = nextTask();
      return runEpisode({ env, server, store, browserKind: pool.kind, signal: opts.signal }, { family, seed, agent: (i) => i.family.oracle(i.ctx) });
    };
    try {
      // Warm-up: every environment's first episode (a new browser context, a cold renderer) is not timed.
      await Promise.all(envs.map(episode));
      const pids = members.map((h) => h.pid);
      const launched = pids.every((p) => p !== null);
      const cpuOf = () => (launched ? pids.reduce((s, p) => s + (processTreeUsage(p!)?.cpuS ?? 0), 0) : 0);
      const cpu0 = cpuOf();
      const own0 = process.cpuUsage();
      const t0 = performance.now();
      let steps = 0;
      await Promise.all(
        envs.map(async (env) => {
          for (let e = 0; e < opts.episodesPerEnv && !opts.signal?.aborted; e++) steps += (await episode(env)).steps;
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      const own = process.cpuUsage(own0);
      const cpu = cpuOf() - cpu0;
      return {
        steps,
        seconds: round(seconds),
        stepsPerSec: round(steps / seconds),
        browserCpuMsPerStep: launched && steps ? round((cpu * 1000) / steps) : null,
        workbenchCpuMsPerStep: steps ? round((own.user + own.system) / 1000 / steps) : 0,
        ...memoryOf(launched ? pids : null),
      };
    } finally {
      await Promise.all(envs.map((e) => e.close()));
      await pool.close();
    }
  }

  const results: PoolCountResult[] = opts.counts.map((k) => {
    const ws = windows.get(k)!;
    return { browsers: k, environments: k * opts.envsPerBrowser, stepsPerSec: roundMean(tMean(ws.map((w) => w.stepsPerSec))), windows: ws };
  });
  const all = results.flatMap((r) => r.windows.map((w) => ({ w, k: r.browsers })));
  // Launched browsers have their memory read from /proc; a window whose read failed (a process
  // that ended mid-read) is left out of the memory figure, not the whole figure.
  const withMemory = all.filter(({ w }) => w.browserPssMb !== null);
  const launched = withMemory.length > 0 && all.every(({ w }) => w.browserCpuMsPerStep !== null);
  const one = results.find((r) => r.browsers === Math.min(...opts.counts))?.stepsPerSec.value ?? null;
  return {
    machine: { cpus: cpus().length, memGb: round(totalmem() / 2 ** 30), node: process.version, browser: browserVersion, loadAvgAtStart, loadAvgAtEnd: loadavg().map(round) },
    workload: `oracle episodes on test seeds of ${opts.families.join(', ')}, no screenshots; a step = agent + action + settle + observation`,
    settings: {
      counts: opts.counts, envsPerBrowser: opts.envsPerBrowser, episodesPerEnv: opts.episodesPerEnv, repeats: opts.repeats,
      warmup: 'one untimed episode per environment before each timed window',
      browsers: launched ? 'launched here, one Chromium process tree each' : 'remote endpoints',
    },
    results,
    perBrowser: launched
      ? {
          pssMb: roundMean(tMean(withMemory.flatMap(({ w }) => w.browserPssMb!))),
          cpuMsPerStep: roundMean(tMean(all.map(({ w }) => w.browserCpuMsPerStep!))),
          stepsPerSecPerBrowser: roundMean(tMean(all.map(({ w, k }) => w.stepsPerSec / k))),
        }
      : null,
    scaling: results.map((r) => ({ browsers: r.browsers, speedup: one && r.stepsPerSec.value !== null ? round(r.stepsPerSec.value / one) : null })),
  };
}

/** Each launched browser's memory now (null for remote ones, or where smaps_rollup cannot be read). */
function memoryOf(pids: ReadonlyArray<number | null> | null): Pick<PoolWindow, 'browserPssMb' | 'browserRssSumMb'> {
  const usage = pids?.map((p) => processTreeUsage(p!)) ?? null;
  const mb = (kb: number | null | undefined) => (kb === null || kb === undefined ? null : round(kb / 1024));
  const pss = usage?.map((u) => mb(u?.pssKb)) ?? null;
  return { browserPssMb: pss && pss.every((x) => x !== null) ? (pss as number[]) : null, browserRssSumMb: usage?.map((u) => mb(u?.rssKb) ?? 0) ?? null };
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

function roundMean(m: Mean): Mean {
  return { n: m.n, value: m.value === null ? null : round(m.value), ci95: m.ci95 && { low: round(m.ci95.low), high: round(m.ci95.high) } };
}
