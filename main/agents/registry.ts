/** Agents the CLI can name: the task's oracle and a random baseline. */
import type { Agent } from './types.ts';
import type { TaskInstance } from '../tasks/server.ts';
import { randomAgent } from './random.ts';

export const AGENT_NAMES = ['oracle', 'random'] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

export function makeAgent(name: string, instance: TaskInstance, seed: number): Agent {
  switch (name) {
    case 'oracle':
      return instance.family.oracle(instance.ctx);
    case 'random':
      return randomAgent(seed);
    default:
      throw new Error(`unknown agent "${name}" (known: ${AGENT_NAMES.join(', ')})`);
  }
}
