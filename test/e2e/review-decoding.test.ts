/**
 * End to end: the reflection-retry review view and the decoding-speed dashboard, in web mode,
 * driven in headless Chromium against a real lab folder: a small collection run by the noisy
 * expert (real environment, real retries, reflections and shortening) and the shipped SDSAT model.
 */
import { docsScreenshot } from '../helpers/docs-screenshots.ts';
import { buildRenderer, openWebApp, type WebApp } from '../helpers/web-app.ts';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { TaskServer } from '../../main/tasks/server.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { LabStore } from '../../main/store/lab.ts';
import { RunFolder, runCollection } from '../../main/collection/collect-run.ts';
import { readRunInfo } from '../../main/server/review.ts';
import { LabService } from '../../main/server/service.ts';
import type { WebServer } from '../../main/server/web.ts';
import { resourcePath } from '../../main/paths.ts';
import { runLab } from '../helpers/lab-cli.ts';

let store: LabStore;
let service: LabService;
let web: WebServer;
let app: WebApp | undefined;
let page: Page;
let runId = '';

before(async () => {
  const renderer = buildRenderer();

  // Two task instances; with these seeds the noisy expert fails flights:10000 at first, and the
  // reflection retry solves it before the blind retries do (checked below, not assumed), and both
  // tasks keep a shortened trajectory. (Seed 1 did until the flights oracle began to sort first.)
  store = new LabStore(mkdtempSync(join(tmpdir(), 'lab-e2e-review-')));
  const server = await new TaskServer(builtinFamilies()).start();
  const host = await ChromiumHost.start();
  const env = new BrowserEnv(host, { screenshots: false });
  const run = RunFolder.create(store.dir, { tasks: 'flights,shop:test', agent: 'noisy', agentSeed: 68, retries: 2, reflect: 'rules', shorten: true, parallel: 1, seeds: 1 });
  await runCollection({ envs: [env], server, store, browserKind: host.kind }, run);
  runId = run.config.runId;
  await env.close();
  await host.close();
  await server.stop();
  await renderer.done;

  app = await openWebApp(new LabService({ store, families: builtinFamilies(), mode: 'web', startBrowser: () => ChromiumHost.start(), decodeBackend: 'wasm' }), renderer.dir, { width: 1400, height: 1000 });
  ({ service, web, page } = app);
});

after(async () => {
  await app?.close();
});

