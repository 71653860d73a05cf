/**
 * End to end: the training view in web mode, driven in headless Chromium against a lab written by
 * the real code paths (test/server/training-fixture.ts): a tiny SFT run, a 4-iteration Salvage-DS
 * run, two evaluation reports and a mining report. Checks that the charts draw and that the
 * numbers shown are the ones on disk, and that the iteration a resumed run appends to salvage-stats.jsonl shows up live.
 */
import { docsScreenshot } from '../helpers/docs-screenshots.ts';
import { buildRenderer, openWebApp, type WebApp } from '../helpers/web-app.ts';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { TaskServer } from '../../main/tasks/server.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import { randomAgent } from '../../main/agents/random.ts';
import { LabStore } from '../../main/store/lab.ts';
import { trainSalvage } from '../../main/policy/salvage/train.ts';
import { salvageJob } from '../policy/salvage-fixture.ts';
import { summariseEval } from '../../main/evaluation/eval.ts';
import { LabService } from '../../main/server/service.ts';
import type { WebServer } from '../../main/server/web.ts';
import { trainingFixture, type TrainingFixture } from '../server/training-fixture.ts';
import { modelFiles } from '../../main/store/lab-files.ts';

let f: TrainingFixture;
let web: WebServer;
let app: WebApp | undefined;
let page: Page;

const lines = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const pct = (x: number | null) => `${(100 * x!).toFixed(1)}%`;

before(async () => {
  const renderer = buildRenderer();
  // One real failed rollout in the lab (a random agent), for a mined example to open in the viewer.
  const store = new LabStore(mkdtempSync(join(tmpdir(), 'lab-e2e-training-')));
  const server = await new TaskServer(builtinFamilies()).start();
  const host = await ChromiumHost.start();
  const env = new BrowserEnv(host, { screenshots: false });
  const rollout = await runEpisode({ env, server, store, browserKind: host.kind }, { family: 'flights', seed: 10001, agent: randomAgent(3), maxSteps: 4 });
  await env.close();
  await host.close();
  await server.stop();
  assert.ok(rollout.steps >= 3, `fixture: the rollout has ${rollout.steps} steps`);
  f = await trainingFixture({ labDir: store.dir, rollout: { episodeId: rollout.id, step: 2, family: 'flights', seed: 10001 } });
  await renderer.done;
  app = await openWebApp(new LabService({ store, families: builtinFamilies(), mode: 'web', startBrowser: () => ChromiumHost.start() }), renderer.dir, { width: 1400, height: 1000 });
  ({ web, page } = app);
});

after(async () => {
  await app?.close();
});

test('the Salvage-DS run: reward, gate and loss charts draw, the table holds the iterations on disk, and the iteration a resumed run appends arrives live', async () => {
  await page.goto(web.openUrl);
  await page.goto(`${web.url}/#/training`);
  const runs = page.getByTestId('training-run');
  await runs.nth(1).waitFor();
  assert.equal(await runs.count(), 2);
  assert.match((await runs.nth(0).textContent())!, /Salvage-DS\s+salvage\s+4 \/ 4 iterations/);
  assert.match((await runs.nth(1).textContent())!, /SFT\s+sft\s+30 \/ 30 steps/);

  for (const id of ['salvage-reward-chart', 'salvage-gates-chart', 'salvage-loss-chart']) await page.getByTestId(id).locator('canvas').waitFor();
  const stats = lines(modelFiles(f.salvageDir).salvageStats);
  const rows = page.getByTestId('salvage-table').locator('tbody tr');
  await rows.nth(stats.length - 1).waitFor();
  assert.equal(await rows.count(), 4);
  for (const [i, s] of stats.entries()) {
    const cells = await rows.nth(i).locator('td').allTextContents();
    assert.deepEqual(cells.slice(0, 9), [String(s.iteration), s.meanReward.toFixed(3), s.meanSpread.toFixed(3), s.meanCompetence.toFixed(3), String(s.kept), String(s.rejectedByContrast), String(s.rejectedByCompetence), String(s.anchored), String(s.dropped)]);
    assert.equal(cells[10], s.kl.toFixed(4));
  }

  // The run trains on: extended to 5 iterations and resumed (the real loop appends iteration 4).
  await trainSalvage(salvageJob(f.sftDir, f.salvageDir, f.statesFile, { iterations: 5, group: 6 }));
  const fifth = lines(modelFiles(f.salvageDir).salvageStats)[4];
  assert.equal(fifth.iteration, 4);
  await page.locator('[data-testid="salvage-table"] tr[data-iteration="4"]').waitFor();
  await page.getByTestId('run-live').waitFor();
  await page.getByTestId('run-progress').filter({ hasText: '5 / 5' }).waitFor();
  assert.equal(await rows.count(), 5);
  assert.equal(await page.getByTestId('run-latest').textContent(), `Iteration 4: mean reward ${fifth.meanReward.toFixed(3)}, spread ${fifth.meanSpread.toFixed(3)}, ${fifth.kept} of ${fifth.groups} groups kept, KL ${fifth.kl.toFixed(4)}`);
  await page.screenshot({ path: docsScreenshot('training.png') });
});

