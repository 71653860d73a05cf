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
import { rate } from '../../main/common/stats.ts';
import { SHIPPED_POLICY } from '../../main/policy/shipped.ts';

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

test('the full preset gives each claimed difference a 95% interval of at most +-5 points', () => {
  const cfg = experimentConfig('full', 'f1');
  const pool = cfg.salvage.seeds.length;
  const episodes = (config: typeof cfg, stage: string) => experimentStages(config).find((s) => s.name === stage)!.planned!.total;
  const salvage = { test: pool * episodes(cfg, 'eval-salvage-s1-test'), heldout: pool * episodes(cfg, 'eval-salvage-s1-heldout') };
  const sft = { test: episodes(cfg, 'eval-sft-reflect-test'), heldout: episodes(cfg, 'eval-sft-reflect-heldout') };
  assert.deepEqual(sft, salvage, 'SFT gets as many episodes as the Salvage-DS variant pools, test and held out');
  assert.deepEqual(sft, { test: 810, heldout: 540 });
  const halfWidth = (p1: number, n1: number, p2: number, n2: number) => {
    const d = rateDifference(rate(Math.round(p1 * n1), n1), rate(Math.round(p2 * n2), n2)).ci95!;
    return (d.high - d.low) / 2;
  };
  // Test success near 50% (the widest case); held out, the SFT policies solve 15% (full3: 27/180) and Salvage-DS may reach 20%.
  assert.ok(halfWidth(0.5, salvage.test, 0.5, sft.test) <= 0.05, `test: +-${halfWidth(0.5, salvage.test, 0.5, sft.test)}`);
  assert.ok(halfWidth(0.2, salvage.heldout, 0.15, sft.heldout) <= 0.05, `held out: +-${halfWidth(0.2, salvage.heldout, 0.15, sft.heldout)}`);
  // The ablations keep the test runs held out too (no claim rests on them); rollouts on training instances run once.
  const e = cfg.eval;
  assert.equal(episodes(cfg, 'eval-graded-s1-heldout'), 2 * e.heldoutSeeds * e.runs);
  assert.equal(episodes(cfg, 'eval-sft-plain-test'), cfg.families.length * e.testSeeds * e.sftRuns!);
  // Mining at scale: each rollout set on its own block of training seeds; older configs' single rollout-train.
  assert.deepEqual(cfg.mine.rollouts!.map((r) => episodes(cfg, `rollout-${r.name}`)), cfg.mine.rollouts!.map((r) => cfg.families.length * r.seeds * r.runs));
  const { rollouts: __, ...olderMine } = cfg.mine;
  assert.equal(episodes({ ...cfg, mine: olderMine }, 'rollout-train'), cfg.families.length * cfg.mine.seeds);
  // More Salvage-DS seeds: SFT keeps pace, test and held out.
  const four = experimentConfig('full', 'f2', { seeds: 4 });
  assert.equal(four.eval.sftRuns, four.eval.runs * 4);
  assert.equal(four.eval.claimHeldoutRuns!.sft, four.eval.claimHeldoutRuns!.salvage * 4);
  assert.equal(PRESET_CONFIGS.demo.eval.sftRuns, undefined);
  // Configs without the field (full2, and full3 as it was created) run their held-out evaluations as the test ones.
  const { claimHeldoutRuns: _, ...olderEval } = e;
  const older = { ...cfg, eval: olderEval };
  assert.equal(episodes(older, 'eval-sft-reflect-heldout'), 2 * e.heldoutSeeds * e.sftRuns!);
  assert.equal(episodes(older, 'eval-salvage-s3-heldout'), 2 * e.heldoutSeeds * e.runs);
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

test('the full preset runs Salvage-DS at every seed and the ablations at seeds 1 and 2; a config without ablationSeeds runs them at every seed', () => {
  const cfg = experimentConfig('full', 'f');
  const names = experimentStages(cfg).map((s) => s.name);
  assert.deepEqual(cfg.salvage.ablationSeeds, [1, 2]);
  for (const seed of [1, 2, 3]) assert.ok(names.includes(`salvage-salvage-s${seed}`) && names.includes(`eval-salvage-s${seed}-heldout`));
  assert.ok(names.includes('salvage-graded-s1') && names.includes('eval-states-all-s1-test'));
  assert.ok(names.includes('salvage-graded-s2') && names.includes('eval-states-all-s2-heldout'));
  assert.ok(!names.some((n) => /^(salvage|eval)-(graded|no-gates|drop-rejected|plain-grpo|states-all)-s3/.test(n)), 'no ablation at seed 3');
  // Collection, datasets, SFT and its evaluations (8), the rollout sets, mining them and SFT's test failures (2), then Salvage-DS.
  const before = 8 + cfg.mine.rollouts!.length + 2;
  assert.equal(names.length, before + 3 * 3 + 5 * 3 * 2);
  const { ablationSeeds: _, ...everySeed } = cfg.salvage;
  assert.equal(experimentStages({ ...cfg, salvage: everySeed }).length, before + 3 * 6 * 3);
  // An ablation seed that is not a training seed is refused, naming the field.
  const bad = JSON.parse(JSON.stringify(cfg));
  bad.salvage.ablationSeeds = [4];
  assert.throws(() => parseExperimentConfig(bad, 'config.json'), /salvage\.ablationSeeds.*every ablation seed must be one of salvage\.seeds/);
});
