/**
 * Confirmation of mined critical states by branching (`lab mine --confirm`).
 *
 * Mining names the first step where a failed rollout departs from the oracle's reference, but a
 * departure need not be what lost the task: a detour the policy would have recovered from is
 * not worth training on. So from each critical state two branches run on fresh episodes of the
 * same instance:
 *   (a) the reference action at the state, then the oracle to the end
 *   (b) the policy's recorded action at the state, then the oracle to the end
 * The state is confirmed when (a) succeeds and (b) fails, recoverable when both succeed, and
 * unreachable when (a) fails too (see CONFIRMATION_STATUSES in ../policy/mining-file.ts).
 *
 * The state is restored by replaying the rollout's own actions up to the critical step: the
 * sites are deterministic per seed, so the same actions reach the same page. Each replayed page
 * is checked against the one the rollout recorded (URL below the instance prefix, and every
 * element's role, name, value and state); the first mismatch makes the state unreproducible.
 * Actions are carried over by element meaning (role, name, rank), not by id. This replay is the
 * one a fork of an episode uses (collection/fork.ts, PrefixAgent).
 *
 * The oracle is shown every page of the branch, the replayed ones included, and decides on each;
 * its decisions before the forced action are discarded. Oracles keep memory of what they have seen
 * (pages read, prices noted), and up to the critical step the rollout did what the oracle would
 * have done, so this leaves the oracle in the state it would have reached by itself. Both
 * branches treat the oracle the same way: they differ only in the action taken at the state.
 *
 * Branch episodes are recorded in the lab like any other (agent "branch", config naming the
 * rollout, the step and the branch, tag "branch"), so the trajectory viewer opens them.
 */
import type { Observation, PageElement } from '../environment/types.ts';
import type { Agent, AgentTurn } from '../tasks/agent.ts';
import type { TaskSpec } from '../tasks/types.ts';
import type { EpisodeData } from '../store/lab.ts';
import { LabelStore } from '../store/labels.ts';
import { runEpisode, type EpisodeDeps } from '../collection/episode.ts';
import { carryAction, PrefixAgent } from '../collection/fork.ts';
import { miningReport, type MinedFailure } from '../policy/mining.ts';
import { CONFIRMATION_STATUSES, type BranchOutcome, type BranchRun, type Confirmation, type ConfirmationStatus, type MinedFailureRecord } from '../policy/mining-file.ts';

export const BRANCH_TAG = 'branch';
export type BranchKind = 'reference' | 'policy';

// Pages compared, and actions carried, as a fork replays its parent's prefix: one replay for both.
export { carryAction, stateDifference } from '../collection/fork.ts';

/**
 * The branch's agent: the rollout's actions up to the critical step (each page checked against
 * the recorded one), the forced action there, then the oracle. The oracle sees every page.
 */
export class BranchAgent extends PrefixAgent {
  constructor(
    oracle: Agent,
    /** The rollout's steps up to and including the critical one (the pages to check). */
    recorded: EpisodeData['steps'],
    critical: number,
    /** The action to take at the critical state, and the page it was written for. */
    forced: { action: string; elements: readonly PageElement[] },
  ) {
    super(new ForcedThenOracle(oracle, critical, forced), recorded, critical, {
      source: 'the rollout',
      name: 'branch',
      thought: (i) => `replay of the rollout's step ${i + 1}`,
      // An unreproducible state is reported with the branch episode that found it.
      onDifference: 'end',
    });
  }
}

/** At the critical step the forced action, elsewhere the oracle's; the oracle sees every page either way. */
class ForcedThenOracle implements Agent {
  readonly name = 'branch';
  constructor(
    private readonly oracle: Agent,
    private readonly critical: number,
    private readonly forced: { action: string; elements: readonly PageElement[] },
  ) {}

  reset(task: TaskSpec): Promise<void> | void {
    return this.oracle.reset(task);
  }

  async act(observation: Observation, history: readonly AgentTurn[]): Promise<AgentTurn> {
    const own = await this.oracle.act(observation, history); // seen, not obeyed at the critical step (see the header)
    if (history.length !== this.critical) return own;
    return { thought: 'the branch action at the critical state', action: carryAction(this.forced.action, this.forced.elements, observation.elements) };
  }
}

export type BranchDeps = EpisodeDeps;