test('the review view shows attempts with their reflections, the step where a retry parts, the shortened trajectory, and charts', async () => {
  const info = readRunInfo(store.dir, runId);
  const flights = info.tasks.find((t) => t.task === 'flights:10000')!;
  assert.deepEqual(flights.arms.map((a) => a.solvedAt), [1, 2], 'fixture: reflection solves flights at attempt 1, blind retries at attempt 2');

  await page.goto(web.openUrl); // keeps the token for this tab
  await page.goto(`${web.url}/#/review/${runId}`);
  await page.getByTestId('review-task').filter({ hasText: 'flights:10000' }).waitFor();
  await page.getByTestId('review-yield-chart').locator('canvas').waitFor();
  await page.getByTestId('review-steps-chart').locator('canvas').waitFor();

  // Attempt 0 (shared), the reflect retry, and two blind retries, side by side.
  const attempts = page.getByTestId('review-attempt');
  await attempts.nth(3).waitFor();
  assert.equal(await attempts.count(), 4);
  const reflection = page.getByTestId('reflection-text').first();
  const reflectionText = (await reflection.textContent())!;
  const onDisk = JSON.parse(readFileSync(join(store.dir, 'reflections', readdirSync(join(store.dir, 'reflections'))[0]), 'utf8'));
  assert.equal(reflectionText, onDisk.text, 'the reflection shown is the one stored in lab/reflections/');
  assert.match(reflectionText, /Avoid:|Unmet:/);

  // Each retry names the step where it parts from the attempt it retries, and marks it in its list.
  assert.equal(await page.getByTestId('divergence').count(), 3);
  assert.match((await page.getByTestId('divergence').first().textContent())!, /Parts from attempt 0 at step \d+/);
  const marked = attempts.nth(1).getByTestId('divergence-step');
  assert.equal(await marked.count(), 1);
  // One lane per arm: the shared first attempt above them, each arm's retries in its own lane.
  const lane = (arm: string) => page.locator(`[data-testid="review-lane"][data-arm="${arm}"]`);
  assert.equal(await lane('reflect').getByTestId('review-attempt').count(), 1);
  assert.equal(await lane('blind').getByTestId('review-attempt').count(), 2);
  assert.equal(await page.locator('.shared-first [data-testid="review-attempt"]').count(), 1);
  const laneBoxes = [await lane('reflect').boundingBox(), await lane('blind').boundingBox()];
  assert.ok(laneBoxes[0]!.x + laneBoxes[0]!.width <= laneBoxes[1]!.x, 'the lanes stand side by side');

  // Shortened beside the original: cut steps are struck through, the shortened list is shorter.
  const sh = page.getByTestId('review-shortening').filter({ has: page.locator('li[data-cut]') }).first();
  await sh.waitFor();
  const cut = await sh.locator('li[data-cut]').count();
  assert.ok(cut > 0, 'the original shows the cut steps');
  const [origSteps, shortSteps] = [await sh.locator('article').nth(0).locator('li').count(), await sh.locator('article').nth(1).locator('li').count()];
  assert.equal(shortSteps, origSteps - cut);
  await page.screenshot({ path: docsScreenshot('review.png') });

  // At 1024 px the view fits the window; a chart folds away, stays folded over a reload, and unfolds.
  await page.setViewportSize({ width: 1024, height: 800 });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 1024), 'no horizontal scroll of the page at 1024 px');
  await page.locator('[data-pane="chart:review-yield-chart"] > summary').click();
  // The fold re-renders on the next tick: wait for it (a count taken at once raced it on a loaded machine).
  await page.getByTestId('review-yield-chart').waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('review-yield-chart').count(), 0, 'a folded chart is not drawn');
  await page.reload();
  await page.getByTestId('review-steps-chart').locator('canvas').waitFor();
  assert.equal(await page.getByTestId('review-yield-chart').count(), 0, 'still folded after a reload');
  await page.locator('[data-pane="chart:review-yield-chart"] > summary').click();
  await page.getByTestId('review-yield-chart').locator('canvas').waitFor();
  await page.setViewportSize({ width: 1400, height: 1000 });

  // The shortened trajectory opens in the trajectory viewer like any other.
  await page.getByTestId('open-shortened').first().click();
  await page.getByTestId('episode-title').waitFor();
  // It names and links the trajectory it was cut from.
  await page.getByTestId('episode-links').filter({ hasText: 'Shortened from' }).locator('a').waitFor();
  await page.goBack();
  await page.getByTestId('review-task').filter({ hasText: 'flights:10000' }).waitFor();
});

