/**
 * The state yardstick (`lab bench states`): how a policy acts at mined critical states and at
 * routine states, without a browser, in minutes. It judges Salvage-DS where it acts first: a run
 * trains on the training side of the state split (../policy/state-split.ts) and should move the held-out
 * side; the routine states show whether it forgot what SFT taught.
 *
 * Per policy and state set:
 *   greedy    the action the policy writes under `lab eval`'s decoding (greedy, the same guide,
 *             through CompactPolicyAgent itself), scored by the reward's semantic match
 *   group     G samples at the RL's sampling settings under the RL's guide (Salvage-DS's own
 *             sampleGroup and prepareState), scored the same way: the share correct, the share
 *             invalid, and how many groups are mixed (neither all right nor all wrong: only those
 *             carry a group-relative gradient)
 * Rates of states get Wilson intervals; shares over states a bootstrap over states; each policy
 * after the first is compared with the first on the same states (paired bootstrap of the
 * per-state difference).
 */
import { z } from 'zod';
import type { LabStore } from '../store/lab.ts';
import { END_OF_TEXT } from '../models/tokenizer.ts';
import { mixSeed, Rng } from '../common/rng.ts';
import { CompactPolicyAgent, loadPolicy } from '../agents/compact-policy.ts';
import type { TaskSpec } from '../tasks/types.ts';
import type { Observation } from '../environment/types.ts';
import { parsePolicyOutput } from '../policy/prompt.ts';
import { bootstrapMean, rate, type Mean, type Rate } from '../common/stats.ts';
import { readMinedFailures, criticalStates, failuresOnSide, routineStatesBySplit, type SalvageState } from '../policy/salvage/states.ts';
import { selectFailures } from '../policy/mining-file.ts';
import { prepareState } from '../policy/salvage/train.ts';
import { sampleGroup } from '../policy/salvage/sampling.ts';
import { scoreAction, defaultRewardSettings } from '../policy/salvage/reward.ts';

export interface StateBenchRequest {
  /** Policy folders; the first is the baseline the others are compared with (the SFT policy). */
  policies: string[];
  miningPath: string;
  confirmedOnly: boolean;
  heldoutShare: number;
  /** sft-samples.jsonl whose validation split (else training split) gives the routine states. */
  routineSamples: string;
  /** At most this many states per set, a seeded sample (absent: all). */
  maxStates?: number;
  group: number;
  temperature: number;
  topP: number;
  seed: number;
  backend?: string;
}

export interface SetFigures {
  states: number;
  greedyCorrect: Rate;
  greedyInvalid: Rate;
  /** Mean over states of the share of the group's samples with the reference's meaning. */
  groupCorrect: Mean;
  groupInvalid: Mean;
  /** Groups that are neither all right nor all wrong. */
  mixedGroups: Rate;
  byMode: Record<string, { greedyCorrect: Rate; groupCorrect: Mean }>;
  /** Wrong greedy actions by their verb (click, type, answer, ...): what the policy does instead. */
  wrongGreedyVerbs: Record<string, number>;
}

export interface PolicyFigures {
  policy: string;
  sets: Record<string, SetFigures>;
  /** Per state, in the order of the report's `states`: what the figures are made of (a later run pairs with them). */
  perState: Record<string, StateResult[]>;
  /** Against the first policy on the same states (absent for the first). */
  vsBaseline?: Record<string, { greedyCorrect: Mean; groupCorrect: Mean }>;
}

export interface StateBenchReport {
  request: StateBenchRequest;
  /** The sets and their sizes before any --max-states sample. */
  available: Record<string, number>;
  /** The states measured, per set: episode id and step. */
  states: Record<string, string[]>;
  policies: PolicyFigures[];
  elapsedS: number;
}

export interface StateResult {
  mode: string | null;
  greedyCorrect: boolean;
  greedyInvalid: boolean;
  groupCorrect: number;
  groupInvalid: number;
  /** The greedy action as written (absent in reports measured before it was kept). */
  greedyAction?: string;
}

export const STATE_SETS = ['critical-heldout', 'critical-train', 'routine'] as const;
export type StateSet = (typeof STATE_SETS)[number];

/** The yardstick's state sets: critical states on each side of the split, and routine states. */
export function yardstickStates(lab: LabStore, req: Pick<StateBenchRequest, 'miningPath' | 'confirmedOnly' | 'heldoutShare' | 'routineSamples'>): Record<StateSet, SalvageState[]> {
  const failures = selectFailures(readMinedFailures(req.miningPath), req.confirmedOnly, req.miningPath);
  const routine = routineStatesBySplit(req.routineSamples);
  return {
    'critical-heldout': criticalStates(lab, failuresOnSide(failures, req.heldoutShare, 'heldout')),
    'critical-train': criticalStates(lab, failuresOnSide(failures, req.heldoutShare, 'train')),
    // States the SFT policy never trained on, when its data had a validation split.
    routine: routine.validation.length ? routine.validation : routine.train,
  };
}

