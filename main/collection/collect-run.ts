/**
 * A collection run: task instances worked through by N environments in parallel, each with
 * retries (reflect and blind arms) and, optionally, shortening of its successful trajectories.
 *
 * The run lives in lab/runs/<run-id>/: config.json (what was asked, fixed at creation) and
 * progress.jsonl (an append-only log of attempts, shortenings and finished tasks). The summary is
 * computed from the log alone, so a resumed run (same folder) skips what the log holds, continues
 * a half-done task from its last logged attempt, and reports over everything, with nothing twice.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { stampedId } from '../store/stamped-id.ts';
import { z } from 'zod';
import type { BrowserEnv } from '../environment/environment.ts';
import type { BrowserLoss } from '../environment/browser-pool.ts';
import { rerunOnLostBrowser, type BrowserLostError } from '../environment/browser-lost.ts';
import { ACTION_SET_NAMES } from '../environment/action-sets.ts';
import type { TaskServer } from '../tasks/server.ts';
import type { Tier } from '../tasks/types.ts';
import type { LabStore } from '../store/lab.ts';
import { AGENT_NAMES } from '../agents/registry.ts';
import { appendJsonlLine, readJsonl, repairTornTail } from '../store/jsonl.ts';
import { RuleReflector, ReflectionStore, type Reflector } from './reflect.ts';
import { LlmReflector } from './llm-reflector.ts';
import type { RetryInfo } from '../llm/client.ts';
import { shortenEpisode } from './shorten.ts';
import { CancelledError, attemptEventSchema, runTaskWithRetries, summariseArms, taskKey, type Arm, type ArmSummary, type AttemptEvent, type TaskRef } from './retries.ts';
import { LAB_ID, labPaths } from '../store/layout.ts';
import { runFiles } from '../store/lab-files.ts';
import { readJsonFile, writeFileAtomic } from '../store/json-file.ts';

/** The endpoint a run talks to (agent 'endpoint', reflector 'llm'), as saved in config.json: never a key. */
export const endpointConfigSchema = z.object({
  baseUrl: z.string().url(),
  model: z.string().min(1),
  temperature: z.number().min(0).max(2),
  topP: z.number().gt(0).max(1).optional(),
  maxTokens: z.number().int().min(1),
  vision: z.boolean(),
  /** OpenAI's image detail for the screenshot (absent: not sent). */
  imageDetail: z.enum(['low', 'high', 'auto']).optional(),
  /** Longest side of the screenshots, in pixels (absent: the viewport's). */
  imageMaxSide: z.number().int().min(64).optional(),
  stream: z.boolean(),
  maxMalformed: z.number().int().min(1),
  maxWaitMs: z.number().int().min(0),
  timeoutMs: z.number().int().min(1).optional(),
});
export type EndpointConfig = z.infer<typeof endpointConfigSchema>;

export const REFLECT_MODES = ['llm', 'rules', 'none'] as const;

export const collectConfigSchema = z.object({
  runId: z.string().regex(LAB_ID),
  createdAt: z.string(),
  tasks: z.string(),
  agent: z.enum(AGENT_NAMES),
  agentSeed: z.number().int(),
  retries: z.number().int().min(0),
  reflect: z.enum(REFLECT_MODES),
  shorten: z.boolean(),
  parallel: z.number().int().min(1),
  seeds: z.number().int().min(1),
  /** Noisy-expert rates, when overridden. */
  rates: z.record(z.string(), z.number().min(0).max(1)).optional(),
  /**
   * Label the noisy expert's injected mistakes on their steps (wrong, or detour), so a dataset keeps
   * the recoveries after them and leaves the mistakes out; absent: no labels (runs before the option).
   */
  labelMistakes: z.boolean().optional(),
  maxSteps: z.number().int().min(1).optional(),
  /** Force this tier on every instance (default: each seed's own tier). */
  tier: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
  endpoint: endpointConfigSchema.optional(),
  /** The compact policy's model folder (agent 'policy'). */
  policy: z.object({ dir: z.string() }).optional(),
  /**
   * Page-state goals end when the checker passes. New runs record it (true unless
   * --no-end-on-goal); absent in runs created before the option, which resume as they ran, without.
   */
  endOnGoal: z.boolean().optional(),
  /** A set-of-marks screenshot at every step, so the trajectories can be viewed (absent: none, unless a vision endpoint needs them). */
  screenshots: z.boolean().optional(),
  /** The action sets the agent may use (--actions); absent: the environment's default, all but coord. */
  actionSets: z.array(z.enum(ACTION_SET_NAMES)).min(1).optional(),
  /** The experiment this run is a stage of (lab experiment); recorded in its episodes' provenance. */
  experiment: z.string().optional(),
  /**
   * The MiniWoB++ checkout its miniwob.<task> families were served from, and how (--miniwob), so a
   * resumed run serves the same tasks without the flag; absent: none, or a run made before it was recorded.
   */
  miniwob: z.object({ root: z.string(), timeLimitMs: z.number().int().min(1).optional(), humanDisplay: z.boolean().optional() }).optional(),
}).refine((c) => c.endpoint || (c.agent !== 'endpoint' && c.reflect !== 'llm'), {
  message: 'the endpoint agent and the LLM reflector need an endpoint (--endpoint URL --model NAME)',
  path: ['endpoint'],
}).refine((c) => c.policy || c.agent !== 'policy', {
  message: 'the policy agent needs its model folder (--policy DIR)',
  path: ['policy'],
});
export type CollectConfig = z.infer<typeof collectConfigSchema>;

