/** The one decoder interface shared by the code model and (later) the web policy. */

import type { PromptCache } from './prompt-cache.ts';
import type { OutputHistory } from './output-history.ts';

// Here rather than in ./index.ts so the CLI can name the modes in its help without loading TF.js.
export type DecodeMode = 'ar' | 'sdsat' | 'sdsat-one-pass' | 'sdsat-tree' | 'lookup' | 'lookup-tree' | 'sdsat-lookup' | 'merged-tree';
/**
 * `lookup` drafts by copying from the context (./lookup.ts) and needs no SAT tokens;
 * `sdsat-lookup` is one-pass SDSAT with copied drafts preferred where there are any; the `-tree`
 * modes verify several candidates per loop under a tree mask (./tree.ts); `merged-tree` verifies
 * the SATs' candidates and the copied continuations in one tree (two-pass, as `sdsat-tree`).
 */
export const DECODE_MODES: readonly DecodeMode[] = ['ar', 'sdsat', 'sdsat-one-pass', 'sdsat-tree', 'lookup', 'lookup-tree', 'sdsat-lookup', 'merged-tree'];

/**
 * What `bench decode` and the dashboard's benchmark compare with AR unless told: SAT drafts and
 * copied drafts, each as one draft and as a tree, and the tree that merges both (one-pass SDSAT
 * and sdsat-lookup lose to these on the shipped models, docs/benchmarks.md).
 */
export const DEFAULT_BENCH_MODES: readonly DecodeMode[] = ['sdsat', 'sdsat-tree', 'lookup', 'lookup-tree', 'merged-tree'];

export type Sampling =
  | { kind: 'greedy' }
  | {
    kind: 'nucleus';
    topP: number;
    temperature: number;
    /**
     * How drafts are verified (SDSAT only). 'speculative': accept with min(1, p/q), resample from
     * the residual (keeps plain nucleus sampling's distribution). 'match': sample the target token
     * and accept the draft only when they are equal (the paper's simpler rule; also exact, accepts less).
     */
    acceptance?: 'speculative' | 'match';
  };

/**
 * Guided decoding: which tokens may come next, given the tokens emitted so far (a 0/1 mask over
 * the vocabulary, or null for any). Every decoder applies it to the model's own choice, so greedy
 * SDSAT output still equals greedy AR output under the same constraint.
 */
export interface TokenConstraint {
  /** Allowed next tokens after `emitted` (1: allowed); null when nothing constrains the next token. */
  allowed(emitted: readonly number[]): Uint8Array | null;
  /**
   * Optional, for greedy decoding: the first of `ranked` (tokens, best first) that allowed(emitted)
   * allows, or undefined when it cannot tell without the whole mask. Must agree with allowed():
   * greedy then emits what the argmax of the masked row would, without scoring every token.
   */
  firstAllowed?(emitted: readonly number[], ranked: Iterable<number>): number | undefined;
}

export interface GenerateOptions {
  maxNew: number;
  sampling?: Sampling;
  constraint?: TokenConstraint;
  seed?: number;
  /** Generation stops after emitting any of these (the stop token is included in the output). */
  stopTokens?: readonly number[];
  /** Called for every emitted token, in order, with where it came from. */
  onToken?(id: number, source: TokenSource): void;
  /**
   * Called after every decoding loop with the number of tokens emitted so far (not after the
   * loop that ends generation). A returned promise is awaited: a caller streaming progress can
   * yield to its event loop there, and a thrown error (a cancellation) ends generation.
   */
  onLoop?(emitted: number): void | Promise<void>;
  /**
   * Prefix caching (./prompt-cache.ts): start from the cache of a recent prompt this one begins
   * like, and keep this prompt's for the next. Absent: every prompt is prefilled from scratch.
   */
  promptCache?: PromptCache;
  /**
   * Earlier outputs to draft from where the context holds no continuation (./output-history.ts);
   * copy-drafting decoders use it and add this output to it. Outputs are unchanged by it.
   */
  outputHistory?: OutputHistory;
}

