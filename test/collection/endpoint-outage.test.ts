/**
 * The endpoint going down in the middle of a collection run through `lab serve`: a short outage
 * is waited out (the client retries with backoff, the episode carries on); a long one stops the
 * run without recording a failed attempt or leaving half an episode, and resuming after the server
 * is back finishes the run. Either way no episode is lost or duplicated.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChromiumHost } from '../../main/environment/chromium.ts';
import type { BrowserEnv } from '../../main/environment/environment.ts';
import type { TaskServer } from '../../main/tasks/server.ts';
import type { LabStore } from '../../main/store/lab.ts';
import { AgentUnavailableError } from '../../main/tasks/agent.ts';
import { RunFolder, runCollection, type CollectConfig } from '../../main/collection/collect-run.ts';
import type { AttemptEvent } from '../../main/collection/retries.ts';
import type { RetryInfo } from '../../main/llm/client.ts';
import { useTaskEnvironment } from '../helpers/environment.ts';
import { MODEL_NAME, useServedModel, type ServedModel } from '../llm/helpers.ts';

let host: ChromiumHost;
let server: TaskServer;
let env: BrowserEnv;
let store: LabStore;
let served: ServedModel;
useTaskEnvironment('lab-outage-', (f) => ({ host, server, env, store } = f));
useServedModel((s) => (served = s));

const deps = () => ({ envs: [env], server, store, browserKind: host.kind });
const FAST = { baseDelayMs: 100, maxDelayMs: 400 };

function config(maxWaitMs: number): Omit<CollectConfig, 'runId' | 'createdAt'> {
  return {
    tasks: 'shop,webmail:test',
    agent: 'endpoint',
    agentSeed: 3,
    retries: 1,
    reflect: 'rules',
    shorten: false,
    parallel: 1,
    seeds: 1,
    endpoint: { baseUrl: served.baseUrl, model: MODEL_NAME, temperature: 0, maxTokens: 16, vision: false, stream: true, maxMalformed: 3, maxWaitMs },
  };
}

/** Close the server once it has answered `after` more requests; resolves when it is down. */
function downAfter(after: number): Promise<void> {
  const target = served.server.served + after;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (served.server.served < target) return;
      clearInterval(timer);
      void served.server.close().then(resolve);
    }, 5);
  });
}

/** The run's attempts: each names a complete episode in the lab, no attempt twice, no stray episodes. */
function checkNothingLostOrDuplicated(run: RunFolder): AttemptEvent[] {
  const attempts = run.events.filter((e): e is AttemptEvent => e.type === 'attempt');
  assert.equal(new Set(attempts.map((a) => `${a.task}/${a.attempt}/${a.arms.join('+')}`)).size, attempts.length);
  assert.equal(new Set(attempts.map((a) => a.episodeId)).size, attempts.length);
  for (const a of attempts) assert.ok(store.readEpisode(a.episodeId).end, `${a.episodeId} is complete`);
  const incomplete = store.listEpisodes().episodes.filter((e) => e.status === 'incomplete');
  assert.deepEqual(incomplete, [], 'no half episode left in the lab');
  return attempts;
}

test('a short outage mid-run is waited out: the step is retried, the run completes, nothing lost or duplicated', async () => {
  const run = RunFolder.create(store.dir, config(30_000));
  const retries: RetryInfo[] = [];
  let retried!: () => void;
  const firstRetry = new Promise<void>((resolve) => (retried = resolve));
  // The server comes back once the client has found it down and scheduled a retry: an outage the
  // client saw, however slow the machine, rather than one of a guessed length.
  const outage = downAfter(3).then(async () => {
    await firstRetry;
    await served.server.listen(served.port);
  });
  const summary = await runCollection(deps(), run, { endpoint: { ...FAST, onRetry: (r) => { retries.push(r); retried(); } } });
  await outage;
  assert.equal(summary.tasksDone, 2);
  assert.ok(retries.length >= 1, 'the client retried while the server was down');
  assert.match(retries[0].error, /cannot reach|broke|answered 5/);
  const attempts = checkNothingLostOrDuplicated(run);
  const episodes = attempts.map((a) => store.readEpisode(a.episodeId));
  // The outage happened inside an episode: one of its steps took more than one try.
  assert.ok(episodes.some((e) => e.steps.some((s) => (s.llm?.attempts ?? 1) > 1)));
  for (const e of episodes) assert.doesNotMatch(e.end!.agentError ?? '', /unavailable|refused/);
  assert.equal(summary.llm!.calls, episodes.reduce((n, e) => n + e.steps.length, 0));
});

test('a long outage stops the run without a failed attempt or half an episode; resuming after the server is back finishes it', async () => {
  const run = RunFolder.create(store.dir, config(1000));
  const down = downAfter(4);
  await assert.rejects(runCollection(deps(), run, { endpoint: FAST }), (err: unknown) => err instanceof AgentUnavailableError && /unavailable/.test(err.message));
  await down;
  const partial = checkNothingLostOrDuplicated(run);
  assert.ok(!run.events.some((e) => e.type === 'task_done' && e.task === 'webmail:10000'), 'the run stopped before its end');

  await served.server.listen(served.port);
  const resumed = RunFolder.open(store.dir, run.config.runId);
  const summary = await runCollection(deps(), resumed, { endpoint: FAST });
  assert.equal(summary.tasksDone, 2);
  const all = checkNothingLostOrDuplicated(resumed);
  // What was logged before the outage is kept as it was, not redone.
  assert.deepEqual(all.slice(0, partial.length), partial);
  assert.equal(all.length, 6 - all.filter((a) => a.attempt === 0 && a.success).length * 2);
});
