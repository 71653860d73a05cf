/** Shared test plumbing: a real TaskServer with the built-in families, and oracle/random runs in the mini browser. */
import { TaskServer, type TaskInstance } from '../../../main/tasks/server.ts';
import { builtinFamilies } from '../../../main/tasks/registry.ts';
import type { Agent, AgentTurn } from '../../../main/tasks/agent.ts';
import type { Tier } from '../../../main/tasks/types.ts';
import { MiniBrowser } from './minibrowser.ts';

export async function startServer(): Promise<TaskServer> {
  return new TaskServer(builtinFamilies()).start();
}

export interface Run {
  instance: TaskInstance;
  browser: MiniBrowser;
  steps: number;
  actions: string[];
  errors: string[];
}

/** Drive an agent on a fresh instance until it ends the episode or runs out of steps. */
export async function runAgent(server: TaskServer, family: string, seed: number, makeAgent: (inst: TaskInstance) => Agent, opts: { tier?: Tier; maxSteps?: number } = {}): Promise<Run> {
  const instance = server.createInstance(family, seed, opts.tier ? { tier: opts.tier } : {});
  const agent = makeAgent(instance);
  await agent.reset(instance.spec);
  const browser = new MiniBrowser(instance.ctx.agentMessages);
  await browser.goto(instance.spec.startUrl);
  const history: AgentTurn[] = [];
  const actions: string[] = [];
  const errors: string[] = [];
  const max = opts.maxSteps ?? instance.spec.maxSteps;
  let steps = 0;
  while (steps < max) {
    const obs = browser.observe(instance.spec.instruction);
    const turn = await agent.act(obs, history);
    history.push(turn);
    actions.push(turn.action);
    steps++;
    const r = await browser.step(turn.action);
    if (r.error) errors.push(`${turn.action}: ${r.error}`);
    if (r.done) break;
  }
  return { instance, browser, steps, actions, errors };
}
