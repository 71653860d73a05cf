/**
 * The state split and the state yardstick: mined states split by task instance (the same split for
 * every reader), deduplicated, Salvage-DS trained only on the training side, and `lab bench states`
 * judging a policy on both sides and on routine states.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabStore } from '../../main/store/lab.ts';
import { instanceSide } from '../../main/policy/state-split.ts';
import { actionVerb } from '../../main/evaluation/state-bench.ts';
import { criticalStates, failuresOnSide, readMinedFailures, salvageStates } from '../../main/policy/salvage/states.ts';
import { tinyPolicy } from './salvage-fixture.ts';
import { runLab as lab } from '../helpers/lab-cli.ts';
import { modelFiles } from '../../main/store/lab-files.ts';

const el = (id: string, role: string, name: string) => ({ id, role, name, tag: 'a', box: { x: 0, y: 0, width: 9, height: 9 }, visible: true, inViewport: true });
const timing = { agentMs: 1, actionMs: 1, settleMs: 1, observeMs: 1, totalMs: 4 };
const names = ['Boots', 'Jacket', 'Tent', 'Stove'];

test('the state split is by instance, fixed by a hash: no share moves an instance back, and about the share is held out', () => {
  const instances = Array.from({ length: 3000 }, (_, i) => ({ family: ['shop', 'jobs', 'hotels'][i % 3], seed: Math.floor(i / 3), tier: 1 + (i % 2) }));
  const held = (share: number) => new Set(instances.filter((t) => instanceSide(t, share) === 'heldout').map((t) => `${t.family}:${t.seed}:${t.tier}`));
  assert.equal(held(0).size, 0);
  const [a, b] = [held(0.2), held(0.3)];
  for (const k of a) assert.ok(b.has(k), `${k} held out at 0.2 but not at 0.3`);
  assert.ok(Math.abs(b.size / instances.length - 0.3) < 0.03, `held out ${b.size} of ${instances.length} at 0.3`);
  assert.equal(instanceSide({ family: 'shop', seed: 7, tier: 2 }, 0.3), instanceSide({ family: 'shop', seed: 7, tier: 2 }, 0.3));
  assert.throws(() => instanceSide(instances[0], 1), /held-out share must be in \[0, 1\)/);
});

/** A lab with one reference episode per shop seed (open the named item: step 0 is critical), and a mining report with two rollouts of seed 0. */
function labWithStates(dir: string, seeds: number): { labDir: string; mining: string } {
  const store = new LabStore(dir);
  const failures = [];
  for (let seed = 0; seed < seeds; seed++) {
    const name = names[seed % names.length];
    const page = { url: 'http://x/i/a/', title: 'Shop', elements: names.map((n, j) => el(String(4 + j), 'link', n)), screenshot: null, lastActionError: null };
    const w = store.createEpisode({
      task: { family: 'shop', seed, tier: 1, instruction: `Open the ${name}.`, startUrl: 'http://x/', split: 'train' }, agent: { name: 'oracle' },
      env: { viewport: { width: 10, height: 10 }, screenshots: false, browser: 'chromium' }, links: {},
    });
    w.step({ observation: page, thought: `Open ${name}.`, action: `click('${4 + (seed % names.length)}')`, error: null, timing });
    w.end({ success: true, reason: 'checker', keyPoints: [], messages: [], finalObservation: page, durationMs: 5 });
    const wrong = `click('${4 + ((seed + 1) % names.length)}')`;
    failures.push({ episodeId: `rollout-${seed}`, referenceId: w.id, family: 'shop', seed, tier: 1, step: 0, mode: 'wrong_element', action: wrong, referenceAction: `click('${4 + (seed % names.length)}')` });
    if (seed === 0) failures.push({ ...failures[0], episodeId: 'rollout-0b', mode: 'loop' });
  }
  mkdirSync(join(dir, 'evals', 'E1'), { recursive: true });
  writeFileSync(join(dir, 'evals', 'E1', 'report.json'), JSON.stringify({ request: { split: 'train' } }));
  const mining = join(dir, 'evals', 'E1', 'mining.json');
  writeFileSync(mining, JSON.stringify({ all: failures }));
  return { labDir: dir, mining };
}

