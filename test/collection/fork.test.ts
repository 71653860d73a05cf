/**
 * Fork from any step, in real Chromium on the built-in shop site: the parent is the oracle's
 * episode of shop seed 1, tier 1 (open the product, pick it, select the size, add to cart; the
 * goal is reached at step 4). A fork replays the parent's steps before its step, checked page by
 * page, then an agent or a person continues; the fork is a new episode linked to parent and step.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EventEmitter } from 'node:events';
import { runEpisode } from '../../main/collection/episode.ts';
import { forkEpisode, planFork } from '../../main/collection/fork.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { LabService } from '../../main/server/service.ts';
import type { LabEvents } from '../../preload/api.ts';
import { useTaskEnvironment, type TaskEnvironmentFixture } from '../helpers/environment.ts';
import { startChatServer } from '../helpers/chat-server.ts';
import { drawVariant as drawShopVariant } from '../../main/tasks/families/shop/variant.ts';

let fx: TaskEnvironmentFixture;
useTaskEnvironment('lab-fork-', (f) => (fx = f));

const deps = () => ({ env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind });
const TASK = { family: 'shop', seed: 1, tier: 1 as const };
let parentId = '';
let tamperedId = '';

/** The first event of this kind for this fork or demonstration. */
function nextEvent<E extends 'forkDone' | 'demoDone'>(events: EventEmitter, name: E, match: (e: LabEvents[E]) => boolean): Promise<LabEvents[E]> {
  return new Promise((resolve) => {
    const on = (e: LabEvents[E]) => {
      if (!match(e)) return;
      events.off(name, on);
      resolve(e);
    };
    events.on(name, on);
  });
}

/** A service on the fixture's browser (which the service must not close). */
function service(): LabService {
  const host = fx.host;
  return new LabService({
    store: fx.store, families: builtinFamilies(), mode: 'web',
    startBrowser: async () => ({ kind: host.kind, sandbox: host.sandbox, newPage: (v) => host.newPage(v), close: async () => {} }),
  });
}

test('a fork of an oracle episode at step 3 with the oracle replays the first two steps and succeeds; its header links parent and step', async () => {
  const parent = await runEpisode(deps(), { ...TASK, agent: (i) => i.family.oracle(i.ctx) });
  assert.deepEqual([parent.success, parent.steps], [true, 4]);
  parentId = parent.id;
  const recorded = fx.store.readEpisode(parent.id);

  const out = await forkEpisode(deps(), planFork(fx.store, parent.id, 2), (i) => i.family.oracle(i.ctx));
  assert.deepEqual([out.success, out.reason, out.steps], [true, 'goal_reached', 4]);
  const fork = fx.store.readEpisode(out.id);
  // The first two actions are the parent's, carried onto the fork's pages (same elements, same ids here).
  assert.deepEqual(fork.steps.slice(0, 2).map((s) => [s.action, s.thought]), recorded.steps.slice(0, 2).map((s) => [s.action, s.thought]));
  assert.deepEqual(fork.steps.map((s) => s.observation.url.replace(/\/i\/\w+/, '')), recorded.steps.map((s) => s.observation.url.replace(/\/i\/\w+/, '')));
  assert.deepEqual(fork.header.links, { forkOf: { episodeId: parent.id, step: 2 } });
  assert.equal(fork.header.agent.name, recorded.header.agent.name, 'the agent that continued');
  assert.deepEqual([fork.header.agent.config?.role, fork.header.agent.config?.of, fork.header.agent.config?.step], ['fork', parent.id, 2]);
  assert.deepEqual([fork.header.task.family, fork.header.task.seed, fork.header.task.tier], ['shop', 1, 1]);
  assert.equal(fork.header.env.endOnGoal, recorded.header.env.endOnGoal);
  // Listed like any episode.
  assert.equal(fx.store.listEpisodes().episodes.find((e) => e.id === out.id)?.status, 'success');
});

