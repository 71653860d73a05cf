/** A dataset's draft of its next version (main/datasets/draft.ts): decisions gather, one freeze makes one version. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { applyDecision, draftFile, freezeDraft, readDraft, writeDraft, type DatasetDraft } from '../../main/datasets/draft.ts';
import { listDatasetNames, listVersions, readManifest } from '../../main/datasets/index.ts';
import { tmpLab, writeEpisode } from './helpers.ts';

const entry = (episodeId: string) => ({ episodeId, runId: 'run-1', task: 'shop:1', at: '2026-01-01T00:00:00.000Z' });
const ids = (d: DatasetDraft) => [d.accepted.map((e) => e.episodeId), d.rejected.map((e) => e.episodeId)];
const empty: DatasetDraft = { accepted: [], rejected: [] };

test('accepting adds to the draft unless the latest version holds it; rejecting takes it out or marks a frozen one to leave out', () => {
  const frozen = new Set(['old']);
  let d = applyDecision(empty, entry('a'), 'accept', frozen);
  assert.deepEqual([ids(d.draft), d.changed], [[['a'], []], true]);
  d = applyDecision(d.draft, entry('a'), 'accept', frozen);
  assert.deepEqual([ids(d.draft), d.changed], [[['a'], []], false], 'a second accept changes nothing');
  d = applyDecision(d.draft, entry('old'), 'accept', frozen);
  assert.deepEqual([ids(d.draft), d.changed], [[['a'], []], false], 'already in the latest version');
  d = applyDecision(d.draft, entry('old'), 'reject', frozen);
  assert.deepEqual([ids(d.draft), d.changed], [[['a'], ['old']], true]);
  d = applyDecision(d.draft, entry('a'), 'reject', frozen);
  assert.deepEqual([ids(d.draft), d.changed], [[[], ['old']], true], 'out of the draft again, nothing to leave out');
  d = applyDecision(d.draft, entry('b'), 'reject', frozen);
  assert.deepEqual([ids(d.draft), d.changed], [[[], ['old']], false], 'rejecting what is in neither changes nothing');
  d = applyDecision(d.draft, entry('old'), 'accept', frozen);
  assert.deepEqual([ids(d.draft), d.changed], [[[], []], true], 'accepting a frozen one again keeps it');
});

test('the draft is kept in the dataset folder, is no dataset by itself, and one freeze makes one version of all of it', () => {
  const lab = tmpLab();
  const [a, b, c] = [1, 2, 3].map((seed) => writeEpisode(lab, { family: 'shop', seed, agent: 'oracle' }));
  assert.deepEqual(readDraft(lab.dir, 'reviewed'), empty);
  writeDraft(lab.dir, 'reviewed', { accepted: [entry(a), entry(b)], rejected: [] });
  assert.ok(existsSync(draftFile(lab.dir, 'reviewed')));
  assert.deepEqual(ids(readDraft(lab.dir, 'reviewed')), [[a, b], []], 'read back as written');
  assert.deepEqual(listDatasetNames(lab.dir), [], 'a draft alone is no dataset');

  const first = freezeDraft(lab, 'reviewed');
  assert.deepEqual([first.manifest.version, first.added, first.removed], [1, 2, 0]);
  assert.deepEqual(listVersions(lab.dir, 'reviewed'), [1]);
  assert.deepEqual(readDraft(lab.dir, 'reviewed'), empty, 'frozen: the draft is empty');
  assert.equal(existsSync(draftFile(lab.dir, 'reviewed')), false);
  assert.throws(() => freezeDraft(lab, 'reviewed'), /the draft changes nothing/);

  // The next draft is relative to v1: one more in, one left out.
  writeDraft(lab.dir, 'reviewed', { accepted: [entry(c)], rejected: [entry(a)] });
  const second = freezeDraft(lab, 'reviewed');
  assert.deepEqual([second.manifest.version, second.added, second.removed], [2, 1, 1]);
  assert.deepEqual(readManifest(lab.dir, { name: 'reviewed', version: 2 }).episodes.map((e) => e.id).sort(), [b, c].sort());
  assert.match(second.manifest.description ?? '', /reviewed from collection run run-1/);

  // A version cannot be empty: the draft stays for the person to change.
  writeDraft(lab.dir, 'reviewed', { accepted: [], rejected: [entry(b), entry(c)] });
  assert.throws(() => freezeDraft(lab, 'reviewed'), /rejects every episode of v2/);
  assert.deepEqual(ids(readDraft(lab.dir, 'reviewed')), [[], [b, c]]);
  assert.deepEqual(listVersions(lab.dir, 'reviewed'), [1, 2]);
});

test('freezing a review draft raises the same checks as any freeze: test-seed episodes in train are refused until a person confirms', async () => {
  const { LabService } = await import('../../main/server/service.ts');
  const lab = tmpLab();
  const train = writeEpisode(lab, { family: 'shop', seed: 1 });
  const testSeed = writeEpisode(lab, { family: 'shop', seed: 10004, split: 'test' });
  writeDraft(lab.dir, 'reviewed', { accepted: [entry(train), entry(testSeed)], rejected: [] });
  const service = new LabService({ store: lab, families: new Map(), mode: 'web', startBrowser: () => Promise.reject(new Error('unused')) });
  try {
    const checks = await service.checkReviewDraft('reviewed');
    // Two episodes also leave the default validation and test splits empty: said too, as the Datasets view says it.
    assert.deepEqual(checks.map((c) => c.kind).sort(), ['empty-split', 'empty-split', 'test-seed']);
    assert.deepEqual(checks.find((c) => c.kind === 'test-seed')?.ids, [testSeed]);
    assert.deepEqual(listVersions(lab.dir, 'reviewed'), [], 'reading the checks freezes nothing');
    await assert.rejects(service.freezeReviewDraft('reviewed'), /dataset reviewed was not frozen; confirm first: .*1 episode\(s\) recorded on test seeds/);
    assert.deepEqual(ids(readDraft(lab.dir, 'reviewed')), [[train, testSeed], []], 'a refused freeze keeps the draft');
    const r = await service.freezeReviewDraft('reviewed', true);
    assert.equal(r.episodes, 2);
  } finally {
    await service.close();
  }
});
