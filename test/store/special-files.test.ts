/**
 * A lab holds only regular files: a named pipe where an episode or a labels file belongs used to
 * block every reader (and the web server with it) until something wrote to it. Now it is named as
 * what it is and the rest of the lab lists, freezes and reads as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createDataset } from '../../main/datasets/index.ts';
import { LabelStore } from '../../main/store/labels.ts';
import { tmpLab, writeEpisode } from '../datasets/helpers.ts';
import { runLab as lab } from '../helpers/lab-cli.ts';

test('a named pipe named like an episode or a labels file is refused as not a regular file; nothing waits on it', { skip: process.platform === 'win32' && 'mkfifo' }, async () => {
  const store = tmpLab();
  const good = writeEpisode(store, { seed: 1 });
  const other = writeEpisode(store, { seed: 2 });
  const fifoEpisode = '20261206T000000Z-fifo0001';
  execFileSync('mkfifo', [join(store.dir, 'episodes', `${fifoEpisode}.jsonl`)]);
  const labels = new LabelStore(store.dir); // makes the labels folder
  execFileSync('mkfifo', [join(labels.dir, `${other}.jsonl`)]);

  const { episodes, errors } = store.listEpisodes();
  assert.deepEqual(episodes.map((e) => e.id).sort(), [good, other].sort());
  assert.equal(errors.length, 1);
  assert.match(errors[0], /fifo0001\.jsonl: a named pipe, not a regular file; a lab holds only regular files/);
  assert.throws(() => labels.read(other), /a named pipe, not a regular file/);

  // A freeze hashes each episode's labels file: this one cannot be hashed, so the freeze is refused, naming it.
  assert.throws(() => createDataset(store, { name: 'd', ratios: { train: 1, validation: 0, test: 0 } }), new RegExp(`labels/${other}\\.jsonl: a named pipe, not a regular file`));
  assert.deepEqual(createDataset(store, { name: 'd', filter: { ids: [good] }, ratios: { train: 1, validation: 0, test: 0 } }).manifest.episodes.map((e) => e.id), [good]);

  const { stdout } = await lab('--lab', store.dir, 'episodes', 'list', '--json');
  assert.equal(JSON.parse(stdout).total, 2);
});
