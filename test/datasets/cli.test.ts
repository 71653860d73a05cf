import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabelStore } from '../../main/store/labels.ts';
import { createDataset } from '../../main/datasets/index.ts';
import { runLab as lab, startLab } from '../helpers/lab-cli.ts';
import { makePng, tmpLab, writeEpisode } from './helpers.ts';

test('lab datasets create / list / show and lab export work end to end', async () => {
  const store = tmpLab();
  const png = makePng(2, 2, [9, 9, 9]);
  const a = writeEpisode(store, { family: 'shop', seed: 1, screenshots: [png, png, png] });
  writeEpisode(store, { family: 'shop', seed: 2, agent: 'random', success: false, actions: ["click('1')"] });
  writeEpisode(store, { family: 'flights', seed: 3, instruction: 'Book a flight to Boston' });
  new LabelStore(store.dir).append(a, { type: 'episode', tags: ['gold'] });
  const dir = store.dir;

  const created = JSON.parse((await lab('--lab', dir, 'datasets', 'create', '--name', 'web', '--status', 'success', '--split', '1,0,0', '--json')).stdout);
  assert.equal(created.manifest.version, 1);
  assert.equal(created.manifest.stats.episodes, 2);
  assert.deepEqual(created.manifest.filter, { statuses: ['success'] });
  assert.ok(existsSync(created.path));

  const v2 = await lab('--lab', dir, 'datasets', 'create', '--name', 'web', '--family', 'shop,flights', '--tag', 'gold', '--min-steps', '1', '--search', 'mug');
  assert.match(v2.stdout, /^web v2 /);
  assert.match(v2.stdout, /1 episodes, 1 task instances, 3 steps; 0 duplicates dropped/);

  const v3 = JSON.parse((await lab('--lab', dir, 'datasets', 'create', '--name', 'web', '--status', 'success', '--exclude-tag', 'gold', '--split', '1,0,0', '--json')).stdout);
  assert.deepEqual(v3.manifest.filter, { statuses: ['success'], excludeTags: ['gold'] });
  assert.equal(v3.manifest.stats.episodes, 1);

  const list = JSON.parse((await lab('--lab', dir, 'datasets', 'list', '--json')).stdout);
  assert.deepEqual(list.datasets.map((d: { name: string; versions: number[] }) => [d.name, d.versions]), [['web', [1, 2, 3]]]);

  const shown = (await lab('--lab', dir, 'datasets', 'show', 'web@v1')).stdout;
  assert.match(shown, /^web v1 /);
  assert.match(shown, /split \(by family\+seed, 1\/0\/0\): train 2, validation 0, test 0 episodes/);
  assert.match(shown, /outcomes: success 2/);

  const out = join(mkdtempSync(join(tmpdir(), 'lab-cli-export-')), 'sharegpt');
  const exported = JSON.parse((await lab('--lab', dir, 'export', '--dataset', 'web@v2', '--format', 'sharegpt', '--out', out, '--json')).stdout);
  assert.equal(exported.samples, 3);
  assert.equal(exported.images, 1);
  const rows = JSON.parse(readFileSync(join(out, exported.files.find((f: string) => f.endsWith('.json') && f !== 'dataset_info.json')), 'utf8'));
  assert.equal(rows[0].images.length, 1);
  const text = await lab('--lab', dir, 'export', '--dataset', 'web@v1', '--format', 'verl', '--out', join(out, '..', 'verl'));
  assert.match(text.stdout, /exported web v1 as verl: 6 samples \(train 6\), 1 images/);
  assert.ok(existsSync(join(out, '..', 'verl', 'train.parquet')));

});

test('datasets create refuses to put evaluation tasks (held-out families, test seeds) into the train split unless asked to', async () => {
  const store = tmpLab();
  writeEpisode(store, { family: 'shop', seed: 1 });
  writeEpisode(store, { family: 'shop', seed: 10003, agent: 'policy', split: 'test' });
  writeEpisode(store, { family: 'wiki', seed: 10001, agent: 'policy', split: 'test' });
  const dir = store.dir;
  const refused = lab('--lab', dir, 'datasets', 'create', '--name', 'all', '--status', 'success', '--split', '1,0,0');
  await assert.rejects(refused, /dataset all was not frozen: 1 episode\(s\) of held-out family wiki .*1 episode\(s\) recorded on test seeds \(shop\).*--allow-eval-tasks/s);
  assert.equal(existsSync(join(dir, 'datasets', 'all')), false);
  const oracle = JSON.parse((await lab('--lab', dir, 'datasets', 'create', '--name', 'all', '--agent', 'oracle', '--split', '1,0,0', '--json')).stdout);
  assert.equal(oracle.manifest.stats.episodes, 1);
  const allowed = await lab('--lab', dir, 'datasets', 'create', '--name', 'all', '--split', '1,0,0', '--allow-eval-tasks');
  assert.match(allowed.stdout, /^all v2 .*\n {2}3 episodes/);
  assert.match(allowed.stderr, /warning: 1 episode\(s\) of held-out family wiki/);
});

test('bad input to the dataset commands is refused with a message that names it', async () => {
  const store = tmpLab();
  writeEpisode(store);
  const dir = store.dir;
  await assert.rejects(lab('--lab', dir, 'datasets', 'create', '--name', '../x'), /invalid dataset name "\.\.\/x"/);
  await assert.rejects(lab('--lab', dir, 'datasets', 'create', '--name', 'x', '--status', 'great', '--split', '0.5,0.5'), /--status must be success, failure, incomplete, cancelled, got "great"/);
  await assert.rejects(lab('--lab', dir, 'export', '--dataset', 'nope', '--format', 'parquet', '--out', join(dir, 'o')), /--format must be one of sharegpt, openai, hf, hf-parquet, verl, got "parquet"/);
});

test('Ctrl-C during `lab export` cancels cleanly: exit 130, no output folder, no staging folder', async () => {
  const store = tmpLab();
  // Big enough (hf copies one file per step) that the export is still running, for a few
  // hundred ms, when its staging folder shows up.
  const shots = [makePng(160, 120, [200, 10, 10]), makePng(160, 120, [10, 200, 10]), makePng(160, 120, [10, 10, 200])];
  for (let seed = 0; seed < 600; seed++) writeEpisode(store, { seed, screenshots: shots });
  createDataset(store, { name: 'big' });
  const parent = mkdtempSync(join(tmpdir(), 'lab-cli-cancel-'));
  const out = join(parent, 'out');
  // Ctrl-C as soon as the staging folder appears (the export is under way): the folder watch says
  // when, rather than a poll that may look too late on a loaded machine.
  const staging = (f: string | null) => !!f?.includes('.partial-');
  const watcher = watch(parent);
  const underWay = new Promise<void>((resolve) => watcher.on('change', (_e, f) => staging(String(f)) && resolve()));
  const child = startLab(['--lab', store.dir, 'export', '--dataset', 'big', '--format', 'hf', '--out', out]);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await Promise.race([underWay, exited]);
  watcher.close();
  child.kill('SIGINT');
  const code = await exited;
  assert.equal(code, 130, stderr);
  assert.match(stderr, /export cancelled; nothing was written/);
  assert.deepEqual(readdirSync(parent), []);
});
