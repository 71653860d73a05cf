/**
 * Failure-mode mining: where and how a policy's failed rollout went wrong, against a successful
 * reference trajectory of the same task instance (the oracle's, on the same seed and tier).
 *
 * The sites are deterministic per seed, so while a rollout's actions mean the same as the
 * reference's, both are in the same page state. The critical state is the first step where the
 * meaning differs: a different action type, a different target element (compared by role,
 * accessible name and rank among equals on that step's page, not by id), or different text after
 * normalisation. That step is classified:
 *   invalid_action     the action did not parse, or named no element of the page
 *   premature_answer   an answer (send_msg_to_user) where the reference still acts on the page
 *   wrong_text         right action and element, wrong text (fill, select_option, answer)
 *   wrong_element      right action type, another element
 *   wrong_action_type  another kind of action
 *   loop               from the critical step on, the rollout repeats one action three times or more
 *   timeout            no departure: the rollout followed the reference until it ran out of steps
 * A departure need not be what lost the task; `lab mine --confirm` checks each state by branching
 * from it (../evaluation/branching.ts) and records the outcome beside it in mining.json (./mining-file.ts).
 * The reference episodes are run by ../evaluation/mine-failure.ts. The report names each example's episode and step so the trajectory viewer opens it.
 */
import { actionPoints, formatAction, parseAction, type Action } from '../environment/actions.ts';
import type { PageElement } from '../environment/types.ts';
import { normalizeText } from '../common/normalize.ts';
import type { EpisodeData } from '../store/lab.ts';

export const FAILURE_MODES = ['invalid_action', 'premature_answer', 'wrong_text', 'wrong_element', 'wrong_action_type', 'loop', 'timeout'] as const;
export type FailureMode = (typeof FAILURE_MODES)[number];

/** What an action means on a page: its type, the element it acts on, its text. */
export interface ActionMeaning {
  type: Action['type'] | 'invalid';
  /** role|name|rank of the target element; null for actions without one; 'missing' when the id is not on the page. */
  target: string | null;
  text: string | null;
}

export function actionMeaning(action: string, elements: readonly PageElement[]): ActionMeaning {
  let a: Action;
  try {
    a = parseAction(action);
  } catch {
    return { type: 'invalid', target: null, text: null };
  }
  let target: string | null = null;
  if ('id' in a) {
    const el = elements.find((e) => e.id === a.id);
    target = el ? elementKey(el, elements) : 'missing';
  }
  const text = a.type === 'fill' ? a.text : a.type === 'select_option' ? a.options.join('|') : a.type === 'send_msg_to_user' ? a.text
    : a.type === 'report_infeasible' ? a.reason : a.type === 'press' || a.type === 'keyboard_press' ? a.key : a.type === 'goto' ? a.url : a.type === 'scroll' ? `${a.dx},${a.dy}`
    : a.type === 'keyboard_type' ? a.text : actionPoints(a).length ? formatAction(a) : null;
  return { type: a.type, target, text: text === null ? null : normalizeText(text) };
}

/** An element's identity across two renderings of a page: role, accessible name, and rank among equals. */
export function elementKey(el: PageElement, elements: readonly PageElement[]): string {
  const same = elements.filter((e) => e.role === el.role && normalizeText(e.name) === normalizeText(el.name));
  return `${el.role}|${normalizeText(el.name)}|${same.indexOf(el)}`;
}

export function sameMeaning(a: ActionMeaning, b: ActionMeaning): boolean {
  return a.type !== 'invalid' && a.type === b.type && a.target === b.target && a.text === b.text;
}

type Trajectory = Pick<EpisodeData, 'steps'>;

export interface CriticalState {
  /** Index of the first step whose action departs from the reference (or the rollout's length). */
  step: number;
  mode: FailureMode;
  action: string | null;
  referenceAction: string | null;
}

/** The critical state of a failed rollout against a successful reference of the same instance. */
export function findCriticalState(rollout: Trajectory, reference: Trajectory): CriticalState {
  const n = Math.min(rollout.steps.length, reference.steps.length);
  for (let i = 0; i < n; i++) {
    const r = rollout.steps[i];
    const ref = reference.steps[i];
    const mine = actionMeaning(r.action, r.observation.elements);
    const theirs = actionMeaning(ref.action, ref.observation.elements);
    if (sameMeaning(mine, theirs)) continue;
    return { step: i, mode: classify(rollout, i, mine, theirs), action: r.action, referenceAction: ref.action };
  }
  // No departure within the shorter one: the rollout stopped (or was stopped) before finishing.
  const i = n;
  return { step: i, mode: 'timeout', action: rollout.steps[i]?.action ?? null, referenceAction: reference.steps[i]?.action ?? null };
}

function classify(rollout: Trajectory, i: number, mine: ActionMeaning, theirs: ActionMeaning): FailureMode {
  const step = rollout.steps[i];
  if (mine.type === 'invalid' || mine.target === 'missing' || (step.error && ['malformed_action', 'unknown_element', 'invalid_argument', 'action_not_allowed'].includes(step.error.code))) return 'invalid_action';
  const counts = new Map<string, number>();
  for (const s of rollout.steps.slice(i)) counts.set(s.action, (counts.get(s.action) ?? 0) + 1);
  if (Math.max(...counts.values()) >= 3) return 'loop';
  if (mine.type === 'send_msg_to_user' && theirs.type !== 'send_msg_to_user') return 'premature_answer';
  if (mine.type === theirs.type && mine.target === theirs.target) return 'wrong_text';
  if (mine.type === theirs.type) return 'wrong_element';
  return 'wrong_action_type';
}

export interface MinedFailure extends CriticalState {
  episodeId: string;
  referenceId: string;
  family: string;
  seed: number;
  tier: number;
}

export interface MiningReport {
  failures: number;
  /**
   * Distinct critical states: failures of one instance that departed at the same step share the
   * page state (both followed the reference's meanings up to there), so they count once.
   */
  distinctStates: number;
  byMode: Record<FailureMode, number>;
  byFamily: Record<string, Partial<Record<FailureMode, number>>>;
  /** Up to `examplesPerMode` per mode: episode id and step, to open in the trajectory viewer. */
  examples: Record<FailureMode, MinedFailure[]>;
}

/** What identifies a critical state's page: its instance and the step at which the rollout departed. */
export function criticalStateKey(f: Pick<MinedFailure, 'family' | 'seed' | 'tier' | 'step'>): string {
  return `${f.family}:${f.seed}:${f.tier}:${f.step}`;
}

export function miningReport(failures: readonly MinedFailure[], examplesPerMode = 5): MiningReport {
  const byMode = Object.fromEntries(FAILURE_MODES.map((m) => [m, 0])) as Record<FailureMode, number>;
  const examples = Object.fromEntries(FAILURE_MODES.map((m) => [m, [] as MinedFailure[]])) as Record<FailureMode, MinedFailure[]>;
  const byFamily: MiningReport['byFamily'] = {};
  for (const f of failures) {
    byMode[f.mode]++;
    const fam = (byFamily[f.family] ??= {});
    fam[f.mode] = (fam[f.mode] ?? 0) + 1;
    if (examples[f.mode].length < examplesPerMode) examples[f.mode].push(f);
  }
  return { failures: failures.length, distinctStates: new Set(failures.map(criticalStateKey)).size, byMode, byFamily, examples };
}