test('critical states count once per instance and step; Salvage-DS states come from the training side only', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-states-split-'));
  const { labDir, mining } = labWithStates(join(dir, 'lab'), 12);
  const store = new LabStore(labDir);
  const failures = readMinedFailures(mining);
  assert.equal(failures.length, 13);
  const all = criticalStates(store, failures);
  assert.equal(all.length, 12, 'the second rollout of seed 0 departed at the same state');
  assert.equal(all[0].mode, 'wrong_element', 'the first rollout\'s mode is kept');

  const share = 0.5;
  const train = failuresOnSide(failures, share, 'train');
  const held = failuresOnSide(failures, share, 'heldout');
  assert.ok(train.length && held.length, 'both sides hold instances at 0.5 over 12 seeds');
  // No routine share: the SFT samples are never read.
  const states = salvageStates(store, { source: 'mined', miningPath: mining, confirmedOnly: false, heldoutShare: share, routineShare: 0, seed: 1, sftSamples: '' });
  const heldSeeds = new Set(held.map((f) => f.seed));
  assert.ok(states.every((s) => !heldSeeds.has(readSeed(store, s.episodeId))), 'no held-out instance among the training states');
  assert.equal(states.length, new Set(train.map((f) => f.seed)).size);
  assert.throws(() => salvageStates(store, { source: 'mined', miningPath: mining, confirmedOnly: false, heldoutShare: 0.999999, routineShare: 0, seed: 1, sftSamples: '' }), /no critical states with a reference action on the training side/);
});

function readSeed(store: LabStore, episodeId: string): number {
  return store.readEpisode(episodeId).header.task.seed;
}

test('an action line is tallied by its verb', () => {
  assert.equal(actionVerb('click(12)'), 'click');
  assert.equal(actionVerb(' Fill(3, "x")'), 'fill');
  assert.equal(actionVerb('send_msg_to_user("done")'), 'send_msg_to_user');
  assert.equal(actionVerb('nonsense'), '?');
});

test('lab bench states judges each policy on held-out and training critical states and on routine states, and a policy against itself differs by nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-states-bench-'));
  const { labDir } = labWithStates(join(dir, 'lab'), 12);
  const policy = await tinyPolicy(dir, 12);
  copyFileSync(modelFiles(dir).sftSamples, modelFiles(policy).sftSamples);
  const out = join(dir, 'states.json');
  const { stdout } = await lab('--lab', labDir, 'bench', 'states', '--policy', policy, '--policy', policy, '--mined', 'E1', '--heldout-share', '0.5', '--group', '4', '--backend', 'wasm', '--out', out, '--json');
  const r = JSON.parse(stdout);
  assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')).available, r.available);
  const held = r.available['critical-heldout'];
  assert.equal(held + r.available['critical-train'], 12);
  assert.equal(r.available.routine, 4, 'no validation split: the training samples stand in');
  for (const p of r.policies) {
    const f = p.sets['critical-heldout'];
    assert.equal(f.states, held);
    assert.equal(f.greedyCorrect.n, held);
    assert.ok(f.groupCorrect.value >= 0 && f.groupCorrect.value <= 1);
    assert.ok(f.mixedGroups.k <= held);
    assert.deepEqual(Object.keys(f.byMode), ['wrong_element']);
    // Each state keeps the greedy action; the wrong ones are tallied by verb.
    const wrong = p.perState['critical-heldout'].filter((s: { greedyCorrect: boolean }) => !s.greedyCorrect);
    assert.ok(p.perState['critical-heldout'].every((s: { greedyAction: unknown }) => typeof s.greedyAction === 'string'));
    assert.equal(Object.values(f.wrongGreedyVerbs as Record<string, number>).reduce((a, b) => a + b, 0), wrong.length);
  }
  // The same policy twice: same greedy actions, same seeded groups, so every paired difference is 0.
  for (const set of ['critical-heldout', 'critical-train', 'routine']) {
    assert.equal(r.policies[1].vsBaseline[set].greedyCorrect.value, 0);
    assert.equal(r.policies[1].vsBaseline[set].groupCorrect.value, 0);
    assert.deepEqual(r.policies[1].sets[set].greedyCorrect, r.policies[0].sets[set].greedyCorrect);
  }
  // A stored baseline stands first without being measured again, paired state by state.
  const { stdout: again } = await lab('--lab', labDir, 'bench', 'states', '--baseline', out, '--policy', policy, '--mined', 'E1', '--heldout-share', '0.5', '--group', '4', '--backend', 'wasm', '--json');
  const b = JSON.parse(again);
  assert.deepEqual(b.request.policies, [policy, policy]);
  assert.deepEqual(b.policies[0].perState, r.policies[0].perState);
  assert.equal(b.policies[1].vsBaseline['critical-heldout'].greedyCorrect.value, 0);
  await assert.rejects(lab('--lab', labDir, 'bench', 'states', '--baseline', out, '--policy', policy, '--mined', 'E1', '--heldout-share', '0.4', '--group', '4'), /--baseline: measured with heldoutShare 0.5, this run asks for 0.4/);
  await assert.rejects(lab('--lab', labDir, 'bench', 'states', '--policy', policy, '--mined', 'E1', '--top-p', '0'), /--top-p: expected a number in \(0, 1\]/);
  await assert.rejects(lab('--lab', labDir, 'bench', 'states', '--policy', join(dir, 'nope'), '--mined', 'E1'), /--policy: no policy model in/);
});