/** A seeded sample of at most `max` states, in their original order. */
function sampleStates(states: SalvageState[], max: number | undefined, seed: number): SalvageState[] {
  if (max === undefined || states.length <= max) return states;
  const rng = new Rng(seed);
  const idx = states.map((_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx.slice(0, max).sort((a, b) => a - b).map((i) => states[i]);
}

/** One policy at one state: its greedy action under eval's decoding, and a group under the RL's sampling. */
async function measureState(dir: string, agent: CompactPolicyAgent, s: SalvageState, req: StateBenchRequest, index: number): Promise<StateResult> {
  const { loaded, settings } = await loadPolicy(dir, req.backend);
  const { model, tokenizer } = loaded;
  const stop = tokenizer.specialId(END_OF_TEXT);
  const p = prepareState(s, tokenizer, settings, model.config.ctx, { maxNew: settings.reserve });
  // The agent's own decoding, as in `lab eval`: the state's page as an observation, its history as turns.
  await agent.reset({ family: s.family, seed: index } as TaskSpec);
  const obs = { instruction: s.input.instruction, url: s.input.url, title: s.input.title, elements: s.input.elements, lastActionError: s.input.lastActionError } as Observation;
  const turn = await agent.act(obs, s.input.history.map((action) => ({ action })));
  const score = (action: string, valid: boolean) => scoreAction(action, valid, p.reference, s.input.elements, defaultRewardSettings);
  const greedy = score(turn.action, true);
  const maxNew = Math.min(settings.reserve, model.config.ctx - p.prompt.length);
  const group = sampleGroup(model, p.prompt, {
    group: req.group, maxNew, topP: req.topP, temperature: req.temperature, seed: mixSeed(req.seed, index, 'state-bench'), stopToken: stop,
    ...(p.guide ? { constraint: p.guide } : {}),
  }).map((c) => {
    const parsed = parsePolicyOutput(tokenizer.decode(c.tokens.filter((t) => t !== stop)));
    return score(parsed.action, parsed.valid);
  });
  return {
    mode: s.mode, greedyCorrect: greedy.correct, greedyInvalid: greedy.invalid, greedyAction: turn.action,
    groupCorrect: group.filter((g) => g.correct).length / group.length, groupInvalid: group.filter((g) => g.invalid).length / group.length,
  };
}

function figures(rs: readonly StateResult[]): SetFigures {
  const modes = [...new Set(rs.map((r) => r.mode).filter((m): m is string => m !== null))].sort();
  const count = (f: (r: StateResult) => boolean) => rs.filter(f).length;
  return {
    states: rs.length,
    greedyCorrect: rate(count((r) => r.greedyCorrect), rs.length),
    greedyInvalid: rate(count((r) => r.greedyInvalid), rs.length),
    groupCorrect: bootstrapMean(rs.map((r) => r.groupCorrect)),
    groupInvalid: bootstrapMean(rs.map((r) => r.groupInvalid)),
    mixedGroups: rate(count((r) => r.groupCorrect > 0 && r.groupCorrect < 1), rs.length),
    byMode: Object.fromEntries(modes.map((m) => {
      const of = rs.filter((r) => r.mode === m);
      return [m, { greedyCorrect: rate(of.filter((r) => r.greedyCorrect).length, of.length), groupCorrect: bootstrapMean(of.map((r) => r.groupCorrect)) }];
    })),
    wrongGreedyVerbs: tally(rs.filter((r) => !r.greedyCorrect && r.greedyAction !== undefined).map((r) => actionVerb(r.greedyAction!))),
  };
}

/** The verb of an action line ("click(12)" -> "click"); "?" for a line that does not start with one. */
export function actionVerb(action: string): string {
  return /^\s*([a-z_]+)\s*\(/i.exec(action)?.[1].toLowerCase() ?? '?';
}

function tally(keys: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of [...keys].sort()) out[k] = (out[k] ?? 0) + 1;
  return out;
}

/**
 * What a stored report must hold to stand in as the baseline (`--baseline`): the settings and
 * states it is checked against, and its first policy's per-state results; checked where it enters.
 */
export const StateBenchBaseline = z.object({
  request: z.object({
    miningPath: z.string(), confirmedOnly: z.boolean(), heldoutShare: z.number(), routineSamples: z.string(), maxStates: z.number().optional(),
    group: z.number(), temperature: z.number(), topP: z.number(), seed: z.number(),
  }).passthrough(),
  states: z.record(z.string(), z.array(z.string())),
  policies: z.array(z.object({
    policy: z.string(),
    perState: z.record(z.string(), z.array(z.object({ mode: z.string().nullable(), greedyCorrect: z.boolean(), greedyInvalid: z.boolean(), groupCorrect: z.number(), groupInvalid: z.number(), greedyAction: z.string().optional() }))),
  }).passthrough()).min(1),
}).passthrough();
export type StateBenchBaseline = z.infer<typeof StateBenchBaseline>;

export interface StateBenchHooks {
  signal?: AbortSignal;
  /**
   * A baseline measured before (the first policy of an earlier report on the same states and
   * settings): it stands first instead of being measured again.
   */
  baseline?: StateBenchBaseline;
  onState?(done: number, total: number, policy: string, set: string): void;
}

export async function benchStates(lab: LabStore, req: StateBenchRequest, hooks: StateBenchHooks = {}): Promise<StateBenchReport | null> {
  if (!req.policies.length) throw new Error('give at least one policy');
  const t0 = performance.now();
  const all = yardstickStates(lab, req);
  const sets = Object.fromEntries(STATE_SETS.map((k, i) => [k, sampleStates(all[k], req.maxStates, mixSeed(req.seed, i, 'state-sample'))])) as Record<StateSet, SalvageState[]>;
  const states = Object.fromEntries(STATE_SETS.map((k) => [k, sets[k].map(stateKey)])) as Record<StateSet, string[]>;
  const results: Array<Record<StateSet, StateResult[]>> = [];
  const policies = [...req.policies];
  if (hooks.baseline) {
    checkSameStates(hooks.baseline, req, states);
    results.push(hooks.baseline.policies[0].perState as Record<StateSet, StateResult[]>);
    policies.unshift(hooks.baseline.policies[0].policy);
  }
  const total = req.policies.length * STATE_SETS.reduce((n, k) => n + sets[k].length, 0);
  let done = 0;
  for (const dir of req.policies) {
    // Greedy, as `lab eval` decodes by default: its default decoder (lookup-tree, whose output equals AR's token for token) is faster.
    const agent = new CompactPolicyAgent({ dir, sampling: { kind: 'greedy' }, guided: true, backend: req.backend });
    const mine = {} as Record<StateSet, StateResult[]>;
    for (const k of STATE_SETS) {
      mine[k] = [];
      for (const [i, s] of sets[k].entries()) {
        if (hooks.signal?.aborted) return null;
        mine[k].push(await measureState(dir, agent, s, req, mixSeed(i, k)));
        hooks.onState?.(++done, total, dir, k);
      }
    }
    results.push(mine);
  }
  const paired = (a: StateResult[], b: StateResult[], f: (r: StateResult) => number) => bootstrapMean(a.map((r, i) => f(r) - f(b[i])));
  return {
    request: { ...req, policies },
    available: Object.fromEntries(STATE_SETS.map((k) => [k, all[k].length])),
    states,
    policies: results.map((r, p) => ({
      policy: policies[p],
      sets: Object.fromEntries(STATE_SETS.map((k) => [k, figures(r[k])])),
      perState: r,
      ...(p > 0 ? { vsBaseline: Object.fromEntries(STATE_SETS.map((k) => [k, {
        greedyCorrect: paired(r[k], results[0][k], (x) => Number(x.greedyCorrect)),
        groupCorrect: paired(r[k], results[0][k], (x) => x.groupCorrect),
      }])) } : {}),
    })),
    elapsedS: (performance.now() - t0) / 1000,
  };
}

const stateKey = (s: SalvageState) => `${s.episodeId}:${s.step}`;

/** A stored baseline pairs only with the same states measured the same way. */
function checkSameStates(baseline: StateBenchBaseline, req: StateBenchRequest, states: Record<StateSet, string[]>): void {
  const b = baseline.request;
  for (const k of ['miningPath', 'confirmedOnly', 'heldoutShare', 'routineSamples', 'maxStates', 'group', 'temperature', 'topP', 'seed'] as const) {
    if (b[k] !== req[k]) throw new Error(`--baseline: measured with ${k} ${JSON.stringify(b[k])}, this run asks for ${JSON.stringify(req[k])}`);
  }
  for (const k of STATE_SETS) {
    if (JSON.stringify(baseline.states?.[k]) !== JSON.stringify(states[k])) throw new Error(`--baseline: its ${k} states are not this run's (the lab or the mining report changed since)`);
  }
}