const shortenedEventSchema = z.object({
  type: z.literal('shortened'),
  task: z.string(),
  from: z.string(),
  episodeId: z.string().nullable(),
  stepsBefore: z.number().int(),
  stepsAfter: z.number().int(),
  cuts: z.number().int(),
  replaySuccess: z.boolean().nullable(),
  remappedIds: z.number().int(),
});
const taskDoneEventSchema = z.object({ type: z.literal('task_done'), task: z.string() });
/** A browser of the pool went away (its connection closed) while the run went on. */
const browserLostEventSchema = z.object({ type: z.literal('browser_lost'), endpoint: z.string(), reason: z.string(), at: z.string() });
/** A task's work in flight on a browser that went away, started again on another (its discarded episode named). */
const rerunEventSchema = z.object({ type: z.literal('rerun'), task: z.string(), endpoint: z.string(), reason: z.string(), episodeId: z.string().nullable() });
export const progressEventSchema = z.discriminatedUnion('type', [attemptEventSchema, shortenedEventSchema, taskDoneEventSchema, browserLostEventSchema, rerunEventSchema]);
export type ProgressEvent = z.infer<typeof progressEventSchema>;
export type ShortenedEvent = z.infer<typeof shortenedEventSchema>;

/** `shop,flights:train`, `all:test`, `webmail` (test split by default); `tier` forces a tier on every instance. */
export function parseTaskSpec(spec: string, server: TaskServer, seedsPerFamily: number, tier?: Tier): TaskRef[] {
  const [names, split = 'test'] = spec.split(':');
  if (split !== 'train' && split !== 'test') throw new Error(`--tasks split must be train or test, got "${split}"`);
  const families = names === 'all' || names === '' ? server.familyNames : names.split(',').map((s) => s.trim()).filter(Boolean);
  const out: TaskRef[] = [];
  for (let k = 0; k < seedsPerFamily; k++) {
    // Interleave families so a partial run still covers all of them.
    for (const f of families) out.push({ family: f, seed: server.familySeeds(f)[split].from + k, ...(tier ? { tier } : {}) });
  }
  return out;
}

export class RunFolder {
  private constructor(
    readonly dir: string,
    readonly config: CollectConfig,
    readonly events: ProgressEvent[],
    /** Opened for reading only (RunFolder.read): append throws. */
    private readonly readOnly = false,
  ) {}

  /** Whether the lab holds a run of this id (its config written): a caller that names its runs continues it. */
  static exists(labDir: string, runId: string): boolean {
    return existsSync(runFiles(labPaths.run(labDir, runId)).config);
  }

  static create(labDir: string, config: Omit<CollectConfig, 'runId' | 'createdAt'> & { runId?: string }): RunFolder {
    const runId = config.runId ?? stampedId();
    const full = collectConfigSchema.parse({ ...config, endOnGoal: config.endOnGoal ?? true, runId, createdAt: new Date().toISOString() });
    const dir = labPaths.run(labDir, runId);
    if (RunFolder.exists(labDir, runId)) throw new Error(`run ${runId} exists; resume it with --resume ${runId}`);
    mkdirSync(dir, { recursive: true });
    writeFileAtomic(runFiles(dir).config, JSON.stringify(full, null, 2) + '\n');
    return new RunFolder(dir, full, []);
  }

  /** A run to carry on: its torn last line, if a crash left one, is cut so appends start clean. */
  static open(labDir: string, runId: string): RunFolder {
    return RunFolder.load(labDir, runId, false);
  }

  /**
   * A run as its log holds it now, read without writing (the app's review view): `lab collect` may
   * be appending to it at this moment, and a torn last line here is a line being written, so it is
   * skipped (with a warning), not cut.
   */
  static read(labDir: string, runId: string): RunFolder {
    return RunFolder.load(labDir, runId, true);
  }

