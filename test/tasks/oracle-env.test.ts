/**
 * Each family's oracle, end to end in the real browser environment (headless Chromium over CDP),
 * on held-out test seeds of every tier. Skipped where no Chromium is installed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ChromiumHost, findChromium } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import type { TaskServer } from '../../main/tasks/server.ts';
import { runInEnv } from './helpers/env-run.ts';
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
    const steps: number[][] = [[], [], []];
    // One test seed per tier, a different one each (the per-family tests run many more seeds
    // through test/tasks/helpers/minibrowser.ts, where no Chromium is needed).
    for (const [tier, seed] of [[1, 10100], [2, 10101], [3, 10102]] as const) {
      const r = await runInEnv(env, server, family, seed, (i) => i.family.oracle(i.ctx), tier);
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints.filter((k) => !k.met))}\n${r.actions.join('\n')}\n${r.errors.join('\n')}`);
      assert.deepEqual(r.errors, [], 'no action errors');
      assert.deepEqual(r.unnamed, [], 'every interactive element has an accessible name');
      steps[tier - 1].push(r.steps);
      server.releaseInstance(r.instance.ctx.id);
    }
    const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1);
    t.diagnostic(`oracle steps (mean) tier 1: ${mean(steps[0])}, tier 2: ${mean(steps[1])}, tier 3: ${mean(steps[2])}`);
  });
}

// A random agent on every family in Chromium: test/collection/episodes.test.ts.
