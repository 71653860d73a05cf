/**
 * A small lab for the training view, written by the real code paths: a tiny SFT policy (its
 * train-log.jsonl from the SFT loop) under lab/policies/, a 4-iteration Salvage-DS run from it in a
 * folder outside the lab (found through the registry), and two evaluation reports (SFT and
 * Salvage-DS) from the real summariser, the SFT one with a mining report from the real summariser.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summariseEval, type EvalEpisode } from '../../main/evaluation/eval.ts';
import { miningReport, type FailureMode, type MinedFailure } from '../../main/policy/mining.ts';
import { registerTrainingRun } from '../../main/policy/registry.ts';
import { trainSalvage } from '../../main/policy/salvage/train.ts';
import { salvageJob, shopStates, tinyPolicy } from '../policy/salvage-fixture.ts';

export interface TrainingFixture {
  labDir: string;
  sftDir: string;
  salvageDir: string;
  /** The Salvage-DS run's frozen states (to continue the run). */
  statesFile: string;
  sftEval: string;
  salvageEval: string;
  /** The episodes each evaluation summarised. */
  episodes: Record<string, EvalEpisode[]>;
  failures: MinedFailure[];
}

function episodes(successes: Record<string, boolean[]>, steps: (family: string, i: number) => number): EvalEpisode[] {
  return Object.entries(successes).flatMap(([family, ok]) =>
    ok.map((success, i) => ({ family, seed: 10000 + i, run: i % 2, episodeId: `${family}-${i}-${success ? 'ok' : 'fail'}`, tier: 1 + (i % 2), success, steps: steps(family, i), invalidSteps: i % 3 === 0 ? 1 : 0 })),
  );
}

function writeEval(labDir: string, id: string, policyDir: string, eps: EvalEpisode[]): void {
  const dir = join(labDir, 'evals', id);
  mkdirSync(dir, { recursive: true });
  const report = {
    evalId: id, createdAt: '2026-12-01T10:00:00.000Z',
    request: { policy: { dir: policyDir }, tasks: 'shop,flights', split: 'test', seeds: 4, runs: 2, tier: 1, parallel: 1 },
    policy: { kind: 'compact-policy', dir: policyDir, decode: 'ar', sampling: { kind: 'greedy' }, seed: 0, parameters: 1000, targets: 'thought+action', dataset: null },
    ...summariseEval(eps, 2),
    decoding: { steps: 0, invalidOutputs: 0, tokensPerSec: 0, msPerStep: 0 }, episodes: eps, elapsedS: 1,
  };
  writeFileSync(join(dir, 'report.json'), JSON.stringify(report, null, 2) + '\n');
}

/** rollout: a failed episode recorded in the lab, to stand as the first mined failure (its step is the critical one). */
export async function trainingFixture(opts: { labDir?: string; rollout?: { episodeId: string; step: number; family: string; seed: number } } = {}): Promise<TrainingFixture> {
  const labDir = opts.labDir ?? mkdtempSync(join(tmpdir(), 'lab-training-'));
  const policies = join(labDir, 'policies');
  mkdirSync(policies, { recursive: true });
  const sftDir = await tinyPolicy(policies, 30); // lab/policies/sft
  const work = mkdtempSync(join(tmpdir(), 'lab-training-out-'));
  const salvageDir = join(work, 'salvage');
  registerTrainingRun(labDir, 'salvage', salvageDir);
  const statesFile = shopStates(work);
  await trainSalvage(salvageJob(sftDir, salvageDir, statesFile, { iterations: 4, group: 6 }));

  const sftEps = episodes({ shop: [true, false, false, true, false, false, true, false], flights: [true, true, false, false, true, false, false, false] }, (f, i) => 4 + (i % 3));
  const salvageEps = episodes({ shop: [true, true, false, true, true, false, true, false], flights: [true, true, true, false, true, false, true, false] }, (f, i) => 3 + (i % 3));
  const sftEval = '20261201T100000Z-sft001';
  const salvageEval = '20261201T110000Z-slv001';
  writeEval(labDir, sftEval, sftDir, sftEps);
  writeEval(labDir, salvageEval, salvageDir, salvageEps);

  const modes: FailureMode[] = ['wrong_element', 'wrong_element', 'invalid_action', 'loop', 'wrong_element', 'premature_answer', 'wrong_text', 'invalid_action', 'timeout'];
  const failures: MinedFailure[] = sftEps.filter((e) => !e.success).map((e, i) => ({
    episodeId: e.episodeId, referenceId: `ref-${i}`, family: e.family, seed: e.seed, tier: e.tier, step: i % 4,
    mode: modes[i % modes.length], action: `click('${i}')`, referenceAction: "click('4')",
    ...(i === 0 && opts.rollout ? opts.rollout : {}),
  }));
  writeFileSync(join(labDir, 'evals', sftEval, 'mining.json'), JSON.stringify({ evalId: sftEval, ...miningReport(failures, 3), all: failures }, null, 2) + '\n');
  return { labDir, sftDir, salvageDir, statesFile, sftEval, salvageEval, episodes: { [sftEval]: sftEps, [salvageEval]: salvageEps }, failures };
}
