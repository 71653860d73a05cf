/**
 * SDSAT decoding: draft k tokens with semantic adaptive tokens, verify them in one pass.
 *
 * Invariant between loops: the cache holds every token but the last ("pending", at position P).
 *   pass 1  run [pending, SAT_1..SAT_k] at positions P..P+k. Row 0 gives the exact next token t
 *           (what AR would produce); row i gives draft d_i for position P+1+i. The SAT entries are
 *           dropped from the cache (rollback to P+1).
 *   pass 2  run [t, d_1..d_k] at P+1..P+k+1. Row j is the model's own prediction for position
 *           P+2+j: keep the longest prefix of drafts that agrees with it, then one bonus token from
 *           the first row that disagrees (or the last row). The cache rolls back to what was kept.
 * Each loop emits t, the accepted drafts and the bonus token: 2 + accepted tokens for 2 passes.
 * Greedy output equals AR greedy token for token; nucleus sampling verifies drafts with the
 * speculative-sampling rule (or the match-the-sample rule), which keeps the target distribution.
 */
import type { SatSettings } from '../models/checkpoint.ts';
import { satId } from '../models/batches.ts';
import { KVCache, type TransformerLM } from '../models/model.ts';
import { Rng } from '../models/rng.ts';
import { Emitter, prefill } from './generation.ts';
import { argmax, nucleusDistribution, sample, verifyDraft } from './sampling.ts';
import { emptyStats, type Decoder, type GenerateOptions, type GenerateResult, type Sampling } from './types.ts';

export class SdsatDecoder implements Decoder {
  readonly mode = 'sdsat';
  private readonly satIds: number[];

  constructor(private readonly model: TransformerLM, sat: SatSettings, readonly k: number) {
    if (k < 1 || k > sat.k) throw new Error(`k must be in 1..${sat.k} (the block length the SATs were trained with)`);
    if (model.config.satTokens < (sat.mode === 'shared' ? 1 : sat.k)) throw new Error('model has no SAT embeddings: fine-tune it with `lab train sdsat`');
    this.satIds = Array.from({ length: k }, (_, i) => satId(sat, model.config.vocabSize, i));
  }

  async generate(promptIds: readonly number[], options: GenerateOptions): Promise<GenerateResult> {
    const { model } = this;
    const sampling: Sampling = options.sampling ?? { kind: 'greedy' };
    const rng = new Rng(options.seed ?? 0);
    const V = model.config.vocabSize;
    const ctx = model.config.ctx;
    const stats = emptyStats(this.mode, promptIds.length, this.k);
    const cache = new KVCache(1);
    // Target distribution of one logits row (nucleus), or null for greedy.
    const dist = (logits: Float32Array, row: number) =>
      sampling.kind === 'nucleus' ? nucleusDistribution(logits, sampling.topP, sampling.temperature, row * V, V) : null;
    const choose = (logits: Float32Array, row: number) => {
      const p = dist(logits, row);
      return p ? sample(p, rng) : argmax(logits, row * V, V);
    };
    try {
      let pending = prefill(model, cache, promptIds, stats);
      const out = new Emitter(options);
      const start = performance.now();
      while (!out.done) {
        const P = cache.length;
        // Near the end of the context, draft fewer tokens; with no room for drafts, step like AR.
        const k = Math.min(this.k, ctx - P - 2);
        if (k < 1) {
          if (P + 1 > ctx) break;
          const { logits } = model.forward([[pending]], cache, true);
          stats.forwardPasses++;
          stats.loops++;
          pending = choose(logits, 0);
          out.push(pending);
          continue;
        }
        stats.loops++;

        // Pass 1: exact next token + k drafts.
        const p1 = model.forward([[pending, ...this.satIds.slice(0, k)]], cache).logits;
        stats.forwardPasses++;
        cache.rollback(P + 1);
        const t = choose(p1, 0);
        if (!out.push(t)) break;
        const q = Array.from({ length: k }, (_, i) => dist(p1, i + 1));
        const drafts = q.map((qi, i) => (qi ? sample(qi, rng) : argmax(p1, (i + 1) * V, V)));

        // Pass 2: verify the drafts in one forward pass.
        const p2 = model.forward([[t, ...drafts]], cache).logits;
        stats.forwardPasses++;
        stats.verifySteps++;
        stats.drafted += k;
        let accepted = 0;
        let next = -1;
        for (let j = 0; j < k; j++) {
          stats.draftedPerPosition[j]++;
          const d = drafts[j];
          let ok: boolean;
          if (sampling.kind === 'greedy') {
            next = argmax(p2, j * V, V);
            ok = next === d;
          } else if ((sampling.acceptance ?? 'speculative') === 'speculative') {
            const v = verifyDraft(d, dist(p2, j) as Float64Array, q[j] as Float64Array, rng);
            ok = v.accepted;
            next = v.token;
          } else {
            next = choose(p2, j);
            ok = next === d;
          }
          if (!ok) break;
          accepted++;
          stats.acceptedPerPosition[j]++;
        }
        stats.accepted += accepted;
        // All drafts accepted: the bonus token comes from the last row.
        if (accepted === k) next = choose(p2, k);
        cache.rollback(P + 2 + accepted);
        let go = true;
        for (let j = 0; j < accepted && go; j++) go = out.push(drafts[j]);
        if (!go || !out.push(next)) break;
        pending = next;
      }
      return out.result(stats, start);
    } finally {
      cache.dispose();
    }
  }
}
