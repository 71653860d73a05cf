/**
 * The app's side of forking (main/collection/fork.ts): a fork with an agent runs in the
 * background with progress events and cancel; the agent comes from the registry `lab episode` and
 * `lab fork` use (the task family's oracle, the shipped compact policy, the model behind the
 * endpoint the workbench was started with). A person's fork is a demonstration (the service's
 * startForkDemo), planned here too.
 */
import { randomBytes } from 'node:crypto';
import type { ForkAgent, ForkRequest } from '../../preload/views.ts';
import { BrowserEnv } from '../environment/environment.ts';
import type { TaskFamily } from '../tasks/types.ts';
import type { LabStore } from '../store/lab.ts';
import { forkEpisode, planFork, type ForkPlan } from '../collection/fork.ts';
import { SHIPPED_POLICY } from '../policy/shipped.ts';
import type { AgentContext } from '../agents/registry.ts';
import type { Emit, Runtime } from './lab-parts.ts';


export interface ForksDeps {
  store: LabStore;
  families: Map<string, TaskFamily>;
  /** The service's browser and task server (started on first use). */
  runtime: Runtime;
  emit: Emit;
}

/** The model behind the endpoint the workbench was started with, or null where none is set. */
export function configuredEndpoint(): { model: string } | null {
  const { LAB_ENDPOINT_URL: url, LAB_ENDPOINT_MODEL: model } = process.env;
  return url && model ? { model } : null;
}

export class ForksLab {
  private running = new Map<string, { controller: AbortController; done: Promise<void> }>();

  constructor(private readonly deps: ForksDeps) {}

  /** The parent read and the step checked, refused with the reason; the parent's family must be one this service serves. */
  plan(episodeId: string, step: number): ForkPlan {
    const plan = planFork(this.deps.store, episodeId, step);
    const family = plan.parent.header.task.family;
    if (!this.deps.families.has(family)) throw new Error(`episode ${episodeId} is a task of "${family}", which this workbench does not serve: fork it with \`lab fork\` (with --miniwob for MiniWoB++ tasks)`);
    return plan;
  }

  async start(request: ForkRequest): Promise<{ forkId: string }> {
    const plan = this.plan(request.episodeId, request.step);
    const forkId = randomBytes(6).toString('hex');
    const controller = new AbortController();
    const context = await agentContext(request.agent, controller.signal);
    // Loaded on the first fork, not with the service: the policy agent brings TF.js.
    const { makeAgent, agentConfigOf } = await import('../agents/registry.ts');
    const { host, server } = await this.deps.runtime();
    const env = new BrowserEnv(host, { screenshots: true, ...plan.envOptions });
    const seed = plan.parent.header.task.seed;
    const agentConfig = agentConfigOf(request.agent, seed, context);
    const done = forkEpisode(
      {
        env, server, store: this.deps.store, browserKind: host.kind, signal: controller.signal,
        onStep: (index, turn, error) => this.deps.emit('forkStep', { forkId, index, action: turn.action, error, replayed: index < plan.step }),
      },
      plan,
      (instance) => makeAgent(request.agent, instance, seed, context),
      agentConfig ? { agentConfig } : {},
    )
      .then(
        (outcome) => this.deps.emit('forkDone', { forkId, outcome }),
        (err: unknown) => this.deps.emit('forkDone', { forkId, outcome: null, error: (err as Error).message }),
      )
      .finally(() => {
        this.running.delete(forkId);
        return env.close();
      });
    this.running.set(forkId, { controller, done });
    return { forkId };
  }

  /** Stop a running fork after the step in flight; the fork is kept, cancelled, as an interrupted episode is. */
  cancel(forkId: string): void {
    this.running.get(forkId)?.controller.abort();
  }

  async close(): Promise<void> {
    const runs = [...this.running.values()];
    for (const r of runs) r.controller.abort();
    await Promise.all(runs.map((r) => r.done.catch(() => {})));
  }
}

/** The agent's context as `lab fork --agent A` would build it with no flags: the shipped policy, the endpoint from the environment. */
async function agentContext(agent: ForkAgent, signal: AbortSignal): Promise<AgentContext> {
  if (agent === 'policy') return { policy: { dir: SHIPPED_POLICY } };
  if (agent === 'endpoint') {
    if (!configuredEndpoint()) throw new Error('no endpoint is configured: start the workbench with LAB_ENDPOINT_URL and LAB_ENDPOINT_MODEL set to fork with the endpoint agent');
    const { endpointFromEnv } = await import('../llm/client.ts');
    return { endpoint: { ...endpointFromEnv(), signal } };
  }
  return {};
}
