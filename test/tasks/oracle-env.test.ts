/**
 * Each family's oracle, end to end in the real browser environment (headless Chromium over CDP),
 * on held-out test seeds of every tier. Skipped where no Chromium is installed.
 */
import { after, before, test } from 'node:test';
import { ChromiumHost, findChromium } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import type { TaskServer } from '../../main/tasks/server.ts';
import { oracleRuns } from './helpers/env-run.ts';
import { startServer } from './helpers/server.ts';

let chromium: string | null = null;
try {
  chromium = findChromium();
} catch {
  chromium = null;
}

let server: TaskServer;
let host: ChromiumHost;
let env: BrowserEnv;

before(async () => {
  if (!chromium) return;
  server = await startServer();
  host = await ChromiumHost.start();
  env = new BrowserEnv(host, {});
});
after(async () => {
  if (!chromium) return;
  await env.close();
  await host.close();
  await server.stop();
});

for (const family of ['shop', 'flights', 'webmail', 'hotels', 'restaurants', 'jobs', 'calendar', 'wiki', 'realestate', 'compare', 'tickets', 'factbook']) {
  test(`${family}: the oracle succeeds in real Chromium on a test seed of every tier`, { skip: chromium ? false : 'no Chromium installed' }, async (t) => {
    // One test seed per tier, a different one each (the per-family tests run many more seeds
    // through test/tasks/helpers/minibrowser.ts, where no Chromium is needed).
    const steps = await oracleRuns(env, server, family, [[1, 10100], [2, 10101], [3, 10102]]);
    t.diagnostic(`oracle steps (mean) tier 1: ${steps[1]!.toFixed(1)}, tier 2: ${steps[2]!.toFixed(1)}, tier 3: ${steps[3]!.toFixed(1)}`);
  });
}

// A random agent on every family in Chromium: test/collection/episodes.test.ts.
