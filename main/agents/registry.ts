/**
 * Agents the CLI can name: the task's oracle, a noisy expert built on it, a random baseline, a
 * model behind an OpenAI-compatible endpoint, and the compact policy (a workbench model).
 */
import type { Agent } from '../tasks/agent.ts';
import { AGENT_NAMES } from './names.ts';
import type { TaskInstance } from '../tasks/server.ts';
import { randomAgent } from './random.ts';
import { NoisyExpert, type NoisyExpertOptions } from './noisy-expert.ts';
import { EndpointAgent, endpointSettings, type EndpointAgentOptions } from './endpoint-agent.ts';
import { CompactPolicyAgent, type CompactPolicyOptions } from './compact-policy.ts';

export { AGENT_NAMES, type AgentName } from './names.ts';

/** Per-attempt context an agent may use; agents that cannot read reflections ignore them. */
export interface AgentContext {
  reflections?: readonly string[];
  noisy?: Omit<NoisyExpertOptions, 'seed' | 'reflections'>;
  /** Where the endpoint agent's model is and how to sample it. */
  endpoint?: Omit<EndpointAgentOptions, 'seed' | 'reflections'>;
  /** The compact policy's model folder and decoding (agent `policy`). */
  policy?: Omit<CompactPolicyOptions, 'seed'>;
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
    case 'policy':
      if (!context.policy) throw new Error('the policy agent needs a model folder (a policy trained with `lab train sft`)');
      return new CompactPolicyAgent({ ...context.policy, seed });
    default:
      throw new Error(`unknown agent "${name}" (known: ${AGENT_NAMES.join(', ')})`);
  }
}

/**
 * What an episode's header records of the agent (`agentConfig`), as `lab episode` records it: the
 * endpoint's settings, the policy's folder; nothing for the agents without settings.
 */
export function agentConfigOf(name: string, seed: number, context: AgentContext = {}): Record<string, unknown> | undefined {
  if (name === 'endpoint' && context.endpoint) return { kind: 'endpoint', seed, ...endpointSettings({ ...context.endpoint, seed }) };
  // As collection records it: which policy folder acted (the shipped one when none was named).
  if (name === 'policy' && context.policy) return { kind: 'compact-policy', seed, dir: context.policy.dir };
  return undefined;
}
