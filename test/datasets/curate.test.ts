import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LabelStore } from '../../main/store/labels.ts';
import {
  createDataset,
  DatasetError,
  listDatasetNames,
  listVersions,
  parseRatios,
  previewDataset,
  readManifest,
  splitOf,
  type DatasetFilter,
} from '../../main/datasets/index.ts';
import { tmpLab, writeEpisode } from './helpers.ts';

/** A lab with a mix of families, agents, outcomes, lengths and dates. */
function mixedLab() {
  const lab = tmpLab();
  const ids = {
    shopOk: writeEpisode(lab, { family: 'shop', seed: 1, agent: 'oracle', instruction: 'Buy a red mug', createdAt: '2026-01-01T00:00:00.000Z' }),
    shopFail: writeEpisode(lab, { family: 'shop', seed: 2, agent: 'random', success: false, actions: ["click('1')"], createdAt: '2026-02-01T00:00:00.000Z' }),
    flightsOk: writeEpisode(lab, { family: 'flights', seed: 3, tier: 2, agent: 'oracle', instruction: 'Book a flight to Boston', createdAt: '2026-03-01T00:00:00.000Z' }),
    flightsRunning: writeEpisode(lab, { family: 'flights', seed: 4, agent: 'llm', success: null, actions: ["click('1')", "click('2')"], createdAt: '2026-04-01T00:00:00.000Z' }),
  };
  return { lab, ids };
}

const select = (lab: ReturnType<typeof tmpLab>, filter: DatasetFilter) =>
  previewDataset(lab, { filter })
    .episodes.map((e) => e.id)
    .sort();

test('filters select by family, status, agent, steps, tags, dates, ids and instruction text', () => {
  const { lab, ids } = mixedLab();
  const labels = new LabelStore(lab.dir);
  labels.append(ids.shopFail, { type: 'episode', tags: ['reviewed', 'hard'] });
  labels.append(ids.flightsOk, { type: 'episode', tags: ['reviewed'] });
  const sorted = (...xs: string[]) => xs.sort();

  assert.deepEqual(select(lab, { families: ['shop'] }), sorted(ids.shopOk, ids.shopFail));
  assert.deepEqual(select(lab, { statuses: ['success'] }), sorted(ids.shopOk, ids.flightsOk));
  assert.deepEqual(select(lab, { statuses: ['incomplete'] }), [ids.flightsRunning]);
  assert.deepEqual(select(lab, { agents: ['random', 'llm'] }), sorted(ids.shopFail, ids.flightsRunning));
  assert.deepEqual(select(lab, { minSteps: 2, maxSteps: 2 }), [ids.flightsRunning]);
  assert.deepEqual(select(lab, { tags: ['reviewed'] }), sorted(ids.shopFail, ids.flightsOk));
  assert.deepEqual(select(lab, { tags: ['reviewed', 'hard'] }), [ids.shopFail]);
  assert.deepEqual(select(lab, { excludeTags: ['hard'] }), sorted(ids.shopOk, ids.flightsOk, ids.flightsRunning));
  assert.deepEqual(select(lab, { tags: ['reviewed'], excludeTags: ['hard'] }), [ids.flightsOk]);
  assert.deepEqual(select(lab, { since: '2026-02-15', until: '2026-04-01' }), [ids.flightsOk]);
  assert.deepEqual(select(lab, { search: 'BOSTON' }), [ids.flightsOk]);
  assert.deepEqual(select(lab, { ids: [ids.shopOk] }), [ids.shopOk]);
  assert.equal(select(lab, {}).length, 4);

  // The label's outcome override wins over the checker's verdict (and over "incomplete").
  labels.append(ids.shopFail, { type: 'episode', outcome: 'success' });
  labels.append(ids.flightsRunning, { type: 'episode', outcome: 'failure' });
  assert.deepEqual(select(lab, { statuses: ['success'] }), sorted(ids.shopOk, ids.shopFail, ids.flightsOk));
  assert.deepEqual(select(lab, { statuses: ['failure'] }), [ids.flightsRunning]);

  assert.throws(() => previewDataset(lab, { filter: { since: 'yesterday-ish' } }), /filter since: not a date/);
  assert.throws(() => previewDataset(lab, { filter: { minSteps: 5, maxSteps: 2 } }), /minSteps \(5\) is above maxSteps \(2\)/);
  assert.throws(() => previewDataset(lab, { filter: { ids: ['nope'] } }), /filter ids: no readable episode nope/);
});

test('an agent filter names an agent as recorded or its kind before the colon (the demo records oracle:shop), not names that merely start alike', () => {
  const { lab, ids } = mixedLab();
  const qualified = writeEpisode(lab, { family: 'shop', seed: 9, agent: 'oracle:shop' });
  writeEpisode(lab, { family: 'shop', seed: 10, agent: 'oracles' });
  assert.deepEqual(select(lab, { agents: ['oracle'], families: ['shop'] }), [ids.shopOk, qualified].sort());
  assert.deepEqual(select(lab, { agents: ['oracle:shop'] }), [qualified]);
});

