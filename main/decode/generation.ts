/** Pieces every decoding loop shares: SAT ids, prompt prefill and emitting tokens with stop rules. */
import { KVCache, type TransformerLM } from '../models/model.ts';
import type { SatSettings } from '../models/checkpoint.ts';
import { satId } from '../models/batches.ts';
import { EXACT, draftSource, type DecodeStats, type GenerateOptions, type GenerateResult, type TokenSource } from './types.ts';

/** The SAT token ids of a k-token draft block, after checking the model was SAT-tuned for k. */
export function satIdsFor(model: TransformerLM, sat: SatSettings, k: number): number[] {
  if (k < 1 || k > sat.k) throw new Error(`k must be in 1..${sat.k} (the block length the SATs were trained with)`);
  if (model.config.satTokens < (sat.mode === 'shared' ? 1 : sat.k)) throw new Error('model has no SAT embeddings: fine-tune it with `lab train sdsat`');
  return Array.from({ length: k }, (_, i) => satId(sat, model.config.vocabSize, i));
}

/**
 * Put all prompt tokens but the last into a cache; the last one stays "pending" because every
 * loop starts by running it (alone for AR, followed by SAT tokens for SDSAT). With a prompt cache
 * in the options, the cache starts from the longest prefix it shares with a recent prompt and only
 * the rest is run; hand the cache back with `closeCache` either way.
 */
export function openCache(model: TransformerLM, prompt: readonly number[], options: Pick<GenerateOptions, 'promptCache'>, stats: DecodeStats): { cache: KVCache; pending: number } {
  if (prompt.length === 0) throw new Error('empty prompt');
  if (prompt.length > model.config.ctx) throw new Error(`prompt of ${prompt.length} tokens exceeds the context of ${model.config.ctx}`);
  const t0 = performance.now();
  const prefix = prompt.slice(0, -1);
  const { cache, reused } = options.promptCache ? options.promptCache.take(prefix) : { cache: new KVCache(1), reused: 0 };
  try {
    if (reused < prefix.length) model.forward([prefix.slice(reused)], cache, true);
  } catch (e) {
    cache.dispose();
    throw e;
  }
  stats.prefillMs = performance.now() - t0;
  stats.reusedPromptTokens = reused;
  return { cache, pending: prompt[prompt.length - 1] };
}

/** Give back the cache `openCache` made: kept (its prompt part) by the prompt cache, or freed. */
export function closeCache(cache: KVCache, prompt: readonly number[], options: Pick<GenerateOptions, 'promptCache'>): void {
  if (options.promptCache) options.promptCache.put(cache, prompt.slice(0, -1));
  else cache.dispose();
}

/** Collects emitted tokens and decides when generation ends. */
export class Emitter {
  readonly tokens: number[] = [];
  readonly provenance: TokenSource[] = [];
  stoppedBy: GenerateResult['stoppedBy'] | null = null;
  /**
   * Time spent in the caller's onToken and onLoop (streaming tokens to a UI, yielding to its event
   * loop): left out of decodeMs, or a decoder with a loop per token (AR) pays for the caller's
   * streaming many more times than one with a loop per accepted block, and looks slower than it is.
   */
  private callerMs = 0;

  constructor(private readonly options: GenerateOptions) {
    if (options.maxNew <= 0) this.stoppedBy = 'maxNew';
  }

  get done(): boolean {
    return this.stoppedBy !== null;
  }

  /** Emit one token; returns false when generation must stop (the token itself is kept). */
  push(id: number, source: TokenSource = EXACT): boolean {
    if (this.done) return false;
    this.tokens.push(id);
    this.provenance.push(source);
    if (this.options.onToken) {
      const t0 = performance.now();
      this.options.onToken(id, source);
      this.callerMs += performance.now() - t0;
    }
    if (this.options.stopTokens?.includes(id)) this.stoppedBy = 'stopToken';
    else if (this.tokens.length >= this.options.maxNew) this.stoppedBy = 'maxNew';
    return !this.done;
  }

  /**
   * Emit a verification's outcome: the accepted drafts (each marked with its draft position), then
   * the token after them. Returns false when generation must stop.
   */
  pushVerified(drafts: readonly number[], accepted: number, next: number, nextSource: TokenSource): boolean {
    for (let j = 0; j < accepted; j++) if (!this.push(drafts[j], draftSource(j))) return false;
    return this.push(next, nextSource);
  }

  /** Tell the caller a loop ended; returns its promise (to await) only when it made one. */
  loopEnded(): void | Promise<void> {
    if (!this.options.onLoop) return;
    const t0 = performance.now();
    const waited = this.options.onLoop(this.tokens.length);
    if (!waited) {
      this.callerMs += performance.now() - t0;
      return;
    }
    return waited.then(() => void (this.callerMs += performance.now() - t0));
  }

  result(stats: DecodeStats, decodeStart: number): GenerateResult {
    stats.decodeMs = performance.now() - decodeStart - this.callerMs;
    stats.newTokens = this.tokens.length;
    return { tokens: this.tokens, provenance: this.provenance, stoppedBy: this.stoppedBy ?? 'context', stats };
  }
}
