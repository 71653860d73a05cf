/**
 * The episode browser with 10,000 episodes: everything is indexed in Dexie and only the rows in
 * view are in the DOM. (No timing assertions: the machines are noisy; the row count is the check.)
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium } from '../../main/environment/chromium.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { LabStore } from '../../main/store/lab.ts';
import { LabService } from '../../main/server/service.ts';
import { startWebServer, type WebServer } from '../../main/server/web.ts';
import { buildRenderer } from '../helpers/web-app.ts';

const N = 10_000;
let web: WebServer;
let service: LabService;
let browser: Browser;
let page: Page;

before(async () => {
  const renderer = buildRenderer();
  await renderer.done;
  const rendererDir = renderer.dir;
  const store = new LabStore(mkdtempSync(join(tmpdir(), 'lab-10k-')));
  const obs = { url: 'http://x/', title: 't', elements: [], screenshot: null, lastActionError: null };
  const families = ['shop', 'flights', 'webmail'];
  for (let i = 0; i < N; i++) {
    const family = families[i % 3];
    const w = store.createEpisode({
      id: `ep${String(i).padStart(5, '0')}`,
      task: { family, seed: i, tier: 1 + (i % 3), instruction: `Synthetic task number ${i}`, startUrl: 'http://x/', split: 'train' },
      agent: { name: i % 2 ? 'random' : 'oracle' },
      env: { viewport: { width: 800, height: 600 }, screenshots: false, browser: 'chromium' },
      links: {},
    });
    for (let s = 0; s < 1 + (i % 7); s++) w.step({ observation: obs, action: 'noop(1)', error: null, timing: { agentMs: 0, actionMs: 0, settleMs: 0, observeMs: 0, totalMs: 0 } });
    w.end({ success: i % 4 === 0, reason: 'checker', keyPoints: [], messages: [], finalObservation: obs, durationMs: 1 });
  }
  service = new LabService({ store, families: builtinFamilies(), mode: 'web', startBrowser: () => Promise.reject(new Error('not needed')) });
  web = await startWebServer({ service, rendererDir });
  browser = await chromium.launch({ executablePath: findChromium(), args: ['--no-sandbox', '--disable-gpu'] });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
});

after(async () => {
  await browser?.close();
  await web?.close();
  await service?.close();
});

test('10,000 episodes are indexed, filtered and listed with only the visible rows in the DOM', async () => {
  await page.goto(web.openUrl);
  await page.waitForFunction((n) => document.querySelector('[data-testid=episode-count]')?.textContent?.startsWith(`${n} of ${n}`), N, { timeout: 120_000 });
  const rows = await page.locator('.episode-row').count();
  assert.ok(rows > 5 && rows < 100, `${rows} rows rendered for ${N} episodes`);

  await page.getByLabel('Family').selectOption('flights');
  await page.getByLabel('Outcome').selectOption('success');
  // i % 3 === 1 and i % 4 === 0: i = 4, 16, 28, ... (every 12th)
  await page.waitForFunction(() => document.querySelector('[data-testid=episode-count]')?.textContent?.startsWith('833 of 10000'));
  await page.getByLabel('Search').fill('number 9988');
  await page.waitForFunction(() => document.querySelector('[data-testid=episode-count]')?.textContent?.startsWith('1 of 10000'));
  await page.getByRole('button', { name: 'Clear' }).click();

  // Scrolling to the end renders the last rows, and only those.
  await page.getByLabel('Sort').selectOption('steps-asc');
  await page.waitForFunction((n) => document.querySelector('[data-testid=episode-count]')?.textContent?.startsWith(`${n} of ${n}`), N);
  await page.waitForFunction(() => document.querySelector('.episode-row')?.textContent?.includes('ep0'));
  await page.locator('[data-testid=virtual-list]').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await page.locator(`[data-index="${N - 1}"]`).waitFor();
  assert.equal(await page.locator('[data-index="0"]').count(), 0);
  // The count reads "N of N" before and after the sort, so wait for the new order itself: under
  // load the last row can still be the old order's for a moment.
  const longestLast = await page.waitForFunction((n) => {
    const list = document.querySelector('[data-testid=virtual-list]');
    if (list) list.scrollTop = list.scrollHeight; // a re-sort may move the view: stay at the end
    return /\b7\b/.test(document.querySelector(`[data-index="${n - 1}"] .episode-row`)?.textContent ?? '');
  }, N, { timeout: 15_000, polling: 100 }).then(() => true, () => false);
  assert.ok(longestLast, `the longest episodes come last; the last row reads: ${await page.locator(`[data-index="${N - 1}"] .episode-row`).textContent()}`);
  assert.ok((await page.locator('.episode-row').count()) < 100);
});
