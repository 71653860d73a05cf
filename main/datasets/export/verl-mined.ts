/**
 * The critical states of a mining report (`lab mine`) as a verl RL dataset: Salvage-DS's states for
 * verl's trainers. One row per mined failure whose reference episode acts at the critical step:
 * the prompt at that step as every dataset export renders it (the reference episode's page and
 * history; up to there the failed rollout meant the same), the reference action with the page as
 * ground truth (./verl.ts), and in extra_info what mining and branching know of the state.
 *
 * Mining records no competence or reward spread per state (Salvage-DS measures those while it
 * samples, per iteration); what it holds is the failure mode, the policy's action there, and, once
 * `lab mine --confirm` ran, the branching outcome: its status, the runs per branch and how many
 * runs succeeded after the reference action and after the policy's. Those go in extra_info, null
 * where not branched, so a verl data filter can select on them.
 */
import { join, resolve } from 'node:path';
import { renderPrompt, type PromptStep } from '../../policy/observation-text.ts';
import { FAILURE_MODES, type FailureMode } from '../../policy/mining.ts';
import { readMiningFile, selectFailures, type MinedFailureRecord } from '../../policy/mining-file.ts';
import type { LabStore } from '../../store/lab.ts';
import { DatasetError } from '../errors.ts';
import type { SampleImage } from '../samples.ts';
import { withStagingDir, type ExportProgress } from './common.ts';
import { int64, nullable, str, struct } from './parquet.ts';
import { writeRewardModule, writeVerlParquet, type VerlState } from './verl.ts';

/** The file the states go into: verl's `data.train_files`. */
export const MINED_FILE = 'train.parquet';

const EXTRA_INFO = struct({
  split: str,
  index: int64,
  /** The reference episode and step the prompt was rendered from. */
  episode_id: str,
  step: int64,
  family: str,
  seed: int64,
  tier: int64,
  /** The failed rollout that departed here, and how. */
  rollout_episode_id: str,
  mode: str,
  policy_action: nullable(str),
  /** Branching (`lab mine --confirm`): null when the state was not branched. */
  confirmation: nullable(str),
  branches: nullable(int64),
  reference_successes: nullable(int64),
  policy_successes: nullable(int64),
});

export interface MinedExportRequest {
  /** The mining report (lab/evals/<id>/mining.json). */
  mining: string;
  outDir: string;
  /** Only the states branching confirmed (as `lab train salvage --confirmed-only`). */
  confirmedOnly?: boolean;
  /** Fail on a missing screenshot instead of leaving the state out. */
  strict?: boolean;
  onProgress?: (p: ExportProgress) => void;
  signal?: AbortSignal;
}

export interface MinedExportResult {
  mining: string;
  outDir: string;
  /** Files written, relative to outDir. */
  files: string[];
  states: number;
  byMode: Partial<Record<FailureMode, number>>;
  /** Mined failures left out because the reference episode ended at the critical step (no action to learn). */
  withoutReferenceAction: number;
  /** States left out because their screenshot file is missing (each named in warnings). */
  missingScreenshots: number;
  images: number;
  warnings: string[];
}

interface Row {
  state: VerlState;
  extraInfo: Record<string, unknown>;
}

export async function exportMinedStates(lab: LabStore, req: MinedExportRequest): Promise<MinedExportResult> {
  const mining = resolve(req.mining);
  const failures = selectFailures(readMiningFile(mining), !!req.confirmedOnly, mining);
  const rows: Row[] = [];
  const warnings: string[] = [];
  let withoutReferenceAction = 0;
  let missingScreenshots = 0;
  const files: string[] = [];
  await withStagingDir(req.outDir, req.signal, req.onProgress, failures.length, async (dir, advance) => {
    for (const [i, f] of failures.entries()) {
      const row = stateRow(lab, f, `${mining}: all[${i}]`, rows.length, req.strict, warnings);
      if (row === 'no-action') withoutReferenceAction++;
      else if (row === 'no-screenshot') missingScreenshots++;
      else rows.push(row);
      await advance();
    }
    if (!rows.length) {
      throw new DatasetError(`${mining}: no ${req.confirmedOnly ? 'confirmed ' : ''}critical states to export (${failures.length} selected, ${withoutReferenceAction} without a reference action, ${missingScreenshots} without their screenshot file)`);
    }
    writeVerlParquet(join(dir, MINED_FILE), rows, EXTRA_INFO, rows.some((r) => r.state.images.length > 0));
    files.push(MINED_FILE, writeRewardModule(dir));
  });
  const byMode: MinedExportResult['byMode'] = {};
  for (const m of FAILURE_MODES) {
    const n = rows.filter((r) => r.extraInfo.mode === m).length;
    if (n) byMode[m] = n;
  }
  return {
    mining, outDir: resolve(req.outDir), files, states: rows.length, byMode, withoutReferenceAction, missingScreenshots,
    images: new Set(rows.flatMap((r) => r.state.images.map((img) => img.sha256))).size, warnings,
  };
}

/** The row of one mined failure, or why it has none. `where` names the failure in errors. */
function stateRow(lab: LabStore, f: MinedFailureRecord, where: string, index: number, strict: boolean | undefined, warnings: string[]): Row | 'no-action' | 'no-screenshot' {
  let ref;
  try {
    ref = lab.readEpisode(f.referenceId);
  } catch (err) {
    throw new DatasetError(`${where}: reference episode ${f.referenceId} cannot be read: ${(err as Error).message}`);
  }
  const step = ref.steps.find((s) => s.index === f.step);
  // A rollout that followed the reference to its end has no reference action to learn.
  if (!step) return 'no-action';
  const images: SampleImage[] = [];
  const shot = step.observation.screenshot;
  if (shot) {
    if (!lab.blobs.has(shot)) {
      const what = `${where}: reference episode ${f.referenceId} step ${f.step}: screenshot ${lab.blobs.pathOf(shot)} is missing`;
      if (strict) throw new DatasetError(what);
      warnings.push(`${what}; state left out`);
      return 'no-screenshot';
    }
    images.push({ sha256: shot, path: lab.blobs.pathOf(shot) });
  }
  const history: PromptStep[] = ref.steps.filter((s) => s.index < f.step).map((s) => ({ action: s.action, error: s.error }));
  const c = f.confirmation;
  return {
    state: {
      family: f.family,
      messages: renderPrompt({ instruction: ref.header.task.instruction, observation: step.observation, history }),
      images,
      action: step.action,
      elements: step.observation.elements,
    },
    extraInfo: {
      split: 'train', index, episode_id: f.referenceId, step: f.step, family: f.family, seed: f.seed, tier: f.tier,
      rollout_episode_id: f.episodeId, mode: f.mode, policy_action: f.action,
      confirmation: c?.status ?? null, branches: c?.branches ?? null,
      reference_successes: c?.reference?.successes ?? null, policy_successes: c?.policy?.successes ?? null,
    },
  };
}
