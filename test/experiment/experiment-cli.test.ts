/**
 * The `lab experiment` command on real runs: the tiny experiment the tests share, made by
 * `lab experiment --preset tiny` (test/helpers/tiny-experiment.ts), read for its report; and a replay
 * of it run as a real process, stopped by Ctrl-C mid-way, resumed, and compared with its original.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLab as lab, startLab } from '../helpers/lab-cli.ts';
import { newTinyExperimentLab } from '../helpers/tiny-experiment.ts';
import type { Comparison } from '../../main/experiment/compare.ts';
import { ExperimentFolder } from '../../main/experiment/folder.ts';
import { experimentConfig } from '../../main/experiment/config.ts';

interface StageLine { stage: string; status: string }
const stageLog = (dir: string): StageLine[] =>
  existsSync(join(dir, 'stages.jsonl')) ? readFileSync(join(dir, 'stages.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as StageLine) : [];
const count = (log: StageLine[], stage: string, status: string) => log.filter((e) => e.stage === stage && e.status === status).length;

let labDir: string;
before(async () => {
  labDir = await newTinyExperimentLab('lab-experiment-');
});

test('lab experiment --preset tiny: config.json records the parameters the stages ran with, and report.json holds the stages\' numbers', () => {
  const dir = join(labDir, 'experiments', 'orig');
  const log = stageLog(dir);
  const stages = [...new Set(log.map((e) => e.stage))];
  for (const s of stages) assert.equal(count(log, s, 'done'), 1, `stage ${s} finished ${count(log, s, 'done')} times`);
  const out = { report: join(dir, 'report.json'), html: join(dir, 'report.html') };
  const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
  assert.equal(config.preset, 'tiny');
  assert.deepEqual(config.salvage.seeds, [1]);
  // The recorded parameters are the ones the runs used, each variant's preset on top of them.
  const salvageCfg = (v: string) => JSON.parse(readFileSync(join(dir, 'policies', `salvage-${v}-s1`, 'salvage-config.json'), 'utf8'));
  for (const k of ['beta', 'clipEps', 'lr', 'anchorCoef', 'routineShare']) assert.equal(salvageCfg('salvage')[k], config.salvage.rl[k], k);
  assert.deepEqual([salvageCfg('salvage').iterations, salvageCfg('salvage').group, salvageCfg('salvage').seed], [config.salvage.iterations, config.salvage.group, 1]);
  assert.deepEqual([salvageCfg('salvage').lossAgg, salvageCfg('plain-grpo').lossAgg, salvageCfg('plain-grpo').gates.enabled], [config.salvage.rl.lossAgg, 'sequence', false]);

  // The report carries the stages' own numbers.
  const report = JSON.parse(readFileSync(out.report, 'utf8'));
  const outputs = (stage: string) => JSON.parse(readFileSync(join(dir, 'outputs', `${stage}.json`), 'utf8'));
  assert.deepEqual(report.methods.map((m: { method: string }) => m.method), ['sft-plain', 'sft-reflect', 'salvage', 'plain-grpo']);
  const method = (name: string) => report.methods.find((m: { method: string }) => m.method === name);
  for (const [name, stage] of [['sft-reflect', 'eval-sft-reflect-test'], ['sft-plain', 'eval-sft-plain-test'], ['salvage', 'eval-salvage-s1-test'], ['plain-grpo', 'eval-plain-grpo-s1-test']]) {
    const ev = outputs(stage);
    assert.equal(method(name).test.success.n, ev.overall.success.n);
    assert.equal(method(name).test.success.k, ev.overall.success.k);
    assert.ok(ev.overall.success.n > 0);
  }
  assert.equal(method('salvage').heldout.success.n, outputs('eval-salvage-s1-heldout').overall.success.n);
  assert.equal(report.failureModes.failures, outputs('mine').failures);
  // Every mined state was branched (mine.confirm), and the report counts the outcomes.
  const mining = JSON.parse(readFileSync(outputs('mine').path, 'utf8'));
  assert.ok(mining.all.every((f: { confirmation?: unknown }) => f.confirmation), 'every mined state has a confirmation');
  if (report.failureModes.failures > 0) {
    const counts = Object.values(report.failureModes.confirmation as Record<string, number>).reduce((a, b) => a + b, 0);
    assert.equal(counts, report.failureModes.failures);
  }
  assert.equal(report.collection.reflect.runId, outputs('collect-reflect').runId);
  assert.equal(report.sft.reflect.steps, config.sft.steps);
  assert.equal(report.sft.reflect.curve.at(-1).step, config.sft.steps);
  assert.equal(report.salvageCurves.length, 2);
  assert.equal(report.salvageCurves[0].iterations.length, config.salvage.iterations);
  assert.ok(['reproduced', 'inconclusive', 'not reproduced', 'not measurable'].includes(report.claims.fewerSteps.verdict));
  assert.deepEqual(report.timings.map((t: { stage: string }) => t.stage), stages);
  // Precision: each half-width is that of the difference it describes, against the sized-for target.
  const hw = (d: { ci95: { low: number; high: number } | null }) => (d.ci95 ? (d.ci95.high - d.ci95.low) / 2 : null);
  const close = (a: number | null, b: number | null) => (a === null ? b === null : b !== null && Math.abs(a - b) < 1e-3);
  assert.ok(close(report.precision.salvageTest, hw(report.claims.salvageBeatsSft.test.difference) === null ? null : 100 * hw(report.claims.salvageBeatsSft.test.difference)!));
  assert.ok(close(report.precision.fewerSteps, hw(report.claims.fewerSteps.difference)));
  assert.equal(report.precision.met, false, 'a tiny run is far from +-5 points');

  const html = readFileSync(out.html, 'utf8');
  assert.match(html, /<svg/);
  assert.match(html, /Claim 1 — /);
  assert.match(html, /Precision \(half-width of each 95% interval\)/);
  for (const m of ['sft-reflect', 'sft-plain', 'salvage', 'plain-grpo']) assert.ok(html.includes(m));
  assert.doesNotMatch(html, /<script|src="http|href="http/); // self-contained: no script, nothing fetched
});

test('lab experiment --replay: stopped by Ctrl-C mid-way, resumed without redoing a finished stage, and compared equal to its original', async () => {
  const dir = join(labDir, 'experiments', 'cli-replay');
  // Interrupted once both SFT policies exist, so the stop lands in the middle of the pipeline.
  const t0 = performance.now();
  const child = startLab(['--lab', labDir, 'experiment', '--replay', 'orig', '--out', 'cli-replay']);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let sent = false;
  const poll = setInterval(() => {
    if (!sent && count(stageLog(dir), 'sft-plain', 'done') === 1) {
      sent = true;
      child.kill('SIGINT');
    }
  }, 100);
  const code = await exited;
  clearInterval(poll);
  assert.ok(sent, `the run ended before it could be interrupted:\n${stderr}`);
  assert.equal(code, 130, stderr);
  assert.match(stderr, /experiment cli-replay \(preset tiny, a replay of orig\)/);
  assert.match(stderr, /Continue with: npm run lab -- experiment --resume cli-replay/);
  const doneBefore = [...new Set(stageLog(dir).filter((e) => e.status === 'done').map((e) => e.stage))];
  assert.ok(doneBefore.includes('collect-reflect') && doneBefore.includes('sft-plain'));
  assert.equal(existsSync(join(dir, 'report.json')), false);

  const { stdout, stderr: err2 } = await lab('--lab', labDir, 'experiment', '--resume', 'cli-replay', '--json');
  process.stderr.write(`tiny replay through the CLI, with a Ctrl-C and a resume: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  const out = JSON.parse(stdout);
  assert.deepEqual([out.experimentId, out.replayOf, out.stopped], ['cli-replay', 'orig', false]);
  for (const s of doneBefore) assert.match(err2, new RegExp(`${s}: done before, skipped`));
  const log = stageLog(dir);
  for (const s of new Set(log.map((e) => e.stage))) assert.equal(count(log, s, 'done'), 1, `stage ${s} finished ${count(log, s, 'done')} times`);
  for (const s of doneBefore) assert.equal(count(log, s, 'started'), 1, `finished stage ${s} was started again on resume`);

  const c = JSON.parse((await lab('--lab', labDir, 'experiment', 'compare', 'orig', 'cli-replay', '--json')).stdout) as Comparison;
  assert.deepEqual([c.original, c.replay, c.configsIdentical], ['orig', 'cli-replay', true]);
  // Everything is seeded: collection, SFT, evaluation and Salvage-DS give the same figures again,
  // across an interruption.
  const differing = c.rows.filter((r) => r.group !== 'time' && r.difference !== 0 && !(r.original === null && r.replay === null));
  assert.deepEqual(differing, []);
  const text = (await lab('--lab', labDir, 'experiment', 'compare', 'orig', 'cli-replay')).stdout;
  assert.match(text, /^orig \(original\) vs cli-replay \(replay\)\nconfigurations: identical \(apart from id, createdAt, replayOf\)/);
  assert.match(text, /SFT on reflect data: validation loss +\d/);
  assert.match(text, /sft-reflect, test: success rate .* yes \[/);
  assert.match(text, /0 figure\(s\) differ \(time aside\), 0 outside the original's interval/);
});

test('lab experiment: a bad preset or flag is refused with a clear error', async () => {
  const labDir = mkdtempSync(join(tmpdir(), 'lab-experiment-bad-'));
  await assert.rejects(lab('--lab', labDir, 'experiment', '--preset', 'huge'), /--preset must be one of tiny, demo, full, got "huge"/);
  await assert.rejects(lab('--lab', labDir, 'experiment', '--resume', 'nope', '--seeds', '2'), /--seeds cannot be combined with --resume/);
  await assert.rejects(lab('--lab', labDir, 'experiment', '--preset', 'full', '--seeds', '2'), /full preset runs at least 3 training seeds/);
});

test('lab experiment report: the finished experiment as text, --json (report.json itself) and --markdown (every table, its figures read from report.json)', async () => {
  const path = join(labDir, 'experiments', 'orig', 'report.json');
  const report = JSON.parse(readFileSync(path, 'utf8'));
  assert.deepEqual(JSON.parse((await lab('--lab', labDir, 'experiment', 'report', 'orig', '--json')).stdout), report);
  assert.match((await lab('--lab', labDir, 'experiment', 'report', 'orig')).stdout, new RegExp(`claim 1 \\(fewer steps on solved test tasks\\): ${report.claims.fewerSteps.verdict}`));

  const md = (await lab('--lab', labDir, 'experiment', 'report', 'orig', '--markdown')).stdout;
  assert.match(md, /^# Experiment `orig` \(preset tiny\)$/m);
  assert.match(md, new RegExp(`^\\*\\*Claim 1: ${report.claims.fewerSteps.verdict}\\.\\*\\*`, 'm'));
  assert.match(md, new RegExp(`^\\*\\*Claim 2: ${report.claims.salvageBeatsSft.verdict}\\.\\*\\*`, 'm'));
  // One row per method, with its success as report.json pools it.
  for (const m of report.methods) {
    const s = m.test.success;
    const row = md.split('\n').find((l: string) => l.startsWith(`| ${m.method} |`));
    assert.ok(row, `a row for ${m.method}`);
    assert.ok(row!.includes(`| ${s.k}/${s.n}, ${s.value === null ? 'n/a' : `${(100 * s.value).toFixed(1)}%`}`), row);
  }
  for (const a of report.ablations) assert.ok(md.includes(`| ${a.variant} |`), a.variant);
  assert.ok(md.includes(`${report.failureModes.failures} failures mined from ${report.failureModes.failed} failed rollouts`));
  // Every table is well formed: as many cells in each row as in its header.
  for (const block of md.split('\n\n').filter((b: string) => b.startsWith('| '))) {
    const widths = block.trim().split('\n').map((l: string) => l.split(/(?<!\\)\|/).length);
    assert.ok(widths.every((w: number) => w === widths[0]), block);
  }

  // A report written before reports stated their precision still renders, and says so.
  const { renderReportMarkdown } = await import('../../main/experiment/report-markdown.ts');
  const { precision: _, ...old } = report;
  assert.match(renderReportMarkdown(old), /^Precision: not recorded/m);
  // Nothing to report yet, or no such experiment: named.
  const fresh = mkdtempSync(join(tmpdir(), 'lab-experiment-report-'));
  ExperimentFolder.create(fresh, experimentConfig('tiny', 'early'));
  await assert.rejects(lab('--lab', fresh, 'experiment', 'report', 'early'), /experiment early has no report yet .*lab experiment status early/);
  await assert.rejects(lab('--lab', labDir, 'experiment', 'report', 'nope'), /no experiment nope in /);
});

test('lab experiment report --partial: an unfinished experiment reported from its finished stages, each variant over the seeds evaluated so far; nothing written', async () => {
  const copy = mkdtempSync(join(tmpdir(), 'lab-experiment-partial-'));
  cpSync(labDir, copy, { recursive: true });
  const dir = join(copy, 'experiments', 'orig');
  const finished = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
  // A finished experiment: --partial reads its report.json as it is.
  assert.deepEqual(JSON.parse((await lab('--lab', copy, 'experiment', 'report', 'orig', '--partial', '--json')).stdout), finished);

  // Stopped before plain-GRPO's evaluations: their done lines are not there (as after a kill).
  rmSync(join(dir, 'report.json'));
  const unfinish = (stages: string[]) => {
    const lines = readFileSync(join(dir, 'stages.jsonl'), 'utf8').split('\n').filter((l) => l.trim());
    writeFileSync(join(dir, 'stages.jsonl'), lines.filter((l) => { const e = JSON.parse(l); return !(stages.includes(e.stage) && e.status === 'done'); }).join('\n') + '\n');
  };
  unfinish(['eval-plain-grpo-s1-test', 'eval-plain-grpo-s1-heldout']);
  const before = readFileSync(join(dir, 'stages.jsonl'), 'utf8');
  const partial = JSON.parse((await lab('--lab', copy, 'experiment', 'report', 'orig', '--partial', '--json')).stdout);
  assert.deepEqual(partial.partial, { stagesDone: finished.timings.length - 2, stages: finished.timings.length });
  type Method = { method: string; seeds: number[]; test: { success: { n: number } } };
  const method = (r: { methods: Method[] }, name: string) => r.methods.find((m) => m.method === name)!;
  assert.deepEqual(method(partial, 'salvage'), method(finished, 'salvage'), 'a variant whose evaluations finished: as in the finished report');
  assert.deepEqual([method(partial, 'plain-grpo').seeds, method(partial, 'plain-grpo').test.success.n], [[], 0], 'no seed evaluated: no figure');
  assert.deepEqual(partial.claims, finished.claims);
  assert.match((await lab('--lab', copy, 'experiment', 'report', 'orig', '--partial', '--markdown')).stdout, /\*\*Partial report\*\* of an unfinished experiment \(\d+ of \d+ stages/);
  assert.ok(!existsSync(join(dir, 'report.json')) && readFileSync(join(dir, 'stages.jsonl'), 'utf8') === before, 'read only');
  // Without --partial there is no report; before mining there is no partial one either.
  await assert.rejects(lab('--lab', copy, 'experiment', 'report', 'orig'), /experiment orig has no report yet/);
  unfinish(['mine']);
  await assert.rejects(lab('--lab', copy, 'experiment', 'report', 'orig', '--partial'), /a partial report needs its SFT, evaluation and mining stages; not finished yet: mine/);
});

test('ablations are compared with Salvage-DS at their own training seeds: with ablationSeeds [1], Salvage-DS seed 1 alone, while its method row pools every seed', async () => {
  const copy = mkdtempSync(join(tmpdir(), 'lab-experiment-ablation-seeds-'));
  cpSync(labDir, copy, { recursive: true });
  const dir = join(copy, 'experiments', 'orig');
  const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...config, salvage: { ...config.salvage, seeds: [1, 2], ablationSeeds: [1] } }));
  // Seed 2 of Salvage-DS, made from seed 1's outputs: its evaluations solve every episode, so pooling it would show.
  const folder = ExperimentFolder.open(copy, 'orig');
  const outputs = (stage: string) => JSON.parse(readFileSync(join(dir, 'outputs', `${stage}.json`), 'utf8'));
  folder.finish('salvage-salvage-s2', { ...outputs('salvage-salvage-s1'), seed: 2 }, 1);
  for (const split of ['test', 'heldout']) {
    const o = outputs(`eval-salvage-s1-${split}`);
    const ev = JSON.parse(readFileSync(o.path, 'utf8'));
    const path = join(copy, `seed2-${split}.json`);
    writeFileSync(path, JSON.stringify({ ...ev, episodes: ev.episodes.map((e: object) => ({ ...e, success: true })) }));
    folder.finish(`eval-salvage-s2-${split}`, { ...o, path }, 1);
  }
  const { buildReport, rateDifference } = await import('../../main/experiment/report.ts');
  const { rate } = await import('../../main/common/stats.ts');
  const report = await buildReport(ExperimentFolder.read(copy, 'orig'), 'chromium');
  const method = (name: string) => report.methods.find((m) => m.method === name)!;
  assert.deepEqual(method('salvage').seeds, [1, 2]);
  assert.deepEqual(method('plain-grpo').seeds, [1]);
  const seed1 = outputs('eval-salvage-s1-test').overall.success;
  assert.ok(method('salvage').test.success.k > seed1.k, 'the method row pools seed 2 in');
  const ablation = report.ablations.find((a) => a.variant === 'plain-grpo')!;
  assert.deepEqual(ablation.seeds, [1]);
  assert.deepEqual(ablation.test.vsSalvage, rateDifference(method('plain-grpo').test.success, rate(seed1.k, seed1.n)));
  const held1 = outputs('eval-salvage-s1-heldout').overall.success;
  assert.deepEqual(ablation.heldout.vsSalvage, rateDifference(method('plain-grpo').heldout!.success, rate(held1.k, held1.n)));
});
