/**
 * What an agent is: the interface every policy implements (an oracle, a random agent, a model, a
 * person). It lives with the tasks because each task family ships its own oracle, which is an
 * agent; agents/ (the other policies) and collection/ import it from here, so the arrows point
 * one way: agents -> tasks, never back (test/app/import-floors.test.ts).
 */
import type { Observation } from '../environment/types.ts';
import type { ActionSetName } from '../environment/action-sets.ts';
import type { TaskSpec } from './spec.ts';
import type { StepIo } from '../store/schema.ts';

/** What a policy produces for one step: an optional short thought and one action string. */
export interface AgentTurn {
  thought?: string;
  action: string;
  /** What the language-model call behind this turn cost, for agents that make one (recorded on the step). */
  llm?: LlmCall;
  /** The prompt the model read and what it wrote, clipped (recorded on the step for the viewer). */
  io?: StepIo;
}

/** One language-model call of an agent's step: tokens, time, transport retries, and whether its output held an action. */
export interface LlmCall {
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  /** Tries the call took (more than 1 when the endpoint was retried). */
  attempts: number;
  /** Why the output held no valid action; the step's action is then the unparsable text. */
  malformed?: string;
  /** The raw model output (clipped), kept when it was malformed. */
  output?: string;
  /** The whole output's length, when output was clipped. */
  outputChars?: number;
  /** The whole thought's length, when the step's thought was clipped. */
  thoughtChars?: number;
}

/**
 * Thrown by an agent that cannot act for a reason outside the episode (its model endpoint stayed
 * unreachable). The episode is discarded rather than ended as a failure, and the run stops, so a
 * resumed run redoes the attempt instead of counting the outage against the agent.
 */
export class AgentUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentUnavailableError';
  }
}

/**
 * What the environment lets an agent do in an episode, handed over at reset: an agent that tells a
 * model its actions (the endpoint agent) lists only those it may take. Others ignore it.
 */
export interface ActionSpace {
  actionSets: readonly ActionSetName[];
  /** CSS pixels: the frame of the coordinate actions, of element boxes and of a full-size screenshot. */
  viewport: { width: number; height: number };
}

/** Anything that picks actions: an oracle, a random agent, a model, a person. */
export interface Agent {
  readonly name: string;
  /** Called once per episode before the first step. */
  reset(task: TaskSpec, space?: ActionSpace): Promise<void> | void;
  act(observation: Observation, history: readonly AgentTurn[]): Promise<AgentTurn>;
  /**
   * A turn taken on the agent's behalf on this page (the replayed prefix of a fork,
   * main/collection/fork.ts): an agent that keeps its own memory of the episode (the endpoint
   * agent's conversation, the policy's step count) records it as if it had acted. Without it, the
   * page is shown to the agent through act() and its answer discarded, which is what an oracle,
   * whose memory is of the pages it has seen, needs.
   */
  observe?(observation: Observation, turn: AgentTurn, history: readonly AgentTurn[]): Promise<void> | void;
}
