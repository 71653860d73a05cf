import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { LabStore } from '../../main/store/lab.ts';
import { runLab as lab, spawnLab } from '../helpers/lab-cli.ts';
import { formatColumns } from '../../main/cli/runtime.ts';
import { DEFAULT_ENV_OPTIONS } from '../../main/environment/environment.ts';

// Every family's oracle is tested in the browser by test/tasks/oracle-env.test.ts; here the command
// runs it on one family with a page-state goal and one with an answer goal.
test('`lab episode --agent oracle --json` succeeds on a test seed of a page-state and an answer family and records them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-cli-'));
  const families = ['shop', 'wiki'].map((name) => builtinFamilies().get(name)!);
  for (const family of families) {
    const seed = family.seeds.test.from + 7;
    const { stdout } = await lab('--lab', dir, 'episode', '--task', family.name, '--seed', String(seed), '--agent', 'oracle', '--json');
    const out = JSON.parse(stdout);
    assert.equal(out.success, true, `${family.name} seed ${seed}: ${JSON.stringify(out.keyPoints)}`);
    assert.ok(out.keyPoints.length >= 2 && out.keyPoints.every((k: { met: boolean }) => k.met));
    const e = new LabStore(dir).readEpisode(out.id);
    // A page-state goal ends as the checker passes; an answer goal with the oracle's message.
    assert.equal(out.reason, e.header.task.goalKind === 'state' ? 'goal_reached' : 'checker', family.name);
    assert.equal(e.header.env.endOnGoal, true);
    assert.equal(e.header.task.split, 'test');
    assert.equal(e.steps.length, out.steps);
    assert.equal(e.end?.success, true);
  }
  const { stdout } = await lab('--lab', dir, 'episodes', 'list', '--json');
  assert.equal(JSON.parse(stdout).total, families.length);
  // Filters say how many match; a misspelt status or family is refused, not answered with nothing.
  const shop = await lab('--lab', dir, 'episodes', 'list', '--family', 'shop', '--status', 'success');
  assert.match(shop.stdout, /^1 of 2 episodes in .* match$/m);
  assert.equal(JSON.parse((await lab('--lab', dir, 'episodes', 'list', '--family', 'jobs', '--json')).stdout).matching, 0, 'a built-in family with no episodes here lists none');
  await assert.rejects(lab('--lab', dir, 'episodes', 'list', '--status', 'sucess'), /--status.*Allowed choices are success, failure, incomplete, cancelled/s);
  await assert.rejects(lab('--lab', dir, 'episodes', 'list', '--family', 'shopp'), /--family: no family "shopp" \(families of this lab's episodes: shop, wiki\)/);
});

test('`lab episode --no-end-on-goal` runs a page-state goal to the agent\'s closing message, as before', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-cli-'));
  const on = JSON.parse((await lab('--lab', dir, 'episode', '--task', 'shop', '--seed', '10001', '--tier', '1', '--json')).stdout);
  const off = JSON.parse((await lab('--lab', dir, 'episode', '--task', 'shop', '--seed', '10001', '--tier', '1', '--no-end-on-goal', '--json')).stdout);
  assert.deepEqual([on.success, on.reason, off.success, off.reason], [true, 'goal_reached', true, 'checker']);
  assert.equal(off.steps, on.steps + 1);
  assert.equal(new LabStore(dir).readEpisode(off.id).header.env.endOnGoal, false);
});

test('`lab episode --actions` records the allowed action sets in the header, with the text layout; a bad set name is refused, named', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-cli-'));
  const plain = JSON.parse((await lab('--lab', dir, 'episode', '--task', 'shop', '--seed', '10001', '--tier', '1', '--max-steps', '1', '--json')).stdout);
  const coord = JSON.parse((await lab('--lab', dir, 'episode', '--task', 'shop', '--seed', '10001', '--tier', '1', '--max-steps', '1', '--actions', 'coord,bid,nav,chat,misc', '--json')).stdout);
  const store = new LabStore(dir);
  assert.deepEqual(store.readEpisode(plain.id).header.env.actionSets, ['bid', 'nav', 'chat', 'misc'], 'the default: all but coord');
  assert.deepEqual(store.readEpisode(coord.id).header.env.actionSets, ['bid', 'coord', 'nav', 'chat', 'misc']);
  assert.equal(store.readEpisode(plain.id).header.env.textLayout, DEFAULT_ENV_OPTIONS.textLayout);
  for (const args of [['episode', '--task', 'shop', '--seed', '1'], ['collect', '--tasks', 'shop:test', '--seeds', '1'], ['eval', '--tasks', 'shop', '--seeds', '1']]) {
    await assert.rejects(lab('--lab', dir, ...args, '--actions', 'bid,mouse'), /--actions: unknown action set "mouse" \(known: bid, coord, nav, chat, misc\)/, args[0]);
  }
});