test('a fork whose replayed page differs from the parent\'s stops, naming the step and the difference, and leaves no episode', async () => {
  assert.ok(parentId, 'needs the parent of the first test');
  const orig = fx.store.readEpisode(parentId);
  // A copy of the parent whose recorded page at step 2 lists one element under another name.
  const w = fx.store.createEpisode({ task: orig.header.task, agent: orig.header.agent, env: orig.header.env, links: {} });
  orig.steps.forEach((s, i) => {
    const elements = i === 1 ? s.observation.elements.map((e, j) => (j === 4 ? { ...e, name: 'Renamed' } : e)) : s.observation.elements;
    w.step({ observation: { ...s.observation, elements }, action: s.action, error: s.error, timing: s.timing });
  });
  w.end({ ...orig.end!, keyPoints: orig.end!.keyPoints, messages: orig.end!.messages });
  tamperedId = w.id;
  const before = fx.store.episodeIds().length;
  await assert.rejects(
    forkEpisode(deps(), planFork(fx.store, w.id, 3), (i) => i.family.oracle(i.ctx)),
    new RegExp(`^PrefixNotReproduced: cannot fork ${w.id} at step 4: the page at step 2: element 5 of \\d+ is .* where the parent recorded \\S+ "Renamed"`),
  );
  assert.equal(fx.store.episodeIds().length, before, 'the half-made fork is not kept');
  // At step 1 nothing is replayed, but the first page is still checked against the parent's: it matches.
  assert.doesNotThrow(() => planFork(fx.store, w.id, 0));
});

test('the service forks with the oracle in the background (progress, done, the link), and refuses an unknown episode, a step out of range and an endpoint not configured', async () => {
  assert.ok(parentId, 'needs the parent of the first test');
  const lab = service();
  try {
    const steps: Array<LabEvents['forkStep']> = [];
    lab.events.on('forkStep', (e) => steps.push(e));
    const { forkId } = await lab.startFork({ episodeId: parentId, step: 1, agent: 'oracle' });
    const done = await nextEvent(lab.events, 'forkDone', (e) => e.forkId === forkId);
    assert.equal(done.error, undefined);
    assert.deepEqual([done.outcome?.success, done.outcome?.steps], [true, 4]);
    assert.deepEqual(steps.filter((s) => s.forkId === forkId).map((s) => [s.index, s.replayed]), [[0, true], [1, false], [2, false], [3, false]]);
    const fork = fx.store.readEpisode(done.outcome!.id);
    assert.deepEqual(fork.header.links.forkOf, { episodeId: parentId, step: 1 });
    assert.ok(fork.steps.every((s) => s.observation.screenshot), 'the app\'s forks record screenshots, for the viewer');

    // Cancelled at once: the fork stops before its next step and is kept as cancelled, as a demonstration left is.
    const cancelled = await lab.startFork({ episodeId: parentId, step: 2, agent: 'oracle' });
    await lab.cancelFork(cancelled.forkId);
    const stopped = await nextEvent(lab.events, 'forkDone', (e) => e.forkId === cancelled.forkId);
    assert.equal(stopped.outcome?.reason, 'cancelled');

    await assert.rejects(lab.startFork({ episodeId: 'no-such-episode', step: 0, agent: 'oracle' }), /no episode no-such-episode/);
    await assert.rejects(lab.startFork({ episodeId: parentId, step: 4, agent: 'oracle' }), new RegExp(`episode ${parentId} has 4 steps: a fork takes over at step 1 to 4, not at step 5`));
    await assert.rejects(lab.startForkDemo(parentId, 9), /has 4 steps: a fork takes over at step 1 to 4, not at step 10/);
    const saved = { url: process.env.LAB_ENDPOINT_URL, model: process.env.LAB_ENDPOINT_MODEL };
    delete process.env.LAB_ENDPOINT_URL;
    try {
      await assert.rejects(lab.startFork({ episodeId: parentId, step: 1, agent: 'endpoint' }), /no endpoint is configured: start the workbench with LAB_ENDPOINT_URL and LAB_ENDPOINT_MODEL/);
      assert.equal((await lab.info()).endpoint, null);
    } finally {
      if (saved.url !== undefined) process.env.LAB_ENDPOINT_URL = saved.url;
    }
  } finally {
    await lab.close();
  }
});

