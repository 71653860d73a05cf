/** Run an agent on a task instance in the real browser environment (Chromium over CDP). */
import assert from 'node:assert/strict';
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

/**
 * The oracle of `family` on each (tier, seed) run in `env`: each run must pass the checker with no
 * action error and no unnamed interactive element. Returns the mean oracle steps per tier run.
 */
export async function oracleRuns(env: BrowserEnv, server: TaskServer, family: string, runs: ReadonlyArray<readonly [Tier, number]>): Promise<Partial<Record<Tier, number>>> {
  const steps: Partial<Record<Tier, number[]>> = {};
  for (const [tier, seed] of runs) {
    const r = await runInEnv(env, server, family, seed, (i) => i.family.oracle(i.ctx), tier);
    const c = r.instance.family.check(r.instance.ctx);
    assert.ok(c.success, `${family} seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints.filter((k) => !k.met))}\n${r.actions.join('\n')}\n${r.errors.join('\n')}`);
    assert.deepEqual(r.errors, [], `${family} seed ${seed} tier ${tier}: no action errors`);
    assert.deepEqual(r.unnamed, [], `${family} seed ${seed} tier ${tier}: every interactive element has an accessible name`);
    (steps[tier] ??= []).push(r.steps);
    server.releaseInstance(r.instance.ctx.id);
  }
  return Object.fromEntries(Object.entries(steps).map(([t, xs]) => [t, xs.reduce((a, b) => a + b, 0) / xs.length]));
}

/** oracleRuns on each of `seeds` at every tier, in a Chromium of its own; the mean steps per tier. */
export async function oracleInChromium(server: TaskServer, family: string, seeds: readonly number[]): Promise<Record<Tier, number>> {
  const [{ ChromiumHost }, { BrowserEnv }] = await Promise.all([import('../../../main/environment/chromium.ts'), import('../../../main/environment/environment.ts')]);
  const host = await ChromiumHost.start();
  const env = new BrowserEnv(host, {});
  try {
    return (await oracleRuns(env, server, family, ([1, 2, 3] as const).flatMap((tier) => seeds.map((seed) => [tier, seed] as const)))) as Record<Tier, number>;
  } finally {
    await env.close();
    await host.close();
  }
}