test('accept and reject gather in a draft that survives a reload and Back; one freeze makes one version', async () => {
  await page.getByLabel('Review dataset').fill('reviewed-runs');
  const draftCount = page.getByTestId('draft-count');
  const freeze = page.getByTestId('review-freeze');
  const versions = () => (existsSync(join(store.dir, 'datasets', 'reviewed-runs')) ? readdirSync(join(store.dir, 'datasets', 'reviewed-runs')).filter((d) => /^v\d+$/.test(d)) : []);
  const shortening = page.getByTestId('review-shortening').filter({ has: page.getByTestId('accept-shortened') }).first();
  await shortening.getByTestId('accept-shortened').click();
  await page.getByTestId('review-message').filter({ hasText: 'into the draft of reviewed-runs' }).waitFor();
  await draftCount.filter({ hasText: 'draft: 1 accepted' }).waitFor();
  await shortening.getByTestId('standing-shortened').filter({ hasText: 'accepted → draft of reviewed-runs' }).waitFor();
  assert.deepEqual(versions(), [], 'accepting freezes nothing');
  const flightsShortened = JSON.parse(readFileSync(join(store.dir, 'datasets', 'reviewed-runs', 'draft.json'), 'utf8')).accepted[0].episodeId as string;
  assert.equal(store.readEpisode(flightsShortened).header.links.shortenedFrom !== undefined, true, 'the accepted episode is the shortened one');
  assert.equal(readRunInfo(store.dir, runId).tasks.find((t) => t.task === 'flights:10000')!.decision, 'accept');

  // By keyboard to the next task instance; accept its shortened trajectory too: two in the draft.
  await page.keyboard.press('j');
  await page.getByTestId('review-task').filter({ hasText: 'shop:10000' }).waitFor();
  await page.getByTestId('accept-shortened').first().click();
  await draftCount.filter({ hasText: 'draft: 2 accepted' }).waitFor();
  await freeze.filter({ hasText: 'Freeze 2 accepted' }).waitFor();
  assert.deepEqual(versions(), []);

  // The draft is the lab's, not the page's: a reload shows it again, with the task and dataset from the URL.
  await page.reload();
  await page.getByTestId('review-task').filter({ hasText: 'shop:10000' }).waitFor();
  assert.equal(await page.getByLabel('Review dataset').inputValue(), 'reviewed-runs');
  await draftCount.filter({ hasText: 'draft: 2 accepted' }).waitFor();
  // Back from an attempt opened in the trajectory viewer comes back to the same task and dataset.
  await page.getByTestId('review-attempt').first().getByRole('link', { name: 'open' }).click();
  await page.getByTestId('episode-title').waitFor();
  await page.goBack();
  await page.getByTestId('review-task').filter({ hasText: 'shop:10000' }).waitFor();
  assert.equal(await page.locator('[data-task="shop:10000"]').getAttribute('aria-current'), 'true');
  assert.equal(await page.getByLabel('Review dataset').inputValue(), 'reviewed-runs');
  await draftCount.filter({ hasText: 'draft: 2 accepted' }).waitFor();

  // Back to the first task; reject its shortened trajectory: out of the draft again. Freeze: one version.
  await page.keyboard.press('k');
  await page.getByTestId('review-task').filter({ hasText: 'flights:10000' }).waitFor();
  await shortening.getByTestId('reject-shortened').click();
  await draftCount.filter({ hasText: 'draft: 1 accepted' }).waitFor();
  // These are test-seed episodes: the freeze asks first, as the Datasets view does. Declined, nothing is frozen.
  const asked: string[] = [];
  let answer = false;
  page.on('dialog', (d) => {
    asked.push(d.message());
    void (answer ? d.accept() : d.dismiss());
  });
  await freeze.filter({ hasText: 'Freeze 1 accepted' }).click();
  await page.getByTestId('review-message').filter({ hasText: 'Not frozen: ' }).waitFor();
  // Which checks fire depends on the split the instance hashes into: on test seeds in train, or on the splits one episode leaves empty.
  assert.match(asked[0] ?? '', /^Freeze anyway\?\n\n- .*(recorded on test seeds|split is empty)/s);
  assert.deepEqual(versions(), []);
  answer = true;
  await freeze.filter({ hasText: 'Freeze 1 accepted' }).click();
  await page.getByTestId('review-message').filter({ hasText: 'froze reviewed-runs v1: 1 episode (1 added)' }).waitFor();
  assert.equal(asked.length, 2);
  await draftCount.filter({ hasText: 'draft: 0 accepted' }).waitFor();
  assert.equal(await freeze.isDisabled(), true, 'nothing left to freeze');
  assert.deepEqual(versions(), ['v1']);
  const m1 = JSON.parse(readFileSync(join(store.dir, 'datasets', 'reviewed-runs', 'v1', 'manifest.json'), 'utf8'));
  assert.deepEqual(m1.episodes.map((e: { family: string }) => e.family), ['shop']);
  assert.equal(existsSync(join(store.dir, 'datasets', 'reviewed-runs', 'draft.json')), false, 'frozen: the draft is gone');

  // Rejecting a frozen trajectory marks it to be left out of the next version; with one accepted, v2.
  await page.keyboard.press('j');
  await page.getByTestId('review-task').filter({ hasText: 'shop:10000' }).waitFor();
  await page.getByTestId('standing-shortened').first().filter({ hasText: 'in reviewed-runs v1' }).waitFor();
  await page.getByTestId('reject-shortened').first().click();
  await draftCount.filter({ hasText: 'draft: 0 accepted, 1 to leave out' }).waitFor();
  await page.keyboard.press('k');
  await page.getByTestId('review-task').filter({ hasText: 'flights:10000' }).waitFor();
  await shortening.getByTestId('accept-shortened').click();
  await freeze.filter({ hasText: 'Freeze 1 accepted, leave out 1' }).click();
  await page.getByTestId('review-message').filter({ hasText: 'froze reviewed-runs v2: 1 episode (1 added, 1 left out)' }).waitFor();
  const m2 = JSON.parse(readFileSync(join(store.dir, 'datasets', 'reviewed-runs', 'v2', 'manifest.json'), 'utf8'));
  assert.deepEqual(m2.episodes.map((e: { id: string }) => e.id), [flightsShortened]);
  assert.deepEqual(versions().sort(), ['v1', 'v2']);
  const log = readFileSync(join(store.dir, 'runs', runId, 'review.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(log.map((d) => [d.task, d.decision, d.version]), [
    ['flights:10000', 'accept', null], ['shop:10000', 'accept', null], ['flights:10000', 'reject', null], ['shop:10000', 'reject', null], ['flights:10000', 'accept', null],
  ]);

  // A failed attempt cannot be accepted, and an episode of another task is refused: both say why.
  const task = await service.readReviewTask(runId, 'flights:10000');
  const failed = task.attempts.find((a) => !a.success)!;
  await assert.rejects(service.reviewDecide({ runId, task: 'flights:10000', episodeId: failed.episodeId, decision: 'accept', dataset: 'reviewed-runs' }), /did not succeed/);
  await assert.rejects(service.reviewDecide({ runId, task: 'shop:10000', episodeId: failed.episodeId, decision: 'accept', dataset: 'reviewed-runs' }), /is not an attempt or shortened trajectory of shop:10000/);

  // The datasets view lists the curated dataset.
  await page.goto(`${web.url}/#/datasets`);
  await page.locator('[data-dataset="reviewed-runs@v2"]').waitFor();
});

