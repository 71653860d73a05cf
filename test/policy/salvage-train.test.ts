import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModel } from '../../main/models/checkpoint.ts';
import { readPolicySettings } from '../../main/policy/settings.ts';
import { applyPreset, parseSalvageJob } from '../../main/policy/salvage/config.ts';
import { startSalvage } from '../../main/policy/salvage/runner.ts';
import { readStates } from '../../main/policy/salvage/states.ts';
import { prepareState, referenceLogProb, trainSalvage, type IterationStats } from '../../main/policy/salvage/train.ts';
import { sampleGroup } from '../../main/policy/salvage/sampling.ts';
import { parsePolicyOutput } from '../../main/policy/prompt.ts';
import { END_OF_TEXT } from '../../main/models/tokenizer.ts';
import { salvageJob, shopStates, tinyPolicy } from './salvage-fixture.ts';
import { modelFiles } from '../../main/store/lab-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'lab-salvage-'));
const policy = tinyPolicy(dir, 30);

/** Mean log-probability of the reference action on every state, under the policy in `modelDir`. */
function referenceLogProbs(modelDir: string, statesFile: string): number[] {
  const { model, tokenizer, meta } = loadModel(modelDir);
  const settings = readPolicySettings(modelDir, meta);
  const out = readStates(statesFile).map((s) => referenceLogProb(model, prepareState(s, tokenizer, settings, model.config.ctx)));
  model.dispose();
  return out;
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

test('a short Salvage-DS run raises the probability of the reference action on its states, and records its config and per-iteration statistics', async () => {
  const sft = await policy;
  const states = shopStates(dir);
  const out = join(dir, 'salvage');
  const before = referenceLogProbs(sft, states);
  // Sampling freely: the recipe as the paper runs it, invalid actions and all.
  const r = await trainSalvage(salvageJob(sft, out, states, { guided: false }));
  assert.equal(r.iterationsDone, 6);
  const after = referenceLogProbs(out, states);
  assert.ok(mean(after) > mean(before) + 0.3, `mean log p(reference action): ${mean(before).toFixed(3)} -> ${mean(after).toFixed(3)}`);
  assert.ok(after.filter((a, i) => a > before[i]).length >= 3, `per state: ${before.map((b, i) => `${b.toFixed(2)}->${after[i].toFixed(2)}`).join(' ')}`);

  const config = parseSalvageJob(JSON.parse(readFileSync(modelFiles(out).salvageConfig, 'utf8')), modelFiles(out).salvageConfig);
  assert.equal(config.group, 6);
  assert.equal(config.gates.competence, 'share');
  const stats = readFileSync(modelFiles(out).salvageStats, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as IterationStats);
  assert.deepEqual(stats.map((s) => s.iteration), [0, 1, 2, 3, 4, 5]);
  for (const s of stats) {
    assert.equal(s.kept + s.rejected, s.groups);
    assert.equal(s.anchored + s.dropped, s.rejected);
    for (const k of ['meanReward', 'meanSpread', 'pgLoss', 'kl', 'anchorLoss', 'clipFraction'] as const) assert.ok(Number.isFinite(s[k]), `${k}: ${s[k]}`);
  }
  // The gates both kept and refused groups over the run, and the refused ones were anchored.
  assert.ok(stats.some((s) => s.kept > 0) && stats.some((s) => s.anchored > 0));
  assert.ok(stats.reduce((a, s) => a + s.rejectedByCompetence, 0) > 0);
  assert.ok(existsSync(modelFiles(out).policySettings), 'the run folder is a policy folder lab eval can read');
});

test('guided sampling: every finished sample is an action on a page element, where free sampling writes invalid ones; the config records it', async () => {
  const sft = await policy;
  const statesFile = shopStates(dir);
  const { model, tokenizer, meta } = loadModel(sft);
  const settings = readPolicySettings(sft, meta);
  const stop = tokenizer.specialId(END_OF_TEXT);
  const invalidFinished = (guided: boolean) => {
    let finished = 0;
    let invalid = 0;
    for (const state of readStates(statesFile)) {
      const p = prepareState(state, tokenizer, settings, model.config.ctx, guided ? { maxNew: 24 } : undefined);
      for (let seed = 1; seed <= 4; seed++) {
        for (const c of sampleGroup(model, p.prompt, { group: 8, maxNew: 24, topP: 0.95, temperature: 1, seed, stopToken: stop, ...(p.guide ? { constraint: p.guide } : {}) })) {
          if (c.tokens.at(-1) !== stop) continue; // out of tokens: the budget, not the guide
          finished++;
          const parsed = parsePolicyOutput(tokenizer.decode(c.tokens.slice(0, -1)));
          if (!parsed.valid || !state.input.elements.some((e) => parsed.action.includes(`'${e.id}'`))) invalid++;
        }
      }
    }
    return { finished, invalid };
  };
  const free = invalidFinished(false);
  const guided = invalidFinished(true);
  model.dispose();
  assert.ok(free.invalid > 0, `free sampling wrote invalid actions (${free.invalid} of ${free.finished})`);
  assert.ok(guided.finished >= 100, `most guided samples finish (${guided.finished} of 128)`);
  assert.equal(guided.invalid, 0, 'guided sampling wrote none');

  const out = join(dir, 'guided');
  await trainSalvage(salvageJob(sft, out, statesFile, { guided: true, iterations: 1 }));
  assert.equal(parseSalvageJob(JSON.parse(readFileSync(modelFiles(out).salvageConfig, 'utf8')), modelFiles(out).salvageConfig).guided, true);
  // A run recorded before the option existed sampled freely.
  const { guided: _, ...old } = salvageJob(sft, join(dir, 'old'), statesFile);
  assert.equal(parseSalvageJob(old, 'old config').guided, false);
});

test('with a warm-up the learning rate rises linearly over the first updates, then stays', async () => {
  const sft = await policy;
  const out = join(dir, 'warmup');
  // No gates: every iteration has groups to learn from, so every iteration takes its update.
  const job = applyPreset(salvageJob(sft, out, shopStates(dir), { iterations: 5, statesPerIter: 1, group: 2, updatesPerIter: 1, lr: 1e-3, warmup: 4 }), 'no-gates');
  await trainSalvage(job);
  const lrs = readFileSync(modelFiles(out).salvageStats, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as IterationStats).lr);
  assert.deepEqual(lrs.map((x) => Number(x.toExponential(6))), [2.5e-4, 5e-4, 7.5e-4, 1e-3, 1e-3]);
  assert.equal(parseSalvageJob(JSON.parse(readFileSync(modelFiles(out).salvageConfig, 'utf8')), modelFiles(out).salvageConfig).warmup, 4);
});

