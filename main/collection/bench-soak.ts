/**
 * The soak benchmark: episodes without pause (oracle and random agents, every built-in family, N
 * environments on one browser) for a fixed time, sampling what grows when something leaks: the
 * workbench's memory and open files, the browser's processes and memory, and step latency. A
 * one-minute bench cannot see a leak of a few MB per hundred episodes; half an hour can.
 *
 * Verdicts compare the run's last part with its first after a warm-up (the first samples are
 * Chromium and V8 filling their caches), so they hold for any machine speed.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserHost } from '../environment/cdp.ts';
import { BrowserEnv } from '../environment/environment.ts';
import type { TaskServer } from '../tasks/server.ts';
import { LabStore } from '../store/lab.ts';
import { appendJsonlLine } from '../store/jsonl.ts';
import { makeAgent } from '../agents/registry.ts';
import { runEpisode } from './episode.ts';
import { processTreeUsage } from './process-tree.ts';

export interface SoakOptions {
  durationS: number;
  /** Seconds between samples. */
  sampleS: number;
  parallel: number;
  families: string[];
  screenshots: boolean;
  /** The launched browser's process id (null for a remote browser: its processes are not ours to count). */
  browserPid: number | null;
  /** Every sample is appended here as it is taken (JSON Lines), so a killed run keeps what it saw. */
  samplesFile?: string;
  onSample?: (s: SoakSample) => void;
  signal?: AbortSignal;
}

export interface SoakSample {
  elapsedS: number;
  episodes: number;
  steps: number;
  /** Episodes that threw (the environment or the store failed, not the agent). */
  errors: number;
  rssMb: number;
  heapUsedMb: number;
  /** Open file descriptors of this process (null where /proc is missing). */
  fds: number | null;
  /** The browser's process tree: how many processes, their resident memory. */
  browserProcesses: number | null;
  browserRssMb: number | null;
  /** Step latency over the steps since the previous sample. */
  stepP50Ms: number | null;
  stepP95Ms: number | null;
}

export interface SoakResult {
  machine: { cpus: number; node: string; browser: string };
  workload: string;
  durationS: number;
  episodes: number;
  steps: number;
  errors: number;
  firstErrors: string[];
  samples: number;
  /** Taken after the environments closed (not part of the trends): what a long run leaves behind. */
  afterClose: SoakSample | null;
  /** Averages over the first and the last quarter of the samples after warm-up. */
  early: Partial<SoakSample>;
  late: Partial<SoakSample>;
  growth: { rssMbPerHour: number | null; heapMbPerHour: number | null; browserRssMbPerHour: number | null; fds: number | null; browserProcesses: number | null; stepP50Ratio: number | null };
  targets: typeof SOAK_TARGETS;
  meetsTargets: Record<keyof typeof SOAK_TARGETS, boolean | null>;
}

export const SOAK_TARGETS = {
  /**
   * Workbench memory may grow this much per hour at most (a slope over the run after warm-up):
   * 5 MB per 10 minutes, resident and JS heap alike. A leak of one object graph per episode (a
   * page's state with its screenshots) showed as 400 MB/h here.
   */
  rssMbPerHour: 30,
  heapMbPerHour: 30,
  browserRssMbPerHour: 400,
  /** Open files and browser processes must come back to where they were (a small margin for in-flight episodes). */
  fdGrowth: 16,
  browserProcessGrowth: 4,
  /** Late steps at most this much slower than early ones (median). */
  stepP50Ratio: 1.5,
  errors: 0,
};

/** The warm-up share of the samples left out of the verdicts. */
const WARMUP = 0.2;

export async function benchSoak(host: BrowserHost, server: TaskServer, browserVersion: string, opts: SoakOptions): Promise<SoakResult> {
  const labDir = mkdtempSync(join(tmpdir(), 'lab-soak-'));
  const store = new LabStore(labDir);
  const samples: SoakSample[] = [];
  const firstErrors: string[] = [];
  let episodes = 0;
  let steps = 0;
  let errors = 0;
  let window: number[] = [];
  let next = 0;
  const t0 = performance.now();
  const deadline = Date.now() + opts.durationS * 1000;
  const running = () => Date.now() < deadline && !opts.signal?.aborted;

  const sample = (): SoakSample => {
    const mem = process.memoryUsage();
    const tree = opts.browserPid ? processTreeUsage(opts.browserPid) : null;
    const sorted = [...window].sort((a, b) => a - b);
    window = [];
    const q = (p: number) => (sorted.length ? round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]) : null);
    const s: SoakSample = {
      elapsedS: round((performance.now() - t0) / 1000),
      episodes, steps, errors,
      rssMb: round(mem.rss / 2 ** 20),
      heapUsedMb: round(mem.heapUsed / 2 ** 20),
      fds: openFds(),
      browserProcesses: tree?.count ?? null,
      browserRssMb: tree ? round(tree.rssKb / 1024) : null,
      stepP50Ms: q(0.5),
      stepP95Ms: q(0.95),
    };
    samples.push(s);
    if (opts.samplesFile) appendJsonlLine(opts.samplesFile, s);
    opts.onSample?.(s);
    return s;
  };

  const worker = async (env: BrowserEnv, w: number) => {
    while (running()) {
      const k = next++;
      const family = opts.families[k % opts.families.length];
      const seed = server.familySeeds(family).test.from + (Math.floor(k / opts.families.length) % 50);
      // Mostly the oracle (long, successful episodes), every third a random agent (errors, dead ends).
      const agentName = k % 3 === 2 ? 'random' : 'oracle';
      try {
        const out = await runEpisode(
          { env, server, store, browserKind: host.kind, signal: opts.signal, onTiming: (t) => window.push(t.totalMs) },
          { family, seed, agent: (i) => makeAgent(agentName, i, k) },
        );
        episodes++;
        steps += out.steps;
      } catch (err) {
        if (opts.signal?.aborted) break;
        errors++;
        if (firstErrors.length < 5) firstErrors.push(`env ${w} ${family} seed ${seed} (${agentName}): ${(err as Error).message}`);
      }
    }
  };

  const envs = Array.from({ length: opts.parallel }, () => new BrowserEnv(host, { screenshots: opts.screenshots }));
  const timer = setInterval(sample, opts.sampleS * 1000);
  let afterClose: SoakSample | null = null;
  try {
    sample();
    await Promise.all(envs.map((env, w) => worker(env, w)));
  } finally {
    clearInterval(timer);
    await Promise.all(envs.map((e) => e.close()));
    afterClose = sample(); // what is left once the environments closed is what leaked
    samples.pop(); // kept apart: closing drops processes and memory, which would hide a trend
    rmSync(labDir, { recursive: true, force: true });
  }
  return { ...summarise(samples, { episodes, steps, errors, firstErrors, browserVersion, opts, elapsedS: (performance.now() - t0) / 1000 }), afterClose };
}