test('the SFT run, chosen by keyboard: the loss chart draws and the table holds every logged step', async () => {
  await page.getByTestId('training-run').nth(1).focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('sft-loss-chart').locator('canvas').waitFor();
  const log = lines(modelFiles(f.sftDir).trainLog);
  const rows = page.getByTestId('sft-table').locator('tbody tr');
  await rows.nth(log.length - 1).waitFor({ state: 'attached' });
  assert.equal(await rows.count(), log.length);
  const last = await rows.nth(log.length - 1).locator('td').allTextContents();
  assert.deepEqual(last.slice(0, 3), [String(log.at(-1).step), log.at(-1).loss.toFixed(3), log.at(-1).valLoss.toFixed(3)]);
  // The fixture's samples are all training samples: the periodic loss must not be called validation.
  assert.equal(log.at(-1).valOn, 'train');
  assert.match(await page.getByTestId('val-on-train').innerText(), /No validation split/);
  assert.equal(await page.getByTestId('sft-table').locator('thead th').nth(2).textContent(), 'loss on training samples');
  // Settings read as a person writes them: no float tails (0.00030000000000000003).
  const settings = await page.locator('dl.settings').textContent();
  assert.match(settings!, /minLr0\.001(?!\d)/);
  assert.doesNotMatch(settings!, /\d\.\d*\d{9,}/);
});

test('evaluations side by side per family and tier with intervals; failure modes with examples that open the trajectory viewer', async () => {
  await page.getByTestId('eval-success-chart').locator('canvas').waitFor();
  const table = page.getByTestId('eval-table');
  for (const id of [f.sftEval, f.salvageEval]) {
    const s = summariseEval(f.episodes[id], 2);
    const cell = (row: string, metric: string) => table.locator(`tr[data-row="${row}"] td[data-eval="${id}"][data-metric="${metric}"]`).textContent();
    const o = s.overall;
    assert.equal(await cell('overall', 'success'), `${pct(o.success.value)} [${(100 * o.success.ci95!.low).toFixed(1)}–${(100 * o.success.ci95!.high).toFixed(1)}] ${o.success.k}/${o.success.n}`);
    assert.match((await cell('family:shop', 'success'))!, new RegExp(`^${pct(s.byFamily.shop.success.value).replace('.', '\\.')} `));
    assert.match((await cell('tier:2', 'steps'))!, new RegExp(`^${s.byTier['2'].stepsOnSolved.value!.toFixed(2)} `));
    assert.equal(await cell('family:flights', 'invalid'), pct(s.byFamily.flights.invalidActions.value));
    const r = o.successByRun;
    assert.equal(await cell('overall', 'runs'), `${pct(r.value)} [${(100 * r.ci95!.low).toFixed(1)}–${(100 * r.ci95!.high).toFixed(1)}]`);
  }
  // Uncheck one: the comparison narrows to the other.
  await page.getByTestId('compare-eval').nth(1).uncheck();
  assert.equal(await table.locator(`td[data-eval="${f.salvageEval}"]`).count(), 0);
  await page.getByTestId('compare-eval').nth(1).check();

  await page.getByTestId('failure-chart').locator('canvas').waitFor();
  assert.equal(await page.getByTestId('mining-eval').inputValue(), f.sftEval);
  assert.equal(await page.getByTestId('mining-total').textContent(), `${f.failures.length} failed episodes mined`);
  const count = (mode: string) => f.failures.filter((x) => x.mode === mode).length;
  assert.equal(await page.locator('[data-testid="failure-table"] tr[data-mode="wrong_element"] td').first().textContent(), String(count('wrong_element')));
  assert.equal(await page.locator('[data-testid="failure-table"] tr[data-mode="invalid_action"] td').first().textContent(), String(count('invalid_action')));
  const first = f.failures[0];
  // The critical step is index 2, "step 3" in the viewer and in the URL.
  const example = page.getByTestId('failure-example').locator(`a[href="#/episode/${first.episodeId}/3"]`);
  assert.equal(await example.count(), 1, 'the recorded rollout is among the examples, at its critical step');
  assert.match((await example.textContent())!, /step 3$/);
  await example.focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(`**#/episode/${first.episodeId}/3`);
  // The trajectory viewer opens on the critical step.
  await page.locator('button.step.current[data-step="2"]').waitFor();
  assert.deepEqual(app!.consoleErrors, []);
});

test('runs are listed under where they belong, and a second Salvage-DS run draws over the first (W&B-style overlay), kept in the URL', async () => {
  // A copy of the run inside an experiment: the same curve, a run of its own under another heading.
  const copy = join(f.labDir, 'experiments', 'exp-a', 'policies', 'salvage-b');
  cpSync(f.salvageDir, copy, { recursive: true });
  await page.goto(`${web.url}/#/training`);
  await page.getByTestId('run-group').nth(2).waitFor();
  const headings = await page.getByTestId('run-group').allTextContents();
  assert.deepEqual(headings.slice().sort(), ['experiment exp-a', `folder ${dirname(f.salvageDir)}`, 'lab policies'].sort());

  await page.locator(`[data-testid="training-run"][title="${f.salvageDir}"]`).click();
  await page.getByTestId('salvage-reward-chart').locator('canvas').waitFor();
  // The SFT run is another kind: it cannot be overlaid on a Salvage-DS run.
  assert.equal(await page.getByLabel(/^overlay sft /).count(), 0);
  await page.getByLabel('overlay salvage-b (experiment exp-a)').check();
  await page.getByTestId('overlay-chart').locator('canvas').waitFor();
  assert.equal(await page.getByTestId('overlay-runs').textContent(), `Overlaid: salvage (folder ${dirname(f.salvageDir)}) · salvage-b (experiment exp-a)`);
  await page.getByLabel('Overlay statistic').selectOption('kl');
  assert.match(page.url(), /overlay=/);
  // A reload keeps the overlay.
  await page.reload();
  await page.getByTestId('overlay-chart').locator('canvas').waitFor();
  assert.deepEqual(app!.consoleErrors, []);
});
