/**
 * End to end: the workbench UI in web mode, driven in headless Chromium with playwright-core,
 * against a real lab folder with episodes recorded by the real environment.
 */
import { describeAction } from '../../main/environment/action-target.ts';
import { docsScreenshot } from '../helpers/docs-screenshots.ts';
import { buildRenderer, openWebApp, type WebApp } from '../helpers/web-app.ts';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { apiSocket, requestAs } from '../helpers/web-client.ts';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { TaskServer } from '../../main/tasks/server.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { drawVariant as drawWebmailVariant } from '../../main/tasks/families/webmail/variant.ts';
import { LabStore } from '../../main/store/lab.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import { randomAgent } from '../../main/agents/random.ts';
import { LabService } from '../../main/server/service.ts';
import type { WebServer } from '../../main/server/web.ts';

let store: LabStore;
let service: LabService;
let web: WebServer;
let app: WebApp | undefined;
let page: Page;
let shopEpisode = '';

before(async () => {
  const renderer = buildRenderer();
  await renderer.done;

  store = new LabStore(mkdtempSync(join(tmpdir(), 'lab-e2e-')));
  const server = await new TaskServer(builtinFamilies()).start();
  const host = await ChromiumHost.start();
  const env = new BrowserEnv(host, { screenshots: true });
  const deps = { env, server, store, browserKind: host.kind };
  shopEpisode = (await runEpisode(deps, { family: 'shop', seed: 10002, agent: (i) => i.family.oracle(i.ctx) })).id;
  await runEpisode(deps, { family: 'flights', seed: 10001, agent: randomAgent(3), maxSteps: 4 });
  await env.close();
  await host.close();
  await server.stop();

  app = await openWebApp(new LabService({ store, families: builtinFamilies(), mode: 'web', startBrowser: () => ChromiumHost.start() }), renderer.dir, { width: 1400, height: 900 });
  ({ service, web, page } = app);
});

after(async () => {
  await app?.close();
});

test('the episode browser lists, filters and opens recorded episodes', async () => {
  await page.goto(web.openUrl);
  await page.locator('.episode-row').first().waitFor();
  assert.equal(await page.locator('.episode-row').count(), 2);
  await page.getByLabel('Family').selectOption('shop');
  await page.waitForFunction(() => document.querySelectorAll('.episode-row').length === 1);
  await page.getByLabel('Outcome').selectOption('failure');
  await page.waitForFunction(() => document.querySelectorAll('.episode-row').length === 0);
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.episode-row').length === 2);
  await page.screenshot({ path: docsScreenshot('episodes.png') });
});