/** The verdicts from the samples (exported for tests: they must fail on a leak and pass without one). */
export function summarise(
  samples: SoakSample[],
  run: { episodes: number; steps: number; errors: number; firstErrors: string[]; browserVersion: string; opts: Pick<SoakOptions, 'families' | 'parallel' | 'screenshots'>; elapsedS: number },
): Omit<SoakResult, 'afterClose'> {
  const measured = samples.slice(Math.floor(samples.length * WARMUP));
  const quarter = Math.max(1, Math.floor(measured.length / 4));
  const avg = (xs: SoakSample[], key: keyof SoakSample): number | null => {
    const vals = xs.map((s) => s[key]).filter((v): v is number => typeof v === 'number');
    return vals.length ? round(vals.reduce((a, b) => a + b, 0) / vals.length) : null;
  };
  const keys = ['rssMb', 'heapUsedMb', 'fds', 'browserProcesses', 'browserRssMb', 'stepP50Ms', 'stepP95Ms'] as const;
  const pick = (xs: SoakSample[]) => Object.fromEntries(keys.map((k) => [k, avg(xs, k)])) as Partial<SoakSample>;
  const early = pick(measured.slice(0, quarter));
  const late = pick(measured.slice(-quarter));
  const perHour = (key: 'rssMb' | 'heapUsedMb' | 'browserRssMb') => {
    const slope = slopePerSecond(measured.map((s) => [s.elapsedS, s[key]]));
    return slope === null ? null : round(slope * 3600);
  };
  const diff = (a: number | null | undefined, b: number | null | undefined) => (a == null || b == null ? null : round(b - a));
  const growth = {
    rssMbPerHour: perHour('rssMb'),
    heapMbPerHour: perHour('heapUsedMb'),
    browserRssMbPerHour: perHour('browserRssMb'),
    fds: diff(early.fds, late.fds),
    browserProcesses: diff(early.browserProcesses, late.browserProcesses),
    stepP50Ratio: early.stepP50Ms && late.stepP50Ms ? round(late.stepP50Ms / early.stepP50Ms) : null,
  };
  const atMost = (v: number | null, limit: number) => (v === null ? null : v <= limit);
  return {
    machine: { cpus: cpus().length, node: process.version, browser: run.browserVersion },
    workload: `${run.opts.parallel} environment(s), oracle and random agents (2:1) on test seeds of ${run.opts.families.join(', ')}${run.opts.screenshots ? ', with screenshots' : ''}`,
    durationS: round(run.elapsedS),
    episodes: run.episodes,
    steps: run.steps,
    errors: run.errors,
    firstErrors: run.firstErrors,
    samples: samples.length,
    early,
    late,
    growth,
    targets: SOAK_TARGETS,
    meetsTargets: {
      rssMbPerHour: atMost(growth.rssMbPerHour, SOAK_TARGETS.rssMbPerHour),
      heapMbPerHour: atMost(growth.heapMbPerHour, SOAK_TARGETS.heapMbPerHour),
      browserRssMbPerHour: atMost(growth.browserRssMbPerHour, SOAK_TARGETS.browserRssMbPerHour),
      fdGrowth: atMost(growth.fds, SOAK_TARGETS.fdGrowth),
      browserProcessGrowth: atMost(growth.browserProcesses, SOAK_TARGETS.browserProcessGrowth),
      stepP50Ratio: atMost(growth.stepP50Ratio, SOAK_TARGETS.stepP50Ratio),
      errors: run.errors <= SOAK_TARGETS.errors,
    },
  };
}

/** Least-squares slope of y over x; null with fewer than 3 points or no spread in x. */
export function slopePerSecond(points: Array<[number, number | null]>): number | null {
  const p = points.filter((x): x is [number, number] => x[1] !== null);
  if (p.length < 3) return null;
  const mx = p.reduce((a, [x]) => a + x, 0) / p.length;
  const my = p.reduce((a, [, y]) => a + y, 0) / p.length;
  const sxx = p.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  if (sxx === 0) return null;
  return p.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) / sxx;
}

function openFds(): number | null {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return null;
  }
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
