/**
 * Reflection-conditioned retries, with their baseline run alongside.
 *
 * One task instance, two arms with the same attempt budget (1 + R):
 *   reflect  after a failure, reflect on it and retry with every reflection so far in context;
 *   blind    after a failure, retry with nothing added.
 * Attempt k of both arms uses the same agent and the same agent seed (derived from k), so the
 * arms differ only in the reflections. Attempt 0 is therefore identical in both arms and is run
 * once and counted in each. Retries draw a new seed per attempt: a blind retry with the failed
 * attempt's own seed would repeat it exactly, which would flatter the reflection arm.
 *
 * Each attempt is an episode; a retry links to the attempt it retries (links.retryOf) and to the
 * newest reflection it was given (links.reflection; all of them are in agent.config.reflectionIds).
 * Reflections are files under lab/reflections/ (see reflect.ts), with ids derived from the episode
 * they reflect on, so a resumed run finds them instead of writing them twice.
 */
import { z } from 'zod';
import { makeAgent } from '../agents/registry.ts';
import { NoisyExpert, noisyExpertConfig, type MistakeRates } from '../agents/noisy-expert.ts';
import { endpointSettings, type EndpointAgentOptions } from '../agents/endpoint-agent.ts';
import { mixSeed } from '../common/rng.ts';
import { wilson, type Interval } from '../common/stats.ts';
import type { Tier } from '../tasks/types.ts';
import { runEpisode, type EpisodeDeps } from './episode.ts';
import type { Reflection, ReflectionStore, Reflector } from './reflect.ts';
import { labelInjectedMistakes } from './mistake-labels.ts';
import type { Agent } from '../tasks/agent.ts';

export const ARMS = ['reflect', 'blind'] as const;
export type Arm = (typeof ARMS)[number];

export interface TaskRef {
  family: string;
  seed: number;
  tier?: Tier;
}

export const taskKey = (t: TaskRef): string => `${t.family}:${t.seed}`;

export const attemptEventSchema = z.object({
  type: z.literal('attempt'),
  task: z.string(),
  /** The arms this attempt counts for (both for the shared first attempt). */
  arms: z.array(z.enum(ARMS)).min(1),
  attempt: z.number().int().min(0),
  episodeId: z.string(),
  success: z.boolean(),
  steps: z.number().int().min(0),
  reflections: z.array(z.string()),
  /** The agent's language-model calls in this attempt (endpoint agents). */
  llm: z
    .object({ calls: z.number().int(), malformed: z.number().int(), promptTokens: z.number().int(), completionTokens: z.number().int(), latencyMs: z.number() })
    .optional(),
});
export type AttemptEvent = z.infer<typeof attemptEventSchema>;

export interface RetryOptions {
  agent: string;
  agentSeed: number;
  retries: number;
  /** null: no reflection arm, only blind retries. */
  reflector: Reflector | null;
  reflections: ReflectionStore;
  rates?: Partial<MistakeRates>;
  maxSteps?: number;
  /** The endpoint agent's endpoint (required for agent 'endpoint'). */
  endpoint?: Omit<EndpointAgentOptions, 'seed' | 'reflections' | 'signal'>;
  /** The compact policy (required for agent 'policy'); it does not read reflections. */
  policy?: { dir: string };
  /** Label the noisy expert's injected mistakes on their steps (./mistake-labels.ts). */
  labelMistakes?: boolean;
}

export interface ArmResult {
  arm: Arm;
  attempts: AttemptEvent[];
  success: boolean;
}

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

/** The agent seed of attempt k: the same in both arms. */
export const attemptSeed = (agentSeed: number, k: number): number => mixSeed(agentSeed, 'attempt', k);

export function armsFor(opts: Pick<RetryOptions, 'reflector'>): Arm[] {
  return opts.reflector ? ['reflect', 'blind'] : ['blind'];
}

/**
 * Run one task instance in every arm. `done` holds attempts already logged for this task (a
 * resumed run): they are reused, not rerun. `emit` is called once per new attempt, after its
 * episode ended.
 */