test('`lab episode --screenshots` stores one PNG per step by content hash', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-cli-'));
  const { stdout } = await lab('--lab', dir, 'episode', '--task', 'shop', '--seed', '10003', '--screenshots', '--json');
  const out = JSON.parse(stdout);
  const store = new LabStore(dir);
  const e = store.readEpisode(out.id);
  for (const s of e.steps) {
    assert.ok(s.observation.screenshot, `step ${s.index} has a screenshot`);
    assert.ok(store.blobs.has(s.observation.screenshot!));
  }
});

test('bad CLI input is refused with a message that names it', async () => {
  // A real process once: the message on stderr and exit code 1.
  await assert.rejects(spawnLab(['episode', '--task', 'nope', '--seed', '1', '--json']), (err: { code: number; stderr: string }) => {
    assert.equal(err.code, 1);
    assert.match(err.stderr, /^lab: unknown task family "nope"/m);
    return true;
  });
  await assert.rejects(lab('episode', '--task', 'nope', '--seed', '1', '--json'), /unknown task family "nope"/);
  await assert.rejects(lab('episode', '--task', 'shop', '--seed', 'x'), /--seed must be an integer >= 0, got "x"/);
  await assert.rejects(lab('episode', '--task', 'shop', '--seed', '1', '--agent', 'gpt'), /unknown agent "gpt"/);
  await assert.rejects(lab('episode', '--task', 'shop', '--seed', '1', '--browser', 'chrome:9222'), /--browser: "chrome:9222" is not a browser endpoint \(want ws:\/\/, wss:\/\//);
  // An http(s) endpoint is read through /json/version; one that answers nothing is named.
  await assert.rejects(lab('episode', '--task', 'shop', '--seed', '1', '--browser', 'http://127.0.0.1:1'), /browser http:\/\/127\.0\.0\.1:1: could not read http:\/\/127\.0\.0\.1:1\/json\/version/);
});

test('`lab tasks list --json` lists every family with disjoint train and test seeds', async () => {
  const { stdout } = await lab('tasks', 'list', '--json');
  const rows = JSON.parse(stdout);
  assert.deepEqual(rows.map((r: { family: string }) => r.family).sort(), [...builtinFamilies().keys()].sort());
  for (const r of rows) assert.ok(r.trainSeeds[1] < r.testSeeds[0] || r.testSeeds[1] < r.trainSeeds[0], r.family);
});

test('usage errors are one line and a hint, not the whole help; an unknown episode id is named as such', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-cli-'));
  const missing = await lab('--lab', dir, 'train', 'sdsat').then(() => null, (err: { stderr: string }) => err);
  assert.ok(missing, 'a missing required option fails');
  assert.deepEqual(missing.stderr.trim().split('\n'), ["error: required option '--base <dir>' not specified", '(add --help for usage)']);
  await assert.rejects(lab('--lab', dir, 'episodes', 'show', 'nosuchid'), (err: { stderr: string }) => /no episode nosuchid in .*`lab episodes list` shows the ids/.test(err.stderr));
});

test('tables keep their columns apart however long a cell is', () => {
  assert.equal(formatColumns([['family', 'agent'], ['realestate', 'oracle'], ['restaurants', 'random']]),
    'family       agent\nrealestate   oracle\nrestaurants  random\n');
});

test('`lab episode --endpoint-wait 1` gives up on an unreachable endpoint after a second of retries instead of the default five minutes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-cli-'));
  // A port nothing listens on: the server is started for its port, then closed.
  const srv = createServer().listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const port = (srv.address() as AddressInfo).port;
  await new Promise((r) => srv.close(r));
  await assert.rejects(
    spawnLab(['--lab', dir, 'episode', '--task', 'shop', '--seed', '10001', '--agent', 'endpoint', '--endpoint', `http://127.0.0.1:${port}/v1`, '--model', 'm', '--endpoint-wait', '1'], { timeout: 120_000 }),
    (err: Error & { stderr: string; killed: boolean }) => {
      assert.equal(err.killed, false, 'it stopped by itself, not at the test\'s limit');
      assert.match(err.stderr, /127\.0\.0\.1:\d+/);
      return true;
    },
  );
});
