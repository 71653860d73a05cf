/**
 * End to end: freezing a dataset warns first when held-out families or test seeds would go into
 * its train split (and the server refuses without the confirmation); families and tags are picked
 * from what the lab holds; a version lists its episodes, linked to the viewer; and a finished
 * export downloads from the browser as one tar file holding exactly the export's files.
 */
import { buildRenderer, openWebApp, type WebApp } from '../helpers/web-app.ts';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { TaskServer, type TaskInstance } from '../../main/tasks/server.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { LabStore } from '../../main/store/lab.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import { LabService } from '../../main/server/service.ts';
import type { WebServer } from '../../main/server/web.ts';
import { requestAs } from '../helpers/web-client.ts';

let store: LabStore;
let service: LabService;
let web: WebServer;
let app: WebApp | undefined;
let page: Page;
const ids: Record<'shopTrain' | 'shopTest' | 'wiki', string> = { shopTrain: '', shopTest: '', wiki: '' };

before(async () => {
  const renderer = buildRenderer();
  store = new LabStore(mkdtempSync(join(tmpdir(), 'lab-e2e-datasets-')));
  const server = await new TaskServer(builtinFamilies()).start();
  const host = await ChromiumHost.start();
  const env = new BrowserEnv(host, { screenshots: true });
  const deps = { env, server, store, browserKind: host.kind };
  const oracle = { agent: (i: TaskInstance) => i.family.oracle(i.ctx) };
  ids.shopTrain = (await runEpisode(deps, { family: 'shop', seed: 1, tier: 1, ...oracle })).id;
  ids.shopTest = (await runEpisode(deps, { family: 'shop', seed: 10003, tier: 1, ...oracle })).id;
  ids.wiki = (await runEpisode(deps, { family: 'wiki', seed: 10000, tier: 1, ...oracle })).id;
  await env.close();
  await host.close();
  await server.stop();
  await renderer.done;
  service = new LabService({ store, families: builtinFamilies(), mode: 'web', startBrowser: () => ChromiumHost.start() });
  await service.editLabels(ids.shopTrain, { type: 'episode', tags: ['gold'] });
  app = await openWebApp(service, renderer.dir, { width: 1400, height: 1000 });
  ({ web, page } = app);
});

after(async () => {
  await app?.close();
});

const preview = () => page.getByTestId('dataset-preview');

test('families and tags are picked from the lab; held-out families and test seeds in the train split are warned about and need a confirmation', async () => {
  for (const [k, id] of Object.entries(ids)) assert.equal(store.readEpisode(id).end?.success, true, `${k}: the oracle solved it`);
  await page.goto(web.openUrl);
  await page.locator('.episode-row').first().waitFor();
  await page.goto(`${web.url}/#/datasets`);
  await page.getByLabel('Dataset name').fill('mixed');
  await page.getByLabel('Split ratios').fill('1,0,0');
  // The pick lists hold what the lab holds, held-out families marked.
  await page.getByLabel('Families: wiki').waitFor();
  assert.match((await page.getByRole('group', { name: 'Families' }).textContent())!, /wiki\s*\(held-out\)/);
  await page.getByLabel('Tags: gold').check();
  await preview().filter({ hasText: /^1 episodes/ }).waitFor();
  assert.equal(await page.getByTestId('freeze-warnings').count(), 0, 'one train-seed episode: nothing to warn about');
  await page.getByLabel('Tags: gold').uncheck();

  await page.getByLabel('Families: shop').check();
  await preview().filter({ hasText: /^2 episodes/ }).waitFor();
  await page.getByTestId('freeze-warnings').locator('li[data-kind="test-seed"]').waitFor();
  // Freezing stops at the warnings; Cancel freezes nothing.
  await page.getByTestId('dataset-freeze').click();
  await page.getByRole('dialog', { name: 'Confirm freeze' }).getByText(/recorded on test seeds \(shop\) would go into the train split/).waitFor();
  await page.getByRole('dialog', { name: 'Confirm freeze' }).getByRole('button', { name: 'Cancel' }).click();
  assert.equal(existsSync(join(store.dir, 'datasets', 'mixed')), false);

  await page.getByLabel('Families: wiki').check();
  await preview().filter({ hasText: /^3 episodes/ }).waitFor();
  await page.getByTestId('freeze-warnings').locator('li[data-kind="held-out-family"]', { hasText: 'held-out family wiki' }).waitFor();
  // The server holds the line too: no freeze without the confirmation.
  await assert.rejects(service.createDataset({ name: 'mixed', filter: { families: ['shop', 'wiki'], statuses: ['success'] }, ratios: { train: 1, validation: 0, test: 0 } }), /was not frozen; confirm first: .*held-out family wiki/);
  await page.getByTestId('dataset-freeze').click();
  await page.getByTestId('freeze-anyway').click();
  await page.getByTestId('dataset-message').filter({ hasText: 'Froze mixed v1: 3 episodes' }).waitFor();
});

