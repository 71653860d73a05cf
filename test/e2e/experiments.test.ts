/**
 * End to end: the experiments view in web mode, driven in headless Chromium against a lab holding a
 * real tiny-preset experiment. Replay is clicked, the stages are followed live, the replay is
 * cancelled and resumed from the view, and the comparison with the original appears with the
 * report's own numbers. The report link opens the report under its token.
 */
import { docsScreenshot } from '../helpers/docs-screenshots.ts';
import { buildRenderer, openWebApp, type WebApp } from '../helpers/web-app.ts';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { LabStore } from '../../main/store/lab.ts';
import { LabService } from '../../main/server/service.ts';
import type { WebServer } from '../../main/server/web.ts';
import { newTinyExperimentLab } from '../helpers/tiny-experiment.ts';
import { requestAs } from '../helpers/web-client.ts';

let labDir: string;
let web: WebServer;
let app: WebApp | undefined;
let page: Page;

before(async () => {
  const renderer = buildRenderer();
  labDir = await newTinyExperimentLab('lab-e2e-experiments-');
  await renderer.done;
  app = await openWebApp(new LabService({ store: new LabStore(labDir), families: builtinFamilies(), mode: 'web', startBrowser: () => ChromiumHost.start() }), renderer.dir, { width: 1400, height: 1000 });
  ({ web, page } = app);
});

after(async () => {
  await app?.close();
});

