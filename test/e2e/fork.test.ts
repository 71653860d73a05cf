/**
 * End to end: fork from any step in the trajectory viewer, in headless Chromium against web mode.
 * The parent is the oracle's shop episode (seed 1, tier 1: open the product, pick it, select the
 * size, add to cart). Forked with the oracle from the viewer, the fork opens and links back to the
 * parent at its step; forked with Demonstrate, the Demonstrate view replays the prefix and the
 * person finishes the task.
 */
import { docsScreenshot } from '../helpers/docs-screenshots.ts';
import { buildRenderer, openWebApp, type WebApp } from '../helpers/web-app.ts';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { TaskServer } from '../../main/tasks/server.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { LabStore } from '../../main/store/lab.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import { LabService } from '../../main/server/service.ts';
import type { WebServer } from '../../main/server/web.ts';
import { drawVariant as drawShopVariant } from '../../main/tasks/families/shop/variant.ts';

let store: LabStore;
let web: WebServer;
let app: WebApp | undefined;
let page: Page;
let parentId = '';

before(async () => {
  const renderer = buildRenderer();
  store = new LabStore(mkdtempSync(join(tmpdir(), 'lab-e2e-fork-')));
  const server = await new TaskServer(builtinFamilies()).start();
  const host = await ChromiumHost.start();
  const env = new BrowserEnv(host, { screenshots: true });
  parentId = (await runEpisode({ env, server, store, browserKind: host.kind }, { family: 'shop', seed: 1, tier: 1, agent: (i) => i.family.oracle(i.ctx) })).id;
  await env.close();
  await host.close();
  await server.stop();
  await renderer.done;
  app = await openWebApp(new LabService({ store, families: builtinFamilies(), mode: 'web', startBrowser: () => ChromiumHost.start() }), renderer.dir, { width: 1400, height: 900 });
  ({ web, page } = app);
});

after(async () => {
  await app?.close();
});

test('Fork from this step with the oracle: progress, then a link to the fork, whose viewer links back to the parent at that step', async () => {
  await page.goto(web.openUrl);
  await page.locator('.episode-row').first().waitFor();
  await page.goto(`${web.url}/#/episode/${parentId}/3`);
  await page.getByTestId('step-number').filter({ hasText: '3' }).waitFor();
  await page.keyboard.press('f'); // the key opens the same menu as the button
  await page.getByTestId('fork-menu').waitFor();
  assert.match((await page.getByTestId('fork-menu').textContent())!, /Fork at step 3: steps 1–2 replayed on a fresh instance/);
  assert.equal(await page.getByTestId('fork-endpoint').count(), 0, 'no endpoint configured: none offered');
  await page.getByTestId('fork-oracle').click();
  await page.getByTestId('fork-link').waitFor();
  assert.match((await page.getByTestId('fork-status').textContent())!, /Fork at step 3 with oracle:\s*success in 4 steps/);

  await page.getByTestId('fork-link').click();
  await page.getByTestId('forked-from').waitFor();
  const forkId = page.url().match(/#\/episode\/([\w-]+)/)![1];
  assert.notEqual(forkId, parentId);
  assert.equal(await page.getByTestId('forked-from').textContent(), `Forked from ${parentId} at step 3`);
  assert.equal(await page.locator('.step .replayed').count(), 2, 'the two replayed steps are marked');
  const fork = store.readEpisode(forkId);
  assert.deepEqual(fork.header.links.forkOf, { episodeId: parentId, step: 2 });
  assert.equal(fork.end?.success, true);
  // The episode list has the fork without a Refresh.
  await page.getByTestId('sync-status').filter({ hasText: '2 episodes' }).waitFor();
  await page.screenshot({ path: docsScreenshot('fork.png') });

  // The link opens the parent at the step the fork took over (the URL counts steps from 1).
  assert.equal(await page.getByTestId('forked-from').locator('a').getAttribute('href'), `#/episode/${parentId}/3`);
  await page.getByTestId('forked-from').locator('a').click();
  await page.getByTestId('episode-title').waitFor();
  await page.waitForFunction((id) => location.hash.startsWith(`#/episode/${id}/3`), parentId);
  assert.equal(await page.getByTestId('step-number').textContent(), '3');
  assert.equal(await page.getByTestId('forked-from').count(), 0, 'the parent is no fork');
});

test('Fork from this step with Demonstrate: the prefix is replayed, then the person clicks Add to cart in the live view', async () => {
  await page.goto(`${web.url}/#/episode/${parentId}/4`);
  await page.getByTestId('step-number').filter({ hasText: '4' }).waitFor();
  await page.getByTestId('fork-open').click();
  await page.getByTestId('fork-human').click();
  await page.getByTestId('demo-live').waitFor();
  assert.match((await page.getByTestId('demo-fork').textContent())!, new RegExp(`A fork of ${parentId} at step 4: its steps 1–3 were replayed`));
  const parent = store.readEpisode(parentId);
  assert.deepEqual(await page.getByTestId('demo-actions').locator('li code').allTextContents(), parent.steps.slice(0, 3).map((s) => s.action));

  const els = await page.evaluate(() => (window as any).__demoElements);
  const button = els.find((e: { role: string; name: string; inViewport: boolean }) => e.inViewport && e.role === 'button' && e.name === drawShopVariant(1).words.addToCart);
  assert.ok(button, 'the product page has its Add to cart button');
  const img = page.getByTestId('demo-live');
  const scale = (await img.boundingBox())!.width / 1024;
  await img.click({ position: { x: (button.box.x + button.box.width / 2) * scale, y: (button.box.y + button.box.height / 2) * scale } });
  await page.getByTestId('demo-outcome').waitFor();
  assert.match((await page.getByTestId('demo-outcome').textContent())!, /^Success in 4 steps/);
  const recorded = store.listEpisodes().episodes.find((e) => e.agent === 'human')!;
  const fork = store.readEpisode(recorded.id);
  assert.deepEqual(fork.header.links.forkOf, { episodeId: parentId, step: 3 });
  assert.equal(fork.steps.at(-1)!.action, `click('${button.id}')`);

  await page.getByTestId('demo-outcome').locator('a').click();
  await page.getByTestId('forked-from').filter({ hasText: `Forked from ${parentId} at step 4` }).waitFor();
  assert.match((await page.getByTestId('provenance').textContent())!, /From a fork demonstrated in the app/);
  assert.deepEqual(app!.consoleErrors, []);
});
