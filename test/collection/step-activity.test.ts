/**
 * Each step records what the page logged and requested since the previous observation (bounded,
 * clipped, as data only), and old step records without it still read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import type { ChromiumHost } from '../../main/environment/chromium.ts';
import type { BrowserEnv } from '../../main/environment/environment.ts';
import type { TaskInstance, TaskServer } from '../../main/tasks/server.ts';
import type { TaskFamily } from '../../main/tasks/types.ts';
import type { LabStore } from '../../main/store/lab.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import { MAX_CONSOLE, MAX_TEXT_CHARS } from '../../main/environment/page-activity.ts';
import { chattyFamily } from '../helpers/chatty-family.ts';
import { useTaskEnvironment } from '../helpers/environment.ts';

let host: ChromiumHost;
let server: TaskServer;
let env: BrowserEnv;
let store: LabStore;

/** The chatty page, but its button logs far past the bounds, with long lines. */
const floodFamily: TaskFamily = {
  ...chattyFamily,
  name: 'flood',
  handle: (req, ctx) =>
    req.path === '/'
      ? { kind: 'html', body: `<!doctype html><title>Flood</title><button onclick="for (let i = 0; i < 300; i++) console.log('line', i, 'x'.repeat(2000))">Flood</button>` }
      : chattyFamily.handle(req, ctx),
};

useTaskEnvironment('lab-step-activity-', (f) => ({ host, server, env, store } = f), () => new Map<string, TaskFamily>([[chattyFamily.name, chattyFamily], [floodFamily.name, floodFamily]]));

const deps = () => ({ env, server, store, browserKind: host.kind });

test("a step records the page's console messages and requests of its window, with status, type and duration", async () => {
  const out = await runEpisode(deps(), { family: 'chatty', seed: 1, agent: (i: TaskInstance) => i.family.oracle(i.ctx) });
  assert.equal(out.success, true);
  const steps = store.readEpisode(out.id).steps;
  assert.equal(steps.length, 3, 'load, load, report');
  // Step 0's window holds the page load: the document request and the ready message.
  const first = steps[0].activity!;
  assert.ok(first.requests.some((r) => r.type === 'Document' && r.status === 200 && r.method === 'GET'), JSON.stringify(first.requests));
  assert.ok(first.console.some((c) => c.level === 'log' && c.text === 'chatty page ready 1'), JSON.stringify(first.console));
  // A click's window: its warning, its fetch and the error logged after the answer came.
  for (const [i, count] of [[0, 1], [1, 2]] as const) {
    const a = steps[i].activity!;
    const fetches = a.requests.filter((r) => r.url.endsWith('/api/count'));
    assert.equal(fetches.length, 1, `step ${i}: one fetch: ${JSON.stringify(a.requests)}`);
    assert.equal(fetches[0].type, 'Fetch');
    assert.equal(fetches[0].status, 200);
    assert.ok(fetches[0].durationMs !== null && fetches[0].durationMs >= 0);
    assert.ok(a.console.some((c) => c.level === 'warning' && c.text === 'loading the count <b>now</b>'));
    assert.ok(a.console.some((c) => c.level === 'error' && c.text === `count is ${count}`), JSON.stringify(a.console));
  }
  assert.deepEqual(steps[2].activity!.requests, [], 'the report touches no network');
});

test('a page that logs without end is cut at the bound, each line clipped, and the rest counted', async () => {
  const out = await runEpisode(deps(), { family: 'flood', seed: 2, maxSteps: 1, agent: { name: 'clicker', reset() {}, act: async (obs) => ({ action: `click('${obs.elements.find((e) => e.role === 'button')!.id}')` }) } });
  const a = store.readEpisode(out.id).steps[0].activity!;
  assert.equal(a.console.length, MAX_CONSOLE);
  assert.equal(a.droppedConsole, 300 - MAX_CONSOLE);
  assert.ok(a.console.every((c) => c.text.length <= MAX_TEXT_CHARS));
  assert.match(a.console[0].text, /^line 0 x+…$/);
});

test('a step recorded before activity and io were still reads', async () => {
  const out = await runEpisode(deps(), { family: 'chatty', seed: 3, agent: (i: TaskInstance) => i.family.oracle(i.ctx) });
  const path = out.path;
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
  for (const l of lines) if (l.type === 'step') delete l.activity;
  writeFileSync(path, '');
  for (const l of lines) appendFileSync(path, `${JSON.stringify(l)}\n`);
  const read = store.readEpisode(out.id);
  assert.equal(read.steps.length, 3);
  assert.equal(read.steps[0].activity, undefined);
  assert.equal(read.steps[0].io, undefined);
});