test('the experiments view lists the experiment with its stages and report, and Replay runs it again live (cancelled, resumed) into a comparison with the original', async () => {
  await page.goto(web.openUrl);
  await page.getByRole('link', { name: 'Experiments' }).click();
  await page.waitForURL('**#/experiments');
  const row = page.locator('[data-testid="experiment-row"][data-id="orig"]');
  await row.waitFor();
  const report = JSON.parse(readFileSync(join(labDir, 'experiments', 'orig', 'report.json'), 'utf8'));
  const cells = await row.locator('td').allTextContents();
  assert.deepEqual(cells.slice(0, 2), ['orig', 'tiny']);
  assert.equal(cells[3], `${report.timings.length} / ${report.timings.length}`);
  assert.equal(cells[4], 'finished');
  assert.equal(cells[9], report.claims.fewerSteps.verdict);
  // Stages with their elapsed times, as report.json sums them.
  const stages = page.getByTestId('experiment-stages').locator('tbody tr');
  assert.equal(await stages.count(), report.timings.length);
  const sft = page.locator('[data-testid="experiment-stages"] tr[data-stage="sft-reflect"] td');
  // A finished stage shows what it measured (no progress bar: it is done).
  assert.deepEqual(await sft.allTextContents(), ['sft-reflect', 'done', report.timings.find((t: { stage: string }) => t.stage === 'sft-reflect').elapsedS.toFixed(1), '1', '', `${report.sft.reflect.valOn === 'train' ? 'loss on training samples (no validation split)' : 'validation loss'} ${report.sft.reflect.valLoss.toFixed(3)}`, 'policy sft-reflect']);
  assert.match(await page.getByTestId('experiment-time').textContent() ?? '', new RegExp(`^\\s*${report.timings.length} of ${report.timings.length} stages done, \\d+ (s|min) of stages so far\\s*$`));
  // The report link: the report itself, served to the app's session (the URL holds no token).
  const href = await page.getByTestId('report-link').getAttribute('href');
  assert.equal(href, '/experiments/orig/report.html');
  const res = await page.evaluate(async (h) => {
    const r = await fetch(h);
    return { status: r.status, text: await r.text() };
  }, href!);
  assert.equal(res.status, 200);
  assert.equal((await requestAs(web, href!)).status, 403, 'without the session cookie there is nothing');
  assert.match(res.text, /<svg/);
  // Opened as a page, it renders under the report CSP (its charts are inline SVG) without a violation.
  // A tab of the app's own browser profile (as the link opens it): it carries the session cookie.
  const tab = await app!.browser.newContext();
  await tab.addCookies(await page.context().cookies());
  const reportPage = await tab.newPage();
  const reportErrors: string[] = [];
  reportPage.on('console', (m) => m.type() === 'error' && reportErrors.push(m.text()));
  await reportPage.goto(`${web.url}${href}`);
  assert.ok(await reportPage.locator('svg').first().isVisible());
  assert.match((await reportPage.locator('body').textContent())!, /Claim 1 — /);
  assert.deepEqual(reportErrors, []);
  await tab.close();

  // Replay: the new experiment is selected and followed stage by stage; cancel it once SFT runs.
  const t0 = performance.now();
  await page.getByTestId('replay-experiment').click();
  await page.waitForURL('**#/experiments/orig-replay1');
  await page.locator('[data-testid="experiment-row"][data-id="orig-replay1"] td.state.running').waitFor();
  await page.locator('[data-testid="experiment-stages"] tr[data-stage="collect-reflect"][data-status="done"]').waitFor({ timeout: 60_000 });
  // Either SFT stage: the tiny preset's run a few seconds each, and a loaded machine may show the first one late.
  await page.locator('[data-testid="experiment-stages"] tr[data-stage^="sft-"][data-status="running"]').waitFor({ timeout: 60_000 });
  await page.getByTestId('experiment-progress').waitFor();
  await page.getByTestId('cancel-experiment').click();
  // Where the cancel lands depends on the machine's pace; what matters is that a stage was stopped mid-way.
  await page.getByTestId('experiment-end').filter({ hasText: /^Stopped in stage [a-z0-9-]+;/ }).waitFor({ timeout: 60_000 });
  assert.equal(await page.locator('[data-testid="experiment-row"][data-id="orig-replay1"] td.state').textContent(), 'stopped');

  // Resume it from the view; it finishes and the comparison appears.
  await page.getByTestId('resume-experiment').click();
  await page.getByTestId('comparison-table').waitFor({ timeout: 300_000 });
  process.stderr.write(`tiny replay from the app, with a cancel and a resume: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  assert.equal(await page.getByTestId('experiment-end').textContent(), 'Finished.');
  assert.match((await page.getByTestId('config-identical').textContent())!, /Configurations identical/);
  assert.match((await page.getByTestId('comparison-summary').textContent())!, /^\s*0 figure\(s\) differ \(time aside\);\s+0 outside the original's 95% interval\.\s*$/);
  const salvage = report.methods.findIndex((m: { method: string }) => m.method === 'salvage');
  const success = report.methods[salvage].test.success;
  const cellsOf = (field: string) => page.locator(`[data-testid="comparison-table"] tr[data-field="${field}"] td`).allTextContents();
  const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(4));
  assert.deepEqual(await cellsOf(`methods.${salvage}.test.success`), ['salvage, test: success rate', fmt(success.value), fmt(success.value), '0', `[${fmt(success.ci95.low)}, ${fmt(success.ci95.high)}]`, 'yes']);
  assert.deepEqual((await cellsOf('sft.reflect.valLoss')).slice(1, 4), [fmt(report.sft.reflect.valLoss), fmt(report.sft.reflect.valLoss), '0']);
  assert.equal(await page.locator('[data-testid="comparison-table"] tr.differs:not(.time)').count(), 0);
  assert.equal(await page.locator('[data-testid="comparison-verdicts"] tr.changed').count(), 0);
  assert.equal(await page.locator('[data-testid="experiment-row"][data-id="orig-replay1"] td').nth(5).textContent(), 'orig');
  await page.screenshot({ path: docsScreenshot('experiments.png'), fullPage: false });

  // A figure that differs is highlighted, and one outside the original's interval flagged: the
  // replay's report.json altered by hand (a run that did not reproduce), the view reloaded.
  const replayPath = join(labDir, 'experiments', 'orig-replay1', 'report.json');
  const altered = JSON.parse(readFileSync(replayPath, 'utf8'));
  altered.sft.reflect.valLoss += 0.25;
  altered.methods[salvage].test.success.value = success.ci95.high < 1 ? 1 : 0;
  writeFileSync(replayPath, JSON.stringify(altered));
  await page.reload();
  await page.getByTestId('comparison-table').waitFor();
  assert.match((await page.getByTestId('comparison-summary').textContent())!, /^\s*2 figure\(s\) differ \(time aside\);\s+1 outside the original's 95% interval\.\s*$/);
  assert.deepEqual(await page.locator('[data-testid="comparison-table"] tr.differs:not(.time)').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-field'))), [`sft.reflect.valLoss`, `methods.${salvage}.test.success`]);
  assert.equal(await page.locator(`[data-testid="comparison-table"] tr.outside[data-field="methods.${salvage}.test.success"] td.inside`).textContent(), 'no');
  assert.equal((await cellsOf('sft.reflect.valLoss'))[3], '+0.2500');
  assert.deepEqual(app!.consoleErrors, []);
});

test('a stage links to what it produced: its collection run in Review, its dataset versions, its policy\'s training curves, its evaluation\'s results grid', async () => {
  await page.goto(`${web.openUrl}#/experiments/orig`);
  const produced = (stage: string) => page.locator(`[data-testid="experiment-stages"] tr[data-stage="${stage}"] td.outputs a`);
  await produced('sft-reflect').first().waitFor();
  const outputs = (stage: string) => JSON.parse(readFileSync(join(labDir, 'experiments', 'orig', 'outputs', `${stage}.json`), 'utf8'));
  assert.equal(await produced('collect-reflect').getAttribute('href'), `#/review/${outputs('collect-reflect').runId}`);
  const ds = outputs('datasets');
  assert.deepEqual(await produced('datasets').allTextContents(), [`${ds.reflect.name}@v${ds.reflect.version}`, `${ds.plain.name}@v${ds.plain.version}`]);
  assert.match((await produced('eval-sft-reflect-test').getAttribute('href'))!, new RegExp(`^#/results\\?scope=eval%3A${outputs('eval-sft-reflect-test').evalId}$`));

  // The policy opens in the training dashboard, selected (from the URL), with its curve.
  await produced('sft-reflect').click();
  await page.waitForURL(/#\/training\?run=/);
  await page.locator(`[data-testid="training-run"][aria-pressed="true"][title="${outputs('sft-reflect').dir}"]`).waitFor();
  // The evaluation opens as the results grid of that evaluation.
  await page.goto(`${web.openUrl}#/experiments/orig`);
  await produced('eval-sft-reflect-test').click();
  await page.getByTestId('results-grid').waitFor();
  assert.equal(await page.getByLabel('Scope').inputValue(), `eval:${outputs('eval-sft-reflect-test').evalId}`);
  // A dataset version opens in the datasets view.
  await page.goto(`${web.openUrl}#/experiments/orig`);
  await produced('datasets').first().click();
  await page.waitForURL(/#\/datasets\?version=/);
  await page.getByText(`${ds.reflect.name}`, { exact: false }).first().waitFor();
  assert.deepEqual(app!.consoleErrors, []);
});

test('New experiment starts one from a preset in the app: a bad id is refused with the reason, a good one runs live and can be cancelled, then resumed from the list', async () => {
  await page.goto(`${web.openUrl}#/experiments`);
  await page.getByTestId('new-preset').waitFor();
  assert.deepEqual(await page.getByTestId('new-preset').locator('option').allTextContents(), ['tiny', 'demo', 'full']);
  // full runs at least 3 Salvage-DS seeds: refused before anything is created.
  await page.getByTestId('new-preset').selectOption('full');
  await page.getByTestId('new-seeds').fill('2');
  await page.getByTestId('start-experiment').click();
  await page.getByRole('alert').filter({ hasText: 'the full preset runs at least 3 training seeds' }).waitFor();
  // The id is the experiment's folder: an existing one is refused.
  await page.getByTestId('new-preset').selectOption('tiny');
  await page.getByTestId('new-seeds').fill('');
  await page.getByTestId('new-id').fill('orig');
  await page.getByTestId('start-experiment').click();
  await page.getByRole('alert').filter({ hasText: 'experiment orig exists' }).waitFor();

  await page.getByTestId('new-id').fill('fromapp');
  await page.getByTestId('start-experiment').click();
  await page.waitForURL('**#/experiments/fromapp');
  await page.locator('[data-testid="experiment-row"][data-id="fromapp"] td.state.running').waitFor();
  assert.deepEqual((await page.locator('[data-testid="experiment-row"][data-id="fromapp"] td').allTextContents()).slice(1, 2), ['tiny']);
  await page.locator('[data-testid="experiment-stages"] tr[data-stage="collect-reflect"][data-status="running"]').waitFor({ timeout: 60_000 });
  assert.equal(await page.getByTestId('start-experiment').isDisabled(), true, 'one experiment at a time');
  await page.getByTestId('cancel-experiment').click();
  await page.getByTestId('experiment-end').filter({ hasText: /^Stopped in stage collect-/ }).waitFor({ timeout: 60_000 });
  // The list refreshes after the end message (a fresh-clone CI run once read it in between): wait for the row to say it.
  await page.locator('[data-testid="experiment-row"][data-id="fromapp"] td.state.stopped').waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('[data-testid="experiment-row"][data-id="fromapp"] td.state').textContent(), 'stopped');
  const config = JSON.parse(readFileSync(join(labDir, 'experiments', 'fromapp', 'config.json'), 'utf8'));
  assert.equal(config.preset, 'tiny');
  assert.equal(await page.getByTestId('resume-experiment').isEnabled(), true);
  assert.deepEqual(app!.consoleErrors, []);
});

test('every view fits a 1024 px wide window on a lab that holds a whole experiment (tables scroll inside their panes)', async () => {
  await page.setViewportSize({ width: 1024, height: 768 });
  try {
    for (const view of ['Episodes', 'Results', 'Datasets', 'Review', 'Decoding', 'Training', 'Experiments']) {
      await page.goto(`${web.openUrl}#/episodes`);
      await page.getByRole('link', { name: view, exact: true }).click();
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300); // charts and lists lay out after their data arrives
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 1024, `${view}: the page is ${width} px wide at a 1024 px window`);
    }
  } finally {
    await page.setViewportSize({ width: 1400, height: 1000 });
  }
  assert.deepEqual(app!.consoleErrors, []);
});

