/**
 * Salvage-DS rewards, advantages and gates: pure functions over the actions of one group, so every
 * rule can be checked on crafted groups without a model.
 *
 * Meaning is mining's meaning (../mining.ts): same action type, same target element compared by
 * role, normalised name and rank among equals (so another id naming the same element is equal),
 * same normalised text. An action is invalid when it does not parse, or names an element that is
 * not on the page: the environment would reject both, so both get the larger penalty.
 */
import { actionMeaning, sameMeaning, type ActionMeaning } from '../mining.ts';
import type { PageElement } from '../../environment/types.ts';

export const REWARD_KINDS = ['polarized', 'graded'] as const;
export type RewardKind = (typeof REWARD_KINDS)[number];

export interface RewardSettings {
  kind: RewardKind;
  /** Reward of an action with the reference's meaning (polarized), and of full credit (graded). */
  correct: number;
  /** Reward of a valid action with another meaning (polarized), and of no credit (graded). */
  wrong: number;
  /** Reward of an unparsable action or one naming no element of the page; below `wrong`. */
  invalid: number;
  /** Graded only: shares of credit for the same type, the same target, the same text (sum 1). */
  gradedWeights: { type: number; target: number; text: number };
}

export const defaultRewardSettings: RewardSettings = {
  kind: 'polarized', correct: 1, wrong: -1, invalid: -2, gradedWeights: { type: 0.4, target: 0.4, text: 0.2 },
};

export interface ScoredAction {
  reward: number;
  /** Same meaning as the reference (what competence counts, whatever the reward kind). */
  correct: boolean;
  invalid: boolean;
}

export function isInvalid(m: ActionMeaning): boolean {
  return m.type === 'invalid' || m.target === 'missing';
}

/**
 * The reward of one sampled action against the reference, both read on the state's page.
 * `valid` false (no line of the output parsed) is invalid whatever the fallback text says.
 */
export function scoreAction(action: string, valid: boolean, reference: ActionMeaning, elements: readonly PageElement[], s: RewardSettings): ScoredAction {
  const mine = valid ? actionMeaning(action, elements) : ({ type: 'invalid', target: null, text: null } as ActionMeaning);
  if (isInvalid(mine)) return { reward: s.invalid, correct: false, invalid: true };
  const correct = sameMeaning(mine, reference);
  if (s.kind === 'polarized') return { reward: correct ? s.correct : s.wrong, correct, invalid: false };
  // Graded: partial credit, target and text only count when the type matches (clicking the right
  // element is not "half right" when the reference fills it).
  const w = s.gradedWeights;
  const sameType = mine.type === reference.type;
  const credit = (sameType ? w.type : 0) + (sameType && mine.target === reference.target ? w.target : 0) + (sameType && mine.text === reference.text ? w.text : 0);
  return { reward: s.wrong + (s.correct - s.wrong) * credit, correct, invalid: false };
}

/** Group-relative advantages (r - mean) / (std + eps), population std: all zero for equal rewards. */
export function groupAdvantages(rewards: readonly number[], eps = 1e-4): number[] {
  const mean = rewards.reduce((a, b) => a + b, 0) / rewards.length;
  const std = Math.sqrt(rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / rewards.length);
  return rewards.map((r) => (r - mean) / (std + eps));
}

/**
 * Advantages with the negative ones scaled by `negativeScale` (1: as computed; 0: only samples
 * better than their group's mean are reinforced, none pushed down). A wrong sample's tokens are
 * mostly the same as a right one's (the thought, the copied text of a fill or an answer): pushing
 * them all down is what garbled copied text in the full4 sweep.
 */
export function scaleNegativeAdvantages(advantages: readonly number[], negativeScale: number): number[] {
  return advantages.map((a) => (a < 0 ? a * negativeScale : a));
}

/** Reward spread of a group: max - min (0 when every sample got the same reward). */
export function rewardSpread(rewards: readonly number[]): number {
  return Math.max(...rewards) - Math.min(...rewards);
}

export const COMPETENCE_KINDS = ['share', 'probability'] as const;
export type CompetenceKind = (typeof COMPETENCE_KINDS)[number];

export interface GateSettings {
  /** Off: every group is kept (ablations "no gates" and plain GRPO). */
  enabled: boolean;
  /** Contrast gate: keep a group only when max - min reward reaches this. */
  minSpread: number;
  /**
   * Competence gate: 'share' of samples with the reference's meaning, or 'probability' the policy
   * gives the reference action's tokens (after the reference thought); kept within [lo, hi].
   */
  competence: CompetenceKind;
  lo: number;
  hi: number;
}

export const defaultGateSettings: GateSettings = { enabled: true, minSpread: 1, competence: 'share', lo: 0.1, hi: 0.9 };

export interface GateVerdict {
  kept: boolean;
  /** Which gates said no (both may). Empty when kept. */
  rejectedBy: ('contrast' | 'competence')[];
  spread: number;
  competence: number;
}

export function gateGroup(rewards: readonly number[], competence: number, g: GateSettings): GateVerdict {
  const spread = rewardSpread(rewards);
  if (!g.enabled) return { kept: true, rejectedBy: [], spread, competence };
  const rejectedBy: GateVerdict['rejectedBy'] = [];
  if (spread < g.minSpread) rejectedBy.push('contrast');
  if (competence < g.lo || competence > g.hi) rejectedBy.push('competence');
  return { kept: rejectedBy.length === 0, rejectedBy, spread, competence };
}
