/**
 * End to end: provenance in the episode browser (filters, grouping by task instance, hiding what
 * evaluations and experiments made), the compare view and the results grid, in headless Chromium,
 * against a lab holding a real collection run (noisy expert, reflection and blind retries) and a
 * real evaluation of the shipped policy recorded as a stage of an experiment.
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
import { RunFolder, runCollection } from '../../main/collection/collect-run.ts';
import { runEval } from '../../main/evaluation/eval.ts';
import { SHIPPED_POLICY } from '../../main/policy/shipped.ts';
import { LabService } from '../../main/server/service.ts';
import { resultsGrid } from '../../main/server/results-grid.ts';
import type { WebServer } from '../../main/server/web.ts';

let store: LabStore;
let web: WebServer;
let app: WebApp | undefined;
let page: Page;
let runId = '';
let evalId = '';

before(async () => {
  const renderer = buildRenderer();
  store = new LabStore(mkdtempSync(join(tmpdir(), 'lab-e2e-provenance-')));
  const server = await new TaskServer(builtinFamilies()).start();
  const host = await ChromiumHost.start();
  const env = new BrowserEnv(host, { screenshots: true });
  const deps = { envs: [env], server, store, browserKind: host.kind };
  // Seeds where the noisy expert fails a first attempt, so that a task instance has retries.
  const run = RunFolder.create(store.dir, { tasks: 'shop,webmail:test', agent: 'noisy', agentSeed: 1, retries: 1, reflect: 'rules', shorten: false, parallel: 1, seeds: 3 });
  runId = (await runCollection(deps, run)).runId;
  const report = await runEval(deps, { policy: { dir: SHIPPED_POLICY }, tasks: 'shop', split: 'test', seeds: 2, runs: 1, parallel: 1, maxSteps: 2, experiment: 'x-e2e' });
  evalId = report.evalId;
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

const count = (page: Page) => page.getByTestId('episode-count').textContent().then((t) => Number(t!.split(' ')[0]));
const waitCount = (page: Page, n: number) => page.waitForFunction((n) => document.querySelector('[data-testid=episode-count]')?.textContent?.startsWith(`${n} of `), n);

test('the episode list filters by run and arm, hides eval and experiment episodes with one control, and groups attempts by task instance', async () => {
  const all = store.listEpisodes().episodes;
  const collected = all.filter((e) => e.provenance.run === runId);
  const reflect = collected.filter((e) => e.provenance.arm === 'reflect');
  assert.ok(reflect.length > 0, 'the noisy expert failed some first attempt, so the reflection arm retried');
  assert.equal(all.length - collected.length, 2, 'two evaluation episodes');

  await page.goto(web.openUrl);
  await waitCount(page, all.length);
  await page.getByLabel('Hide eval & experiment episodes', { exact: true }).check();
  await waitCount(page, collected.length);
  await page.getByLabel('Hide eval & experiment episodes', { exact: true }).uncheck();
  await page.getByLabel('Experiment', { exact: true }).selectOption('x-e2e');
  await waitCount(page, 2);
  assert.match((await page.locator('.episode-row .from').first().textContent())!, new RegExp(`exp x-e2e · eval ${evalId.slice(-6)} · web-policy`));
  await page.getByLabel('Experiment', { exact: true }).selectOption('');
  await page.getByLabel('Run', { exact: true }).selectOption(runId);
  await page.getByLabel('Arm', { exact: true }).selectOption('reflect');
  await waitCount(page, reflect.length);
  await page.getByLabel('Arm', { exact: true }).selectOption('');
  await waitCount(page, collected.length);

  await page.getByLabel('Group by task instance', { exact: true }).check();
  const instances = new Set(collected.map((e) => `${e.family} #${e.seed} t${e.tier}`));
  await page.waitForFunction((n) => document.querySelectorAll('.group-row').length === n, instances.size);
  assert.equal(await count(page), collected.length);
  await page.screenshot({ path: docsScreenshot('episodes-grouped.png') });
});

test('attempts at one task instance open side by side with their outcomes and step counts', async () => {
  const byInstance = new Map<string, ReturnType<LabStore['listEpisodes']>['episodes']>();
  for (const e of store.listEpisodes().episodes.filter((e) => e.provenance.run === runId)) {
    const key = `${e.family} #${e.seed} t${e.tier}`;
    byInstance.set(key, [...(byInstance.get(key) ?? []), e]);
  }
  const [key, attempts] = [...byInstance].find(([, es]) => es.length >= 2)!;
  // Two checked episodes of one instance compare...
  for (const e of attempts.slice(0, 2)) await page.getByLabel(`Pick ${e.id} to compare`).check();
  await page.getByTestId('compare-picked').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=compare-episode]').length === 2);
  // ...and so do all of a group's, from its header.
  await page.getByRole('link', { name: 'Episodes', exact: true }).click();
  await page.getByLabel('Group by task instance', { exact: true }).check();
  await page.locator(`.group-row[data-instance="${key}"] button`, { hasText: 'Compare' }).click();
  await page.getByTestId('compare-view').locator('[data-testid=compare-episode]').first().waitFor();
  const shown = await page.getByTestId('compare-episode').evaluateAll((ths) => ths.map((th) => [th.getAttribute('data-episode'), th.querySelector('[data-testid=compare-outcome]')!.textContent, th.querySelector('[data-testid=compare-steps]')!.textContent]));
  // With no filter, the group holds every agent's episodes of the instance: the evaluation's come after the attempts.
  const everyone = store.listEpisodes().episodes.filter((e) => `${e.family} #${e.seed} t${e.tier}` === key);
  const attemptOf = (e: (typeof everyone)[number]) => e.provenance.attempt ?? Infinity;
  const expected = everyone.sort((a, b) => attemptOf(a) - attemptOf(b) || a.createdAt.localeCompare(b.createdAt)).map((e) => [e.id, e.status, `${e.steps} step${e.steps === 1 ? '' : 's'}`]);
  assert.deepEqual(shown, expected);
  assert.match((await page.getByTestId('first-difference').textContent())!, /They part on \d+ of \d+ rows, first at row \d+|Every episode took the same actions/);
  // Every step of every episode is in exactly one row, in order; every parting row is marked.
  const c = await app!.service.compareEpisodes(everyone.map((e) => e.id));
  const rows = page.locator('[data-testid=compare-view] tbody tr');
  assert.equal(await rows.count(), c.rows.length);
  c.episodes.forEach((e, j) => assert.deepEqual(c.rows.map((r) => r.steps[j]).filter((s) => s !== null), e.steps.map((_, i) => i)));
  assert.equal(await page.locator('[data-testid=compare-view] tbody tr.parts').count(), c.partingRows);
  // Screenshots side by side, on demand.
  await page.getByTestId('compare-screenshots').check();
  await page.locator('[data-testid=compare-view] img.shot').first().waitFor();
  await page.screenshot({ path: docsScreenshot('compare.png') });
});

test('the results grid of a run has a row per arm with success and steps per family; a cell lists its episodes', async () => {
  const grid = resultsGrid((await app!.service.listEpisodes()).episodes, { kind: 'run', id: runId });
  await page.getByRole('link', { name: 'Results' }).click();
  await page.getByLabel('Scope', { exact: true }).selectOption(`run:${runId}`);
  await page.locator('[data-testid=results-grid] tbody tr').first().waitFor();
  assert.deepEqual(await page.locator('[data-testid=results-grid] tbody th').allTextContents(), ['noisy · blind', 'noisy · reflect']);
  const cell = grid.cells['noisy · reflect'].shop;
  const button = page.locator('tr[data-row="noisy · reflect"] button[data-col="shop"]');
  assert.equal((await button.locator('span').textContent())!, `${cell.successes}/${cell.episodes}`);
  assert.equal((await button.locator('small.ci').textContent())!, `[${Math.round(cell.ci95!.low * 100)}–${Math.round(cell.ci95!.high * 100)}]`, 'the rate with its interval');
  await button.click();
  // The list renders after the click: wait for its last item before counting (count() does not wait).
  await page.getByTestId('cell-episodes').locator('li').nth(cell.ids.length - 1).waitFor();
  assert.equal(await page.getByTestId('cell-episodes').locator('li').count(), cell.ids.length);
  await page.screenshot({ path: docsScreenshot('results-grid.png') });

  await page.getByLabel('Scope', { exact: true }).selectOption(`eval:${evalId}`);
  await page.waitForFunction(() => document.querySelector('[data-testid=results-grid] tbody th')?.textContent === 'policy web-policy');
});

test('no console errors', () => {
  assert.deepEqual(app!.consoleErrors, []);
});
