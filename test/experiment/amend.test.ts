/**
 * `lab experiment amend`: a stopped experiment's config changed with a reason, stages sent back
 * (reopened to continue their work, or redone from scratch) with every stage that reads their
 * outputs, nothing deleted (moved to set-aside/), and the pipeline's own view of the folder
 * (isDone, lastState, status) agreeing. Then the CLI, and its refusals.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { experimentConfig, parseExperimentConfig } from '../../main/experiment/config.ts';
import { ExperimentFolder } from '../../main/experiment/folder.ts';
import { experimentStages } from '../../main/experiment/stages.ts';
import { experimentStatus } from '../../main/experiment/status.ts';
import { amendExperiment, parseSetting } from '../../main/experiment/amend.ts';
import { experimentFiles } from '../../main/store/lab-files.ts';
import { labPaths } from '../../main/store/layout.ts';

const root = join(import.meta.dirname, '..', '..');
const NOW = new Date('2026-12-06T08:00:00.000Z');

/** A demo experiment stopped after its first Salvage-DS seed, with the files those stages leave. */
function stoppedAfterSeedOne(): { labDir: string; dir: string; rolloutEval: string } {
  const labDir = mkdtempSync(join(tmpdir(), 'lab-exp-amend-'));
  const folder = ExperimentFolder.create(labDir, experimentConfig('demo', 'd'));
  const stages = experimentStages(folder.config);
  const rolloutEval = '20261206T010000Z-aaaaaa';
  const miningPath = join(labPaths.eval(labDir, rolloutEval), 'mining.json');
  mkdirSync(labPaths.eval(labDir, rolloutEval), { recursive: true });
  writeFileSync(miningPath, '{"failures":3}\n');
  for (const s of stages.filter((x) => !/-s[2-9]/.test(x.name))) {
    folder.log({ stage: s.name, status: 'started' });
    let outputs: Record<string, unknown> = { stage: s.name };
    if (s.kind === 'sft' || s.kind === 'salvage') {
      const policy = join(folder.dir, 'policies', s.name);
      mkdirSync(policy, { recursive: true });
      writeFileSync(join(policy, 'weights.bin'), 'w');
      outputs = { dir: policy };
    }
    if (s.kind === 'sft') {
      mkdirSync(join(folder.dir, 'curves'), { recursive: true });
      writeFileSync(join(folder.dir, 'curves', `${s.name}.jsonl`), '{"step":1}\n');
    }
    if (s.kind.startsWith('eval-')) {
      const evalId = s.name === 'rollout-train' ? rolloutEval : `20261206T0100${String(stages.indexOf(s)).padStart(2, '0')}Z-bbbbbb`;
      folder.log({ stage: s.name, status: 'resumable', state: { evalId } });
      outputs = { evalId };
    }
    if (s.kind === 'mine') outputs = { evalId: rolloutEval, path: miningPath };
    folder.finish(s.name, outputs, 10);
  }
  return { labDir, dir: folder.dir, rolloutEval };
}

test('stages declare the stages they read, and every one comes earlier in the pipeline', () => {
  const stages = experimentStages(experimentConfig('full', 'f'));
  for (const [i, s] of stages.entries()) {
    for (const input of s.inputs) assert.ok(stages.slice(0, i).some((x) => x.name === input), `${s.name} reads ${input}, which does not run before it`);
  }
  const find = (n: string) => stages.find((s) => s.name === n)!;
  assert.deepEqual(find('eval-graded-s1-heldout').inputs, ['salvage-graded-s1']);
  assert.deepEqual(find('salvage-states-all-s1').inputs, ['sft-reflect']);
  assert.deepEqual(find('salvage-salvage-s1').inputs, ['sft-reflect', 'mine']);
});

