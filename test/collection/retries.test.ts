import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { TaskServer } from '../../main/tasks/server.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { LabStore } from '../../main/store/lab.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import { RunFolder, runCollection, type CollectSummary } from '../../main/collection/collect-run.ts';
import { ReflectionStore, RuleReflector, nearMiss } from '../../main/collection/reflect.ts';
import { parseReflectionHints, noisyExpertConfig } from '../../main/agents/noisy-expert.ts';
import type { Agent } from '../../main/tasks/agent.ts';
import { useTaskEnvironment } from '../helpers/environment.ts';

let host: ChromiumHost;
let server: TaskServer;
let env: BrowserEnv;
let store: LabStore;

useTaskEnvironment('lab-retries-', (f) => ({ host, server, env, store } = f));

let run: RunFolder;
let summary: CollectSummary;

test('on 9 built-in task instances, reflection retries beat blind retries at the same attempt budget, and shortening cuts steps', async (t) => {
  run = RunFolder.create(store.dir, { tasks: 'shop,flights,webmail:test', agent: 'noisy', agentSeed: 1, retries: 2, reflect: 'rules', shorten: true, parallel: 1, seeds: 3 });
  summary = await runCollection({ envs: [env], server, store, browserKind: host.kind }, run);
  const [reflect, blind] = summary.arms;
  t.diagnostic(JSON.stringify(summary));
  assert.equal(summary.tasks, 9);
  assert.equal(summary.tasksDone, 9);
  assert.equal(reflect.arm, 'reflect');
  assert.equal(blind.arm, 'blind');
  // Same first attempts, same budget: the arms differ only in what happens after a failure.
  assert.equal(reflect.firstAttemptSuccesses, blind.firstAttemptSuccesses);
  assert.ok(reflect.firstAttemptSuccesses < 9, 'the noisy expert fails some first attempts');
  for (const a of summary.arms) assert.ok(a.attempts <= 9 * summary.attemptBudget);
  assert.ok(reflect.successes > blind.successes, `yield: reflection ${reflect.successes}/9, blind ${blind.successes}/9`);
  assert.ok(reflect.attemptsPerSuccess! < blind.attemptsPerSuccess!);

  const sh = summary.shortening!;
  assert.ok(sh.shortened > 0, 'some successful trajectories were shortened');
  assert.ok(sh.stepsAfter! < sh.stepsBefore!, `steps per successful trajectory ${sh.stepsBefore} -> ${sh.stepsAfter}`);
  assert.ok(reflect.stepsPerSuccessShortened! < reflect.stepsPerSuccess!);
});

test('retries are linked to the attempt they retry and to the reflection they were given; shortened episodes passed the checker', () => {
  const reflections = new ReflectionStore(store.dir);
  const attempts = run.events.filter((e) => e.type === 'attempt');
  const retried = attempts.filter((e) => e.attempt > 0);
  assert.ok(retried.length > 0);
  for (const e of retried) {
    const h = store.readEpisode(e.episodeId).header;
    assert.ok(h.links.retryOf, 'a retry names the attempt it retries');
    const prev = store.readEpisode(h.links.retryOf!);
    assert.equal(prev.end?.success, false);
    if (e.arms.includes('reflect')) {
      assert.equal(h.links.reflection, `refl-${h.links.retryOf}`);
      const r = reflections.load(h.links.reflection!);
      assert.equal(r.episodeId, h.links.retryOf);
      assert.deepEqual(h.agent.config?.reflectionIds, e.reflections);
      // The agent ran with lower rates for the kinds its reflections named.
      const eff = h.agent.config?.effectiveRates as Record<string, number>;
      for (const k of r.hints.mistakes) assert.ok(eff[k] < (h.agent.config?.rates as Record<string, number>)[k]);
    } else {
      assert.equal(h.links.reflection, undefined);
      assert.deepEqual(h.agent.config?.effectiveRates, h.agent.config?.rates);
    }
  }
  for (const e of run.events) {
    if (e.type !== 'shortened' || !e.episodeId) continue;
    const short = store.readEpisode(e.episodeId);
    assert.equal(short.header.links.shortenedFrom, e.from);
    assert.equal(short.end?.success, true);
    assert.ok(short.steps.length < store.readEpisode(e.from).steps.length);
  }
});

