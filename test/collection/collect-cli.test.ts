import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tierFromSeed } from '../../main/tasks/families/common/seeds.ts';
import { runLab as lab, runLabWithEnv } from '../helpers/lab-cli.ts';
import { LabStore } from '../../main/store/lab.ts';

test('`lab collect --parallel 2 --json` writes a run folder and a summary with both arms; `--resume` of a finished run adds nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-collect-cli-'));
  const { stdout } = await lab('--lab', dir, 'collect', '--tasks', 'shop,webmail:test', '--seeds', '1', '--parallel', '2', '--agent', 'noisy', '--retries', '1', '--reflect', 'rules', '--shorten', '--json');
  const s = JSON.parse(stdout);
  assert.equal(s.tasks, 2);
  assert.equal(s.tasksDone, 2);
  assert.equal(s.attemptBudget, 2);
  assert.deepEqual(s.arms.map((a: { arm: string }) => a.arm), ['reflect', 'blind']);
  assert.ok(existsSync(join(s.run, 'config.json')) && existsSync(join(s.run, 'summary.json')));
  const log = readFileSync(join(s.run, 'progress.jsonl'), 'utf8');
  // Both environments worked: each task's attempts are logged, and it ended once.
  const done = log.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'task_done').map((e) => e.task);
  assert.deepEqual(done.sort(), ['shop:10000', 'webmail:10000']);
  const again = JSON.parse((await lab('--lab', dir, 'collect', '--resume', s.runId, '--json')).stdout);
  assert.deepEqual(again.arms, s.arms);
  assert.equal(readFileSync(join(s.run, 'progress.jsonl'), 'utf8'), log);
  await assert.rejects(lab('--lab', dir, 'collect', '--reflect', 'maybe'), /--reflect must be one of llm, rules, none/);
  // Without --endpoint, and with no endpoint in the environment either.
  const noEndpoint = { LAB_ENDPOINT_URL: '', LAB_ENDPOINT_MODEL: '' };
  await assert.rejects(runLabWithEnv(noEndpoint, '--lab', dir, 'collect', '--reflect', 'llm'), /no endpoint: pass --endpoint URL/);
  await assert.rejects(runLabWithEnv(noEndpoint, '--lab', dir, 'collect', '--agent', 'endpoint'), /no endpoint: pass --endpoint URL/);
  await assert.rejects(lab('--lab', dir, 'collect', '--rate', 'typo=2'), /--rate must be KIND=P/);
});

test('`lab collect --tier 1 --screenshots --actions` forces tier 1 on every instance and records it, the screenshots and the action sets in the run config; other tiers are refused; `--run-id` names the run and continues it when it exists', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-collect-tier-'));
  const { stdout } = await lab('--lab', dir, 'collect', '--tasks', 'shop,webmail:train', '--seeds', '2', '--agent', 'oracle', '--retries', '0', '--reflect', 'none', '--tier', '1', '--screenshots', '--actions', 'misc,chat,nav,bid,coord', '--run-id', 'stage-oracle', '--json');
  const s = JSON.parse(stdout);
  assert.equal(s.tasksDone, 4);
  assert.equal(s.runId, 'stage-oracle');
  // The same command again continues the named run (its saved config wins): nothing is collected twice.
  const log = readFileSync(join(s.run, 'progress.jsonl'), 'utf8');
  const again = JSON.parse((await lab('--lab', dir, 'collect', '--tasks', 'shop:train', '--seeds', '5', '--agent', 'oracle', '--retries', '0', '--reflect', 'none', '--run-id', 'stage-oracle', '--json')).stdout);
  assert.equal(again.tasks, 4, 'the saved config, not the flags');
  assert.equal(readFileSync(join(s.run, 'progress.jsonl'), 'utf8'), log);
  await assert.rejects(lab('--lab', dir, 'collect', '--resume', 'stage-oracle', '--run-id', 'other'), /--resume stage-oracle and --run-id other name two runs/);
  const config = JSON.parse(readFileSync(join(s.run, 'config.json'), 'utf8'));
  assert.equal(config.tier, 1);
  assert.equal(config.screenshots, true, 'a resumed run takes screenshots too');
  assert.equal(config.endOnGoal, true, 'the run records that page-state goals end when the checker passes, so a resume keeps it');
  assert.deepEqual(config.actionSets, ['bid', 'coord', 'nav', 'chat', 'misc'], 'a resumed run allows the same actions');
  // Without --tier these seeds would not all be tier 1 (each seed has its own).
  assert.ok([0, 1].some((seed) => tierFromSeed(seed, 'shop') !== 1 || tierFromSeed(seed, 'webmail') !== 1));
  const eps = JSON.parse((await lab('--lab', dir, 'episodes', 'list', '--json')).stdout).episodes as { tier: number; seed: number; status: string }[];
  assert.equal(eps.length, 4);
  for (const e of eps) {
    assert.equal(e.tier, 1, `seed ${e.seed}`);
    assert.equal(e.status, 'success');
  }
  const store = new LabStore(dir);
  assert.deepEqual(store.readEpisode((eps[0] as unknown as { id: string }).id).header.env.actionSets, config.actionSets, 'the episodes ran with them');
  for (const step of store.readEpisode((eps[0] as unknown as { id: string }).id).steps) assert.ok(step.observation.screenshot && store.blobs.has(step.observation.screenshot), `step ${step.index} has a stored screenshot`);
  await assert.rejects(lab('--lab', dir, 'collect', '--tier', '4'), /--tier must be 1, 2 or 3/);
});
