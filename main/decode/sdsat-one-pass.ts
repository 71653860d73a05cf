/**
 * One-pass SDSAT: the next round's drafting is folded into the verification pass.
 *
 * Each loop runs a single forward pass over
 *   [pending, d_1..d_m, block_0, block_1, .., block_m]
 * where block_j is k SAT tokens placed after d_j (after `pending` for j = 0): SAT i of block_j sits
 * at position P+j+i and sees the cache, pending, d_1..d_j and SATs 1..i of its own block, exactly
 * the view it was trained with. Row j of the standard part verifies d_{j+1}; after a accepted
 * drafts the bonus token comes from row a, and block_a (whose view is precisely the accepted
 * sequence) supplies the next loop's drafts. So every loop costs one pass and emits a + 1 tokens,
 * instead of two passes for a + 2 tokens. The first loop has no drafts (m = 0) and is pass 1.
 * Greedy output still equals AR greedy; sampling keeps the target distribution (same rules).
 *
 * `sdsat-lookup` is the same loop with drafts copied from the context (./lookup.ts) in place of
 * the SAT block's wherever the last tokens occurred before: copied text drafts itself, the SATs
 * draft the rest.
 */
import type { SatSettings } from '../models/checkpoint.ts';
import { MASKED, type TransformerLM } from '../models/model.ts';
import { Rng } from '../common/rng.ts';
import { closeCache, Emitter, openCache, satIdsFor } from './generation.ts';
import { BONUS, EXACT, RESAMPLED, emptyStats, type Decoder, type GenerateOptions, type GenerateResult } from './types.ts';
import { Chooser } from './verify.ts';
import { copiedDraftQ, lookupDrafts } from './lookup.ts';

export class SdsatOnePassDecoder implements Decoder {
  readonly mode: 'sdsat-one-pass' | 'sdsat-lookup';
  private readonly satIds: number[];

  constructor(
    private readonly model: TransformerLM,
    sat: SatSettings,
    readonly k: number,
    /** Prefer drafts copied from the context over the SATs' (mode sdsat-lookup). */
    private readonly copy = false,
  ) {
    this.satIds = satIdsFor(model, sat, k);
    this.mode = copy ? 'sdsat-lookup' : 'sdsat-one-pass';
  }

  async generate(promptIds: readonly number[], options: GenerateOptions): Promise<GenerateResult> {
    const { model } = this;
    const ctx = model.config.ctx;
    const stats = emptyStats(this.mode, promptIds.length, this.k);
    const sampling = options.sampling ?? { kind: 'greedy' };
    const pick = new Chooser(sampling, model.config.vocabSize, new Rng(options.seed ?? 0), options.constraint);
    const { cache, pending: first } = openCache(model, promptIds, options, stats);
    // The sequence so far, ending with `pending`: where copied drafts are looked up.
    const seq = this.copy ? [...promptIds] : [];
    try {
      let pending = first;
      let drafts: { tokens: number[]; q: (Float64Array | null)[] } = { tokens: [], q: [] };
      const out = new Emitter(options);
      const start = performance.now();
      while (!out.done) {
        const P = cache.length;
        if (P >= ctx) break;
        // Positions up to P + m + k must fit: near the end, fewer drafts and shorter SAT blocks.
        const room = ctx - 1 - P;
        if (this.copy) {
          const copied = lookupDrafts(seq, this.k);
          if (copied.length) drafts = { tokens: copied, q: copiedDraftQ(copied, sampling, model.config.vocabSize) };
        }
        const m = Math.min(drafts.tokens.length, room);
        const k = Math.min(this.k, room - m);
        const d = drafts.tokens.slice(0, m);
        const layout = blockLayout(P, m, k);
        const ids = [pending, ...d];
        for (let j = 0; j <= m; j++) ids.push(...this.satIds.slice(0, k));
        const { logits } = model.forward([ids], cache, false, layout);
        stats.forwardPasses++;
        stats.loops++;
        const rows = Array.from({ length: m + 1 }, (_, j) => j);
        const { accepted, next } = pick.verify(logits, rows, d, drafts.q.slice(0, m), stats, out.tokens);
        // Block a (after the last accepted draft) drafts for the positions after `next`.
        const blockStart = 1 + m + accepted * k;
        drafts = pick.drafts(logits, Array.from({ length: k }, (_, i) => blockStart + i));
        cache.rollback(P + 1 + accepted);
        if (this.copy) seq.push(...d.slice(0, accepted), next);
        // With no drafts to verify (the first loop, or no room left), `next` is the plain next token.
        if (!out.pushVerified(d, accepted, next, m === 0 ? EXACT : accepted === m ? BONUS : RESAMPLED)) break;
        pending = next;
        const wait = out.loopEnded();
        if (wait) await wait;
      }
      return out.result(stats, start);
    } finally {
      closeCache(cache, promptIds, options);
    }
  }
}

/** Positions and visibility for [pending, d_1..d_m, block_0..block_m] after P cached tokens. */
export function blockLayout(P: number, m: number, k: number): { pos: number[]; bias: Float32Array } {
  const len = 1 + m + (m + 1) * k;
  const width = P + len;
  const pos: number[] = [];
  const bias = new Float32Array(len * width).fill(MASKED);
  const see = (row: number, col: number) => (bias[row * width + P + col] = 0);
  for (let r = 0; r < len; r++) bias.fill(0, r * width, r * width + P); // everyone sees the cache
  for (let r = 0; r <= m; r++) {
    pos.push(P + r);
    for (let c = 0; c <= r; c++) see(r, c);
  }
  for (let j = 0; j <= m; j++) {
    for (let i = 1; i <= k; i++) {
      const row = 1 + m + j * k + (i - 1);
      pos.push(P + j + i);
      for (let c = 0; c <= j; c++) see(row, c);
      for (let i2 = 1; i2 <= i; i2++) see(row, 1 + m + j * k + (i2 - 1));
    }
  }
  return { pos, bias };
}
