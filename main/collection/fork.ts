/**
 * Fork from any step: from a step of a recorded episode (the parent), reach that page state on a
 * fresh instance of the same task and seed by replaying the parent's earlier actions, then let
 * another agent continue: an oracle, the compact policy, a model behind an endpoint, or a person
 * (collection/demonstration.ts). The fork is an episode like any other, its header linking parent
 * and step (`links.forkOf`), so "what if it had clicked that instead" is listed, viewed, curated
 * and exported as any episode is.
 *
 * The prefix is replayed as branching replays a rollout to a critical state (evaluation/branching.ts,
 * which is built on the same PrefixAgent): the sites are deterministic per seed, so the same
 * actions reach the same page. Each replayed page, and the page at the fork's step, is checked
 * against the one the parent recorded (URL below the instance prefix, every element's role, name,
 * value and state), and each action is carried over by element meaning (role, name, rank), not by
 * id. A page that differs stops the fork, naming the step and the difference; the half-made fork
 * is not kept (it would be a failure no agent made).
 *
 * The replayed steps are the fork's first steps, so the fork holds the whole trajectory from the
 * start page, as a dataset needs it; they carry the parent's thoughts.
 */
import type { Agent, AgentTurn, ActionSpace } from '../tasks/agent.ts';
import { AgentUnavailableError } from '../tasks/agent.ts';
import type { TaskInstance } from '../tasks/server.ts';
import type { TaskSpec, Tier } from '../tasks/types.ts';
import type { Observation, PageElement } from '../environment/types.ts';
import type { EnvOptions } from '../environment/environment.ts';
import type { EpisodeData, LabStore } from '../store/lab.ts';
import type { ObservationRecord, StepRecord } from '../store/schema.ts';
import { normalizeText } from '../common/normalize.ts';
import { normaliseUrl, recordedEnvOptions } from './replay.ts';
import { resolveAction } from './shorten.ts';
import { runEpisode, type EpisodeDeps, type EpisodeOutcome, type EpisodeRequest } from './episode.ts';

/** What tells two renderings of a page apart for an agent: everything but ids, boxes and scroll. */
function elementMeaning(e: PageElement): string {
  return JSON.stringify([e.role, normalizeText(e.name), e.value ?? null, e.checked ?? null, e.selected ?? null, e.disabled ?? null, e.expanded ?? null, e.visible]);
}

/** Null when the live page is the recorded one; else what differs, naming whose recording it was. */
export function stateDifference(recorded: Pick<ObservationRecord, 'url' | 'elements'>, live: Pick<Observation, 'url' | 'elements'>, source = 'the rollout'): string | null {
  const [ru, lu] = [normaliseUrl(recorded.url), normaliseUrl(live.url)];
  if (ru !== lu) return `URL ${lu} where ${source} recorded ${ru}`;
  const n = Math.max(recorded.elements.length, live.elements.length);
  for (let i = 0; i < n; i++) {
    const [r, l] = [recorded.elements[i], live.elements[i]];
    if (r && l && elementMeaning(r) === elementMeaning(l)) continue;
    const show = (e: PageElement | undefined) => (e ? `${e.role} "${e.name}"${e.value !== undefined ? ` = "${e.value}"` : ''}` : 'nothing');
    return `element ${i + 1} of ${live.elements.length} is ${show(l)} where ${source} recorded ${show(r)} (of ${recorded.elements.length})`;
  }
  return null;
}

/**
 * An action written for one rendering of a page, rewritten for another: its element is looked up
 * by meaning (role, name and rank, as trajectory shortening replays steps). Actions without an
 * element, or whose element is not on the first page, stay as written.
 */
export function carryAction(action: string, from: readonly PageElement[], to: readonly PageElement[]): string {
  return resolveAction(action, { elements: [...from] }, { elements: [...to] });
}

/**
 * A replayed page differed from the recorded one, so the state to fork from cannot be reached.
 * An AgentUnavailableError: the episode runner discards the episode rather than ending it as the
 * agent's failure (the agent never got to act).
 */
export class PrefixNotReproduced extends AgentUnavailableError {
  constructor(message: string) {
    super(message);
    this.name = 'PrefixNotReproduced';
  }
}

/** A plain error: the episode ends as `agent_error` and is kept (branching reports on it). */
class StateNotReproduced extends Error {}

export interface PrefixOptions {
  /** The recorded episode, as named in a difference ("where the parent recorded ..."). */
  source: string;
  /** The episode header's agent name (default: the continuation's). */
  name?: string;
  /** What a page that differs makes impossible, said first in the error ("cannot fork X at step N"). */
  failure?: string;
  /** The thought recorded with replayed step i (default: the recorded step's own). */
  thought?: (index: number, recorded: StepRecord) => string | undefined;
  /**
   * What a page that differs does: 'discard' (a fork) throws PrefixNotReproduced, so no episode is
   * kept; 'end' (a branch) ends the episode as agent_error and leaves it, with `diverged` set.
   */
  onDifference: 'discard' | 'end';
}

/**
 * An agent that replays recorded steps 0..step-1 (each page checked, each action carried by
 * meaning), checks the page at `step`, and from there hands every turn to the continuation. The
 * continuation is told of each replayed turn (Agent.observe) or, without observe, shown the page
 * and its answer discarded.
 */
