import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabStore } from '../../main/store/lab.ts';
import { parseSalvageJob } from '../../main/policy/salvage/config.ts';
import { readStates } from '../../main/policy/salvage/states.ts';
import { tinyPolicy } from './salvage-fixture.ts';
import { registeredRuns } from '../../main/policy/registry.ts';
import { runLab as lab } from '../helpers/lab-cli.ts';
import { modelFiles } from '../../main/store/lab-files.ts';

const el = (id: string, role: string, name: string) => ({ id, role, name, tag: 'a', box: { x: 0, y: 0, width: 9, height: 9 }, visible: true, inViewport: true });
const timing = { agentMs: 1, actionMs: 1, settleMs: 1, observeMs: 1, totalMs: 4 };

/** A lab holding one oracle reference episode (three steps) and a mining report naming its step 1 as critical. */
function labWithMining(dir: string): string {
  const store = new LabStore(dir);
  const page = (title: string) => ({ url: 'http://x/i/a/cart', title, elements: [el('4', 'link', 'Boots'), el('7', 'link', 'Tent'), el('9', 'button', 'Checkout')], screenshot: null, lastActionError: null });
  const w = store.createEpisode({
    task: { family: 'shop', seed: 3, tier: 1, instruction: 'Buy the Tent.', startUrl: 'http://x/', split: 'train' }, agent: { name: 'oracle' },
    env: { viewport: { width: 10, height: 10 }, screenshots: false, browser: 'chromium' }, links: {},
  });
  w.step({ observation: page('Shop'), thought: 'Open the tent.', action: "click('7')", error: null, timing });
  w.step({ observation: page('Tent'), thought: 'Check out.', action: "click('9')", error: null, timing });
  w.step({ observation: page('Cart'), action: "send_msg_to_user('done')", error: null, timing });
  w.end({ success: true, reason: 'checker', keyPoints: [], messages: [], finalObservation: page('Done'), durationMs: 5 });
  mkdirSync(join(dir, 'evals', 'E1'), { recursive: true });
  writeFileSync(join(dir, 'evals', 'E1', 'report.json'), JSON.stringify({ request: { split: 'train' } }));
  writeFileSync(join(dir, 'evals', 'E1', 'mining.json'), JSON.stringify({
    all: [{ episodeId: 'rollout-1', referenceId: w.id, family: 'shop', seed: 3, tier: 1, step: 1, mode: 'wrong_element', action: "click('4')", referenceAction: "click('9')" }],
  }));
  return w.id;
}