test('the trajectory viewer steps by keyboard; a label is saved to Dexie and the lab folder and survives a reload; undo works', async () => {
  await page.goto(`${web.url}/#/episode/${shopEpisode}`);
  await page.getByTestId('step-number').waitFor();
  assert.equal(await page.getByTestId('step-number').textContent(), '1');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  assert.equal(await page.getByTestId('step-number').textContent(), '3');
  await page.keyboard.press('k');
  assert.equal(await page.getByTestId('step-number').textContent(), '2');
  // The action reads with its target named from that step's elements, e.g. click [12] link "Shoes".
  const second = store.readEpisode(shopEpisode).steps[1];
  const readable = await page.getByTestId('action-readable').textContent();
  assert.equal(readable, describeAction(second.action, second.observation.elements));
  assert.match(readable!, /^\w+ \[\d+\] \w+/, 'the oracle\'s second shop action names an element');
  await page.keyboard.press('4'); // critical
  await page.getByTestId('step-label-1').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid=saved]')?.textContent === 'saved');
  assert.equal(await page.getByTestId('step-label-1').textContent(), 'critical');
  const onDisk = readFileSync(join(store.dir, 'labels', `${shopEpisode}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(onDisk.map((e) => [e.type, e.step, e.label]), [['step', 1, 'critical']]);
  await page.screenshot({ path: docsScreenshot('trajectory-viewer.png') });

  await page.reload();
  await page.getByTestId('step-label-1').waitFor();
  assert.equal(await page.getByTestId('step-label-1').textContent(), 'critical');

  // A corrected action's element picked by clicking its box on the screenshot. The boxes take
  // clicks only while a correction is edited (and, the marks being off, are not even drawn).
  await page.keyboard.press('End');
  const lastStep = store.readEpisode(shopEpisode).steps.at(-1)!;
  const lastIndex = store.readEpisode(shopEpisode).steps.length - 1;
  const recordedTarget = lastStep.action.match(/^\w+\('(\d+)'/)?.[1];
  const shown = lastStep.observation.elements.filter((e) => e.inViewport && e.role !== 'text');
  const area = (e: (typeof shown)[number]) => e.box.width * e.box.height;
  const inside = (e: (typeof shown)[number], x: number, y: number) => x >= e.box.x && x <= e.box.x + e.box.width && y >= e.box.y && y <= e.box.y + e.box.height;
  // A link or button whose middle no smaller box covers (the smaller one would take the click).
  const onScreenshot = shown.find((e) => (e.role === 'link' || e.role === 'button') && e.id !== recordedTarget && e.box.width > 4 && e.box.height > 4
    && !shown.some((o) => o !== e && area(o) <= area(e) && inside(o, e.box.x + e.box.width / 2, e.box.y + e.box.height / 2)))!;
  assert.ok(onScreenshot, 'the last shop page has a link or button to pick on the screenshot');
  const box = page.getByTestId('screenshot').locator(`rect[data-element-id="${onScreenshot.id}"]`);
  assert.equal(await box.count(), 0, 'not editing: no box to pick');
  await page.keyboard.press('c');
  await box.click();
  const draft = page.locator('#label-input');
  assert.match(await draft.inputValue(), new RegExp(`^\\w+\\('${onScreenshot.id}'`), 'the draft names the picked element');
  assert.equal(await box.getAttribute('class').then((c) => c?.includes('picked')), true, 'the picked box shows as picked');
  await page.locator(`[data-testid=tab-elements] li.picked[data-element-id="${onScreenshot.id}"]`).waitFor();
  const pickedOnScreenshot = await draft.inputValue();
  await page.keyboard.press('Enter'); // the pick gave the input its focus back
  await page.waitForFunction((a) => document.querySelector('[data-testid=correction]')?.textContent === a, pickedOnScreenshot);
  await page.waitForFunction(() => document.querySelector('[data-testid=saved]')?.textContent === 'saved');
  assert.equal(service.labels.read(shopEpisode).corrections[lastIndex], pickedOnScreenshot);
  assert.equal(await page.locator('.shot.picking').count(), 0, 'done editing: the screenshot no longer picks');

  // The same from the element list, by keyboard: its rows are buttons while a correction is edited.
  const inList = lastStep.observation.elements.find((e) => (e.role === 'link' || e.role === 'button') && e.id !== onScreenshot.id)!;
  await page.keyboard.press('c');
  const row = page.locator(`[data-testid=tab-elements] li[data-element-id="${inList.id}"] button`);
  await row.focus();
  await page.keyboard.press('Enter');
  await page.locator(`[data-testid=tab-elements] li.picked[data-element-id="${inList.id}"]`).waitFor();
  const pickedInList = await draft.inputValue();
  assert.match(pickedInList, new RegExp(`^\\w+\\('${inList.id}'`));
  await page.keyboard.press('Enter');
  await page.waitForFunction((a) => document.querySelector('[data-testid=correction]')?.textContent === a, pickedInList);
  await page.waitForFunction(() => document.querySelector('[data-testid=saved]')?.textContent === 'saved');
  assert.equal(service.labels.read(shopEpisode).corrections[lastIndex], pickedInList);
  assert.equal(await page.locator('[data-testid=tab-elements] li button').count(), 0, 'done editing: the rows are plain again');

  // Corrected action and tag by keyboard, then undo the tag.
  await page.keyboard.press('c');
  // A correction must name an element that step's page had (the lab refuses any other).
  const target = lastStep.observation.elements.find((e) => e.role === 'link' || e.role === 'button')!;
  const corrected = `click('${target.id}')`;
  await page.locator('#label-input').fill(corrected);
  await page.keyboard.press('Enter');
  await page.getByTestId('correction').waitFor();
  // A correction naming an element the page did not have is refused, said so, and not kept.
  await page.keyboard.press('c');
  await page.locator('#label-input').fill("click('999')");
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /^not saved: .*no element \[999\]/.test(document.querySelector('[data-testid=saved]')?.textContent ?? ''));
  assert.equal(await page.getByTestId('correction').textContent(), corrected);
  await page.keyboard.press('t');
  await page.locator('#label-input').fill('good-demo');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: '#good-demo ×' }).waitFor();
  await page.keyboard.press('u');
  await page.getByRole('button', { name: '#good-demo ×' }).waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.querySelector('[data-testid=saved]')?.textContent === 'saved');
  assert.deepEqual(service.labels.read(shopEpisode).tags, []);
  assert.equal(Object.values(service.labels.read(shopEpisode).corrections)[0], corrected);
  // Dexie (IndexedDB in this page) holds the same labels.
  const cached = await page.evaluate(async (id) => {
    const req = indexedDB.open('agent-lab');
    const dbh: IDBDatabase = await new Promise((r) => (req.onsuccess = () => r(req.result)));
    const get = dbh.transaction('labels').objectStore('labels').get(id);
    return new Promise((r) => (get.onsuccess = () => r(get.result)));
  }, shopEpisode);
  assert.equal((cached as { labels: { steps: Record<string, string> } }).labels.steps['1'], 'critical');
});

test('keyboard: Esc closes the shortcuts and stays on the episode, Esc leaves the search box, back from an episode keeps the cursor, a note saves with Ctrl+Enter', async () => {
  await page.goto(`${web.url}/#/episodes`);
  await page.locator('.episode-row').nth(1).waitFor();
  const selectedId = () => page.locator('.episode-row.selected').getAttribute('data-episode');
  const second = await page.locator('.episode-row').nth(1).getAttribute('data-episode');
  await page.keyboard.press('j');
  assert.equal(await selectedId(), second);
  await page.keyboard.press('Enter');
  await page.getByTestId('step-number').waitFor();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await help.waitFor();
  await page.keyboard.press('Escape');
  await help.waitFor({ state: 'detached' });
  assert.match(page.url(), new RegExp(`#/episode/${second}/1$`), 'still on the episode, at step 1 (the URL counts as the viewer does)');
  // A note holds lines: Enter is a newline, Ctrl+Enter saves.
  await page.keyboard.press('n');
  await page.locator('#label-input').waitFor();
  await page.keyboard.type('first line');
  await page.keyboard.press('Enter');
  await page.keyboard.type('second line');
  await page.keyboard.press('Control+Enter');
  await page.locator('#label-input').waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.querySelector('[data-testid=saved]')?.textContent === 'saved');
  assert.equal(service.labels.read(second!).note, 'first line\nsecond line');
  // A comment on the step shown, the same way (i).
  await page.keyboard.press('i');
  await page.getByText('Comment on step 1').waitFor();
  await page.keyboard.type('the price is below the fold');
  await page.keyboard.press('Control+Enter');
  await page.getByTestId('step-comment').filter({ hasText: 'the price is below the fold' }).waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid=saved]')?.textContent === 'saved');
  assert.deepEqual(service.labels.read(second!).comments, { 0: 'the price is below the fold' });
  // Esc again: back to the list, the cursor on the episode just left.
  await page.keyboard.press('Escape');
  await page.locator('.episode-row.selected').waitFor();
  assert.equal(await selectedId(), second);
  // Esc in the search box gives the keys back to the list: k moves the cursor, nothing is typed.
  await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'episode-search');
  await page.keyboard.press('Escape');
  assert.notEqual(await page.evaluate(() => document.activeElement?.id), 'episode-search');
  await page.keyboard.press('k');
  assert.equal(await page.locator('#episode-search').inputValue(), '');
  assert.equal(await selectedId(), await page.locator('.episode-row').nth(0).getAttribute('data-episode'));
  // Grouped by task instance, an episode row opens that episode at its first step.
  await page.getByLabel('Group by task instance').check();
  await page.locator('.episode-row.grouped').first().waitFor();
  const inGroup = await page.locator('.episode-row.grouped').first().getAttribute('data-episode');
  await page.locator('.episode-row.grouped').first().locator('a.open').click();
  await page.waitForFunction((id) => location.hash === `#/episode/${id}/1`, inGroup);
  await page.getByTestId('step-number').filter({ hasText: '1' }).waitFor();
  await page.goto(`${web.url}/#/episodes`);
  assert.deepEqual(app!.consoleErrors, []);
});