  private static load(labDir: string, runId: string, readOnly: boolean): RunFolder {
    const dir = labPaths.run(labDir, runId);
    const files = runFiles(dir);
    if (!existsSync(files.config)) throw new Error(`no run ${runId} in ${labPaths.runs(labDir)}`);
    const config = readJsonFile(files.config, collectConfigSchema, 'a run configuration');
    const log = files.progress;
    if (!readOnly) repairTornTail(log);
    const events = existsSync(log) ? readJsonl(log, progressEventSchema).records : [];
    return new RunFolder(dir, config, events, readOnly);
  }

  append(e: ProgressEvent): void {
    if (this.readOnly) throw new Error(`run ${this.config.runId} was opened for reading only`);
    this.events.push(e);
    appendJsonlLine(runFiles(this.dir).progress, e);
  }
}

export interface CollectSummary {
  runId: string;
  tasks: number;
  tasksDone: number;
  retries: number;
  /** Attempts each arm may spend per task. */
  attemptBudget: number;
  arms: ArmSummary[];
  shortening: { trajectories: number; shortened: number; replayFailures: number; stepsBefore: number | null; stepsAfter: number | null; remappedIds: number } | null;
  /**
   * Browsers that went away during the run and the tasks whose work in flight was started again
   * on another browser (each rerun once per loss; nothing of theirs is counted twice or lost).
   */
  browsers: { lost: Array<{ endpoint: string; reason: string }>; reruns: number; rerunTasks: string[] };
  /** The agent's language-model calls over every attempt (endpoint agents), malformed outputs counted. */
  llm: { calls: number; malformed: number; malformedRate: number; promptTokens: number; completionTokens: number; meanLatencyMs: number | null } | null;
}

export interface CollectHooks {
  signal?: AbortSignal;
  onTaskDone?: (done: number, total: number, task: string) => void;
  /** A task's work in flight was lost with its browser and starts again on another. */
  onRerun?: (task: string, lost: BrowserLostError) => void;
  /** What the run's endpoint needs beyond its saved config: the key, backoff, a retry report. */
  endpoint?: { apiKey?: string; baseDelayMs?: number; maxDelayMs?: number; onRetry?: (info: RetryInfo) => void };
}

function makeReflector(cfg: CollectConfig, hooks: CollectHooks): Reflector | null {
  if (cfg.reflect === 'none') return null;
  if (cfg.reflect === 'rules') return new RuleReflector();
  const e = cfg.endpoint!;
  return new LlmReflector({
    endpoint: { baseUrl: e.baseUrl, model: e.model, maxWaitMs: e.maxWaitMs, ...(e.timeoutMs ? { timeoutMs: e.timeoutMs } : {}), ...hooks.endpoint },
    signal: hooks.signal,
  });
}

export async function runCollection(
  deps: { envs: BrowserEnv[]; server: TaskServer; store: LabStore; browserKind: string; browsers?: { onLost(listener: (loss: BrowserLoss) => void): () => void } },
  run: RunFolder,
  hooks: CollectHooks = {},
): Promise<CollectSummary> {
  const cfg = run.config;
  const tasks = parseTaskSpec(cfg.tasks, deps.server, cfg.seeds, cfg.tier);
  const reflector = makeReflector(cfg, hooks);
  const endpoint = cfg.endpoint ? { ...cfg.endpoint, ...hooks.endpoint } : undefined;
  const reflections = new ReflectionStore(deps.store.dir);
  const finished = new Set(run.events.filter((e) => e.type === 'task_done').map((e) => e.task));
  const queue = tasks.filter((t) => !finished.has(taskKey(t)));
  let done = finished.size;
  hooks.onTaskDone?.(done, tasks.length, '');
  const stopListening = deps.browsers?.onLost((loss) => run.append({ type: 'browser_lost', ...loss }));

  // One worker's failure stops the others from taking new tasks; the first error is rethrown.
  let failure: { error: unknown } | null = null;
  const worker = async (env: BrowserEnv): Promise<void> => {
    try {
      await work(env);
    } catch (error) {
      failure ??= { error };
      queue.length = 0;
    }
  };
  const work = async (env: BrowserEnv): Promise<void> => {
    const provenance = { run: cfg.runId, ...(cfg.experiment ? { experiment: cfg.experiment } : {}) };
    const epDeps = { env, server: deps.server, store: deps.store, browserKind: deps.browserKind, signal: hooks.signal, endOnGoal: cfg.endOnGoal ?? false, provenance };
    for (let task = queue.shift(); task && !hooks.signal?.aborted; task = queue.shift()) {
      const key = taskKey(task);
      // Work cut short by a browser that went away starts again from what the log holds: the
      // attempts logged before stay, the one in flight (its episode discarded) is run again with
      // the same instance and agent seed, on a live browser.
      const runTask = async () => {
        const prior = run.events.filter((e): e is AttemptEvent => e.type === 'attempt' && e.task === key);
        const arms = await runTaskWithRetries(
          epDeps,
          task,
          { agent: cfg.agent, agentSeed: cfg.agentSeed, retries: cfg.retries, reflector, reflections, rates: cfg.rates, maxSteps: cfg.maxSteps, endpoint, policy: cfg.policy, labelMistakes: cfg.labelMistakes },
          prior,
          (e) => run.append(e),
        );
        if (cfg.shorten) {
          const wins = new Set(arms.flatMap((a) => a.attempts.filter((e) => e.success).map((e) => e.episodeId)));
          for (const from of wins) {
            if (run.events.some((e) => e.type === 'shortened' && e.from === from)) continue;
            if (hooks.signal?.aborted) throw new CancelledError();
            const r = await shortenEpisode(epDeps, from);
            // A replay cut short by Ctrl-C says nothing about the cuts: leave it for the resumed run.
            if (hooks.signal?.aborted) throw new CancelledError();
            run.append({ type: 'shortened', task: key, from, episodeId: r.episodeId, stepsBefore: r.stepsBefore, stepsAfter: r.stepsAfter, cuts: r.cuts.length, replaySuccess: r.replaySuccess, remappedIds: r.remappedIds });
          }
        }
      };
      try {
        await rerunOnLostBrowser(runTask, (lost) => {
          run.append({ type: 'rerun', task: key, endpoint: lost.endpoint, reason: lost.reason, episodeId: lost.episodeId });
          hooks.onRerun?.(key, lost);
        });
      } catch (err) {
        if (err instanceof CancelledError) return;
        throw err;
      }
      run.append({ type: 'task_done', task: key });
      hooks.onTaskDone?.(++done, tasks.length, key);
    }
  };
  await Promise.all(deps.envs.slice(0, Math.max(1, cfg.parallel)).map(worker));
  stopListening?.();
  if (failure) throw (failure as { error: unknown }).error;
  const summary = summarise(run, tasks.map(taskKey));
  writeFileAtomic(runFiles(run.dir).summary, JSON.stringify(summary, null, 2) + '\n');
  return summary;
}

