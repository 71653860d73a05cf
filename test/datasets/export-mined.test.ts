import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { renderPrompt } from '../../main/policy/observation-text.ts';
import { exportMinedStates } from '../../main/datasets/export/verl-mined.ts';
import type { LabStore } from '../../main/store/lab.ts';
import { runLab as lab } from '../helpers/lab-cli.ts';
import { el, makePng, tmpLab } from './helpers.ts';

const timing = { agentMs: 1, actionMs: 1, settleMs: 1, observeMs: 1, totalMs: 4 };
const ELEMENTS = [el('4', 'link', 'Boots'), el('7', 'link', 'Tent'), el('9', 'button', 'Checkout'), el('10', 'button', 'Checkout')];
const failed = { code: 'element_not_interactable', message: 'element 4 is covered' };

/** An oracle reference episode of three steps (the first one failed), optionally with screenshots. */
function reference(store: LabStore, screenshots = false): string {
  const page = (title: string, i: number, error: typeof failed | null = null) => ({
    url: 'http://x/i/a/cart', title, elements: ELEMENTS, screenshot: screenshots ? store.blobs.put(makePng(3, 2, [i * 40, 0, 0])) : null, lastActionError: error,
  });
  const w = store.createEpisode({
    task: { family: 'shop', seed: 3, tier: 2, instruction: 'Buy the Tent.', startUrl: 'http://x/', split: 'train' }, agent: { name: 'oracle' },
    env: { viewport: { width: 10, height: 10 }, screenshots, browser: 'chromium' }, links: {},
  });
  w.step({ observation: page('Shop', 0), thought: 'Open the tent.', action: "click('4')", error: failed, timing });
  w.step({ observation: page('Shop', 1, failed), thought: 'The tent, then.', action: "click('7')", error: null, timing });
  w.step({ observation: page('Tent', 2), thought: 'Check out.', action: "click('10')", error: null, timing });
  w.end({ success: true, reason: 'checker', keyPoints: [], messages: [], finalObservation: page('Done', 3), durationMs: 5 });
  return w.id;
}

const failure = (referenceId: string, step: number, mode: string, action: string | null, confirmation?: unknown) => ({
  episodeId: `rollout-${step}-${mode}`, referenceId, family: 'shop', seed: 3, tier: 2, step, mode, action, referenceAction: 'recorded', ...(confirmation ? { confirmation } : {}),
});
const outcome = (action: string, successes: number, runs: number) => ({
  action, success: successes * 2 > runs, successes, runs: Array.from({ length: runs }, (_, i) => ({ episodeId: `b${i}`, success: i < successes, steps: 3, reason: 'checker' })),
});

/** Evaluation E1 mined three failures (one where the reference had already ended); E2 the same, branched. */
function labWithMining(screenshots = false): { store: LabStore; ref: string } {
  const store = tmpLab();
  const ref = reference(store, screenshots);
  const write = (id: string, all: unknown[], split = 'train') => {
    mkdirSync(join(store.dir, 'evals', id), { recursive: true });
    writeFileSync(join(store.dir, 'evals', id, 'report.json'), JSON.stringify({ request: { split } }));
    writeFileSync(join(store.dir, 'evals', id, 'mining.json'), JSON.stringify({ evalId: id, all }));
  };
  write('E1', [failure(ref, 2, 'wrong_element', "click('9')"), failure(ref, 1, 'invalid_action', null), failure(ref, 3, 'timeout', null)]);
  write('E2', [
    failure(ref, 2, 'wrong_element', "click('9')", { status: 'confirmed', branches: 3, reference: outcome("click('10')", 3, 3), policy: outcome("click('9')", 1, 3) }),
    failure(ref, 1, 'wrong_element', "click('4')", { status: 'recoverable', branches: 1, reference: outcome("click('7')", 1, 1), policy: outcome("click('4')", 1, 1) }),
    failure(ref, 3, 'timeout', null, { status: 'not_branchable', branches: 1, reference: null, policy: null, detail: 'the reference ended there' }),
  ], 'test');
  return { store, ref };
}

const outDir = () => join(mkdtempSync(join(tmpdir(), 'lab-export-mined-')), 'out');
const readRows = async (file: string, utf8 = true) => {
  const b = readFileSync(file);
  return parquetReadObjects({ file: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer, utf8 });
};
const numbers = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]));