test('a redone Salvage-DS seed: config changed and recorded, its policy and its evaluations set aside, the pipeline sees them as not done and starts them afresh', () => {
  const { labDir, dir } = stoppedAfterSeedOne();
  const r = amendExperiment(labDir, 'd', { set: [parseSetting('salvage.rl.lr=1e-5')], why: 'the first run left its start', redo: ['salvage-salvage-s1'], now: NOW });
  assert.equal(r.change, 'salvage.rl.lr 0.00003 -> 0.00001');
  assert.deepEqual(r.stages, [
    { stage: 'salvage-salvage-s1', how: 'redone' },
    { stage: 'eval-salvage-s1-test', how: 'redone' },
    { stage: 'eval-salvage-s1-heldout', how: 'redone' },
  ]);
  const aside = join(dir, 'set-aside', '20261206T080000Z');
  assert.equal(readFileSync(join(aside, 'policies', 'salvage-salvage-s1', 'weights.bin'), 'utf8'), 'w');
  assert.ok(existsSync(join(aside, 'outputs', 'eval-salvage-s1-test.json')));
  assert.ok(!existsSync(join(dir, 'policies', 'salvage-salvage-s1')));

  const config = parseExperimentConfig(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')), 'config.json');
  assert.equal(config.salvage.rl.lr, 1e-5);
  assert.deepEqual(config.amendments, [{ at: NOW.toISOString(), change: r.change, why: 'the first run left its start', reopened: r.stages.map((s) => s.stage) }]);

  const folder = ExperimentFolder.read(labDir, 'd');
  assert.equal(folder.isDone('salvage-salvage-s1'), false);
  assert.equal(folder.isDone('eval-salvage-s1-test'), false);
  // A redone evaluation gets a new id: the one it recorded before no longer counts.
  assert.equal(folder.lastState('eval-salvage-s1-test'), undefined);
  assert.equal(folder.isDone('salvage-graded-s1'), true);
  assert.equal(folder.isDone('mine'), true);
  const s = experimentStatus(labDir, 'd');
  assert.equal(s.stages.find((x) => x.name === 'eval-salvage-s1-test')!.status, 'stopped');
  assert.deepEqual(s.stages.find((x) => x.name === 'eval-salvage-s1-test')!.progress, { done: 0, total: experimentStages(config).find((x) => x.name === 'eval-salvage-s1-test')!.planned!.total, unit: 'episodes' });
  assert.equal(s.stages.find((x) => x.name === 'salvage-graded-s1')!.status, 'done');
  assert.deepEqual(s.amendments, config.amendments);
});

test('a reopened evaluation keeps its id (it takes more runs under it); an earlier stage reopened redoes everything that reads it, mining report included', () => {
  const { labDir, dir, rolloutEval } = stoppedAfterSeedOne();
  const before = ExperimentFolder.read(labDir, 'd').lastState('eval-sft-reflect-heldout');
  const r = amendExperiment(labDir, 'd', { set: [parseSetting('eval.runs=3')], why: 'more held-out episodes', reopen: ['eval-sft-reflect-heldout'], now: NOW });
  assert.deepEqual(r.stages, [{ stage: 'eval-sft-reflect-heldout', how: 'reopened' }]);
  let folder = ExperimentFolder.read(labDir, 'd');
  assert.equal(folder.isDone('eval-sft-reflect-heldout'), false);
  assert.deepEqual(folder.lastState('eval-sft-reflect-heldout'), before);

  const later = new Date(NOW.getTime() + 60_000);
  const r2 = amendExperiment(labDir, 'd', { set: [], why: 'mine with confirmation', reopen: ['rollout-train'], now: later });
  // Mining reads the rollouts; every Salvage-DS run on mined states reads mining; their evaluations read them.
  const readsMining = experimentStages(ExperimentFolder.read(labDir, 'd').config)
    .filter((x) => /^(salvage|eval)-(?!states-all)[a-z-]+-s1(-test|-heldout)?$/.test(x.name)).map((x) => `redone ${x.name}`);
  assert.deepEqual(r2.stages.map((s) => `${s.how} ${s.stage}`), ['reopened rollout-train', 'redone mine', ...readsMining]);
  // Stages that do not read mining stay done (states-all trains on the SFT data alone).
  folder = ExperimentFolder.read(labDir, 'd');
  for (const s of experimentStages(folder.config).filter((x) => x.name.startsWith('salvage-states-all-s1'))) assert.equal(folder.isDone(s.name), true);
  assert.equal(readFileSync(join(dir, 'set-aside', '20261206T080100Z', 'mining.json'), 'utf8'), '{"failures":3}\n');
  assert.ok(!existsSync(join(labPaths.eval(labDir, rolloutEval), 'mining.json')));
  // A third amendment in the same second sets aside into a folder of its own.
  const r3 = amendExperiment(labDir, 'd', { set: [], why: 'again', reopen: ['eval-sft-reflect-test'], now: later });
  assert.ok(r3.setAside.length > 0 && r3.setAside.every((m) => m.to.startsWith('set-aside/20261206T080100Z-2/')), JSON.stringify(r3.setAside));
  const amendments = parseExperimentConfig(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')), 'config.json').amendments!;
  assert.deepEqual(amendments.map((a) => a.change), ['eval.runs 1 -> 3', 'no config value changed', 'no config value changed']);
});

test('refusals name the problem and change nothing: unknown field, bad value, unknown or unrun stage, a collection, a running experiment', () => {
  const { labDir, dir } = stoppedAfterSeedOne();
  const config = readFileSync(join(dir, 'config.json'), 'utf8');
  const refuse = (req: Parameters<typeof amendExperiment>[2], msg: RegExp) => assert.throws(() => amendExperiment(labDir, 'd', req), msg);
  refuse({ set: [parseSetting('eval.nothing.x=1')], why: 'w' }, /--set eval\.nothing\.x: eval\.nothing is not a section of the config/);
  refuse({ set: [parseSetting('eval.runs=0')], why: 'w' }, /config\.json: field eval\.runs: .*>=1/);
  refuse({ set: [parseSetting('eval.runs=1')], why: 'w' }, /--set eval\.runs: already 1/);
  refuse({ set: [parseSetting('id=x')], why: 'w' }, /id names the experiment/);
  refuse({ set: [], why: 'w', reopen: ['eval-nothing'] }, /stage eval-nothing: experiment d has no such stage/);
  refuse({ set: [], why: 'w', redo: ['collect-plain'] }, /collect-plain: a collection cannot run again inside its experiment; replay/);
  refuse({ set: [parseSetting('salvage.seeds=[1,2]')], why: 'w', reopen: ['salvage-salvage-s2'] }, /salvage-salvage-s2: it has not run yet/);
  refuse({ set: [], why: ' ', reopen: ['mine'] }, /--why/);
  refuse({ set: [], why: 'w' }, /nothing to amend/);
  // Another live process holds the run lock (this test's parent stands in for it).
  writeFileSync(experimentFiles(dir).runLock, JSON.stringify({ pid: process.ppid, host: hostname(), startedAt: NOW.toISOString() }));
  refuse({ set: [parseSetting('eval.runs=3')], why: 'w', redo: ['mine'] }, /is being run by process/);
  assert.equal(readFileSync(join(dir, 'config.json'), 'utf8'), config);
  assert.ok(existsSync(join(dir, 'outputs', 'mine.json')));
  assert.ok(!existsSync(join(dir, 'set-aside')));
});

test('the CLI: --dry-run writes nothing, --json reports the stages and moves, a bad --set names the field', () => {
  const { labDir, dir } = stoppedAfterSeedOne();
  const lab = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'main/cli/index.ts'), '--lab', labDir, 'experiment', 'amend', 'd', ...args], { encoding: 'utf8', cwd: root });
  const config = readFileSync(join(dir, 'config.json'), 'utf8');
  const dry = lab('--set', 'salvage.iterations=4', '--why', 'longer', '--reopen', 'salvage-graded-s1', '--dry-run');
  assert.equal(dry.status, 0, dry.stderr);
  assert.match(dry.stdout, /^would amend experiment d: salvage\.iterations \d+ -> 4\n  reopened salvage-graded-s1\n  redone   eval-graded-s1-test\n/);
  assert.equal(readFileSync(join(dir, 'config.json'), 'utf8'), config);

  const out = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', join(root, 'main/cli/index.ts'), '--lab', labDir, 'experiment', 'amend', 'd', '--set', 'eval.claimHeldoutRuns={"sft":4,"salvage":2}', '--why', 'power', '--reopen', 'eval-salvage-s1-heldout', '--json'], { encoding: 'utf8', cwd: root }));
  assert.equal(out.change, 'eval.claimHeldoutRuns unset -> {"sft":4,"salvage":2}');
  assert.deepEqual(out.stages, [{ stage: 'eval-salvage-s1-heldout', how: 'reopened' }]);
  assert.equal(out.setAside.length, 1);
  assert.match(out.setAside[0].to, /^set-aside\/\d{8}T\d{6}Z\/outputs\/eval-salvage-s1-heldout\.json$/);

  const bad = lab('--set', 'eval.runs', '--why', 'w');
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /--set "eval\.runs": expected PATH=VALUE/);
});