test('lab train salvage freezes the critical states of a mining report, applies the ablation flags and records the configuration', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-salvage-cli-'));
  const policy = await tinyPolicy(dir, 10);
  copyFileSync(modelFiles(dir).sftSamples, modelFiles(policy).sftSamples);
  const labDir = join(dir, 'lab');
  labWithMining(labDir);
  const out = join(dir, 'run');
  const { stdout } = await lab('--lab', labDir, 'train', 'salvage', '--policy', policy, '--mined', 'E1', '--out', out, '--routine-share', '0.5',
    '--iterations', '2', '--group', '3', '--states-per-iter', '2', '--reward', 'graded', '--drop-rejected', '--beta', '0.1', '--backend', 'wasm', '--json');
  assert.equal(JSON.parse(stdout).iterationsDone, 2);

  const states = readStates(modelFiles(out).salvageStates);
  assert.equal(states.length, 2); // one critical state, and one routine state for a share of 0.5
  const critical = states.find((s) => s.kind === 'critical');
  assert.ok(critical);
  assert.equal(critical.target.action, "click('9')");
  assert.equal(critical.target.thought, 'Check out.');
  assert.deepEqual(critical.input.history, ["click('7')"]);
  assert.equal(critical.input.title, 'Tent');
  assert.equal(states.filter((s) => s.kind === 'routine').length, 1);

  const config = parseSalvageJob(JSON.parse(readFileSync(modelFiles(out).salvageConfig, 'utf8')), modelFiles(out).salvageConfig);
  assert.equal(config.reward.kind, 'graded');
  assert.equal(config.rejected, 'drop');
  assert.equal(config.gates.enabled, true);
  assert.equal(config.beta, 0.1);
  assert.equal(config.confirmedOnly, false);
  assert.equal(readFileSync(modelFiles(out).salvageStats, 'utf8').trim().split('\n').length, 2);

  const grpo = join(dir, 'grpo');
  await lab('--lab', labDir, 'train', 'salvage', '--policy', policy, '--states', 'all', '--plain-grpo', '--out', grpo, '--iterations', '1', '--group', '2', '--states-per-iter', '1', '--backend', 'wasm', '--json');
  const g = parseSalvageJob(JSON.parse(readFileSync(modelFiles(grpo).salvageConfig, 'utf8')), modelFiles(grpo).salvageConfig);
  assert.deepEqual([g.preset, g.gates.enabled, g.rejected, g.lossAgg, g.reward.wrong, g.states], ['plain-grpo', false, 'drop', 'sequence', 0, 'all']);
  assert.equal(readStates(modelFiles(grpo).salvageStates).length, 4);

  await assert.rejects(lab('--lab', labDir, 'train', 'salvage', '--policy', policy, '--out', join(dir, 'x')), /--mined is required/);
  await assert.rejects(lab('--lab', labDir, 'train', 'salvage', '--policy', policy, '--mined', 'E1', '--out', join(dir, 'y'), '--competence-lo', '0.9', '--competence-hi', '0.1'), /competence band/);
  // Both runs that started are in the lab's registry (for the app's training view); the refused ones are not.
  assert.deepEqual(registeredRuns(labDir).map((r) => [r.kind, r.dir]), [['salvage', out], ['salvage', grpo]]);
});

test('lab train salvage --confirmed-only trains on the states branching confirmed, records it, and refuses a report never confirmed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-salvage-confirmed-'));
  const policy = await tinyPolicy(dir, 4);
  const labDir = join(dir, 'lab');
  const ref = labWithMining(labDir);
  const branched = (step: number, status: string) => ({
    episodeId: `rollout-${step}`, referenceId: ref, family: 'shop', seed: 3, tier: 1, step, mode: 'wrong_element', action: "click('4')", referenceAction: 'x',
    confirmation: { status, branches: 1, reference: null, policy: null },
  });
  mkdirSync(join(labDir, 'evals', 'E2'), { recursive: true });
  writeFileSync(join(labDir, 'evals', 'E2', 'mining.json'), JSON.stringify({ all: [branched(0, 'recoverable'), branched(1, 'confirmed'), branched(2, 'unreachable')] }));
  const out = join(dir, 'run');
  const args = ['--lab', labDir, 'train', 'salvage', '--policy', policy, '--routine-share', '0', '--iterations', '1', '--group', '2', '--states-per-iter', '1', '--backend', 'wasm', '--json'];
  await lab(...args, '--mined', 'E2', '--confirmed-only', '--out', out);
  const states = readStates(modelFiles(out).salvageStates);
  assert.deepEqual(states.map((s) => [s.kind, s.step, s.target.action]), [['critical', 1, "click('9')"]]);
  assert.equal(parseSalvageJob(JSON.parse(readFileSync(modelFiles(out).salvageConfig, 'utf8')), modelFiles(out).salvageConfig).confirmedOnly, true);

  await assert.rejects(lab(...args, '--mined', 'E1', '--confirmed-only', '--out', join(dir, 'x')), /1 of 1 mined states were not confirmed by branching; run `lab mine --eval ID --confirm` first/);
  await assert.rejects(lab(...args, '--states', 'all', '--confirmed-only', '--out', join(dir, 'y')), /--confirmed-only selects among mined states/);
  writeFileSync(join(labDir, 'evals', 'E2', 'mining.json'), JSON.stringify({ all: [{ ...branched(1, 'maybe') }] }));
  await assert.rejects(lab(...args, '--mined', 'E2', '--confirmed-only', '--out', join(dir, 'z')), /mining\.json: field all\.0\.confirmation\.status/);
});
