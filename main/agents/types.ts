import type { Observation } from '../environment/types.ts';
import type { TaskSpec } from '../tasks/types.ts';

/** What a policy produces for one step: an optional short thought and one action string. */
export interface AgentTurn {
  thought?: string;
  action: string;
}

/** Anything that picks actions: an oracle, a random agent, a model, a person. */
export interface Agent {
  readonly name: string;
  /** Called once per episode before the first step. */
  reset(task: TaskSpec): Promise<void> | void;
  act(observation: Observation, history: readonly AgentTurn[]): Promise<AgentTurn>;
}