/** Run one branch from a critical state once; null when the run was cancelled. */
async function runBranch(deps: BranchDeps, f: MinedFailure, rollout: EpisodeData, kind: BranchKind, forced: { action: string; elements: readonly PageElement[] }, run: number): Promise<{ run: BranchRun; diverged: string | null } | null> {
  let agent: BranchAgent | undefined;
  const out = await runEpisode(deps, {
    family: f.family, seed: f.seed, tier: f.tier as 1 | 2 | 3,
    agent: (i) => (agent = new BranchAgent(i.family.oracle(i.ctx), rollout.steps, f.step, forced)),
    agentConfig: { role: 'branch', branch: kind, of: f.episodeId, reference: f.referenceId, step: f.step, run },
  });
  new LabelStore(deps.store.dir).append(out.id, { type: 'episode', tags: [BRANCH_TAG] });
  if (out.reason === 'cancelled') return null;
  return { run: { episodeId: out.id, success: out.success, steps: out.steps, reason: out.reason }, diverged: agent?.diverged ?? null };
}

/** Both branches from one critical state, `branches` runs each; null when cancelled part-way. */
export async function confirmCriticalState(deps: BranchDeps, f: MinedFailure, branches = 1): Promise<Confirmation | null> {
  const base = { branches, reference: null, policy: null };
  if (f.action === null || f.referenceAction === null) {
    const missing = f.action === null ? 'the rollout ended before this step' : 'the reference ended before this step';
    return { ...base, status: 'not_branchable', detail: `no action to branch on: ${missing}` };
  }
  const rollout = deps.store.readEpisode(f.episodeId);
  const reference = deps.store.readEpisode(f.referenceId);
  const refStep = reference.steps.find((s) => s.index === f.step);
  const ownStep = rollout.steps.find((s) => s.index === f.step);
  if (!refStep || !ownStep) return { ...base, status: 'not_branchable', detail: `step ${f.step} is missing from episode ${!refStep ? f.referenceId : f.episodeId}` };
  const outcomes: Partial<Record<BranchKind, BranchOutcome>> = {};
  for (const [kind, step] of [['reference', refStep], ['policy', ownStep]] as const) {
    const runs: BranchRun[] = [];
    for (let r = 0; r < branches; r++) {
      if (deps.signal?.aborted) return null;
      const b = await runBranch(deps, f, rollout, kind, { action: step.action, elements: step.observation.elements }, r);
      if (!b) return null;
      if (b.diverged) return { ...base, ...outcomes, status: 'unreproducible', detail: b.diverged };
      runs.push(b.run);
    }
    const successes = runs.filter((x) => x.success).length;
    outcomes[kind] = { action: step.action, success: successes * 2 > runs.length, successes, runs };
  }
  const [a, b] = [outcomes.reference!, outcomes.policy!];
  const status: ConfirmationStatus = !a.success ? 'unreachable' : b.success ? 'recoverable' : 'confirmed';
  return { ...base, reference: a, policy: b, status };
}

type StatusCounts = Record<ConfirmationStatus, number>;
const zero = (): StatusCounts => Object.fromEntries(CONFIRMATION_STATUSES.map((s) => [s, 0])) as StatusCounts;

export interface ConfirmationReport {
  /** States branched so far, of all mined states. */
  branched: number;
  of: number;
  byStatus: StatusCounts;
  byMode: Record<string, StatusCounts>;
  byFamily: Record<string, StatusCounts>;
}

/** Counts of branching outcomes per failure mode and family (states not branched yet are left out). */
export function confirmationReport(failures: readonly MinedFailureRecord[]): ConfirmationReport {
  const r: ConfirmationReport = { branched: 0, of: failures.length, byStatus: zero(), byMode: {}, byFamily: {} };
  for (const f of failures) {
    if (!f.confirmation) continue;
    const s = f.confirmation.status;
    r.branched++;
    r.byStatus[s]++;
    (r.byMode[f.mode] ??= zero())[s]++;
    (r.byFamily[f.family] ??= zero())[s]++;
  }
  return r;
}

/** What mining.json holds: the mining report, the branching counts once any state was branched, and every state. */
export function miningFileReport(evalId: string, mined: MinedFailureRecord[], examplesPerMode: number) {
  const branched = mined.some((f) => f.confirmation);
  return { evalId, ...miningReport(mined as MinedFailure[], examplesPerMode), ...(branched ? { confirmation: confirmationReport(mined) } : {}), all: mined };
}
