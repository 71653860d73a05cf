import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_WATCHES, TrainingLab, runGroup } from '../../main/server/training.ts';
import { readCompleteLines } from '../../main/server/jsonl-tail.ts';
import { summariseEval } from '../../main/evaluation/eval.ts';
import type { LabEvents } from '../../preload/api.ts';
import { trainingFixture } from './training-fixture.ts';
import { modelFiles } from '../../main/store/lab-files.ts';

const fixture = trainingFixture();
type Lines = LabEvents['trainingLines'];

function lab(labDir: string) {
  const events: Lines[] = [];
  const waiters: Array<() => void> = [];
  const t = new TrainingLab(labDir, (event, data) => {
    if (event !== 'trainingLines') return;
    events.push(data as Lines);
    for (const w of waiters.splice(0)) w();
  });
  const next = async (): Promise<Lines> => {
    while (!events.length) await new Promise<void>((r) => waiters.push(r));
    return events.shift()!;
  };
  return { t, next, events };
}

const lines = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

test('a torn last line is left unread until its newline arrives; a shorter file starts the tail over', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'lab-tail-')), 'x.jsonl');
  writeFileSync(path, '{"a":1}\n{"a":2}\n{"a":');
  const first = readCompleteLines(path, 0);
  assert.deepEqual(first.lines, ['{"a":1}', '{"a":2}']);
  assert.equal(first.offset, 16);
  assert.deepEqual(readCompleteLines(path, first.offset).lines, []);
  appendFileSync(path, '3}\n');
  assert.deepEqual(readCompleteLines(path, first.offset), { lines: ['{"a":3}'], offset: 24, reset: false });
  writeFileSync(path, '{"a":9}\n');
  assert.deepEqual(readCompleteLines(path, 24), { lines: ['{"a":9}'], offset: 8, reset: true });
});

test('the SFT loop writes one train-log line per step; the lab lists the SFT run (lab/policies/) and the Salvage-DS run (registry) with their curves', async () => {
  const f = await fixture;
  const log = lines(modelFiles(f.sftDir).trainLog);
  assert.deepEqual(log.map((l) => l.step), Array.from({ length: 30 }, (_, i) => i + 1));
  assert.ok(log.every((l) => typeof l.loss === 'number' && l.lr > 0 && l.tokensPerSec > 0));
  assert.equal(log.filter((l) => 'valLoss' in l).length, 1, 'validation loss on the last step only (evalEvery 1000)');

  const { t } = lab(f.labDir);
  const list = t.list();
  assert.deepEqual(list.errors, []);
  assert.deepEqual(list.runs.map((r) => [r.kind, r.dir, r.done, r.total]), [['salvage', f.salvageDir, 4, 4], ['sft', f.sftDir, 30, 30]]);
  assert.equal(list.runs[0].settings.preset, 'salvage');
  assert.equal(list.runs[1].settings.dataset, 'synthetic v1');

  const sft = t.read(f.sftDir);
  assert.deepEqual(sft.sft.map((p) => p.loss), log.map((l) => l.loss));
  assert.equal(sft.salvage.length, 0);
  const salvage = t.read(f.salvageDir);
  const stats = lines(modelFiles(f.salvageDir).salvageStats);
  assert.deepEqual(salvage.salvage, stats);
  assert.equal(salvage.offset, readFileSync(modelFiles(f.salvageDir).salvageStats).length);
  assert.throws(() => t.read(tmpdir()), /not a training run this lab knows/);
});

test('evaluations are listed with their per-family and per-tier metrics and the mining report', async () => {
  const f = await fixture;
  const { evaluations } = lab(f.labDir).t.list();
  assert.deepEqual(evaluations.map((e) => [e.id, e.policyDir]), [[f.sftEval, f.sftDir], [f.salvageEval, f.salvageDir]]);
  const expected = summariseEval(f.episodes[f.sftEval], 2);
  assert.deepEqual(evaluations[0].byFamily, expected.byFamily);
  assert.deepEqual(evaluations[0].byTier, expected.byTier);
  assert.equal(evaluations[0].mining!.failures, f.failures.length);
  assert.equal(evaluations[0].mining!.byMode.wrong_element, f.failures.filter((x) => x.mode === 'wrong_element').length);
  assert.equal(evaluations[1].mining, null);
});

test('a watched Salvage-DS run streams each appended iteration once it is complete', async () => {
  const f = await fixture;
  const { t, next, events } = lab(f.labDir);
  const data = t.read(f.salvageDir);
  const { watchId } = t.watch(f.salvageDir, data.offset);
  try {
    const line = JSON.stringify({ ...data.salvage[3], iteration: 4, meanReward: 0.625, kept: 3 });
    const path = modelFiles(f.salvageDir).salvageStats;
    appendFileSync(path, line.slice(0, 40)); // the writer is mid-line
    appendFileSync(path, line.slice(40) + '\n');
    const e = await next();
    assert.equal(e.watchId, watchId);
    assert.equal(e.dir, f.salvageDir);
    assert.equal(e.reset, false);
    assert.deepEqual(e.errors, []);
    assert.deepEqual(e.salvage.map((p) => [p.iteration, p.meanReward, p.kept]), [[4, 0.625, 3]]);
    assert.equal(e.offset, readFileSync(path).length);
    assert.equal(events.length, 0);
    assert.equal(t.list().runs.find((r) => r.kind === 'salvage')!.done, 5);
  } finally {
    t.unwatch(watchId);
    t.close();
  }
  assert.throws(() => t.watch(f.salvageDir, -1), /offset must be a non-negative integer/);
});

test('tails a page never unwatched are bounded: past MAX_WATCHES the oldest is closed', async () => {
  const f = await fixture;
  const { t } = lab(f.labDir);
  const ids = Array.from({ length: MAX_WATCHES + 2 }, () => t.watch(f.sftDir, 0).watchId);
  assert.deepEqual(t.watching, ids.slice(2));
  t.unwatch(ids.at(-1)!);
  assert.deepEqual(t.watching, ids.slice(2, -1));
  t.close();
  assert.deepEqual(t.watching, []);
});

test('a run is grouped by where it lives: its experiment, the lab\'s policies, or the folder it was registered from', () => {
  const lab = '/data/lab';
  assert.equal(runGroup(lab, '/data/lab/experiments/full4/policies/salvage-s1'), 'experiment full4');
  assert.equal(runGroup(lab, '/data/lab/experiments/full4-replay/policies/salvage-s1'), 'experiment full4-replay');
  assert.equal(runGroup(lab, '/data/lab/policies/sft-a'), 'lab policies');
  assert.equal(runGroup(lab, '/work/sweeps/wide-lr1e4'), 'folder /work/sweeps');
  assert.equal(runGroup(lab, '/data/lab/experiments/full4/policies/x/deeper'), 'folder /data/lab/experiments/full4/policies/x');
});
