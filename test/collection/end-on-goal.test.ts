/**
 * Page-state goals end when the checker passes (reason goal_reached, as BrowserGym's validate);
 * answer goals end with the agent's message; endOnGoal: false runs as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import type { TaskInstance, TaskServer } from '../../main/tasks/server.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import type { GoalKind, TaskFamily } from '../../main/tasks/types.ts';
import { LabStore } from '../../main/store/lab.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import { counterFamily } from '../helpers/counter-family.ts';
import { useTaskEnvironment } from '../helpers/environment.ts';

let host: ChromiumHost;
let server: TaskServer;
let env: BrowserEnv;
let store: LabStore;

/** The counter fixture with a checker that pressing alone satisfies, once as a state goal and once as an answer goal. */
function pressedCounter(goalKind: GoalKind): TaskFamily {
  return {
    ...counterFamily,
    name: `counter-${goalKind}`,
    generate: (seed, tier) => ({ ...counterFamily.generate(seed, tier), goalKind }),
    check: (ctx) => {
      const s = ctx.state as { target: number; count: number };
      return { success: s.count === s.target, keyPoints: [{ name: `pressed ${s.target} times`, met: s.count === s.target }] };
    },
  };
}

useTaskEnvironment('lab-end-on-goal-', (f) => ({ host, server, env, store } = f), () => {
  const families = builtinFamilies();
  for (const f of [pressedCounter('state'), pressedCounter('answer')]) families.set(f.name, f);
  return families;
});

const deps = (endOnGoal?: boolean) => ({ env, server, store, browserKind: host.kind, ...(endOnGoal === undefined ? {} : { endOnGoal }) });
const oracle = { agent: (i: TaskInstance) => i.family.oracle(i.ctx) };

test('a page-state goal driven by the oracle ends with goal_reached at the step that reached the state; off, it runs to the closing message as before', async () => {
  // shop tier 1: add a featured product to the cart; the oracle used to say so in a closing message.
  const on = await runEpisode(deps(), { family: 'shop', seed: 10001, tier: 1, ...oracle });
  const off = await runEpisode(deps(false), { family: 'shop', seed: 10001, tier: 1, ...oracle });
  assert.equal(on.success, true);
  assert.equal(on.reason, 'goal_reached');
  assert.equal(off.success, true);
  assert.equal(off.reason, 'checker');
  assert.equal(on.steps, off.steps - 1, 'one step fewer: the closing message is never sent');
  assert.deepEqual(on.messages, []);

  const a = store.readEpisode(on.id);
  const b = store.readEpisode(off.id);
  assert.deepEqual(a.steps.map((s) => s.action), b.steps.slice(0, -1).map((s) => s.action), 'the same actions up to the one that reached the state');
  assert.match(b.steps.at(-1)!.action, /^send_msg_to_user\(/);
  assert.equal(a.end!.reason, 'goal_reached');
  assert.equal(a.end!.steps, on.steps);
  // The header says whether the option was on and what kind of goal the task has.
  assert.equal(a.header.env.endOnGoal, true);
  assert.equal(b.header.env.endOnGoal, false);
  assert.equal(a.header.task.goalKind, 'state');
});

test('an answer goal still ends with the agent\'s message, with the option on', async () => {
  const jobs = builtinFamilies().get('jobs')!;
  let seed = 10000;
  while (jobs.generate(seed, 1).goalKind !== 'answer') seed++;
  const out = await runEpisode(deps(), { family: 'jobs', seed, tier: 1, ...oracle });
  assert.equal(out.success, true);
  assert.equal(out.reason, 'checker');
  const e = store.readEpisode(out.id);
  assert.equal(e.header.task.goalKind, 'answer');
  assert.match(e.steps.at(-1)!.action, /^send_msg_to_user\(/);
  assert.equal(out.messages.length, 1);
});

test('a checker that page state satisfies ends a state goal at once but never an answer goal', async () => {
  // Seed 2: press three times, then report. Both fixtures' checkers pass after the third press.
  const state = await runEpisode(deps(), { family: 'counter-state', seed: 2, ...oracle });
  assert.equal(state.reason, 'goal_reached');
  assert.equal(state.steps, 3);
  const answer = await runEpisode(deps(), { family: 'counter-answer', seed: 2, ...oracle });
  assert.equal(answer.reason, 'checker', 'the answer goal ran on to the agent\'s message');
  assert.equal(answer.steps, 4);
  assert.deepEqual(answer.messages, ['3']);
});

test('episodes recorded before the option stay readable: no goalKind, no endOnGoal', async () => {
  const out = await runEpisode(deps(), { family: 'counter-state', seed: 0, ...oracle });
  const path = out.path;
  const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  delete lines[0].task.goalKind;
  delete lines[0].env.endOnGoal;
  lines.at(-1).reason = 'checker';
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const e = store.readEpisode(out.id);
  assert.deepEqual(e.warnings, []);
  assert.equal(e.header.env.endOnGoal, undefined);
  assert.equal(e.header.task.goalKind, undefined);
  assert.equal(e.end!.reason, 'checker');
});
