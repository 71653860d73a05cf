/**
 * A person who leaves a demonstration leaves a `cancelled` episode: never a failure, and out of
 * datasets unless a filter asks for cancelled episodes by name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChromiumHost } from '../../main/environment/chromium.ts';
import type { BrowserEnv } from '../../main/environment/environment.ts';
import type { TaskServer } from '../../main/tasks/server.ts';
import type { LabStore } from '../../main/store/lab.ts';
import { DemoSession } from '../../main/collection/demonstration.ts';
import { previewDataset } from '../../main/datasets/index.ts';
import { useTaskEnvironment } from '../helpers/environment.ts';

let host: ChromiumHost;
let server: TaskServer;
let env: BrowserEnv;
let store: LabStore;

useTaskEnvironment('lab-demo-cancel-', (f) => ({ host, server, env, store } = f));

test('a cancelled demonstration is recorded as cancelled and kept out of datasets by default', async () => {
  const demo = new DemoSession({ env, server, store, browserKind: host.kind }, { family: 'webmail', seed: 3 }, { frame: () => {}, step: () => {}, done: () => {} });
  await demo.started;
  await demo.input({ kind: 'scroll', dy: 200 }); // one step, so the episode holds something to train on
  await demo.cancel();
  const outcome = await demo.wait();
  assert.equal(outcome?.reason, 'cancelled');
  assert.equal(outcome?.steps, 1);

  const [summary] = store.listEpisodes().episodes;
  assert.equal(summary.agent, 'human');
  assert.equal(summary.status, 'cancelled', 'a person leaving is not the task failing');

  assert.equal(previewDataset(store, { filter: {} }).episodes.length, 0, 'no filter: cancelled episodes are left out');
  assert.equal(previewDataset(store, { filter: { statuses: ['failure'] } }).episodes.length, 0);
  const asked = previewDataset(store, { filter: { statuses: ['cancelled'] } });
  assert.deepEqual(asked.episodes.map((e) => [e.id, e.outcome]), [[summary.id, 'cancelled']]);
});