/** The exported reward module's score of `response` on a row's ground truth, through python3. */
function pyReward(module: string, groundTruth: string, response: string): number {
  const run = spawnSync(process.env.PYTHON ?? 'python3', [module], { input: JSON.stringify({ solution_str: response, ground_truth: groundTruth }) + '\n', encoding: 'utf8' });
  assert.ifError(run.error);
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout).reward;
}

test('mined critical states become verl rows: the prompt at the reference step, the reference action and page as ground truth, mining and branching in extra_info', async () => {
  const { store, ref } = labWithMining();
  const out = outDir();
  const result = await exportMinedStates(store, { mining: join(store.dir, 'evals', 'E2', 'mining.json'), outDir: out });
  assert.deepEqual(readdirSync(out).sort(), ['reward_agent_lab.py', 'train.parquet']);
  assert.deepEqual([result.states, result.withoutReferenceAction, result.images, result.byMode], [2, 1, 0, { wrong_element: 2 }]);

  const rows = await readRows(join(out, 'train.parquet'));
  assert.deepEqual(Object.keys(rows[0]), ['data_source', 'prompt', 'ability', 'reward_model', 'extra_info']);
  const episode = store.readEpisode(ref);
  const [system, user] = renderPrompt({ instruction: 'Buy the Tent.', observation: episode.steps[2].observation, history: episode.steps.slice(0, 2).map((s) => ({ action: s.action, error: s.error })) });
  assert.deepEqual(rows[0].prompt, [system, user], 'the prompt any dataset export renders at that step');
  assert.match(rows[0].prompt[1].content, /Previous actions:\n1\. click\('4'\)  -> error element_not_interactable: element 4 is covered\n2\. click\('7'\)/);
  assert.deepEqual([rows[0].data_source, rows[0].ability, rows[0].reward_model.style], ['agent_lab/shop', 'web_agent', 'rule']);
  const truth = JSON.parse(rows[0].reward_model.ground_truth);
  assert.deepEqual(truth, { v: 1, action: "click('10')", elements: ELEMENTS.map(({ id, role, name }) => ({ id, role, name })) });
  assert.deepEqual(numbers(rows[0].extra_info), {
    split: 'train', index: 0, episode_id: ref, step: 2, family: 'shop', seed: 3, tier: 2, rollout_episode_id: 'rollout-2-wrong_element', mode: 'wrong_element',
    policy_action: "click('9')", confirmation: 'confirmed', branches: 3, reference_successes: 3, policy_successes: 1,
  });
  assert.equal(JSON.parse(rows[1].reward_model.ground_truth).action, "click('7')");
  assert.deepEqual(numbers(rows[1].extra_info).confirmation, 'recoverable');

  // The shipped reward on that row: the reference action, the same element under the second
  // "Checkout" rank, is right; the policy's action at the state (the first "Checkout") is wrong.
  const module = join(out, 'reward_agent_lab.py');
  assert.equal(pyReward(module, rows[0].reward_model.ground_truth, "Check out.\nclick('10')"), 1);
  assert.equal(pyReward(module, rows[0].reward_model.ground_truth, "click('9')"), -1);
  assert.equal(pyReward(module, rows[0].reward_model.ground_truth, "click('11')"), -2);

  // Not branched: the branching fields are null.
  const e1 = outDir();
  await exportMinedStates(store, { mining: join(store.dir, 'evals', 'E1', 'mining.json'), outDir: e1 });
  const plain = (await readRows(join(e1, 'train.parquet'))).map((r) => numbers(r.extra_info));
  assert.deepEqual(plain.map((x) => [x.mode, x.policy_action, x.confirmation, x.branches, x.reference_successes, x.policy_successes]), [
    ['wrong_element', "click('9')", null, null, null, null],
    ['invalid_action', null, null, null, null, null],
  ]);

  // Confirmed only: the one state branching confirmed; a report never branched is refused.
  const confirmed = await exportMinedStates(store, { mining: join(store.dir, 'evals', 'E2', 'mining.json'), outDir: outDir(), confirmedOnly: true });
  assert.equal(confirmed.states, 1);
  await assert.rejects(exportMinedStates(store, { mining: join(store.dir, 'evals', 'E1', 'mining.json'), outDir: outDir(), confirmedOnly: true }), /3 of 3 mined states were not confirmed by branching/);
});

