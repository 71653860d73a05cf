/**
 * SDSAT with a draft tree: pass 1 as in ./sdsat.ts ([pending, SAT_1..SAT_k] gives the exact next
 * token t and, at SAT row i, a distribution over the token i+1 places after t); pass 2 verifies,
 * instead of each SAT row's top token alone, its top few under a tree mask (./tree.ts): widths
 * [3, 2, 1] put the three best first drafts in the pass, the two best second drafts under each,
 * and the best third draft under each of those. A SAT's second choice is right often enough to pay for its row when a verification
 * pass over more positions costs little more than one over a few. Greedy output equals AR's;
 * under nucleus sampling the tree is verified by the match-the-sample rule (exact).
 */
import type { SatSettings } from '../models/checkpoint.ts';
import { KVCache, type TransformerLM } from '../models/model.ts';
import { Rng } from '../common/rng.ts';
import { Emitter, prefill, satIdsFor } from './generation.ts';
import { emptyStats, type Decoder, type GenerateOptions, type GenerateResult } from './types.ts';
import { Chooser } from './verify.ts';
import { productTree, verifyTree } from './tree.ts';

/**
 * Candidates per draft depth; a depth beyond the list drafts the top token only. The best of
 * [2], [3], [2, 1], [3, 1, 1] and [2, 2, 1, 1] on the shipped code model (docs/benchmarks.md):
 * a SAT's second and third choices for the first draft are right often, later ones seldom.
 */
export const DEFAULT_TREE_WIDTHS: readonly number[] = [3];

export class SdsatTreeDecoder implements Decoder {
  readonly mode = 'sdsat-tree';
  private readonly satIds: number[];

  constructor(private readonly model: TransformerLM, sat: SatSettings, readonly k: number, readonly widths: readonly number[] = DEFAULT_TREE_WIDTHS) {
    this.satIds = satIdsFor(model, sat, k);
    if (widths.some((w) => !(w >= 1))) throw new Error('tree widths must be at least 1');
  }

  async generate(promptIds: readonly number[], options: GenerateOptions): Promise<GenerateResult> {
    const { model } = this;
    const ctx = model.config.ctx;
    const vocab = model.config.vocabSize;
    const stats = emptyStats(this.mode, promptIds.length, this.k);
    const pick = new Chooser(options.sampling ?? { kind: 'greedy' }, vocab, new Rng(options.seed ?? 0), options.constraint);
    const cache = new KVCache(1);
    try {
      let pending = prefill(model, cache, promptIds, stats);
      const out = new Emitter(options);
      const start = performance.now();
      while (!out.done) {
        const P = cache.length;
        if (P + 1 > ctx) break;
        stats.loops++;
        // Pass 2 puts t at P+1 and a node of depth d at P+2+d: drafts that would not fit are not made.
        const k = Math.min(this.k, ctx - P - 2);
        if (k < 1) {
          const { logits } = model.forward([[pending]], cache, true);
          stats.forwardPasses++;
          pending = pick.choose(logits, 0, out.tokens);
          if (!out.push(pending)) break;
          const wait = out.loopEnded();
          if (wait) await wait;
          continue;
        }
        // Pass 1: the exact next token and, per SAT row, its ranked candidates; the SATs leave the cache.
        const p1 = model.forward([[pending, ...this.satIds.slice(0, k)]], cache).logits;
        stats.forwardPasses++;
        cache.rollback(P + 1);
        const t = pick.choose(p1, 0, out.tokens);
        if (!out.push(t)) break;
        const widths = Array.from({ length: k }, (_, d) => this.widths[d] ?? 1);
        const candidates = widths.map((w, d) => topTokens(p1, (d + 1) * vocab, vocab, w));
        // Pass 2: the tree hangs from t.
        const { accepted, next, source } = verifyTree(model, cache, t, productTree(candidates, widths), pick, out.tokens, stats);
        if (!out.pushVerified(accepted, accepted.length, next, source)) break;
        pending = next;
        const wait = out.loopEnded();
        if (wait) await wait;
      }
      return out.result(stats, start);
    } finally {
      cache.dispose();
    }
  }
}

/** The n highest-scoring token ids of one logits row, best first. */
export function topTokens(logits: Float32Array, offset: number, vocab: number, n: number): number[] {
  const best: number[] = [];
  for (let i = 0; i < vocab; i++) {
    const v = logits[offset + i];
    if (best.length === n && v <= logits[offset + best[n - 1]]) continue;
    let at = best.length === n ? n - 1 : best.length;
    while (at > 0 && logits[offset + best[at - 1]] < v) at--;
    best.splice(at, 0, i);
    if (best.length > n) best.pop();
  }
  return best;
}