test('one-click replay reproduces the recorded episode with full fidelity', async () => {
  await page.goto(`${web.url}/#/replay/${shopEpisode}`);
  await page.getByTestId('replay-run').click();
  await page.getByTestId('replay-report').waitFor({ timeout: 60_000 });
  assert.equal(await page.getByTestId('fidelity').textContent(), '100.0%');
  await page.locator('[data-replay-step="0"]').click();
  await page.screenshot({ path: docsScreenshot('replay.png') });
});

test('a human demonstration by clicking in the live view is recorded as an episode like an agent\'s', async () => {
  // A tier-1 webmail task that is solved by clicks alone: star one email.
  const webmail = builtinFamilies().get('webmail')!;
  let seed = 0;
  while (!/^Star the email from/.test(webmail.generate(seed).instruction) || webmail.generate(seed).tier !== 1) seed++;
  const [, sender] = webmail.generate(seed).instruction.match(/^Star the email from (.+?) about/)!;

  await page.goto(`${web.url}/#/demo`);
  const listed = Number((await page.getByTestId('sync-status').textContent())!.match(/^(\d+) episodes/)![1]);
  await page.getByLabel('Task family').selectOption('webmail');
  await page.getByLabel('Seed').fill(String(seed));
  await page.getByTestId('demo-start').click();
  await page.getByTestId('demo-live').waitFor();

  /** Click in the live picture at the middle of the element the page lists with this name. */
  const clickOn = async (match: (e: { role: string; name: string }) => boolean) => {
    const els = await page.evaluate(() => (window as any).__demoElements);
    const el = els.find((e: { role: string; name: string; inViewport: boolean }) => e.inViewport && match(e));
    assert.ok(el, `no element to click among ${els.map((e: { role: string; name: string }) => `${e.role}:${e.name}`).join(' | ')}`);
    const img = page.getByTestId('demo-live');
    const box = (await img.boundingBox())!;
    const scale = box.width / 1024;
    const before = await page.getByTestId('demo-actions').locator('li').count();
    await page.evaluate(() => ((window as any).__elementsBefore = (window as any).__demoElements));
    await img.click({ position: { x: (el.box.x + el.box.width / 2) * scale, y: (el.box.y + el.box.height / 2) * scale } });
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=demo-actions] li').length > n, before);
    // The step event comes before the input's answer: wait for the new element list too, or the
    // next click is placed by the old page's boxes (and sent while the view still counts as busy).
    await page.waitForFunction(() => (window as any).__demoElements !== (window as any).__elementsBefore);
  };
  await clickOn((e) => e.role === 'link' && e.name.includes(sender));
  // Starring is a page-state goal: the episode ends as the checker passes, before any Finish.
  const star = drawWebmailVariant(seed).mark.star; // the instance's word for starring
  await clickOn((e) => e.role === 'button' && e.name === star);
  await page.getByTestId('demo-outcome').waitFor();
  assert.match((await page.getByTestId('demo-outcome').textContent())!, /^Success in 2 steps/);
  // The episode has ended: nothing more can be sent (no "no demonstration is running" after the fact),
  // and the app's episode count has the new episode without a Refresh.
  assert.equal(await page.getByTestId('demo-finish').isDisabled(), true);
  assert.equal(await page.getByTestId('demo-message').count(), 0);
  await page.getByTestId('sync-status').filter({ hasText: `${listed + 1} episodes` }).waitFor();
  await page.screenshot({ path: docsScreenshot('demonstration.png') });

  const recorded = store.listEpisodes().episodes.find((e) => e.agent === 'human')!;
  const episode = store.readEpisode(recorded.id);
  assert.deepEqual(
    episode.steps.map((s) => s.action.replace(/\d+/, 'N')),
    ["click('N')", "click('N')"],
  );
  assert.equal(episode.end?.success, true);
  assert.equal(episode.end?.reason, 'goal_reached');
  assert.ok(episode.steps.every((s) => s.observation.screenshot), 'the demonstration records screenshots like an agent episode');
  // In the viewer it says what it is, not "From unknown".
  await page.goto(`${web.url}/#/episode/${recorded.id}`);
  await page.getByTestId('provenance').filter({ hasText: 'From a demonstration recorded in the app' }).waitFor();
});