test('the decoding dashboard charts the shipped benchmark and a run started from the app', async () => {
  await page.goto(`${web.url}/#/decoding`);
  await page.getByTestId('bench-meta').filter({ hasText: 'resources/models/sdsat-code' }).waitFor();
  await page.getByTestId('speedup-chart').locator('canvas').waitFor();
  await page.getByTestId('position-chart').locator('canvas').waitFor();
  const before = await page.getByLabel('Benchmark report').locator('option').count();
  // The picker names the report shown, not a blank.
  assert.match((await page.getByLabel('Benchmark report').evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? ''))!, /^shipped with the model/);

  await page.getByLabel('Benchmark k list').fill('1,2');
  await page.getByLabel('Benchmark tokens per prompt').fill('8');
  await page.getByLabel('Benchmark prompts').fill('1');
  await page.getByLabel('Benchmark repeats').fill('2');
  await page.getByTestId('bench-start').click();
  await page.waitForFunction((n) => document.querySelectorAll('select[aria-label="Benchmark report"] option').length === n + 1, before, { timeout: 60_000 });
  const files = readdirSync(join(store.dir, 'bench', 'decode'));
  assert.equal(files.length, 1);
  const report = JSON.parse(readFileSync(join(store.dir, 'bench', 'decode', files[0]), 'utf8'));
  assert.deepEqual([...new Set(report.results.map((r: { k: number }) => r.k))], [1, 2]);
  assert.ok(report.results.every((r: { identicalOutputs: boolean }) => r.identicalOutputs === true), 'greedy SDSAT equals AR');
  // Two repeats: each row has both speedups and the interval around their mean, and the table shows it.
  for (const r of report.results as { speedupPerRepeat: number[]; repeats: number; speedupCi95: { low: number; high: number } }[]) {
    assert.equal(r.repeats, 2);
    assert.equal(r.speedupPerRepeat.length, 2);
    assert.ok(r.speedupCi95.low <= Math.min(...r.speedupPerRepeat) && r.speedupCi95.high >= Math.max(...r.speedupPerRepeat), 'the interval spans the repeats');
  }
  await page.getByTestId('bench-meta').filter({ hasText: '1 prompts × 8 tokens' }).waitFor();
  const firstRow = page.getByTestId('bench-rows').locator('tbody tr').first();
  // Two repeats of a tiny run on a loaded machine can give a wide interval (t with 1 degree of freedom is 12.7): any width, two decimals.
  assert.match((await firstRow.textContent())!, /\d+\.\d\d–\d+\.\d\d/);
  // The headline's best speedup from two repeats says it cannot be ranked on.
  assert.match((await page.getByTestId('best-caution').first().textContent())!, /^from 2 repeats: too few to rank/);
});

