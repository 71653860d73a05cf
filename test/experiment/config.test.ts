/**
 * The experiment presets as configuration: the full preset fine-tunes the shipped policy in the
 * shipped policy's own shape and prompt, records the weights it starts from and refuses others, and
 * sizes its evaluations so each claimed difference can be told to within about +-5 points.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { experimentConfig, parseExperimentConfig, PRESET_CONFIGS } from '../../main/experiment/config.ts';
import { ExperimentFolder } from '../../main/experiment/folder.ts';
import { experimentStages, sftPromptSettings, type StageContext } from '../../main/experiment/stages.ts';
import { rateDifference } from '../../main/experiment/report.ts';
import { rate } from '../../main/policy/stats.ts';
import { SHIPPED_POLICY } from '../../main/policy/shipped.ts';

/** The held-out families (`lab eval --split heldout`). */
const HELD_OUT_FAMILIES = ['restaurants', 'wiki'];
const shipped = (file: string) => JSON.parse(readFileSync(join(SHIPPED_POLICY, file), 'utf8'));

test('the full preset fine-tunes the shipped policy in its own shape and prompt, and records its weights', () => {
  const cfg = experimentConfig('full', 'f1');
  assert.equal(cfg.sft.init, 'shipped');
  assert.match(cfg.sft.initDigest ?? '', /^[0-9a-f]{64}$/);
  const model = shipped('model.json').config;
  for (const k of ['dModel', 'nLayer', 'nHead', 'dFF', 'ctx', 'copy', 'copyNext'] as const) assert.equal(cfg.sft.model[k], model[k] ?? false, `model.${k}`);
  assert.equal(cfg.sft.vocabSize, model.vocabSize);
  // Every prompt setting, so a policy shipped with a new one (value marks, cited answers) fails here
  // until the preset fine-tunes in it too.
  assert.deepEqual(sftPromptSettings(cfg.sft), shipped('policy.json').prompt);
  assert.equal(cfg.sft.reserve, shipped('policy.json').reserve);
  // The other presets train from random weights and record no digest.
  assert.equal(experimentConfig('demo', 'd1').sft.init, undefined);
  assert.equal(experimentConfig('demo', 'd1').sft.initDigest, undefined);
});

test('the full preset gives each claimed difference a 95% interval of at most +-5 points at 50% success', () => {
  const cfg = experimentConfig('full', 'f1');
  const e = cfg.eval;
  const pool = cfg.salvage.seeds.length;
  const perVariant = { test: e.testSeeds * e.runs * cfg.families.length * pool, heldout: e.heldoutSeeds * e.runs * HELD_OUT_FAMILIES.length * pool };
  const perSft = { test: e.testSeeds * (e.sftRuns ?? e.runs) * cfg.families.length, heldout: e.heldoutSeeds * (e.sftRuns ?? e.runs) * HELD_OUT_FAMILIES.length };
  assert.equal(perSft.test, perVariant.test, 'SFT gets as many test episodes as a variant pools');
  const halfWidth = (n1: number, n2: number) => {
    const d = rateDifference(rate(Math.round(n1 / 2), n1), rate(Math.round(n2 / 2), n2)).ci95!;
    return (d.high - d.low) / 2;
  };
  assert.ok(halfWidth(perVariant.test, perSft.test) <= 0.05, `test: +-${halfWidth(perVariant.test, perSft.test)}`);
  // Held out the policies solve little (9/60 for the shipped one), where the interval is far narrower.
  const low = rateDifference(rate(9, perVariant.heldout), rate(9, perSft.heldout)).ci95!;
  assert.ok((low.high - low.low) / 2 <= 0.05, `held out at 5%: +-${(low.high - low.low) / 2}`);
  // More Salvage-DS seeds: SFT keeps pace.
  const four = experimentConfig('full', 'f2', { seeds: 4 });
  assert.equal(four.eval.sftRuns, four.eval.runs * 4);
  assert.equal(PRESET_CONFIGS.demo.eval.sftRuns, undefined);
});

test('a config written before the prompt and init fields existed still reads, with the settings it ran with', () => {
  const cfg = JSON.parse(JSON.stringify(experimentConfig('tiny', 'old')));
  delete cfg.sft.thought;
  delete cfg.eval.sftRuns;
  const read = parseExperimentConfig(cfg, 'config.json');
  assert.equal(read.sft.thought, 'dataset');
  assert.equal(read.sft.init, undefined);
  assert.equal(read.sft.maxTextChars, undefined);
  delete cfg.sft.markValues;
  delete cfg.sft.answer;
  delete cfg.sft.model.copyNext;
  const older = parseExperimentConfig(cfg, 'config.json');
  assert.deepEqual([older.sft.markValues, older.sft.answer, older.sft.model.copyNext], [false, 'message', false]);
  assert.throws(() => parseExperimentConfig({ ...cfg, sft: { ...cfg.sft, init: 'mine' } }, 'config.json'), /config\.json: field sft\.init/);
});

test('an SFT stage refuses to fine-tune weights other than those the experiment was created with', async () => {
  const lab = mkdtempSync(join(tmpdir(), 'lab-exp-init-'));
  const cfg = experimentConfig('full', 'moved');
  cfg.sft.initDigest = '0'.repeat(64);
  const folder = ExperimentFolder.create(lab, cfg);
  const stage = experimentStages(cfg).find((s) => s.name === 'sft-reflect')!;
  const ctx = { folder, config: cfg } as unknown as StageContext;
  await assert.rejects(stage.run(ctx), /sft-reflect: the shipped policy's weights \(.*web-policy\) differ from those this experiment was created with/);
});
