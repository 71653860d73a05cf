/**
 * The states Salvage-DS trains on: a policy prompt's input, the reference action (and the thought
 * the reference wrote before it), and the page's elements, which the prompt input carries and the
 * reward reads to compare meanings.
 *
 * Mined states (the default) are the critical states of `lab mine`: the first step where a failed
 * rollout departed in meaning from the oracle's successful reference; with `confirmedOnly`, only
 * those that branching confirmed lost the task (`lab mine --confirm`). Up to that step both
 * trajectories meant the same, so the page state is the same; the state is taken from the
 * reference episode's step, whose action ids are valid on its own page (the rollout's page may
 * number elements differently). Routine states, a configurable share, are reference steps of
 * successful trajectories: the SFT policy's own training samples. The ablation "RL on all states"
 * takes every training sample instead.
 *
 * The states are frozen into the run's folder (salvage-states.jsonl) before training, so a
 * resumed run trains on exactly the same ones.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { LabStore } from '../../store/lab.ts';
import { readJsonlStrict } from '../../store/jsonl.ts';
import { FAILURE_MODES, criticalStateKey } from '../mining.ts';
import { readMiningFile, selectFailures, type MinedFailureRecord } from '../mining-file.ts';
import { instanceSide, type StateSide } from '../state-split.ts';
import { PolicySample, readPolicySamples } from '../sft-data.ts';
import { renderPolicyTarget } from '../prompt.ts';
import { Rng } from '../../common/rng.ts';

// Selecting among mined states belongs to the mining report; kept importable from here for Salvage-DS.
export { selectFailures } from '../mining-file.ts';

export const STATE_SOURCES = ['mined', 'all'] as const;
export type StateSource = (typeof STATE_SOURCES)[number];

export const SalvageState = z.object({
  /** Where it came from: a critical state of a failed rollout, or a routine reference step. */
  kind: z.enum(['critical', 'routine']),
  /** The failure mode mining gave the critical state; null for routine states. */
  mode: z.enum(FAILURE_MODES).nullable(),
  family: z.string(),
  /** Episode and step the state was taken from (the reference episode for critical states). */
  episodeId: z.string(),
  step: z.number().int().min(0),
  input: PolicySample.shape.input,
  target: PolicySample.shape.target,
});
export type SalvageState = z.infer<typeof SalvageState>;

/** A mining report's failures (mining.json, written by `lab mine`), checked field by field. */
export function readMinedFailures(path: string): Pick<MinedFailureRecord, 'episodeId' | 'referenceId' | 'family' | 'seed' | 'tier' | 'step' | 'mode' | 'confirmation'>[] {
  return readMiningFile(path);
}

/**
 * The critical states of mined failures, read from their reference episodes in the lab, each once:
 * rollouts of one instance that departed at the same step share the state (the first one's mode
 * is kept).
 */
export function criticalStates(lab: LabStore, failures: ReturnType<typeof readMinedFailures>): SalvageState[] {
  const out: SalvageState[] = [];
  const seen = new Set<string>();
  for (const f of failures) {
    const key = criticalStateKey(f);
    if (seen.has(key)) continue;
    seen.add(key);
    const ref = lab.readEpisode(f.referenceId);
    const step = ref.steps.find((s) => s.index === f.step);
    // A rollout that ran the reference to its end has no reference action to learn: nothing to salvage.
    if (!step) continue;
    out.push({
      kind: 'critical', mode: f.mode, family: f.family, episodeId: f.referenceId, step: f.step,
      input: {
        instruction: ref.header.task.instruction, url: step.observation.url, title: step.observation.title, elements: step.observation.elements,
        lastActionError: step.observation.lastActionError ?? null, history: ref.steps.filter((s) => s.index < f.step).map((s) => s.action),
      },
      target: renderPolicyTarget({ thought: step.thought, action: step.action }),
    });
  }
  return out;
}

/** Samples of the SFT policy's data as routine states: its training split (RL's routine share) or its validation split (the yardstick's). */
export function routineStates(samplesFile: string, split: 'train' | 'validation' = 'train'): SalvageState[] {
  return routineStatesBySplit(samplesFile)[split];
}