test('screenshots travel as images with an <image> marker; a missing one is left out with a warning, or fails with strict', async () => {
  const { store, ref } = labWithMining(true);
  const mining = join(store.dir, 'evals', 'E1', 'mining.json');
  const out = outDir();
  const result = await exportMinedStates(store, { mining, outDir: out });
  assert.equal(result.images, 2);
  const rows = await readRows(join(out, 'train.parquet'), false);
  assert.deepEqual(Buffer.from(rows[0].images[0].bytes), makePng(3, 2, [80, 0, 0]));
  const text = await readRows(join(out, 'train.parquet'));
  assert.match(text[0].prompt[1].content, /^<image>Task: Buy the Tent\./);

  rmSync(store.blobs.pathOf(store.readEpisode(ref).steps[1].observation.screenshot!));
  const partial = await exportMinedStates(store, { mining, outDir: outDir() });
  assert.equal(partial.states, 1);
  assert.equal(partial.missingScreenshots, 1);
  assert.match(partial.warnings[0], /mining\.json: all\[1\]: reference episode \S+ step 1: screenshot \S+\.png is missing; state left out/);
  const strictOut = outDir();
  await assert.rejects(exportMinedStates(store, { mining, outDir: strictOut, strict: true }), /all\[1\]: reference episode \S+ step 1: screenshot \S+\.png is missing/);
  assert.ok(!existsSync(strictOut), 'a failed export leaves nothing behind');
});

test('bad mining reports and references are refused with the file, entry and field named', async () => {
  const { store, ref } = labWithMining();
  const path = join(store.dir, 'evals', 'E3', 'mining.json');
  mkdirSync(join(store.dir, 'evals', 'E3'));
  writeFileSync(path, JSON.stringify({ all: [failure('gone', 1, 'wrong_element', null)] }));
  await assert.rejects(exportMinedStates(store, { mining: path, outDir: outDir() }), /E3\/mining\.json: all\[0\]: reference episode gone cannot be read: no episode gone/);
  writeFileSync(path, JSON.stringify({ all: [{ ...failure('gone', 1, 'wrong_element', null), mode: 'bored' }] }));
  await assert.rejects(exportMinedStates(store, { mining: path, outDir: outDir() }), /mining\.json: field all\.0\.mode/);
  writeFileSync(path, JSON.stringify({ all: [failure(ref, 9, 'timeout', null)] }));
  await assert.rejects(exportMinedStates(store, { mining: path, outDir: outDir() }), /E3\/mining\.json: no critical states to export \(1 selected, 1 without a reference action, 0 without their screenshot file\)/);
});

test('lab export --mined EVAL --format verl writes the states and says how to point verl at the reward; wrong combinations are refused', async () => {
  const { store } = labWithMining();
  const out = outDir();
  const { stdout, stderr } = await lab('--lab', store.dir, 'export', '--mined', 'E2', '--format', 'verl', '--out', out);
  assert.match(stdout, /^exported 2 critical states of \S+E2\/mining\.json as verl \(wrong_element 2\); left out 1 without a reference action, 0 images\n/);
  assert.match(stdout, new RegExp(`verl: custom_reward_function\\.path=${join(out, 'reward_agent_lab.py')} custom_reward_function\\.name=compute_score`));
  assert.match(stderr, /note: these states were mined from test seeds/);
  const confirmed = JSON.parse((await lab('--lab', store.dir, 'export', '--mined', join(store.dir, 'evals', 'E2', 'mining.json'), '--confirmed-only', '--format', 'verl', '--out', outDir(), '--json')).stdout);
  assert.equal(confirmed.states, 1);

  await assert.rejects(lab('--lab', store.dir, 'export', '--mined', 'E2', '--format', 'sharegpt', '--out', outDir()), /--mined exports a verl RL dataset .*use --format verl, not sharegpt/);
  await assert.rejects(lab('--lab', store.dir, 'export', '--mined', 'E2', '--dataset', 'x', '--format', 'verl', '--out', outDir()), /give one of --dataset .* or --mined/);
  await assert.rejects(lab('--lab', store.dir, 'export', '--format', 'verl', '--out', outDir()), /give one of --dataset .* or --mined/);
  await assert.rejects(lab('--lab', store.dir, 'export', '--dataset', 'x', '--confirmed-only', '--format', 'verl', '--out', outDir()), /--confirmed-only selects among mined states; it needs --mined/);
  await assert.rejects(lab('--lab', store.dir, 'export', '--mined', 'E9', '--format', 'verl', '--out', outDir()), /--mined: no mining report at \S+E9\/mining\.json/);
});
