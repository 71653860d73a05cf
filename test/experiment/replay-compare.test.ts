/**
 * Replay and comparison on real files: a tiny-preset experiment (test/helpers/tiny-experiment.ts),
 * its config.json replayed (the configuration verbatim but id, createdAt and replayOf), its
 * report.json compared with itself and with altered copies.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createReplay, replayConfig } from '../../main/experiment/replay.ts';
import { compareExperiments, compareReports, type Comparison } from '../../main/experiment/compare.ts';
import { renderReportMarkdown } from '../../main/experiment/report-markdown.ts';
import { renderReportHtml } from '../../main/experiment/report-html.ts';
import { experimentStatus } from '../../main/experiment/status.ts';
import { newTinyExperimentLab } from '../helpers/tiny-experiment.ts';
import { runLab as lab } from '../helpers/lab-cli.ts';

let labDir: string;
const readJson = (...p: string[]) => JSON.parse(readFileSync(join(labDir, 'experiments', ...p), 'utf8'));
const rowOf = (c: Comparison, field: string) => {
  const r = c.rows.find((x) => x.field === field);
  assert.ok(r, `no row for ${field}`);
  return r;
};

before(async () => {
  labDir = await newTinyExperimentLab('lab-replay-');
});

test('a replay\'s configuration is the original config.json verbatim but for a new id, a new createdAt and replayOf', () => {
  const original = readJson('orig', 'config.json');
  const replay = replayConfig(labDir, 'orig', 'orig-again');
  assert.equal(replay.id, 'orig-again');
  assert.equal(replay.replayOf, 'orig');
  assert.notEqual(replay.createdAt, original.createdAt);
  const strip = ({ id: _i, createdAt: _c, replayOf: _r, ...rest }: Record<string, unknown>) => rest;
  assert.deepEqual(strip(replay as unknown as Record<string, unknown>), strip(original));
  // The folder: config.json written as that, named <id>-replayN by default, N counting up.
  const folder = createReplay(labDir, 'orig');
  assert.equal(folder.config.id, 'orig-replay1');
  assert.deepEqual(readJson('orig-replay1', 'config.json'), JSON.parse(JSON.stringify(folder.config)));
  assert.equal(createReplay(labDir, 'orig').config.id, 'orig-replay2');
});

test('an amended experiment: its amendments show in status and in both reports; a replay runs the amended values from the start, without them', async () => {
  cpSync(join(labDir, 'experiments', 'orig'), join(labDir, 'experiments', 'amended'), { recursive: true });
  const amendments = [{ at: '2026-12-06T04:20:00.000Z', change: 'eval.claimHeldoutRuns set to 18 (SFT) and 6 (Salvage-DS)', why: 'held out, 180 episodes a side gave +-7 points', reopened: ['eval-sft-reflect-heldout'] }];
  for (const file of ['config.json', 'report.json']) {
    const path = join(labDir, 'experiments', 'amended', file);
    const json = JSON.parse(readFileSync(path, 'utf8'));
    const config = file === 'config.json' ? json : json.config;
    Object.assign(config, { id: 'amended', amendments });
    if (file === 'report.json') json.experimentId = 'amended';
    writeFileSync(path, JSON.stringify(json));
  }
  assert.deepEqual(experimentStatus(labDir, 'amended').amendments, amendments);
  const report = readJson('amended', 'report.json');
  const md = renderReportMarkdown(report);
  assert.match(md, /## Amendments\n\n.*\n\n- 2026-12-06T04:20:00\.000Z: eval\.claimHeldoutRuns set to 18 \(SFT\) and 6 \(Salvage-DS\)\. Why: held out, 180 episodes a side gave \+-7 points\. Reopened: eval-sft-reflect-heldout\./);
  assert.ok(md.indexOf('## Amendments') < md.indexOf('## Claims'), 'amendments come before the figures they qualify');
  assert.match(await renderReportHtml(report), /<h2>Amendments<\/h2>.*<td>eval-sft-reflect-heldout<\/td>/s);
  assert.doesNotMatch(renderReportMarkdown(readJson('orig', 'report.json')), /Amendments/);

  const replay = replayConfig(labDir, 'amended', 'amended-again');
  assert.equal(replay.amendments, undefined);
  assert.equal(replay.replayOf, 'amended');
  // Compared with the unamended original, the amendments are no configuration difference.
  assert.deepEqual(compareExperiments(labDir, 'orig', 'amended').configDifferences, []);
});

test('a config.json written before prompts had an element order, or Salvage-DS guided sampling, replays with what it was run with', () => {
  const old = join(labDir, 'experiments', 'before-order');
  cpSync(join(labDir, 'experiments', 'orig'), old, { recursive: true });
  const cfg = readJson('before-order', 'config.json');
  assert.equal(cfg.sft.elementOrder, 'task', 'a new experiment records the task order');
  assert.equal(cfg.salvage.rl.guided, true, 'a new experiment records guided sampling');
  delete cfg.sft.elementOrder;
  delete cfg.salvage.rl.guided;
  writeFileSync(join(old, 'config.json'), JSON.stringify(cfg));
  const replay = replayConfig(labDir, 'before-order', 'x');
  assert.equal(replay.sft.elementOrder, 'page');
  assert.equal(replay.salvage.rl.guided, false);
});

test('a replay of a missing experiment, or of a config.json that does not parse, is refused with the file and field named', () => {
  assert.throws(() => replayConfig(labDir, 'nope', 'x'), /no experiment nope in .*experiments \(no .*nope\/config\.json\)/);
  assert.throws(() => replayConfig(labDir, '../orig', 'x'), /invalid experiment id "\.\.\/orig"/);
  const broken = join(labDir, 'experiments', 'broken');
  cpSync(join(labDir, 'experiments', 'orig'), broken, { recursive: true });
  const cfg = readJson('broken', 'config.json');
  cfg.sft.steps = 'four';
  writeFileSync(join(broken, 'config.json'), JSON.stringify(cfg));
  assert.throws(() => replayConfig(labDir, 'broken', 'x'), (err: Error) => err.message.includes(join(broken, 'config.json')) && /field sft\.steps: .*expected number/i.test(err.message));
  writeFileSync(join(broken, 'config.json'), '{"id": ');
  assert.throws(() => replayConfig(labDir, 'broken', 'x'), new RegExp(`${join(broken, 'config.json').replace(/[.]/g, '\\.')}: not JSON`));
});

test('a report compared with itself: every figure it presents, each with no difference and inside its own interval', () => {
  const report = readJson('orig', 'report.json');
  const c = compareReports(report, report);
  assert.equal(c.configsIdentical, true);
  assert.deepEqual(c.configDifferences, []);
  const groups = new Set(c.rows.map((r) => r.group));
  for (const g of ['collection', 'datasets', 'sft', 'claims', 'methods', 'ablations', 'failure modes']) assert.ok(groups.has(g), `no ${g} rows`);
  for (const r of c.rows) {
    assert.equal(r.original, r.replay, r.field);
    if (r.original !== null) assert.equal(r.difference, 0, r.field);
    if (r.interval && r.original !== null) assert.equal(r.inside, true, r.field);
  }
  // The rows carry the report's own numbers, by variant and split.
  const m = (name: string) => report.methods.findIndex((x: { method: string }) => x.method === name);
  assert.equal(rowOf(c, 'collection.reflect.arms.0.yield').original, report.collection.reflect.arms[0].yield);
  assert.equal(rowOf(c, 'sft.reflect.valLoss').original, report.sft.reflect.valLoss);
  for (const method of ['sft-plain', 'sft-reflect', 'salvage', 'plain-grpo']) {
    const success = rowOf(c, `methods.${m(method)}.test.success`);
    assert.equal(success.original, report.methods[m(method)].test.success.value);
    assert.deepEqual(success.interval, report.methods[m(method)].test.success.ci95);
    assert.equal(rowOf(c, `methods.${m(method)}.test.invalidActions`).original, report.methods[m(method)].test.invalidActions.value);
    assert.equal(rowOf(c, `methods.${m(method)}.test.stepsOnSolved`).original, report.methods[m(method)].test.stepsOnSolved.value);
  }
  assert.equal(rowOf(c, `methods.${m('salvage')}.heldout.invalidActions`).original, report.methods[m('salvage')].heldout.invalidActions.value);
  assert.equal(rowOf(c, 'ablations.0.test.vsSft').original, report.ablations[0].test.vsSft.value);
  assert.equal(rowOf(c, 'failureModes.failures').original, report.failureModes.failures);
  assert.deepEqual(c.verdicts.map((v) => v.original), [report.claims.fewerSteps.verdict, report.claims.salvageBeatsSft.test.verdict, report.claims.salvageBeatsSft.heldout.verdict, report.claims.salvageBeatsSft.verdict]);
});

test('differences are reported with their sign, a value outside the original\'s interval is flagged, and differing configuration fields are listed', () => {
  const original = readJson('orig', 'report.json');
  const replay = structuredClone(original);
  const salvage = replay.methods.findIndex((x: { method: string }) => x.method === 'salvage');
  replay.sft.reflect.valLoss = original.sft.reflect.valLoss + 0.5;
  const ci = original.methods[salvage].test.success.ci95;
  replay.methods[salvage].test.success.value = ci.high + 0.01 > 1 ? ci.low - 0.01 : ci.high + 0.01;
  replay.claims.fewerSteps.verdict = 'reproduced';
  replay.config.sft.steps = original.config.sft.steps + 1;
  replay.config.id = 'other';
  replay.config.replayOf = 'orig';
  replay.methods = replay.methods.filter((x: { method: string }) => x.method !== 'plain-grpo');
  const c = compareReports(original, replay);
  const val = rowOf(c, 'sft.reflect.valLoss');
  assert.ok(Math.abs(val.difference! - 0.5) < 1e-9);
  const s = rowOf(c, `methods.${salvage}.test.success`);
  assert.equal(s.inside, false);
  assert.ok(Math.abs(s.difference! - (replay.methods[salvage].test.success.value - original.methods[salvage].test.success.value)) < 1e-12);
  // A method the replay lacks: its figures are there with no replay value.
  const grpo = original.methods.findIndex((x: { method: string }) => x.method === 'plain-grpo');
  assert.deepEqual([rowOf(c, `methods.${grpo}.test.success`).replay, rowOf(c, `methods.${grpo}.test.success`).difference], [null, null]);
  assert.equal(c.verdicts[0].replay, 'reproduced');
  assert.equal(c.configsIdentical, false);
  assert.deepEqual(c.configDifferences, [{ field: 'sft.steps', original: original.config.sft.steps, replay: original.config.sft.steps + 1 }]);
});

test('a damaged report is refused with its file and field named', () => {
  const report = readJson('orig', 'report.json');
  const bad = structuredClone(report);
  bad.sft.plain.valLoss = 'low';
  assert.throws(() => compareReports(report, bad, { original: 'a/report.json', replay: 'b/report.json' }), /b\/report\.json: field sft\.plain\.valLoss: expected a number, null or a figure/);
  bad.sft.plain.valLoss = report.sft.plain.valLoss;
  bad.methods[0].test.success.ci95 = { low: 0 };
  assert.throws(() => compareReports(report, bad, { original: 'a/report.json', replay: 'b/report.json' }), /b\/report\.json: field methods\.0\.test\.success\.ci95: expected \{ low, high \}/);
  assert.throws(() => compareExperiments(labDir, 'orig', 'nope'), /no experiment nope/);
  assert.throws(() => compareExperiments(labDir, 'orig', 'orig-replay1'), /experiment orig-replay1 has no report\.json yet/);
});

// The CLI replay itself (run, interrupted, resumed, compared) is test/experiment/experiment-cli.test.ts.
test('lab experiment --replay refuses a missing experiment and flags it cannot be combined with', async () => {
  await assert.rejects(lab('--lab', labDir, 'experiment', '--replay', 'nope'), /no experiment nope/);
  await assert.rejects(lab('--lab', labDir, 'experiment', '--replay', 'orig', '--preset', 'tiny'), /--preset cannot be combined with --replay/);
  await assert.rejects(lab('--lab', labDir, 'experiment', '--replay', 'orig', '--resume', 'orig'), /--replay cannot be combined with --resume/);
});