/** Both splits of the SFT data as routine states, from one read of the file. */
export function routineStatesBySplit(samplesFile: string): Record<'train' | 'validation', SalvageState[]> {
  const out: Record<'train' | 'validation', SalvageState[]> = { train: [], validation: [] };
  for (const s of readPolicySamples(samplesFile)) {
    if (s.split !== 'train' && s.split !== 'validation') continue;
    out[s.split].push({ kind: 'routine', mode: null, family: s.family, episodeId: s.episodeId, step: s.step, input: s.input, target: s.target });
  }
  return out;
}

/**
 * Critical states mixed with routine ones so that routine states make up `routineShare` of the
 * whole (drawn without replacement, seeded; fewer when there are not enough).
 */
export function mixStates(critical: readonly SalvageState[], routine: readonly SalvageState[], routineShare: number, seed: number): SalvageState[] {
  if (routineShare < 0 || routineShare >= 1) throw new Error(`routine share must be in [0, 1), got ${routineShare}`);
  const want = Math.round((critical.length * routineShare) / (1 - routineShare));
  const pool = [...routine];
  const rng = new Rng(seed);
  const picked: SalvageState[] = [];
  while (picked.length < want && pool.length) picked.push(pool.splice(rng.below(pool.length), 1)[0]);
  return [...critical, ...picked];
}

export function writeStates(path: string, states: readonly SalvageState[]): void {
  writeFileSync(path, states.map((s) => JSON.stringify(s)).join('\n') + '\n');
}

/** Read salvage-states.jsonl, naming the line and field of anything malformed. */
export function readStates(path: string): SalvageState[] {
  const out = readJsonlStrict(path, SalvageState);
  if (!out.length) throw new Error(`${path}: no states`);
  return out;
}

export interface StateSelection {
  source: StateSource;
  /** mining.json (with source 'mined'). */
  miningPath?: string;
  confirmedOnly: boolean;
  /** Share of mined task instances kept out (./../state-split.ts); `side` picks which side is returned. */
  heldoutShare: number;
  routineShare: number;
  seed: number;
  /** The SFT policy's sft-samples.jsonl (routine states). */
  sftSamples: string;
}

/** The mined failures on one side of the state split. */
export function failuresOnSide<F extends { family: string; seed: number; tier: number }>(failures: readonly F[], heldoutShare: number, side: StateSide): F[] {
  return failures.filter((f) => instanceSide(f, heldoutShare) === side);
}

/**
 * The states a Salvage-DS run trains on, as the CLI and the experiment both choose them: every
 * training sample of the SFT policy (source 'all'), or the mined critical states of the training
 * side of the split mixed with a share of routine ones.
 */
export function salvageStates(lab: LabStore, sel: StateSelection): SalvageState[] {
  const routine = () => routineStates(sel.sftSamples);
  if (sel.source === 'all') return routine();
  if (!sel.miningPath) throw new Error('mined states need a mining report');
  const failures = failuresOnSide(selectFailures(readMinedFailures(sel.miningPath), sel.confirmedOnly, sel.miningPath), sel.heldoutShare, 'train');
  const critical = criticalStates(lab, failures);
  if (!critical.length) throw new Error(`${sel.miningPath}: no ${sel.confirmedOnly ? 'confirmed ' : ''}critical states with a reference action${sel.heldoutShare ? ' on the training side of the state split' : ''}`);
  return mixStates(critical, sel.routineShare > 0 ? routine() : [], sel.routineShare, sel.seed);
}

/**
 * A run's states, frozen in its folder (job.statesFile) the first time and read back after, so a
 * resumed run trains on the states it began with; the CLI and the experiment's stage both call it.
 */
export function freezeStates(
  lab: LabStore,
  job: { statesFile: string; states: StateSource; confirmedOnly: boolean; heldoutShare: number; routineShare: number; seed: number },
  from: { miningPath?: string; sftSamples: string },
): { states: number; critical: number } {
  let states: SalvageState[];
  if (!existsSync(job.statesFile)) {
    if ((job.states === 'all' || job.routineShare > 0) && !existsSync(from.sftSamples)) throw new Error(`${from.sftSamples}: the SFT policy's training samples (routine states) are missing`);
    states = salvageStates(lab, { source: job.states, miningPath: from.miningPath, confirmedOnly: job.confirmedOnly, heldoutShare: job.heldoutShare, routineShare: job.routineShare, seed: job.seed, sftSamples: from.sftSamples });
    mkdirSync(dirname(job.statesFile), { recursive: true });
    writeStates(job.statesFile, states);
  } else states = readStates(job.statesFile);
  return { states: states.length, critical: states.filter((s) => s.kind === 'critical').length };
}
