/** Run an agent on a task instance in the real browser environment (Chromium over CDP). */
import type { BrowserEnv } from '../../../main/environment/environment.ts';
import { parseAction } from '../../../main/environment/actions.ts';
import type { Agent, AgentTurn } from '../../../main/tasks/agent.ts';
import type { TaskInstance, TaskServer } from '../../../main/tasks/server.ts';
import type { Tier } from '../../../main/tasks/types.ts';

export interface EnvRun {
  instance: TaskInstance;
  steps: number;
  actions: string[];
  errors: string[];
  /** Interactive elements seen without an accessible name ("role on path"). */
  unnamed: string[];
}

const INTERACTIVE = new Set(['link', 'button', 'textbox', 'searchbox', 'combobox', 'listbox', 'checkbox', 'radio', 'spinbutton', 'slider', 'switch']);

export async function runInEnv(env: BrowserEnv, server: TaskServer, family: string, seed: number, makeAgent: (i: TaskInstance) => Agent, tier?: Tier): Promise<EnvRun> {
  const instance = server.createInstance(family, seed, tier ? { tier } : {});
  const { spec, ctx } = instance;
  const agent = makeAgent(instance);
  let obs = await env.reset({ instruction: spec.instruction, startUrl: spec.startUrl, allowedOrigins: spec.allowedOrigins });
  await agent.reset(spec);
  const history: AgentTurn[] = [];
  const actions: string[] = [];
  const errors: string[] = [];
  const unnamed = new Set<string>();
  let steps = 0;
  for (; steps < spec.maxSteps; ) {
    for (const e of obs.elements) if (INTERACTIVE.has(e.role) && e.visible && !e.name.trim()) unnamed.add(`${e.role} <${e.tag}> on ${new URL(obs.url).pathname.replace(/^\/i\/\w+/, '')}`);
    const turn = await agent.act(obs, history);
    history.push(turn);
    actions.push(turn.action);
    steps++;
    const r = await env.step(turn.action);
    if (r.error) errors.push(`${turn.action}: ${r.error.code} ${r.error.message}`);
    else {
      // The episode runner hands answers to the checker the same way.
      const a = parseAction(turn.action);
      if (a.type === 'send_msg_to_user') ctx.agentMessages.push(a.text);
    }
    obs = r.observation;
    if (r.done) break;
  }
  return { instance, steps, actions, errors, unnamed: [...unnamed] };
}
