/**
 * End to end: the trajectory viewer's step detail (elements, prompt and output, console, network,
 * timings) on episodes recorded by the real environment from a page that logs and fetches; view
 * state in the URL (filters, sort, step, tab) across reload and Back; and a link opened in a new
 * tab shows the workbench (the token handed over between tabs), while the same URL in a browser
 * without an open workbench tab does not.
 */
import { buildRenderer, openWebApp, type WebApp } from '../helpers/web-app.ts';
import { docsScreenshot } from '../helpers/docs-screenshots.ts';
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
import { CompactPolicyAgent } from '../../main/agents/compact-policy.ts';
import { SHIPPED_POLICY } from '../../main/policy/shipped.ts';
import { LabService } from '../../main/server/service.ts';
import type { WebServer } from '../../main/server/web.ts';
import { chattyFamily } from '../helpers/chatty-family.ts';

let store: LabStore;
let web: WebServer;
let app: WebApp | undefined;
let page: Page;
let chatty = '';
let policy = '';

const families = () => new Map([...builtinFamilies(), [chattyFamily.name, chattyFamily]]);

before(async () => {
  const renderer = buildRenderer();
  store = new LabStore(mkdtempSync(join(tmpdir(), 'lab-e2e-step-detail-')));
  const server = await new TaskServer(families()).start();
  const host = await ChromiumHost.start();
  const env = new BrowserEnv(host, { screenshots: true });
  const deps = { env, server, store, browserKind: host.kind };
  chatty = (await runEpisode(deps, { family: 'chatty', seed: 1, agent: (i) => i.family.oracle(i.ctx) })).id;
  // The shipped policy on a built-in task for one step: a step with the prompt it read and what it wrote.
  policy = (await runEpisode(deps, { family: 'shop', seed: 10002, agent: new CompactPolicyAgent({ dir: SHIPPED_POLICY }), maxSteps: 1 })).id;
  await env.close();
  await host.close();
  await server.stop();
  await renderer.done;
  app = await openWebApp(new LabService({ store, families: families(), mode: 'web', startBrowser: () => ChromiumHost.start() }), renderer.dir, { width: 1400, height: 900 });
  ({ web, page } = app);
});

after(async () => {
  await app?.close();
});

const tab = (name: string) => page.locator(`.tabs button[data-tab="${name}"]`);

