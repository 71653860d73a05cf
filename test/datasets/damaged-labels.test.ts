/**
 * One labels file full of random bytes must not take its episode (or the list) down: the episode
 * lists, freezes into a dataset and exports without its labels, and the damage is reported with
 * the labels file and line. A new edit to that file is refused before anything is written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabelStore } from '../../main/store/labels.ts';
import { LabService } from '../../main/server/service.ts';
import { createDataset, exportDataset } from '../../main/datasets/index.ts';
import { tmpLab, writeEpisode } from './helpers.ts';

/** Bytes no JSON parser accepts, with newlines inside, so the damage is not only a torn tail. */
const GARBAGE = Buffer.from([0x00, 0xff, 0x13, 0x7b, 0x0a, 0xc3, 0x28, 0x22, 0x0a, 0x5b, 0x9f, 0x0a]);

function labWithDamagedLabels() {
  const lab = tmpLab();
  const damaged = writeEpisode(lab, { seed: 1 });
  const labeled = writeEpisode(lab, { seed: 2 });
  const labels = new LabelStore(lab.dir);
  labels.append(labeled, { type: 'episode', tags: ['reviewed'] });
  labels.append(damaged, { type: 'episode', tags: ['lost'] });
  const file = join(lab.dir, 'labels', `${damaged}.jsonl`);
  writeFileSync(file, GARBAGE);
  return { lab, damaged, labeled, file };
}

test('the episode list keeps an episode whose labels file is random bytes, and names file and line', async () => {
  const { lab, damaged, labeled, file } = labWithDamagedLabels();
  const service = new LabService({ store: lab, families: new Map(), mode: 'web', startBrowser: () => Promise.reject(new Error('unused')) });
  try {
    const { episodes, errors } = await service.listEpisodes();
    assert.deepEqual(episodes.map((e) => e.id).sort(), [damaged, labeled].sort());
    const row = episodes.find((e) => e.id === damaged)!;
    assert.deepEqual(row.tags, [], 'listed without its labels');
    assert.equal(row.outcome, 'success');
    assert.deepEqual(episodes.find((e) => e.id === labeled)!.tags, ['reviewed'], 'other labels still apply');
    assert.equal(errors.length, 1);
    assert.match(errors[0], new RegExp(`episode ${damaged}: labels not applied: ${file.replace(/[.\\/]/g, '\\$&')}:1: not valid JSON`));
  } finally {
    await service.close();
  }
});

test('datasets create keeps the episode without its labels and warns; export writes it and warns', async () => {
  const { lab, damaged, labeled, file } = labWithDamagedLabels();
  const result = createDataset(lab, { name: 'd', ratios: { train: 1, validation: 0, test: 0 } });
  assert.deepEqual(result.manifest.episodes.map((e) => e.id).sort(), [damaged, labeled].sort());
  assert.deepEqual(result.errors, []);
  assert.equal(result.warnings.length, 1);
  assert.ok(result.warnings[0].includes(`${file}:1:`), result.warnings[0]);

  const out = join(mkdtempSync(join(tmpdir(), 'lab-export-')), 'openai');
  const exported = await exportDataset(lab, { dataset: 'd', format: 'openai', outDir: out });
  assert.equal(exported.samples, 6, 'three steps of each episode');
  assert.equal(exported.warnings.length, 1);
  assert.ok(exported.warnings[0].includes(`${file}:1:`), exported.warnings[0]);
});

test('a freeze that selects by tags fails closed on a labels file it cannot read: --exclude-tag does not let the episode in', () => {
  const { lab, damaged, file } = labWithDamagedLabels();
  // One bad line in the middle: the file's tags (an excluding one among them) are unknown.
  const ok = JSON.stringify({ type: 'episode', tags: ['exclude-me'], at: '2026-12-06T00:00:00.000Z' });
  writeFileSync(file, `${ok}\n{"type": "episode", "tags": [\n${ok}\n`);
  for (const filter of [{ excludeTags: ['exclude-me'] }, { tags: ['reviewed'] }]) {
    assert.throws(() => createDataset(lab, { name: 'x', filter, ratios: { train: 1, validation: 0, test: 0 } }),
      new RegExp(`dataset x: not frozen: the filter selects by tags, and the labels of 1 episode\\(s\\) it could select cannot be read in full.*episode ${damaged}: labels not applied: .*:2: not valid JSON`));
  }
  // An episode the rest of the filter leaves out does not block it.
  const flights = writeEpisode(lab, { family: 'flights', seed: 3 });
  const y = createDataset(lab, { name: 'y', filter: { excludeTags: ['exclude-me'], families: ['flights'] }, ratios: { train: 1, validation: 0, test: 0 } });
  assert.deepEqual(y.manifest.episodes.map((e) => e.id), [flights]);
});

test('a label edit to an unreadable labels file is refused, naming the file, and writes nothing', () => {
  const { lab, damaged, file } = labWithDamagedLabels();
  assert.throws(() => new LabelStore(lab.dir).append(damaged, { type: 'step', step: 0, label: 'ok' }), (err: Error) => {
    assert.match(err.message, /^label edit not saved: /);
    assert.ok(err.message.includes(`${file}:1:`), err.message);
    return true;
  });
  assert.deepEqual(readFileSync(file), GARBAGE);
});

test('the app\'s dataset list shows every readable version and names the one whose manifest cannot be read', async () => {
  const lab = tmpLab();
  writeEpisode(lab, { seed: 1 });
  for (const name of ['a', 'a', 'b']) createDataset(lab, { name, ratios: { train: 1, validation: 0, test: 0 } });
  const broken = join(lab.dir, 'datasets', 'a', 'v1', 'manifest.json');
  writeFileSync(broken, '{"format": ');
  const service = new LabService({ store: lab, families: new Map(), mode: 'web', startBrowser: () => Promise.reject(new Error('unused')) });
  try {
    const list = await service.listDatasets();
    assert.deepEqual(list.map((d) => [d.name, d.versions.map((v) => v.version)]), [['a', [2]], ['b', [1]]]);
    const a = list.find((d) => d.name === 'a')!;
    assert.equal(a.unreadable?.length, 1);
    assert.equal(a.unreadable![0].version, 1);
    assert.match(a.unreadable![0].error, /manifest\.json/);
    assert.equal(list.find((d) => d.name === 'b')!.unreadable, undefined);
  } finally {
    await service.close();
  }
});