export function summarise(run: RunFolder, tasks: string[]): CollectSummary {
  const cfg = run.config;
  const attempts = run.events.filter((e): e is AttemptEvent => e.type === 'attempt');
  const shortenedEvents = run.events.filter((e): e is ShortenedEvent => e.type === 'shortened');
  const kept = new Map(shortenedEvents.filter((e) => e.episodeId).map((e) => [e.from, e.stepsAfter]));
  const arms: Arm[] = cfg.reflect !== 'none' ? ['reflect', 'blind'] : ['blind'];
  const calls = attempts.flatMap((e) => (e.llm ? [e.llm] : []));
  const sum = (f: (l: (typeof calls)[number]) => number) => calls.reduce((n, l) => n + f(l), 0);
  const mean = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 1000) / 1000 : null);
  const reruns = run.events.filter((e) => e.type === 'rerun');
  const lost = new Map<string, string>();
  for (const e of run.events) if (e.type === 'browser_lost' || e.type === 'rerun') if (!lost.has(e.endpoint)) lost.set(e.endpoint, e.reason);
  return {
    runId: cfg.runId,
    tasks: tasks.length,
    tasksDone: new Set(run.events.filter((e) => e.type === 'task_done').map((e) => e.task)).size,
    retries: cfg.retries,
    attemptBudget: cfg.retries + 1,
    arms: summariseArms(arms, tasks, attempts, kept),
    shortening: cfg.shorten
      ? {
          trajectories: shortenedEvents.length,
          shortened: shortenedEvents.filter((e) => e.episodeId).length,
          replayFailures: shortenedEvents.filter((e) => e.replaySuccess === false).length,
          stepsBefore: mean(shortenedEvents.map((e) => e.stepsBefore)),
          stepsAfter: mean(shortenedEvents.map((e) => (e.episodeId ? e.stepsAfter : e.stepsBefore))),
          remappedIds: shortenedEvents.reduce((n, e) => n + e.remappedIds, 0),
        }
      : null,
    browsers: { lost: [...lost].map(([endpoint, reason]) => ({ endpoint, reason })), reruns: reruns.length, rerunTasks: [...new Set(reruns.map((e) => e.task))] },
    llm: calls.length
      ? {
          calls: sum((l) => l.calls),
          malformed: sum((l) => l.malformed),
          malformedRate: sum((l) => l.calls) ? Math.round((sum((l) => l.malformed) / sum((l) => l.calls)) * 1000) / 1000 : 0,
          promptTokens: sum((l) => l.promptTokens),
          completionTokens: sum((l) => l.completionTokens),
          meanLatencyMs: sum((l) => l.calls) ? Math.round(sum((l) => l.latencyMs) / sum((l) => l.calls)) : null,
        }
      : null,
  };
}