test('identical family+seed+actions are deduplicated, keeping the earliest', () => {
  const lab = tmpLab();
  const first = writeEpisode(lab, { seed: 7, createdAt: '2026-01-01T00:00:00.000Z' });
  const dup = writeEpisode(lab, { seed: 7, createdAt: '2026-01-02T00:00:00.000Z' });
  const otherActions = writeEpisode(lab, { seed: 7, actions: ["click('5')"], createdAt: '2026-01-03T00:00:00.000Z' });
  const otherSeed = writeEpisode(lab, { seed: 8, createdAt: '2026-01-04T00:00:00.000Z' });
  const r = previewDataset(lab);
  assert.deepEqual(r.episodes.map((e) => e.id).sort(), [first, otherActions, otherSeed].sort());
  assert.deepEqual(r.dropped, [{ id: dup, duplicateOf: first }]);
  assert.equal(r.matched, 4);
  const { manifest, dropped } = createDataset(lab, { name: 'dedup' });
  assert.equal(dropped, 1);
  assert.deepEqual(manifest.dedupe, { dropped: 1, droppedIds: [{ id: dup, duplicateOf: first }] });
});

test('a verified shortening replaces its original in a dataset: the original is dropped as superseded, the shortening kept', () => {
  const lab = tmpLab();
  const original = writeEpisode(lab, { seed: 7, actions: ["click('5')", "click('6')", "fill('3', 'Boston')", "send_msg_to_user('done')"], createdAt: '2026-01-01T00:00:00.000Z' });
  const shortened = writeEpisode(lab, { seed: 7, shortenedFrom: original, createdAt: '2026-01-02T00:00:00.000Z' });
  const unrelated = writeEpisode(lab, { seed: 8 });
  const r = previewDataset(lab);
  assert.deepEqual(r.episodes.map((e) => e.id).sort(), [shortened, unrelated].sort());
  assert.deepEqual(r.dropped, [{ id: original, duplicateOf: shortened }]);
  // Selected alone, the original stays: nothing replaces it in that selection.
  assert.deepEqual(previewDataset(lab, { filter: { ids: [original] } }).episodes.map((e) => e.id), [original]);
});

test('the split is by task instance: deterministic, all episodes of an instance together, ratios respected', () => {
  const ratios = parseRatios('0.6,0.2,0.2');
  const counts = { train: 0, validation: 0, test: 0 };
  for (let seed = 0; seed < 2000; seed++) counts[splitOf('shop', seed, ratios)]++;
  assert.ok(Math.abs(counts.train / 2000 - 0.6) < 0.05, JSON.stringify(counts));
  assert.ok(Math.abs(counts.validation / 2000 - 0.2) < 0.05, JSON.stringify(counts));
  assert.equal(splitOf('shop', 42, ratios), splitOf('shop', 42, ratios));
  assert.equal(splitOf('shop', 42, parseRatios('0,0,1')), 'test');
  assert.equal(splitOf('shop', 42, parseRatios('1,0,0')), 'train');
  assert.throws(() => parseRatios('0.8,0.1'), /three non-negative numbers/);
  assert.throws(() => parseRatios('0.8,0.3,0.1'), /sum to 1/);

  const lab = tmpLab();
  for (let seed = 0; seed < 12; seed++) {
    writeEpisode(lab, { seed, agent: 'oracle' });
    writeEpisode(lab, { seed, agent: 'random', actions: ["click('1')"], success: false });
  }
  const { manifest } = createDataset(lab, { name: 'by-instance', ratios: parseRatios('0.5,0.25,0.25') });
  const bySeed = new Map<number, Set<string>>();
  for (const e of manifest.episodes) bySeed.set(e.seed, (bySeed.get(e.seed) ?? new Set()).add(e.split));
  assert.equal(bySeed.size, 12);
  for (const [seed, splits] of bySeed) assert.equal(splits.size, 1, `seed ${seed} is in ${[...splits]}`);
  assert.equal(manifest.stats.instances, 12);
  assert.equal(manifest.stats.bySplit.train + manifest.stats.bySplit.validation + manifest.stats.bySplit.test, 24);
});