test('the size curve panel draws a `bench sizes` report of this lab: speedup and SAT acceptance against size, one row per model', async () => {
  await runLab('--lab', store.dir, 'bench', 'sizes', '--models', resourcePath('models', 'sdsat-ts'), '--k', '1', '--limit', '1', '--max-new', '4', '--repeats', '2', '--cost-repeats', '2', '--json');
  const [file] = readdirSync(join(store.dir, 'bench', 'sizes'));
  await page.goto(`${web.url}/#/decoding`);
  // The view lists the curves when it opens; it was open already (the test before), so open it anew.
  await page.reload();
  await page.getByLabel('Size curve').selectOption(file.replace(/\.json$/, ''));
  await page.getByTestId('size-meta').filter({ hasText: '1 models, 1 prompts × 4 tokens' }).waitFor();
  await page.getByTestId('size-speedup-chart').locator('canvas').waitFor();
  await page.getByTestId('size-acceptance-chart').locator('canvas').waitFor();
  const rows = page.getByTestId('size-rows').locator('tbody tr');
  assert.equal(await rows.count(), 1);
  assert.match((await rows.first().textContent())!, /^0\.26M 64×3\d\.\d{3} → \d\.\d{3} ?\([+-]\d\.\d{3}\)/);
  assert.deepEqual(await page.getByTestId('size-rows').locator('thead th').allTextContents(),
    ['size', 'val. loss base → SAT-tuned', 'SAT d1 (1 / 3 cand.)', 'sdsat', 'sdsat-tree', 'lookup-tree', 'merged-tree', 'sdsat predicted', 'rate 1.2× needs', 'best']);
  // The acceptance sdsat would need to pay, as the report solved it from the measured pass costs.
  const report = JSON.parse(readFileSync(join(store.dir, 'bench', 'sizes', file), 'utf8'));
  const needed = report.points[0].predicted[0].neededRate as number | null;
  assert.equal(report.payTarget, 1.2);
  assert.equal(await page.getByTestId('size-needed').textContent(), needed === null ? 'out of reach' : `${needed.toFixed(2)} at k=1`);

  // The curve shipped beside the models (resources/models/bench-sizes.json): its three sizes, smallest first.
  await page.getByLabel('Size curve').selectOption('shipped');
  await page.getByTestId('size-meta').filter({ hasText: '3 models, 32 prompts × 64 tokens' }).waitFor();
  assert.deepEqual((await rows.allTextContents()).map((t) => t.split(' ')[0]), ['0.25M', '0.56M', '1.09M']);
  await page.getByTestId('size-acceptance-chart').locator('canvas').waitFor();
  await page.getByTestId('size-curve').screenshot({ path: docsScreenshot('size-curve.png') });
});

test('a live decode streams AR and SDSAT side by side; the highlighted drafts are exactly the accepted ones', async () => {
  await page.goto(`${web.url}/#/decoding`);
  await page.getByTestId('bench-meta').waitFor();
  await page.getByLabel('Prompt', { exact: true }).fill('interface ');
  // The live comparison starts on what the shipped benchmark measured fastest (copied drafts, not SATs).
  assert.equal(await page.getByLabel('Drafting mode').inputValue(), 'lookup-tree');
  await page.getByLabel('Drafting mode').selectOption('sdsat');
  // The shipped model's own k (the most drafts it was trained for).
  const shippedK = JSON.parse(readFileSync(resourcePath('models', 'sdsat-code', 'model.json'), 'utf8')).sat.k as number;
  await page.getByLabel('Draft length k').fill(String(shippedK));
  await page.getByLabel('Tokens to generate').fill('256');
  await page.getByTestId('live-start').click();
  await page.getByTestId('sdsat-stats').waitFor({ timeout: 60_000 });
  await page.getByTestId('live-chart').locator('canvas').waitFor();

  const highlighted = await page.getByTestId('tokens-sdsat').locator('.tok.draft').count();
  const shownCount = Number(await page.getByTestId('highlighted-count').textContent());
  const accepted = Number(await page.getByTestId('stats-accepted').textContent());
  assert.ok(highlighted > 0, 'some drafts were accepted and are highlighted');
  assert.equal(shownCount, highlighted);
  // The decode ran to the end of the context: no loop was cut short, so every accepted draft was emitted.
  assert.equal(highlighted, accepted);
  assert.match((await page.getByTestId('sdsat-stats').textContent())!, /same text as AR/);
  assert.equal(await page.getByTestId('tokens-ar').locator('.tok.draft').count(), 0, 'AR has no drafts');
  assert.equal(await page.getByTestId('tokens-ar').locator('.tok').count(), await page.getByTestId('tokens-sdsat').locator('.tok').count());
  // The docs picture shows the benchmark shipped with the model.
  await page.getByLabel('Benchmark report').selectOption('shipped');
  await page.getByTestId('bench-meta').filter({ hasText: '32 prompts' }).waitFor();
  await page.screenshot({ path: docsScreenshot('decoding.png') });
});

test('no console errors in the review and decoding views', () => {
  assert.deepEqual(app!.consoleErrors, []);
});