export class PrefixAgent implements Agent {
  readonly name: string;
  /** Set when a replayed page differed from the recorded one: "step N: what differs". */
  diverged: string | null = null;

  constructor(
    private readonly continuation: Agent,
    /** The recorded steps, at least up to and including `step` (the pages to check). */
    private readonly recorded: readonly StepRecord[],
    /** The first step the continuation takes (0-based): the number of steps replayed. */
    readonly step: number,
    private readonly options: PrefixOptions,
  ) {
    this.name = options.name ?? continuation.name;
  }

  async reset(task: TaskSpec, space?: ActionSpace): Promise<void> {
    this.diverged = null;
    await this.continuation.reset(task, space);
  }

  async act(observation: Observation, history: readonly AgentTurn[]): Promise<AgentTurn> {
    const i = history.length;
    const rec = this.recorded[i];
    if (i > this.step || !rec) return this.continuation.act(observation, history);
    const diff = stateDifference(rec.observation, observation, this.options.source);
    if (diff) {
      this.diverged = `step ${i + 1}: ${diff}`;
      throw this.options.onDifference === 'discard'
        ? new PrefixNotReproduced(`${this.options.failure ?? 'state not reproduced'}: the page at ${this.diverged}`)
        : new StateNotReproduced(`state not reproduced at ${this.diverged}`);
    }
    if (i === this.step) return this.continuation.act(observation, history);
    const thought = this.options.thought ? this.options.thought(i, rec) : rec.thought;
    const turn: AgentTurn = { ...(thought ? { thought } : {}), action: carryAction(rec.action, rec.observation.elements, observation.elements) };
    if (this.continuation.observe) await this.continuation.observe(observation, turn, history);
    else await this.continuation.act(observation, history); // seen, not obeyed
    return turn;
  }
}

/** Why a fork of this episode at this step (0-based) cannot be made, for people (steps counted from 1); null when it can. */
export function forkStepProblem(parent: Pick<EpisodeData, 'header' | 'steps'>, step: number): string | null {
  const n = parent.steps.length;
  if (n === 0) return `episode ${parent.header.id} has no steps to fork from`;
  if (!Number.isInteger(step) || step < 0 || step >= n) return `episode ${parent.header.id} has ${n} step${n === 1 ? '' : 's'}: a fork takes over at step 1 to ${n}, not at step ${Number.isInteger(step) ? step + 1 : step}`;
  return null;
}

/** One fork to make: the parent read and the step checked, with what the fork runs under. */
export interface ForkPlan {
  parent: EpisodeData;
  /** The first step the new agent takes (0-based); the parent's steps before it are replayed. */
  step: number;
  /** The parent's environment options that change what a step does (action sets, text layout): the environment the fork runs in takes them. */
  envOptions: Partial<EnvOptions>;
  /** The parent's: with the goal checked where the parent did not, the replay could end the fork before it forks. */
  endOnGoal: boolean;
}

/** Read the parent and check the step: an unknown episode or a step out of range is refused here, before anything starts. */
export function planFork(store: LabStore, parentId: string, step: number): ForkPlan {
  const parent = store.readEpisode(parentId);
  const problem = forkStepProblem(parent, step);
  if (problem) throw new Error(problem);
  // Older headers do not say; they ran without ending on the goal.
  return { parent, step, envOptions: recordedEnvOptions(parent.header), endOnGoal: parent.header.env.endOnGoal ?? false };
}

/**
 * The episode request of a fork: the parent's task instance, the prefix agent around the
 * continuation, the link to parent and step, and the continuation's config marked as a fork.
 */
export function forkRequest(plan: ForkPlan, continuation: (instance: TaskInstance) => Agent, opts: { agentConfig?: Record<string, unknown>; maxSteps?: number } = {}): EpisodeRequest & { agent: (instance: TaskInstance) => PrefixAgent } {
  const { parent, step } = plan;
  const task = parent.header.task;
  return {
    family: task.family,
    seed: task.seed,
    tier: task.tier as Tier,
    ...(opts.maxSteps !== undefined ? { maxSteps: opts.maxSteps } : {}),
    agent: (instance) => new PrefixAgent(continuation(instance), parent.steps, step, { source: 'the parent', failure: `cannot fork ${parent.header.id} at step ${step + 1}`, onDifference: 'discard' }),
    agentConfig: { ...opts.agentConfig, role: 'fork', of: parent.header.id, step },
    links: { forkOf: { episodeId: parent.header.id, step } },
  };
}

/**
 * Run a fork with an agent to its end. Rejects, leaving no episode, when a replayed page differs
 * (PrefixNotReproduced, naming the step and the difference).
 */
export async function forkEpisode(
  deps: EpisodeDeps,
  plan: ForkPlan,
  continuation: (instance: TaskInstance) => Agent,
  opts: { agentConfig?: Record<string, unknown>; maxSteps?: number } = {},
): Promise<EpisodeOutcome> {
  return runEpisode({ ...deps, endOnGoal: plan.endOnGoal }, forkRequest(plan, continuation, opts));
}