test('manifests are versioned, hold hashes and composition stats, and never overwrite', () => {
  const { lab, ids } = mixedLab();
  const v1 = createDataset(lab, { name: 'web.v-1', filter: { statuses: ['success'] }, description: 'first cut' }).manifest;
  const v2 = createDataset(lab, { name: 'web.v-1' }).manifest;
  assert.equal(v1.version, 1);
  assert.equal(v2.version, 2);
  assert.deepEqual(listVersions(lab.dir, 'web.v-1'), [1, 2]);
  assert.deepEqual(listDatasetNames(lab.dir), ['web.v-1']);
  const onDisk = JSON.parse(readFileSync(join(lab.dir, 'datasets', 'web.v-1', 'v1', 'manifest.json'), 'utf8'));
  assert.deepEqual(onDisk, v1, 'v1 is untouched by v2');
  assert.deepEqual(onDisk.filter, { statuses: ['success'] });
  assert.equal(onDisk.description, 'first cut');
  assert.match(onDisk.createdAt, /^\d{4}-\d\d-\d\dT/);
  const e = onDisk.episodes.find((x: { id: string }) => x.id === ids.flightsOk)!;
  assert.match(e.episodeSha256, /^[0-9a-f]{64}$/);
  assert.equal(e.labelsSha256, null);
  assert.equal(e.tier, 2);
  assert.deepEqual(v1.stats.byFamily, { shop: 1, flights: 1 });
  assert.deepEqual(v1.stats.byOutcome, { success: 2 });
  assert.deepEqual(v1.stats.byTier, { 1: 1, 2: 1 });
  assert.deepEqual(v1.stats.byAgent, { oracle: 2 });
  assert.equal(v1.stats.steps, 6);
  assert.deepEqual(v2.stats.byOutcome, { success: 2, failure: 1, incomplete: 1 });
  assert.deepEqual(readManifest(lab.dir, 'web.v-1'), v2, 'latest by default');
  assert.deepEqual(readManifest(lab.dir, 'web.v-1@v1'), v1);
  assert.throws(() => readManifest(lab.dir, 'web.v-1@v9'), /dataset web\.v-1 v9 does not exist \(versions: v1, v2\)/);
  assert.throws(() => readManifest(lab.dir, 'nothing'), /dataset nothing does not exist/);
});

test('editing an episode or its labels after freezing is detected, naming the episode', () => {
  const { lab, ids } = mixedLab();
  createDataset(lab, { name: 'frozen' });
  assert.doesNotThrow(() => readManifest(lab.dir, 'frozen'));
  new LabelStore(lab.dir).append(ids.shopOk, { type: 'step', step: 0, label: 'wrong' });
  assert.throws(
    () => readManifest(lab.dir, 'frozen'),
    (err: unknown) => err instanceof DatasetError && err.message.includes(`the labels of episode ${ids.shopOk} changed`),
  );
  const v2 = createDataset(lab, { name: 'frozen' }).manifest;
  assert.match(v2.episodes.find((e) => e.id === ids.shopOk)!.labelsSha256!, /^[0-9a-f]{64}$/);
  const path = join(lab.dir, 'episodes', `${ids.flightsOk}.jsonl`);
  const text = readFileSync(path, 'utf8');
  writeFileSync(path, text.replace('Book a flight', 'Book a train'));
  assert.throws(() => readManifest(lab.dir, 'frozen@v2'), new RegExp(`dataset frozen v2: episode ${ids.flightsOk} changed after the dataset was frozen`));
  assert.doesNotThrow(() => readManifest(lab.dir, 'frozen@v2', { verify: false }));
  writeFileSync(path, text);
  assert.doesNotThrow(() => readManifest(lab.dir, 'frozen@v2'), 'restored bytes verify again');
});

test('bad names, empty selections and malformed manifests give errors that name the problem', () => {
  const { lab } = mixedLab();
  for (const bad of ['', '../up', 'a/b', 'has space', 'x@y', '.hidden']) {
    assert.throws(() => createDataset(lab, { name: bad }), /invalid dataset name/, bad);
  }
  assert.throws(() => createDataset(lab, { name: 'empty', filter: { families: ['nope'] } }), /dataset empty: nothing to freeze: the filter matches no episode/);
  assert.throws(() => createDataset(lab, { name: 'empty', filter: { agents: ['noisy'] } }), /the filter matches no episode \(agents of this lab's episodes: llm, oracle, random\)/);
  assert.ok(!existsSync(join(lab.dir, 'datasets', 'empty', 'v1')), 'no version folder for a refused dataset');

  createDataset(lab, { name: 'broken' });
  const path = join(lab.dir, 'datasets', 'broken', 'v1', 'manifest.json');
  const m = JSON.parse(readFileSync(path, 'utf8'));
  m.episodes[1].episodeSha256 = 'not-a-hash';
  writeFileSync(path, JSON.stringify(m));
  assert.throws(() => readManifest(lab.dir, 'broken'), /dataset broken v1: .*manifest\.json: field episodes\.1\.episodeSha256: expected a sha256 hex digest/);
  m.episodes = [];
  writeFileSync(path, JSON.stringify(m));
  assert.throws(() => readManifest(lab.dir, 'broken'), /field episodes: a dataset holds at least one episode/);
  writeFileSync(path, '{"format": ');
  assert.throws(() => readManifest(lab.dir, 'broken'), /dataset broken v1: .*: not valid JSON/);
});