test('a dataset is curated in the app, frozen, charted and exported in every format', async () => {
  await page.goto(`${web.url}/#/datasets`);
  await page.getByLabel('Dataset name').fill('good-runs');
  await page.getByLabel('Outcomes: success').check();
  await page.getByTestId('dataset-preview').waitFor();
  await page.getByTestId('composition-chart').first().waitFor();
  await page.getByTestId('dataset-freeze').click();
  // One successful episode: the validation and test splits come out empty, which freezing asks to confirm.
  await page.getByTestId('freeze-anyway').click();
  await page.getByTestId('dataset-message').filter({ hasText: 'Froze good-runs v1' }).waitFor();
  const manifest = JSON.parse(readFileSync(join(store.dir, 'datasets', 'good-runs', 'v1', 'manifest.json'), 'utf8'));
  assert.ok(manifest.episodes.length >= 1);
  assert.ok(manifest.episodes.every((e: { outcome: string }) => e.outcome === 'success'));
  await page.screenshot({ path: docsScreenshot('datasets.png') });

  const formats = ['sharegpt', 'openai', 'hf', 'hf-parquet', 'verl'];
  for (const [i, format] of formats.entries()) {
    await page.getByLabel('Export format').selectOption(format);
    await page.getByTestId('export-start').click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=exports] > li').length === n, i + 1, { timeout: 60_000 });
  }
  const exportsDir = join(store.dir, 'exports');
  const dirs = readdirSync(exportsDir);
  const dirOf = (format: string) => join(exportsDir, dirs.find((d) => d.includes(`-${format}-`))!);
  const filesIn = (dir: string): string[] => readdirSync(dir, { recursive: true }).map(String);

  const share = dirOf('sharegpt');
  const info = JSON.parse(readFileSync(join(share, 'dataset_info.json'), 'utf8'));
  const firstShare = Object.values(info)[0] as { file_name: string; formatting: string };
  assert.equal(firstShare.formatting, 'sharegpt');
  const rows = JSON.parse(readFileSync(join(share, firstShare.file_name), 'utf8'));
  for (const r of rows) {
    assert.ok(Array.isArray(r.conversations) && r.conversations.every((c: { from: string }) => ['human', 'gpt'].includes(c.from)));
    const markers = r.conversations.map((c: { value: string }) => c.value.split('<image>').length - 1).reduce((a: number, b: number) => a + b, 0);
    assert.equal(markers, (r.images ?? []).length, 'one <image> marker per image');
    for (const img of r.images ?? []) assert.ok(existsSync(join(share, img)), img);
  }

  const openaiFile = filesIn(dirOf('openai')).find((f) => f.endsWith('.jsonl'))!;
  const line = JSON.parse(readFileSync(join(dirOf('openai'), openaiFile), 'utf8').split('\n')[0]);
  assert.deepEqual(line.messages.map((m: { role: string }) => m.role), ['system', 'user', 'assistant']);
  assert.equal(line.messages[2].weight, 1);

  const hf = dirOf('hf');
  const meta = filesIn(hf).find((f) => f.endsWith('metadata.jsonl'))!;
  const metaRow = JSON.parse(readFileSync(join(hf, meta), 'utf8').split('\n')[0]);
  assert.ok(existsSync(join(hf, meta, '..', metaRow.file_name)), 'file_name points at an image');

  const { parquetReadObjects } = await import('hyparquet');
  const readParquet = async (file: string) => {
    const buf = readFileSync(file);
    return parquetReadObjects({ file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) });
  };
  const hfp = dirOf('hf-parquet');
  const hfRows = await readParquet(join(hfp, filesIn(hfp).find((f) => f.endsWith('.parquet'))!));
  assert.ok('image' in hfRows[0] && 'messages' in hfRows[0]);
  const verl = dirOf('verl');
  const verlRows = await readParquet(join(verl, filesIn(verl).find((f) => f.endsWith('.parquet'))!));
  for (const key of ['data_source', 'prompt', 'ability', 'reward_model', 'extra_info']) assert.ok(key in verlRows[0], key);
  assert.equal(verlRows[0].reward_model.style, 'rule');
});