/**
 * Where an emitted token came from, for display and accounting:
 *   exact      the model's own next token (an AR step; SDSAT's pass 1; a loop with no drafts)
 *   draft      a draft accepted by verification, at 0-based position `position` of its block
 *   bonus      the token after a block whose drafts were all accepted
 *   resampled  the token that replaced the first rejected draft (the target's choice, or a
 *              sample from the residual distribution under speculative sampling)
 * Draft tokens per position add up to stats.acceptedPerPosition unless generation stopped (at
 * maxNew or a stop token) inside a loop's accepted drafts.
 */
export type TokenSource = { kind: 'exact' } | { kind: 'draft'; position: number } | { kind: 'bonus' } | { kind: 'resampled' };

/** Shared, frozen instances: recording a token's source allocates nothing. */
export const EXACT: TokenSource = Object.freeze({ kind: 'exact' });
export const BONUS: TokenSource = Object.freeze({ kind: 'bonus' });
export const RESAMPLED: TokenSource = Object.freeze({ kind: 'resampled' });
const DRAFTS: TokenSource[] = [];
export function draftSource(position: number): TokenSource {
  return (DRAFTS[position] ??= Object.freeze({ kind: 'draft', position }));
}

export interface DecodeStats {
  mode: string;
  newTokens: number;
  promptTokens: number;
  /** Model calls after the prompt prefill. */
  forwardPasses: number;
  /** Draft-then-verify loops (SDSAT) or steps (AR). */
  loops: number;
  /** Verification passes and draft counts (SDSAT; zero for AR). */
  verifySteps: number;
  drafted: number;
  accepted: number;
  draftedPerPosition: number[];
  acceptedPerPosition: number[];
  prefillMs: number;
  /** Prompt tokens whose keys and values came from the prompt cache instead of the prefill pass. */
  reusedPromptTokens: number;
  /** Time from the end of prefill to the last token, less the time the caller's onToken and onLoop took. */
  decodeMs: number;
}

export interface GenerateResult {
  tokens: number[];
  /** The source of each token in `tokens` (same length); set by every decoder in this folder. */
  provenance?: TokenSource[];
  stoppedBy: 'maxNew' | 'stopToken' | 'context';
  stats: DecodeStats;
}

export interface Decoder {
  readonly mode: string;
  generate(promptIds: readonly number[], options: GenerateOptions): Promise<GenerateResult>;
}

export function emptyStats(mode: string, promptTokens: number, k = 0): DecodeStats {
  return {
    mode, newTokens: 0, promptTokens, forwardPasses: 0, loops: 0, verifySteps: 0, drafted: 0, accepted: 0,
    draftedPerPosition: new Array<number>(k).fill(0), acceptedPerPosition: new Array<number>(k).fill(0), prefillMs: 0, reusedPromptTokens: 0, decodeMs: 0,
  };
}

/** Derived figures, named as vLLM and llama.cpp name them. */
export function summarize(s: DecodeStats) {
  const seconds = s.decodeMs / 1000;
  return {
    tokensPerSec: seconds > 0 ? s.newTokens / seconds : 0,
    /** 1 + accepted drafts per verification step (the bonus token counted). */
    meanAcceptanceLength: s.verifySteps > 0 ? 1 + s.accepted / s.verifySteps : null,
    acceptanceRate: s.drafted > 0 ? s.accepted / s.drafted : null,
    acceptanceRatePerPosition: s.draftedPerPosition.map((d, i) => (d > 0 ? s.acceptedPerPosition[i] / d : 0)),
    forwardPassesPerToken: s.newTokens > 0 ? s.forwardPasses / s.newTokens : 0,
    msPerLoop: s.loops > 0 ? s.decodeMs / s.loops : 0,
    tokensPerLoop: s.loops > 0 ? s.newTokens / s.loops : 0,
  };
}
