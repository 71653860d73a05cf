/**
 * `lab fork EPISODE --step N --agent A`: the oracle's shop episode (4 steps, the goal reached at
 * the last) forked at step 3 with the oracle, in real Chromium; bad input refused, named, before
 * any browser starts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabStore } from '../../main/store/lab.ts';
import { runLab as lab, runLabWithEnv } from '../helpers/lab-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'lab-fork-cli-'));

test('`lab fork ID --step 3 --agent oracle` replays two steps, the oracle finishes; the fork is linked to its parent and step and says so in `episodes show`', async () => {
  const parent = JSON.parse((await lab('--lab', dir, 'episode', '--task', 'shop', '--seed', '1', '--tier', '1', '--json')).stdout);
  assert.deepEqual([parent.success, parent.steps], [true, 4]);

  const { stdout, stderr } = await lab('--lab', dir, 'fork', parent.id, '--step', '3', '--agent', 'oracle');
  assert.match(stdout, new RegExp(`^fork of ${parent.id} at step 3 \\(shop seed 1\\) with oracle: SUCCESS in 4 steps, 2 of them replayed \\(.* ended by goal_reached\\)$`, 'm'));
  assert.match(stderr, /step 1: click\('\d+'\) \(replayed\)\n\s+step 2: click\('\d+'\) \(replayed\)\n\s+step 3: select_option/);
  const id = stdout.match(/^episode (\S+)$/m)![1];
  const store = new LabStore(dir);
  const [p, fork] = [store.readEpisode(parent.id), store.readEpisode(id)];
  assert.deepEqual(fork.header.links.forkOf, { episodeId: parent.id, step: 2 });
  assert.deepEqual(fork.steps.slice(0, 2).map((s) => s.action), p.steps.slice(0, 2).map((s) => s.action));
  assert.equal(fork.end?.success, true);

  const show = await lab('--lab', dir, 'episodes', 'show', id);
  assert.match(show.stdout, new RegExp(`^forked from ${parent.id} at step 3 \\(its steps 1-2 replayed\\)$`, 'm'));

  const json = JSON.parse((await lab('--lab', dir, 'fork', parent.id, '--step', '1', '--json')).stdout);
  assert.deepEqual([json.parent, json.step, json.replayed, json.success], [parent.id, 1, 0, true]);
  assert.deepEqual(store.readEpisode(json.id).header.links.forkOf, { episodeId: parent.id, step: 0 });
});

test('`lab fork` refuses an unknown episode, a step out of range and an unknown agent, naming them', async () => {
  const [some] = new LabStore(dir).listEpisodes().episodes;
  assert.ok(some, 'needs the episodes of the test above');
  const someEpisode = some.id;
  const steps = new LabStore(dir).readEpisode(someEpisode).steps.length;
  await assert.rejects(lab('--lab', dir, 'fork', 'no-such-episode', '--step', '1'), /no episode no-such-episode in .* \(`lab episodes list` shows the ids\)/);
  await assert.rejects(lab('--lab', dir, 'fork', someEpisode, '--step', String(steps + 5)), new RegExp(`episode ${someEpisode} has ${steps} steps: a fork takes over at step 1 to ${steps}, not at step ${steps + 5}`));
  await assert.rejects(lab('--lab', dir, 'fork', someEpisode, '--step', '0'), /--step must be an integer >= 1, got "0"/);
  await assert.rejects(lab('--lab', dir, 'fork', someEpisode), /required option '--step <n>' not specified/);
  await assert.rejects(lab('--lab', dir, 'fork', someEpisode, '--step', '1', '--agent', 'nobody'), /unknown agent "nobody" \(known: oracle, noisy, random, endpoint, policy\)/);
  await assert.rejects(runLabWithEnv({ LAB_ENDPOINT_URL: undefined }, '--lab', dir, 'fork', someEpisode, '--step', '1', '--agent', 'endpoint'), /no endpoint: pass --endpoint URL or set LAB_ENDPOINT_URL/);
});
