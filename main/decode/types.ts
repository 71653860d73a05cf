/** The one decoder interface shared by the code model and (later) the web policy. */

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

export interface GenerateOptions {
  maxNew: number;
  sampling?: Sampling;
  seed?: number;
  /** Generation stops after emitting any of these (the stop token is included in the output). */
  stopTokens?: readonly number[];
  /** Called for every emitted token, in order. */
  onToken?(id: number): void;
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
  /** Time from the end of prefill to the last token. */
  decodeMs: number;
}

export interface GenerateResult {
  tokens: number[];
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
    draftedPerPosition: new Array<number>(k).fill(0), acceptedPerPosition: new Array<number>(k).fill(0), prefillMs: 0, decodeMs: 0,
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