test("a version lists its episodes, each linked to the viewer, and the open version is in the URL", async () => {
  const rows = page.getByTestId('version-episodes').locator('tbody tr');
  await rows.first().waitFor();
  assert.deepEqual((await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-episode')))).sort(), Object.values(ids).sort());
  await page.waitForFunction(() => location.hash === '#/datasets?version=mixed%40v1');
  await page.reload();
  await page.getByTestId('version-episodes').locator(`tr[data-episode="${ids.wiki}"] a`).click();
  await page.getByTestId('episode-title').filter({ hasText: 'wiki #10000' }).waitFor();
  await page.goBack();
  await page.getByTestId('version-episodes').waitFor();
});

test('a finished export downloads from the browser as a tar of exactly its files', async () => {
  await page.getByLabel('Export format').selectOption('sharegpt');
  await page.getByTestId('export-start').click();
  const link = page.getByTestId('export-download');
  await link.waitFor({ timeout: 60_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  assert.match(download.suggestedFilename(), /^mixed-v1-sharegpt-\d{8}T\d{6}\.tar$/);
  const out = mkdtempSync(join(tmpdir(), 'lab-e2e-download-'));
  const file = join(out, download.suggestedFilename());
  await download.saveAs(file);
  execFileSync('tar', ['-xf', file, '-C', out]);
  const root = download.suggestedFilename().replace(/\.tar$/, '');
  const exportDir = join(store.dir, 'exports', root);
  const list = (dir: string) => readdirSync(dir, { recursive: true }).map(String).sort();
  assert.deepEqual(list(join(out, root)), list(exportDir));
  for (const f of list(exportDir).filter((f) => f.endsWith('.json'))) assert.equal(readFileSync(join(out, root, f), 'utf8'), readFileSync(join(exportDir, f), 'utf8'));
  // Without the token, or for an id this server did not finish, there is nothing.
  const href = (await link.getAttribute('href'))!;
  assert.doesNotMatch(href, /token/, 'the download URL holds no token (the session cookie opens it)');
  assert.equal((await requestAs(web, href)).status, 403);
  assert.equal((await requestAs(web, href, { headers: { cookie: 'lab-session=wrong' } })).status, 403);
  assert.equal((await fetch(`${web.apiUrl}${href.replace(/\/exports\/[0-9a-f]+\.tar/, '/exports/000000000000.tar')}`, { headers: { authorization: `Bearer ${web.token}` } })).status, 404);
  // The preview names each target's element as a person reads it, the trainer's form in its title.
  const preview = page.getByTestId('export-preview');
  await preview.locator('summary').click();
  const first = preview.locator('li').first();
  const targets = await preview.locator('li code').evaluateAll((cs) => cs.map((c) => ({ trainer: c.getAttribute('title')!.replace(/^as the trainer sees it: /, ''), readable: c.textContent! })));
  const onElements = targets.filter((t) => /^(click|fill|select_option|hover|check|uncheck|dblclick)\('/.test(t.trainer));
  assert.ok(onElements.length > 0, `some of the first targets act on an element: ${JSON.stringify(targets)}`);
  for (const t of onElements) assert.match(t.readable, /^\w+ \[[^\]]+\] \w+/, `${t.trainer} reads as ${t.readable}`);
  assert.match((await first.locator('a').getAttribute('href'))!, /^#\/episode\/[\w-]+\/\d+$/);
});

test("an export shows under the version it was made from, not under the version selected next", async () => {
  const exportsOf = () => page.getByTestId('exports').locator(':scope > li');
  assert.equal(await exportsOf().count(), 1);
  // A second dataset frozen in the same view becomes the selected one: it has no exports yet.
  await page.getByLabel('Dataset name').fill('second');
  await page.getByLabel('Split ratios').fill('1,0,0');
  if (!(await page.getByLabel('Families: shop').isChecked())) await page.getByLabel('Families: shop').check();
  await page.getByTestId('dataset-freeze').click();
  await page.getByTestId('freeze-anyway').click();
  await page.getByTestId('dataset-message').filter({ hasText: /^Froze second v1/ }).waitFor();
  await page.locator('h3', { hasText: 'second v1' }).waitFor();
  assert.equal(await exportsOf().count(), 0, "the other version's export is not shown as this one's");
  await page.locator('[data-dataset="mixed@v1"]').click();
  await page.locator('h3', { hasText: 'mixed v1' }).waitFor();
  assert.equal(await exportsOf().count(), 1);
});

test('no console errors', () => {
  assert.deepEqual(app!.consoleErrors, []);
});
