/**
 * The environment benchmark: step latency (action + settle + observation) with and without
 * screenshots, and steps/s for 1 and 2 parallel environments, all on oracle episodes of the
 * built-in sites, in one run on one browser.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import type { BrowserHost } from '../environment/cdp.ts';
import type { StepTiming } from '../environment/types.ts';
import { BrowserEnv } from '../environment/environment.ts';
import type { TaskServer } from '../tasks/server.ts';
import { LabStore } from '../store/lab.ts';
import { runEpisode } from './episode.ts';

export interface EnvBenchOptions {
  /** Steps to time for each latency figure. */
  steps: number;
  /** Episodes per environment in the throughput runs. */
  episodesPerEnv: number;
  families: string[];
  onProgress?: (phase: string, done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface StepKindStats {
  steps: number;
  medianMs: number;
  p95Ms: number;
  meanActionMs: number;
  meanSettleMs: number;
  meanObserveMs: number;
}

export interface LatencyStats extends StepKindStats {
  /** Steps that loaded a new document, and steps that changed the page in place. */
  byKind: { navigating: StepKindStats; sameDocument: StepKindStats };
}

export interface EnvBenchResult {
  machine: { cpus: number; node: string; browser: string };
  workload: string;
  latency: { withoutScreenshot: LatencyStats; withScreenshot: LatencyStats };
  throughput: { oneEnv: { steps: number; seconds: number; stepsPerSec: number }; twoEnvs: { steps: number; seconds: number; stepsPerSec: number }; scaling: number };
  targets: { medianWithoutScreenshotMs: number; medianWithScreenshotMs: number; twoEnvScaling: number };
  meetsTargets: { medianWithoutScreenshot: boolean; medianWithScreenshot: boolean; twoEnvScaling: boolean };
}

export async function benchEnv(host: BrowserHost, server: TaskServer, browserVersion: string, opts: EnvBenchOptions): Promise<EnvBenchResult> {
  const labDir = mkdtempSync(join(tmpdir(), 'lab-bench-'));
  const store = new LabStore(labDir);
  // A test seed per episode, cycling through the families so every site is in the mix.
  let next = 0;
  const nextTask = () => {
    const family = opts.families[next % opts.families.length];
    const seed = server.familySeeds(family).test.from + Math.floor(next / opts.families.length);
    next++;
    return { family, seed };
  };
  try {
    const latency = async (screenshots: boolean, phase: string): Promise<LatencyStats> => {
      const env = new BrowserEnv(host, { screenshots });
      const timings: StepTiming[] = [];
      try {
        while (timings.length < opts.steps && !opts.signal?.aborted) {
          const { family, seed } = nextTask();
          await runEpisode(
            {
              env,
              server,
              store,
              browserKind: host.kind,
              signal: opts.signal,
              onStep: () => opts.onProgress?.(phase, Math.min(timings.length + 1, opts.steps), opts.steps),
              onTiming: (t) => timings.push(t),
            },
            { family, seed, agent: (i) => i.family.oracle(i.ctx) },
          );
        }
      } finally {
        await env.close();
      }
      return stats(timings.slice(0, opts.steps));
    };

    const throughput = async (envCount: number, phase: string) => {
      const envs = Array.from({ length: envCount }, () => new BrowserEnv(host, { screenshots: false }));
      let steps = 0;
      const total = envCount * opts.episodesPerEnv;
      let episodes = 0;
      const t0 = performance.now();
      try {
        await Promise.all(
          envs.map(async (env) => {
            for (let e = 0; e < opts.episodesPerEnv && !opts.signal?.aborted; e++) {
              const { family, seed } = nextTask();
              const out = await runEpisode(
                { env, server, store, browserKind: host.kind, signal: opts.signal },
                { family, seed, agent: (i) => i.family.oracle(i.ctx) },
              );
              steps += out.steps;
              opts.onProgress?.(phase, ++episodes, total);
            }
          }),
        );
      } finally {
        await Promise.all(envs.map((e) => e.close()));
      }
      const seconds = (performance.now() - t0) / 1000;
      return { steps, seconds: round(seconds), stepsPerSec: round(steps / seconds) };
    };

    const withoutScreenshot = await latency(false, 'latency, no screenshot');
    const withScreenshot = await latency(true, 'latency, screenshot');
    const oneEnv = await throughput(1, 'throughput, 1 env');
    const twoEnvs = await throughput(2, 'throughput, 2 envs');
    const targets = { medianWithoutScreenshotMs: 50, medianWithScreenshotMs: 110, twoEnvScaling: 1.5 };
    const scaling = round(twoEnvs.stepsPerSec / oneEnv.stepsPerSec);
    return {
      machine: { cpus: cpus().length, node: process.version, browser: browserVersion },
      workload: `oracle episodes on test seeds of ${opts.families.join(', ')}; a step = action + settle + observation (agent time excluded)`,
      latency: { withoutScreenshot, withScreenshot },
      throughput: { oneEnv, twoEnvs, scaling },
      targets,
      meetsTargets: {
        medianWithoutScreenshot: withoutScreenshot.medianMs <= targets.medianWithoutScreenshotMs,
        medianWithScreenshot: withScreenshot.medianMs <= targets.medianWithScreenshotMs,
        twoEnvScaling: scaling >= targets.twoEnvScaling,
      },
    };
  } finally {
    rmSync(labDir, { recursive: true, force: true });
  }
}

function stats(t: StepTiming[]): LatencyStats {
  const of = (steps: StepTiming[]): StepKindStats => {
    const totals = steps.map((x) => x.totalMs).sort((a, b) => a - b);
    const q = (p: number) => totals[Math.min(totals.length - 1, Math.floor(p * totals.length))] ?? NaN;
    const mean = (f: (x: StepTiming) => number) => round(steps.reduce((s, x) => s + f(x), 0) / Math.max(1, steps.length));
    return { steps: steps.length, medianMs: round(q(0.5)), p95Ms: round(q(0.95)), meanActionMs: mean((x) => x.actionMs), meanSettleMs: mean((x) => x.settleMs), meanObserveMs: mean((x) => x.observeMs) };
  };
  // The median of the mix sits in whichever kind holds more than half the steps, so a workload
  // whose oracles navigate a little more moves it by the gap between the kinds: each is reported too.
  return { ...of(t), byKind: { navigating: of(t.filter((x) => x.navigated)), sameDocument: of(t.filter((x) => !x.navigated)) } };
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