test('an amended experiment shows each amendment (when, what, the stages reopened; why on hover) above its stages', async () => {
  cpSync(join(labDir, 'experiments', 'orig'), join(labDir, 'experiments', 'amended'), { recursive: true });
  const path = join(labDir, 'experiments', 'amended', 'config.json');
  const why = 'held out, 180 episodes a side gave +-7 points';
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), id: 'amended', amendments: [{ at: '2026-12-06T04:20:00.000Z', change: 'eval.claimHeldoutRuns set', why, reopened: ['eval-sft-reflect-heldout'] }] }));
  await page.goto(`${web.openUrl}#/episodes`);
  await page.getByRole('link', { name: 'Experiments' }).click();
  await page.locator('[data-testid="experiment-row"][data-id="amended"]').click();
  const item = page.getByTestId('experiment-amendments').locator('li');
  assert.equal(await item.count(), 1);
  assert.equal((await item.textContent())?.trim(), 'amended 2026-12-06 04:20:00Z: eval.claimHeldoutRuns set (reopened eval-sft-reflect-heldout)');
  assert.equal(await item.getAttribute('title'), why);
  // The unamended original shows none.
  await page.locator('[data-testid="experiment-row"][data-id="orig"]').click();
  await page.getByTestId('experiment-stages').waitFor();
  assert.equal(await page.getByTestId('experiment-amendments').count(), 0);
  assert.deepEqual(app!.consoleErrors, []);
});
