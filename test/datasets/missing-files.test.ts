/**
 * What a crash or a cleanup leaves behind must not sink a dataset: a screenshot file gone before
 * freezing is recorded in the manifest, and export writes every other step and names each one it
 * left out (or, with strict, fails); an orphan (no step, no end record: a run killed as the
 * episode began) is left out of a new dataset unless asked for, and counted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataset, DatasetError, exportDataset, previewDataset, readManifest } from '../../main/datasets/index.ts';
import { makePng, tmpLab, writeEpisode } from './helpers.ts';
import { runLab as lab } from '../helpers/lab-cli.ts';

const outDir = () => join(mkdtempSync(join(tmpdir(), 'lab-export-')), 'out');
const ALL_TRAIN = { train: 1, validation: 0, test: 0 };

function labWithLostScreenshot() {
  const lab = tmpLab();
  const pngs = [makePng(2, 2, [1, 0, 0]), makePng(2, 2, [2, 0, 0]), makePng(2, 2, [3, 0, 0])];
  const id = writeEpisode(lab, { seed: 1, screenshots: pngs });
  const other = writeEpisode(lab, { seed: 2, screenshots: [makePng(2, 2, [4, 0, 0]), makePng(2, 2, [5, 0, 0]), makePng(2, 2, [6, 0, 0])] });
  const lost = lab.readEpisode(id).steps[1].observation.screenshot!;
  const file = lab.blobs.pathOf(lost);
  rmSync(file);
  return { lab, id, other, lost, file };
}

test('freezing records a missing screenshot; export writes the rest and names the step and file it left out', async () => {
  const { lab, id, lost, file } = labWithLostScreenshot();
  const created = createDataset(lab, { name: 'shots', ratios: ALL_TRAIN });
  assert.deepEqual(created.warnings, [`episode ${id} step 1: screenshot ${file} is missing (recorded in the manifest; exports leave the step out)`]);
  const manifest = readManifest(lab.dir, 'shots');
  assert.deepEqual(manifest.episodes.find((e) => e.id === id)!.missingScreenshots, [{ step: 1, sha256: lost }]);

  for (const format of ['openai', 'hf', 'hf-parquet', 'sharegpt', 'verl'] as const) {
    const out = outDir();
    const result = await exportDataset(lab, { dataset: 'shots', format, outDir: out });
    assert.equal(result.samples, 5, `${format}: six steps, one left out`);
    assert.equal(result.missingScreenshots, 1);
    assert.deepEqual(result.warnings, [`dataset shots v1: episode ${id} step 1: screenshot ${file} is missing; step left out`]);
  }
  const rows = readFileSync(join((await exportDataset(lab, { dataset: 'shots', format: 'openai', outDir: outDir() })).outDir, 'train.jsonl'), 'utf8').trim().split('\n');
  assert.equal(rows.length, 5);

  const strictOut = outDir();
  await assert.rejects(exportDataset(lab, { dataset: 'shots', format: 'openai', outDir: strictOut, strict: true }), (err: Error) => {
    assert.ok(err instanceof DatasetError);
    assert.equal(err.message, `dataset shots v1: episode ${id} step 1: screenshot ${file} is missing`);
    return true;
  });
});

test('orphaned episodes are left out of a new dataset and counted, unless includeOrphans', () => {
  const lab = tmpLab();
  const kept = writeEpisode(lab, { seed: 1 });
  const stopped = writeEpisode(lab, { seed: 2, success: null, actions: ["click('1')"] });
  const orphan = writeEpisode(lab, { seed: 3, success: null, actions: [] });
  const preview = previewDataset(lab, {});
  assert.deepEqual(preview.episodes.map((e) => e.id).sort(), [kept, stopped].sort(), 'an incomplete episode with steps stays');
  assert.equal(preview.orphans, 1);
  const withOrphans = createDataset(lab, { name: 'all', filter: { includeOrphans: true } });
  assert.deepEqual(withOrphans.manifest.episodes.map((e) => e.id).sort(), [kept, stopped, orphan].sort());
  assert.equal(withOrphans.orphans, 0);
  assert.throws(() => createDataset(lab, { name: 'none', filter: { ids: [orphan] } }), /matches only 1 orphaned episodes/);
});

test('lab datasets create says how many orphans it left out; lab export reports the left-out step and --strict fails', async () => {
  const { lab: store, file } = labWithLostScreenshot();
  writeEpisode(store, { seed: 3, success: null, actions: [] });
  const created = await lab('--lab', store.dir, 'datasets', 'create', '--name', 'd', '--split', '1,0,0');
  assert.match(created.stderr, /left out 1 orphaned episode\(s\) .* --include-orphans keeps them/);
  assert.ok(created.stderr.includes(`screenshot ${file} is missing`), created.stderr);
  const exported = await lab('--lab', store.dir, 'export', '--dataset', 'd', '--format', 'openai', '--out', outDir());
  assert.ok(exported.stderr.includes(`warning: dataset d v1: episode`) && exported.stderr.includes(`${file} is missing; step left out`), exported.stderr);
  assert.match(exported.stdout, /5 samples .* 1 left out for a missing screenshot/);
  await assert.rejects(lab('--lab', store.dir, 'export', '--dataset', 'd', '--format', 'openai', '--out', outDir(), '--strict'), (err: Error & { stderr: string }) => {
    assert.ok(err.stderr.includes(`${file} is missing`), err.stderr);
    return true;
  });
});