test("a step's tabs show its elements (searchable), console, network, timings, and the policy's prompt and output with token counts", async () => {
  await page.goto(web.openUrl);
  await page.locator('.episode-row').first().waitFor();
  assert.doesNotMatch(page.url(), /token=/, 'the token leaves the address bar');
  const recorded = store.readEpisode(chatty).steps[1];
  await page.goto(`${web.url}/#/episode/${chatty}/2`);
  await page.getByTestId('step-number').filter({ hasText: '2' }).waitFor();

  // Elements, searchable.
  const total = recorded.observation.elements.length;
  assert.equal(await page.getByTestId('elements-shown').textContent(), `${total} of ${total}`);
  await page.getByLabel('Search elements').fill('load');
  await page.getByTestId('elements-shown').filter({ hasText: `1 of ${total}` }).waitFor();
  assert.match((await page.locator('.elements li').textContent())!, /button\s+“?"?Load/);

  // Console: what the click logged, the page's markup shown as text.
  await tab('console').click();
  const consoleTab = page.getByTestId('tab-console');
  await consoleTab.locator('li.lvl-warning', { hasText: 'loading the count <b>now</b>' }).waitFor();
  assert.equal(await consoleTab.locator('b').count(), 0, 'console text is never markup');
  await consoleTab.locator('li.lvl-error', { hasText: 'count is 2' }).waitFor();

  // Network: the fetch with its status, type and duration.
  await tab('network').click();
  const fetchRow = page.getByTestId('tab-network').locator('tr', { hasText: '/api/count' });
  assert.deepEqual((await fetchRow.locator('td').allTextContents()).slice(0, 3), ['GET', '200', 'Fetch']);
  assert.match((await fetchRow.locator('td').nth(3).textContent())!, /^\d+$/);

  // Timings: the four phases, as recorded.
  await tab('timings').click();
  for (const phase of ['agent', 'action', 'settle', 'observe'] as const) {
    const ms = recorded.timing[`${phase}Ms`];
    assert.equal(await page.locator(`tr[data-phase="${phase}"] td.num`).textContent(), `${ms.toLocaleString('en-US')} ms`);
  }

  // The oracle has no model: the prompt tab says so.
  await tab('io').click();
  await page.getByTestId('tab-io').getByText('No prompt recorded').waitFor();

  // The policy's step: the prompt it read, what it wrote, and their token counts.
  const io = store.readEpisode(policy).steps[0].io!;
  await page.goto(`${web.url}/#/episode/${policy}/1?tab=io`);
  await page.getByTestId('prompt').waitFor();
  assert.equal(await page.getByTestId('prompt').textContent(), io.prompt);
  assert.equal(await page.getByTestId('output').textContent(), io.output);
  assert.match((await page.getByTestId('prompt-tokens').textContent())!, new RegExp(`^${io.promptTokens} tokens`));
  assert.match((await page.getByTestId('output-tokens').textContent())!, new RegExp(`^${io.outputTokens} tokens`));  await page.screenshot({ path: docsScreenshot('step-detail.png') });
});

test('the step and tab, the filters and the sort are in the URL: they survive reload and Back', async () => {
  // The URL counts steps from 1, as the viewer does ("Step 1" is /1; /0 is read as the first step).
  await page.goto(`${web.url}/#/episode/${chatty}/0`);
  await page.getByTestId('step-number').filter({ hasText: '1' }).waitFor();
  await page.waitForFunction((id) => location.hash === `#/episode/${id}/1`, chatty);
  await page.locator('button.step[data-step="1"]').click();
  await tab('network').click();
  await page.waitForFunction((id) => location.hash === `#/episode/${id}/2?tab=network`, chatty);
  await page.reload();
  await page.getByTestId('step-number').filter({ hasText: '2' }).waitFor();
  await page.getByTestId('tab-network').waitFor();

  await page.goto(`${web.url}/#/episodes`);
  await page.getByLabel('Family').selectOption('chatty');
  await page.getByLabel('Sort').selectOption('oldest');
  await page.waitForFunction(() => location.hash === '#/episodes?family=chatty&sort=oldest');
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('.episode-row').length === 1);
  assert.equal(await page.getByLabel('Family').inputValue(), 'chatty');
  assert.equal(await page.getByLabel('Sort').inputValue(), 'oldest');
  // Into an episode and Back: the list as it was.
  await page.locator('.episode-row a.open').first().click();
  await page.getByTestId('episode-title').waitFor();
  await page.goBack();
  await page.waitForFunction(() => document.querySelectorAll('.episode-row').length === 1);
  assert.equal(await page.getByLabel('Family').inputValue(), 'chatty');
  // And the viewer's way back keeps them too.
  await page.locator('.episode-row a.open').first().click();
  await page.getByRole('link', { name: '← Episodes' }).click();
  await page.waitForFunction(() => location.hash === '#/episodes?family=chatty&sort=oldest');
});

test('a link opened in a new tab shows the workbench; the same URL in a browser without its session does not', async () => {
  await page.goto(`${web.url}/#/episodes?family=chatty`);
  await page.locator('.episode-row').first().waitFor();
  const [opened] = await Promise.all([page.context().waitForEvent('page'), page.locator('.episode-row a.open').first().click({ modifiers: ['Control'] })]);
  await opened.getByTestId('episode-title').waitFor();
  assert.equal(await opened.getByTestId('episode-title').textContent(), 'chatty #1');
  assert.equal(await opened.getByText('No workbench API').count(), 0);
  assert.doesNotMatch(opened.url(), /token/);
  // Reload in the new tab: its session cookie holds.
  await opened.reload();
  await opened.getByTestId('episode-title').waitFor();

  // A tab with no opener at all (a typed or pasted URL) in a browser where the workbench was opened: the session cookie.
  const context = await app!.browser.newContext();
  const first = await context.newPage();
  await first.goto(web.openUrl);
  await first.locator('.episode-row').first().waitFor();
  const typed = await context.newPage();
  await typed.goto(`${web.url}/#/episode/${chatty}/3?tab=console`);
  await typed.getByTestId('step-number').filter({ hasText: '3' }).waitFor();
  await typed.getByTestId('tab-console').waitFor();
  await context.close();

  // A browser where the workbench was never opened gets nothing from that URL: neither token nor session is in it.
  const stranger = await app!.browser.newPage();
  await stranger.goto(opened.url());
  await stranger.getByText('No workbench API').waitFor();
  await stranger.close();
  await opened.close();
});

test('no console errors', () => {
  assert.deepEqual(app!.consoleErrors, []);
});