test('a person\'s fork replays the prefix, then the page is theirs: one click adds the product to the cart', async () => {
  assert.ok(parentId, 'needs the parent of the first test');
  const parent = fx.store.readEpisode(parentId);
  const lab = service();
  try {
    const start = await lab.startForkDemo(parentId, 3);
    assert.deepEqual(start.forkOf, { episodeId: parentId, step: 3 });
    assert.deepEqual(start.steps.map((s) => s.action), parent.steps.slice(0, 3).map((s) => s.action), 'the three replayed steps, before the person\'s first input');
    const button = start.elements.find((e) => e.role === 'button' && e.name === drawShopVariant(1).words.addToCart && e.inViewport);
    assert.ok(button, `the product page at step 4 has its Add to cart button: ${start.elements.map((e) => `${e.role}:${e.name}`).join(' | ')}`);
    const done = nextEvent(lab.events, 'demoDone', (e) => e.demoId === start.demoId);
    const r = await lab.demoInput(start.demoId, { kind: 'click', x: button.box.x + button.box.width / 2, y: button.box.y + button.box.height / 2 });
    assert.equal(r.action, `click('${button.id}')`);
    const { outcome } = await done;
    assert.deepEqual([outcome?.success, outcome?.reason, outcome?.steps], [true, 'goal_reached', 4]);
    const fork = fx.store.readEpisode(outcome!.id);
    assert.equal(fork.header.agent.name, 'human');
    assert.deepEqual(fork.header.links.forkOf, { episodeId: parentId, step: 3 });
    assert.deepEqual(fork.steps.map((s) => s.action), [...parent.steps.slice(0, 3).map((s) => s.action), `click('${button.id}')`]);

    // A replay that does not reach the step: the demonstration never starts, and says why.
    const before = fx.store.episodeIds().length;
    await assert.rejects(lab.startForkDemo(tamperedId, 3), new RegExp(`cannot fork ${tamperedId} at step 4: the page at step 2: element 5 `));
    assert.equal(fx.store.episodeIds().length, before);
  } finally {
    await lab.close();
  }
});

test('an endpoint agent continuing a fork is told the replayed steps as its own and asked from the fork\'s step on', async () => {
  assert.ok(parentId, 'needs the parent of the first test');
  const parent = fx.store.readEpisode(parentId);
  const last = parent.steps[3].action; // the oracle's "Add to cart"
  const chat = await startChatServer(() => `Add it to the cart.\n${last}`);
  const saved = { url: process.env.LAB_ENDPOINT_URL, model: process.env.LAB_ENDPOINT_MODEL };
  process.env.LAB_ENDPOINT_URL = chat.baseUrl;
  process.env.LAB_ENDPOINT_MODEL = 'fixture';
  const lab = service();
  try {
    assert.deepEqual((await lab.info()).endpoint, { model: 'fixture' });
    const { forkId } = await lab.startFork({ episodeId: parentId, step: 3, agent: 'endpoint' });
    const done = await nextEvent(lab.events, 'forkDone', (e) => e.forkId === forkId);
    assert.deepEqual([done.error, done.outcome?.success, done.outcome?.steps], [undefined, true, 4]);
    assert.equal(chat.requests.length, 1, 'one request: the replayed steps cost none');
    const asked = JSON.stringify(chat.requests[0].messages);
    for (const s of parent.steps.slice(0, 3)) assert.ok(asked.includes(JSON.stringify(s.action).slice(1, -1)), `the conversation holds the replayed ${s.action}`);
    const fork = fx.store.readEpisode(done.outcome!.id);
    assert.deepEqual([fork.header.agent.name, fork.header.agent.config?.kind, fork.header.agent.config?.role], ['endpoint', 'endpoint', 'fork']);
    assert.equal(fork.steps[3].llm?.promptTokens, 100);
  } finally {
    await lab.close();
    await chat.close();
    for (const [k, v] of [['LAB_ENDPOINT_URL', saved.url], ['LAB_ENDPOINT_MODEL', saved.model]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
});

test('the shipped policy continues a fork from the service: the replayed steps are not decoded, its own are, and the header names its folder', async () => {
  assert.ok(parentId, 'needs the parent of the first test');
  const parent = fx.store.readEpisode(parentId);
  const lab = service();
  try {
    const { forkId } = await lab.startFork({ episodeId: parentId, step: 2, agent: 'policy' });
    const done = await nextEvent(lab.events, 'forkDone', (e) => e.forkId === forkId);
    assert.equal(done.error, undefined);
    const fork = fx.store.readEpisode(done.outcome!.id);
    assert.deepEqual(fork.steps.slice(0, 2).map((s) => s.action), parent.steps.slice(0, 2).map((s) => s.action));
    assert.ok(fork.steps.length > 2, 'the policy took at least one step of its own');
    assert.deepEqual(fork.steps.map((s) => s.io !== undefined), fork.steps.map((_, i) => i >= 2), 'a prompt and output on the policy\'s own steps only');
    assert.deepEqual([fork.header.agent.name, fork.header.agent.config?.kind, fork.header.agent.config?.role, fork.header.agent.config?.step], ['policy', 'compact-policy', 'fork', 2]);
    assert.match(String(fork.header.agent.config?.dir), /web-policy$/);
  } finally {
    await lab.close();
  }
});
