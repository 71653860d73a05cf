/**
 * Agents the CLI can name: the task's oracle, a noisy expert built on it, a random baseline, and
 * a model behind an OpenAI-compatible endpoint.
 */
import type { Agent } from './types.ts';
import type { TaskInstance } from '../tasks/server.ts';
import { randomAgent } from './random.ts';
import { NoisyExpert, type NoisyExpertOptions } from './noisy-expert.ts';
import { EndpointAgent, type EndpointAgentOptions } from './endpoint-agent.ts';

export const AGENT_NAMES = ['oracle', 'noisy', 'random', 'endpoint'] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

/** Per-attempt context an agent may use; agents that cannot read reflections ignore them. */
export interface AgentContext {
  reflections?: readonly string[];
  noisy?: Omit<NoisyExpertOptions, 'seed' | 'reflections'>;
  /** Where the endpoint agent's model is and how to sample it. */
  endpoint?: Omit<EndpointAgentOptions, 'seed' | 'reflections'>;
}

export function makeAgent(name: string, instance: TaskInstance, seed: number, context: AgentContext = {}): Agent {
  switch (name) {
    case 'oracle':
      return instance.family.oracle(instance.ctx);
    case 'noisy':
      return new NoisyExpert(instance.family.oracle(instance.ctx), { ...context.noisy, seed, reflections: context.reflections });
    case 'random':
      return randomAgent(seed);
    case 'endpoint':
      if (!context.endpoint) throw new Error('the endpoint agent needs an endpoint: pass --endpoint URL --model NAME (or set LAB_ENDPOINT_URL and LAB_ENDPOINT_MODEL)');
      return new EndpointAgent({ ...context.endpoint, seed, reflections: context.reflections });
    default:
      throw new Error(`unknown agent "${name}" (known: ${AGENT_NAMES.join(', ')})`);
  }
}
