/**
 * The agent flags of the commands that run one episode with a named agent (`lab episode`, `lab
 * fork`): the agent's name, its endpoint or its policy folder, read into the context the agent
 * registry's makeAgent takes. Light to import: the agents load when a command runs.
 */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { AGENT_NAMES } from '../agents/names.ts';
import { ENDPOINT_DEFAULTS } from '../agents/endpoint-defaults.ts';
import type { AgentContext } from '../agents/registry.ts';
import { SHIPPED_POLICY, SHIPPED_POLICY_NAME } from '../policy/shipped.ts';
import { intOption, withImageOptions, type ImageFlags } from './runtime.ts';
import { forTerminal } from './terminal.ts';

export interface AgentFlags extends ImageFlags {
  agent: string;
  endpoint?: string;
  model?: string;
  vision?: boolean;
  endpointTimeout?: number;
  endpointWait?: number;
  maxTokens?: number;
  policy?: string;
}

/** Add --agent and the endpoint and policy flags (with the vision image flags). */
export function withAgentOptions(cmd: Command): Command {
  return withImageOptions(
    cmd
      .option('--agent <name>', `agent: ${AGENT_NAMES.join(' | ')}`, 'oracle')
      .option('--endpoint <url>', 'agent endpoint: OpenAI-compatible base URL (default $LAB_ENDPOINT_URL)')
      .option('--model <name>', 'agent endpoint: model name (default $LAB_ENDPOINT_MODEL)')
      .option('--vision', 'agent endpoint: send the set-of-marks screenshot to the model (turns --screenshots on)')
      .option('--endpoint-timeout <s>', 'agent endpoint: longest one request may take, in seconds (default 120)', intOption('--endpoint-timeout', 1))
      .option('--endpoint-wait <s>', `agent endpoint: seconds to keep retrying a failing endpoint (unreachable, timed out, 429/5xx), from its first failure, before the episode stops (default ${ENDPOINT_DEFAULTS.maxWaitMs / 1000})`, intOption('--endpoint-wait', 0))
      .option('--max-tokens <n>', `agent endpoint: longest answer per step (default ${ENDPOINT_DEFAULTS.maxTokens})`, intOption('--max-tokens', 1))
      .option('--policy <dir>', `agent policy: the compact policy's model folder (from \`lab train sft\` or \`lab train policy\`; default: the shipped policy, ${SHIPPED_POLICY_NAME})`),
  );
}

/**
 * The agent's context from the flags, checked before anything starts: an unknown agent is refused,
 * and the endpoint agent reads its endpoint from the flags or the environment.
 */
export async function agentContextFromFlags(opts: AgentFlags): Promise<{ endpoint?: NonNullable<AgentContext['endpoint']>; policy?: NonNullable<AgentContext['policy']> }> {
  if (!(AGENT_NAMES as readonly string[]).includes(opts.agent)) throw new Error(`unknown agent "${opts.agent}" (known: ${AGENT_NAMES.join(', ')})`);
  const { endpointFromEnv } = await import('../llm/client.ts');
  const endpoint = opts.agent === 'endpoint'
    ? {
      ...endpointFromEnv({ ...(opts.endpoint ? { baseUrl: opts.endpoint } : {}), ...(opts.model ? { model: opts.model } : {}) }),
      vision: !!opts.vision,
      ...(opts.endpointTimeout ? { timeoutMs: opts.endpointTimeout * 1000 } : {}),
      ...(opts.endpointWait !== undefined ? { maxWaitMs: opts.endpointWait * 1000 } : {}),
      ...(opts.maxTokens ? { maxTokens: opts.maxTokens } : {}),
      ...(opts.imageDetail ? { imageDetail: opts.imageDetail } : {}),
      ...(opts.imageMaxSide ? { imageMaxSide: opts.imageMaxSide } : {}),
    }
    : undefined;
  const policyDir = opts.policy ?? (opts.agent === 'policy' ? SHIPPED_POLICY : undefined);
  return { ...(endpoint ? { endpoint } : {}), ...(policyDir ? { policy: { dir: resolve(policyDir) } } : {}) };
}

/** The context with the command's cancel signal and its retry notes on stderr, for makeAgent. */
export function withSignal(context: Awaited<ReturnType<typeof agentContextFromFlags>>, signal: AbortSignal): AgentContext {
  return {
    ...context,
    ...(context.endpoint ? { endpoint: { ...context.endpoint, signal, onRetry: (r: { error: string; attempt: number; delayMs: number }) => process.stderr.write(`  endpoint: ${forTerminal(r.error)}; retry ${r.attempt} in ${(r.delayMs / 1000).toFixed(1)} s\n`) } } : {}),
  };
}