test('web mode refuses requests without the token; the app trades it for a session cookie of its own host name, which is not the token', async () => {
  const blob = `/blob/${'0'.repeat(64)}.png`;
  assert.equal((await requestAs(web, blob)).status, 403);
  // POST /session: a wrong token gets nothing, the right one an HttpOnly, same-site cookie that opens the same doors.
  assert.equal((await requestAs(web, '/session', { method: 'POST', headers: { authorization: 'Bearer wrong' } })).status, 403);
  assert.equal((await requestAs(web, '/session', { method: 'PUT' })).status, 405);
  assert.equal((await requestAs(web, '/session')).status, 403, 'no cookie, no session');
  const session = await requestAs(web, '/session', { method: 'POST', headers: { authorization: `Bearer ${web.token}` } });
  assert.equal(session.status, 204);
  const cookie = String(session.headers['set-cookie']);
  const [pair, ...attributes] = cookie.split('; ');
  const [name, id] = pair.split('=');
  assert.equal(name, 'lab-session');
  assert.ok(id.length >= 32 && !cookie.includes(web.token), 'a session id, not the token');
  assert.deepEqual(attributes.sort(), ['HttpOnly', 'Path=/', 'SameSite=Strict'], 'no Domain (this host name only), session-only (no Expires), script cannot read it, never sent cross-site');
  assert.equal((await requestAs(web, '/session', { headers: { cookie: pair } })).status, 204, 'a tab with the cookie has a session');
  assert.equal((await requestAs(web, blob, { headers: { cookie: pair } })).status, 404, 'authorized: no such screenshot');
  assert.equal((await requestAs(web, blob, { host: new URL(web.apiUrl).host, headers: { cookie: pair } })).status, 403, 'the cookie opens nothing at another address');
  assert.equal((await fetch(`${web.apiUrl}${blob}`, { headers: { authorization: `Bearer ${web.token}` } })).status, 404, 'API clients: the token as a bearer header');
  assert.equal((await fetch(`${web.apiUrl}${blob}`, { headers: { authorization: `Bearer ${id}` } })).status, 403, 'the session id is no token');
  assert.equal((await fetch(`${web.apiUrl}${blob}?token=${encodeURIComponent(web.token)}`)).status, 403, 'the token is never taken from a URL');
  // The app's own requests hold no token in their URLs.
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  page.on('websocket', (w) => urls.push(w.url()));
  await page.reload();
  await page.getByTestId('sync-status').waitFor();
  for (let i = 0; i < 100 && !urls.some((u) => u.endsWith('/api')); i++) await page.waitForTimeout(50);
  assert.ok(urls.some((u) => u.endsWith('/api')), 'the API socket opened');
  assert.deepEqual(urls.filter((u) => /token=/.test(u)), []);
  const ws = await new Promise<string>((resolve) => {
    const s = apiSocket(web, 'wrong');
    s.on('open', () => resolve('open'));
    s.on('error', () => resolve('refused'));
  });
  assert.equal(ws, 'refused');
});

test('no console errors in any view', () => {
  assert.deepEqual(app!.consoleErrors, []);
});

