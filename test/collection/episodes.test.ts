import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { TaskServer } from '../../main/tasks/server.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { LabStore } from '../../main/store/lab.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import { randomAgent } from '../../main/agents/random.ts';
import { useTaskEnvironment } from '../helpers/environment.ts';

let host: ChromiumHost;
let server: TaskServer;
let env: BrowserEnv;
let store: LabStore;

useTaskEnvironment('lab-episodes-', (f) => ({ host, server, env, store } = f));

const deps = () => ({ env, server, store, browserKind: host.kind });

// Every family's oracle on every tier is test/tasks/oracle-env.test.ts; here the episode runner
// records oracle episodes of a page-state family and an answer family, one seed per tier.
test('the oracle solves test seeds of a page-state and an answer family, in every tier, through the episode runner', async () => {
  for (const family of ['shop', 'webmail'].map((name) => builtinFamilies().get(name)!)) {
    for (const tier of [1, 2, 3] as const) {
      for (const seed of [family.seeds.test.from + 11 + tier]) {
        const out = await runEpisode(deps(), { family: family.name, seed, tier, agent: (i) => i.family.oracle(i.ctx) });
        const unmet = out.keyPoints.filter((k) => !k.met).map((k) => k.name);
        assert.equal(out.success, true, `${family.name} seed ${seed} tier ${tier}: unmet ${unmet.join(', ')}`);
      }
    }
  }
});

test('the verdict comes from server state: a random agent mostly fails, on every family', async () => {
  let successes = 0;
  let episodes = 0;
  // One episode per family: every family's pages take a random agent's actions in Chromium and
  // its checker answers from server state.
  for (const [k, family] of [...builtinFamilies().values()].entries()) {
    const out = await runEpisode(deps(), { family: family.name, seed: family.seeds.test.from + 40 + k, tier: 2, agent: randomAgent(k), maxSteps: 12 });
    episodes++;
    if (out.success) successes++;
    assert.ok(out.steps > 0);
    assert.notEqual(out.reason, 'agent_error');
    assert.ok(out.keyPoints.some((kp) => !kp.met) || out.success, 'a failure names an unmet key point');
  }
  assert.ok(successes <= episodes / 4, `random agent succeeded ${successes}/${episodes} times`);
});

test('an agent that fails ends the episode as agent_error, recorded apart from its answers', async () => {
  const broken = { name: 'broken', reset() {}, act: async () => { throw new Error('model endpoint unreachable'); } };
  const out = await runEpisode(deps(), { family: 'shop', seed: 10001, agent: broken });
  assert.equal(out.reason, 'agent_error');
  assert.deepEqual(out.messages, []);
  const end = store.readEpisode(out.id).end!;
  assert.equal(end.agentError, 'model endpoint unreachable');
  assert.equal(end.success, false);
});

test('a task instance is fresh for every episode: state from one does not leak into the next', async () => {
  const family = builtinFamilies().get('shop')!;
  const seed = family.seeds.test.from + 5;
  const first = await runEpisode(deps(), { family: 'shop', seed, agent: (i) => i.family.oracle(i.ctx) });
  assert.equal(first.success, true);
  // The same seed again with an agent that only answers: the order from the first run is not there.
  const idle = { name: 'idle', reset() {}, act: async () => ({ action: "send_msg_to_user('done')" }) };
  const second = await runEpisode(deps(), { family: 'shop', seed, agent: idle });
  assert.equal(second.success, false);
});