test('drop-rejected anchors nothing; no-gates keeps every group', async () => {
  const sft = await policy;
  const states = shopStates(dir);
  for (const preset of ['drop-rejected', 'no-gates'] as const) {
    const out = join(dir, preset);
    await trainSalvage(applyPreset(salvageJob(sft, out, states, { iterations: 2 }), preset));
    const stats = readFileSync(modelFiles(out).salvageStats, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as IterationStats);
    if (preset === 'drop-rejected') assert.ok(stats.every((s) => s.anchored === 0 && s.anchorLoss === 0 && s.dropped === s.rejected));
    else assert.ok(stats.every((s) => s.kept === s.groups && s.rejected === 0));
  }
});

test('Salvage-DS cancelled in its worker keeps a checkpoint; run again it resumes and ends with the same weights as an uninterrupted run', async () => {
  const sft = await policy;
  const states = shopStates(dir);
  const straight = join(dir, 'straight');
  await startSalvage(salvageJob(sft, straight, states, { iterations: 5 })).result;

  const out = join(dir, 'interrupted');
  const handle = startSalvage(salvageJob(sft, out, states, { iterations: 5 }), { iteration: (s) => { if (s.iteration >= 1) handle.cancel(); } });
  const first = await handle.result;
  assert.equal(first.cancelled, true);
  assert.ok(first.iterationsDone >= 2 && first.iterationsDone < 5, `stopped after ${first.iterationsDone}`);
  const second = await startSalvage(salvageJob(sft, out, states, { iterations: 5 })).result;
  assert.equal(second.resumedFrom, first.iterationsDone);
  assert.equal(second.iterationsDone, 5);
  assert.ok(readFileSync(join(out, 'weights.bin')).equals(readFileSync(join(straight, 'weights.bin'))), 'resumed weights differ from the uninterrupted run');
  const lines = readFileSync(modelFiles(out).salvageStats, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as IterationStats).iteration);
  assert.deepEqual(lines, [0, 1, 2, 3, 4]);
});

test('a malformed states file or job is refused with the file, line and field', () => {
  const bad = join(dir, 'bad-states.jsonl');
  const good = readFileSync(shopStates(dir), 'utf8').trim().split('\n');
  writeFileSync(bad, `${good[0]}\n${good[1].replace('"action":"click', '"actio":"click')}\n`);
  assert.throws(() => readStates(bad), /bad-states\.jsonl:2: field target\.action/);
  assert.throws(() => parseSalvageJob({ ...salvageJob('p', 'o', 's'), group: 1 }, 'salvage-config.json'), /salvage-config\.json: field group/);
  assert.throws(() => parseSalvageJob({ ...salvageJob('p', 'o', 's'), gates: { enabled: true, minSpread: 1, competence: 'share', lo: 0.8, hi: 0.2 } }, 'x.json'), /competence band/);
});