test('every episode of a run records the run, its attempt and arm; a shortened one keeps the attempt it shortens', () => {
  let attempts = 0;
  for (const e of run.events) {
    if (e.type === 'attempt') {
      attempts++;
      const arm = e.arms.length > 1 ? 'shared' : e.arms[0];
      assert.deepEqual(store.readEpisode(e.episodeId).header.provenance, { run: run.config.runId, attempt: e.attempt, arm });
    }
    if (e.type === 'shortened' && e.episodeId) {
      assert.deepEqual(store.readEpisode(e.episodeId).header.provenance, store.readEpisode(e.from).header.provenance);
    }
  }
  assert.ok(attempts > 9);
  const listed = store.listEpisodes().episodes.filter((e) => e.provenance.run === run.config.runId);
  assert.ok(listed.length >= attempts, 'the episode list carries the run of each episode');
});

test('the reflector names the unmet key points of every failed attempt it reflected on', () => {
  const reflections = new ReflectionStore(store.dir);
  let seen = 0;
  for (const e of run.events) {
    if (e.type !== 'attempt' || e.success || !reflections.has(`refl-${e.episodeId}`)) continue;
    const r = reflections.load(`refl-${e.episodeId}`);
    const unmet = store.readEpisode(e.episodeId).end!.keyPoints.filter((k) => !k.met).map((k) => k.name);
    assert.deepEqual(r.hints.unmetKeyPoints, unmet);
    for (const k of unmet) assert.ok(r.text.includes(k), `reflection text names "${k}"`);
    assert.deepEqual(parseReflectionHints(r.text), r.hints.mistakes);
    seen++;
  }
  assert.ok(seen > 0);
});

test('the reflector names actions that errored, a premature answer and a typo', async () => {
  const family = builtinFamilies().get('shop')!;
  // A planted failure: an action on an element that does not exist, a misspelt search, an early answer.
  const steps = ["click('99999')", 'TYPO', "send_msg_to_user('Added it.')"];
  let i = 0;
  const agent: Agent = {
    name: 'planted',
    reset() {
      i = 0;
    },
    async act(obs) {
      const s = steps[i++];
      if (s !== 'TYPO') return { action: s };
      // The store's one search box, whatever this instance calls it.
      const box = obs.elements.find((e) => e.role === 'searchbox');
      assert.ok(box, 'the search box');
      const name = obs.instruction.match(/"([^"]+)"/)![1];
      return { action: `fill('${box.id}', '${name[0]}${name[2]}${name[1]}${name.slice(3)}')` };
    },
  };
  const out = await runEpisode({ env, server, store, browserKind: host.kind }, { family: 'shop', seed: family.seeds.test.from, agent });
  assert.equal(out.success, false);
  const r = await new RuleReflector().reflect(store.readEpisode(out.id));
  assert.equal(r.hints.errors[0].code, 'unknown_element');
  assert.match(r.text, /click\('99999'\) failed \(unknown_element/);
  assert.equal(r.hints.prematureAnswer, true);
  assert.deepEqual(r.hints.mistakes, ['premature_answer', 'typo']);
  const unmet = out.keyPoints.filter((k) => !k.met).map((k) => k.name);
  assert.ok(unmet.length > 0);
  assert.deepEqual(r.hints.unmetKeyPoints, unmet);
  for (const k of unmet) assert.ok(r.text.includes(k));
});

test('near-miss text and reflection hints are read as an agent would read them', () => {
  assert.equal(nearMiss('Perdo', 'Book it for one passenger, Pedro Sato.'), 'Pedro');
  assert.equal(nearMiss('Pedro', 'Book it for one passenger, Pedro Sato.'), null);
  assert.equal(nearMiss('Boston', 'Fly from Denver to Seattle.'), null);
  assert.deepEqual(parseReflectionHints('Step 3: ...\nAvoid: typo, premature_answer, nonsense\nUnmet: x').sort(), ['premature_answer', 'typo']);
  const cfg = noisyExpertConfig({ seed: 1, reflections: ['Avoid: typo', 'Avoid: typo, detour'] });
  assert.ok(Math.abs(cfg.effectiveRates.typo - cfg.rates.typo * cfg.reflectionFactor ** 2) < 1e-12);
  assert.ok(Math.abs(cfg.effectiveRates.detour - cfg.rates.detour * cfg.reflectionFactor) < 1e-12);
  assert.equal(cfg.effectiveRates.wrong_option, cfg.rates.wrong_option);
});
