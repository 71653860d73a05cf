import type { Agent } from './agent.ts';

export type { Checker, GoalKind, TaskHarness, TaskSource, TaskSpec, Tier } from './spec.ts';
import type { Checker, GoalKind, TaskHarness, TaskSource, Tier } from './spec.ts';

export interface SeedRange {
  /** Inclusive lower bound. */
  from: number;
  /** Exclusive upper bound. */
  to: number;
}

export interface KeyPoint {
  name: string;
  met: boolean;
  detail?: string;
}

export interface CheckResult {
  success: boolean;
  keyPoints: KeyPoint[];
  /** The page's own reward, for families whose pages report one (MiniWoB++). */
  reward?: PageReward;
}

export interface PageReward {
  /** The reward as the page gives it (time-discounted where the task asks for that). */
  value: number;
  /** The reward before any time discount; success is raw > 0. */
  raw: number;
  reason: string | null;
}

/** A minimal request as the task server hands it to a family. */
export interface SiteRequest {
  method: 'GET' | 'POST';
  /** Path below the instance prefix, always starting with '/'. */
  path: string;
  query: URLSearchParams;
  /** Parsed application/x-www-form-urlencoded or JSON body for POST. */
  form: URLSearchParams;
  json?: unknown;
}

export type SiteResponse =
  | { kind: 'html'; status?: number; body: string }
  | { kind: 'json'; status?: number; body: unknown }
  | { kind: 'redirect'; location: string }
  /** A file from disk (a user's local benchmark checkout); the family has checked the path. */
  | { kind: 'file'; path: string }
  | { kind: 'not_found' };

/**
 * A live task instance on the server: its generated data, its mutable site state, and the task.
 * `State` belongs to the family; only the family reads or writes it.
 */
export interface InstanceContext<State = unknown> {
  id: string;
  family: string;
  seed: number;
  tier: Tier;
  /** URL prefix of this instance, e.g. http://127.0.0.1:4123/i/abc123 (no trailing slash). */
  baseUrl: string;
  state: State;
  /** Messages the agent sent to the user (send_msg_to_user), filled in by the environment. */
  agentMessages: string[];
  /** Set when the agent called report_infeasible. */
  reportedInfeasible?: string;
}

export interface GeneratedTask<State> {
  instruction: string;
  state: State;
  /** Whether the goal is a site state or an answer; decides whether the checker may end the episode. */
  goalKind: GoalKind;
  /** Where the episode starts, relative to the instance prefix ('/' for the home page). */
  startPath: string;
  /**
   * An absolute start URL outside the task server (imported tasks on the live web). The episode
   * may then navigate anywhere; startPath is ignored.
   */
  startUrl?: string;
  /** The task's own step budget, where its benchmark defines one (default: by tier). */
  maxSteps?: number;
  source?: TaskSource;
  harness?: TaskHarness;
}

export interface TaskFamily<State = any> {
  readonly name: string;
  readonly description: string;
  /**
   * Train and test seeds. A held-out family's train range is empty (from === to), so
   * `inRange(seed, train)` is false for every seed and no training data is ever drawn from it.
   */
  readonly seeds: { train: SeedRange; test: SeedRange };
  /**
   * Held-out families are test-only: they exist to measure generalisation to a site never seen in
   * training. Absent or false for ordinary families. Their test range is the usual one.
   */
  readonly heldOut?: boolean;
  /**
   * Drill families are synthetic practice sites for training (train and test seeds as usual), kept
   * out of `trainingFamilies()`, so evaluations and recipes over "the training families" do not
   * change when a drill is added. Absent or false for ordinary families.
   */
  readonly drill?: boolean;
  /** Who decides success (default 'site': check() reads the site's state). */
  readonly checker?: Checker;
  /**
   * Families whose instruction is written by the page itself (MiniWoB++'s #query): read after the
   * start page has loaded. Absent for families whose generate() phrases the instruction.
   */
  pageInstruction?(ctx: InstanceContext<State>): string | undefined;
  /** Families whose page can end the episode by itself (a MiniWoB++ task done): checked after each step. */
  isDone?(ctx: InstanceContext<State>): boolean;
  /** Build data and task from the seed; deterministic. Tier is derived from the seed unless given. */
  generate(seed: number, tier?: Tier): GeneratedTask<State> & { tier: Tier };
  /** Render a page or handle a form post; may mutate ctx.state. */
  handle(req: SiteRequest, ctx: InstanceContext<State>): SiteResponse;
  /** Judge success from server-side state (and the agent's messages for questions). */
  check(ctx: InstanceContext<State>): CheckResult;
  /** An agent that solves the instance by acting only through environment actions. */
  oracle(ctx: InstanceContext<State>): Agent;
}