export async function runTaskWithRetries(
  deps: EpisodeDeps,
  task: TaskRef,
  opts: RetryOptions,
  done: readonly AttemptEvent[],
  emit: (e: AttemptEvent) => void,
): Promise<ArmResult[]> {
  const arms = armsFor(opts);
  const logged = (arm: Arm, k: number) => done.find((e) => e.attempt === k && e.arms.includes(arm));

  const attempt = async (forArms: Arm[], k: number, given: Reflection[], retryOf?: string): Promise<AttemptEvent> => {
    if (deps.signal?.aborted) throw new CancelledError();
    const seed = attemptSeed(opts.agentSeed, k);
    const texts = given.map((r) => r.text);
    const config =
      opts.agent === 'noisy'
        ? { ...noisyExpertConfig({ seed, rates: opts.rates, reflections: texts }) }
        : opts.agent === 'endpoint' && opts.endpoint
          ? { kind: 'endpoint', seed, ...endpointSettings(opts.endpoint) }
          : opts.agent === 'policy' && opts.policy
            ? { kind: 'compact-policy', seed, dir: opts.policy.dir }
            : { kind: opts.agent, seed };
    const endpoint = opts.endpoint ? { ...opts.endpoint, signal: deps.signal } : undefined;
    // The agent the episode made, kept to read the noisy expert's mistakes after it.
    const made: { agent?: Agent } = {};
    const out = await runEpisode(deps, {
      family: task.family,
      seed: task.seed,
      tier: task.tier,
      maxSteps: opts.maxSteps,
      agent: (instance) => (made.agent = makeAgent(opts.agent, instance, seed, { reflections: texts, noisy: { rates: opts.rates }, endpoint, policy: opts.policy })),
      agentConfig: { ...config, attempt: k, arm: forArms.length > 1 ? 'shared' : forArms[0], reflectionIds: given.map((r) => r.id) },
      links: { ...(retryOf ? { retryOf } : {}), ...(given.length ? { reflection: given[given.length - 1].id } : {}) },
      provenance: { attempt: k, arm: forArms.length > 1 ? 'shared' : forArms[0] },
    });
    // A cancelled attempt is not an attempt: it is not logged, and a resumed run redoes it.
    if (out.reason === 'cancelled') throw new CancelledError();
    if (opts.labelMistakes && made.agent instanceof NoisyExpert) labelInjectedMistakes(deps.store.dir, out.id, made.agent.mistakes);
    const e: AttemptEvent = {
      type: 'attempt',
      task: taskKey(task),
      arms: forArms,
      attempt: k,
      episodeId: out.id,
      success: out.success,
      steps: out.steps,
      reflections: given.map((r) => r.id),
      ...(out.llm ? { llm: out.llm } : {}),
    };
    emit(e);
    return e;
  };

  const first = logged(arms[0], 0) ?? (await attempt(arms, 0, []));
  const results: ArmResult[] = [];
  for (const arm of arms) {
    const attempts = [first];
    const given: Reflection[] = [];
    let last = first;
    for (let k = 1; k <= opts.retries && !last.success; k++) {
      if (arm === 'reflect') given.push(await reflectOn(deps, opts, last.episodeId));
      last = logged(arm, k) ?? (await attempt([arm], k, [...given], last.episodeId));
      attempts.push(last);
    }
    results.push({ arm, attempts, success: last.success });
  }
  return results;
}

async function reflectOn(deps: EpisodeDeps, opts: RetryOptions, episodeId: string): Promise<Reflection> {
  const id = `refl-${episodeId}`;
  if (opts.reflections.has(id)) return opts.reflections.load(id);
  const r = await opts.reflector!.reflect(deps.store.readEpisode(episodeId));
  opts.reflections.save(r);
  return r;
}

export interface ArmSummary {
  arm: Arm;
  tasks: number;
  /** Tasks with a success within the budget. */
  successes: number;
  yield: number;
  /** Wilson 95% interval of the yield over the arm's tasks (null with none); absent in runs summarised before it existed. */
  yieldCi95?: Interval | null;
  firstAttemptSuccesses: number;
  /** Every attempt the arm made (the shared first attempt counts in each arm). */
  attempts: number;
  attemptsPerSuccess: number | null;
  /** Mean steps of the successful trajectory, per successful task. */
  stepsPerSuccess: number | null;
  /** The same, with each trajectory replaced by its shortened version where one was kept. */
  stepsPerSuccessShortened: number | null;
  /**
   * Steps per success over the tasks every arm solved: the arms solve different sets of tasks,
   * and harder tasks take more steps, so only this figure compares the arms' step counts fairly.
   */
  stepsPerSuccessCommon: number | null;
}

/** Summarise arms from the attempt log; `shortened` maps an episode id to its shortened step count. */
export function summariseArms(arms: readonly Arm[], tasks: readonly string[], events: readonly AttemptEvent[], shortened: ReadonlyMap<string, number>): ArmSummary[] {
  const winOf = (arm: Arm, t: string) => events.filter((e) => e.task === t && e.arms.includes(arm) && e.success).sort((a, b) => a.attempt - b.attempt)[0];
  const common = tasks.filter((t) => arms.every((a) => winOf(a, t)));
  return arms.map((arm) => {
    let successes = 0;
    let first = 0;
    let attempts = 0;
    const steps: number[] = [];
    const stepsShort: number[] = [];
    for (const t of tasks) {
      const mine = events.filter((e) => e.task === t && e.arms.includes(arm)).sort((a, b) => a.attempt - b.attempt);
      attempts += mine.length;
      if (mine[0]?.success) first++;
      const win = mine.find((e) => e.success);
      if (!win) continue;
      successes++;
      steps.push(win.steps);
      stepsShort.push(shortened.get(win.episodeId) ?? win.steps);
    }
    return {
      arm,
      tasks: tasks.length,
      successes,
      yield: round(tasks.length ? successes / tasks.length : 0),
      yieldCi95: wilson(successes, tasks.length),
      firstAttemptSuccesses: first,
      attempts,
      attemptsPerSuccess: successes ? round(attempts / successes) : null,
      stepsPerSuccess: mean(steps),
      stepsPerSuccessShortened: mean(stepsShort),
      stepsPerSuccessCommon: mean(common.map((t) => winOf(arm, t).steps)),
    };
  });
}

const round = (x: number): number => Math.round(x * 1000) / 1000;
const mean = (xs: number[]): number | null => (xs.length ? round(xs.reduce((a, b) => a + b, 0) / xs.length) : null);
