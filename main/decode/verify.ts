/** Token choice (greedy or nucleus) and draft verification, shared by every decoder. */
import type { Rng } from '../models/rng.ts';
import { argmax, nucleusDistribution, sample, verifyDraft } from './sampling.ts';
import type { DecodeStats, Sampling } from './types.ts';

/** Token choice and distributions over rows of a logits block, for one sampling setting. */
export class Chooser {
  constructor(private readonly sampling: Sampling, private readonly vocab: number, private readonly rng: Rng) {}

  /** Target (or draft) distribution of a row; null for greedy. */
  dist(logits: Float32Array, row: number): Float64Array | null {
    const s = this.sampling;
    return s.kind === 'nucleus' ? nucleusDistribution(logits, s.topP, s.temperature, row * this.vocab, this.vocab) : null;
  }

  /** The token plain decoding would emit from this row (argmax, or a nucleus sample). */
  choose(logits: Float32Array, row: number): number {
    const p = this.dist(logits, row);
    return p ? sample(p, this.rng) : argmax(logits, row * this.vocab, this.vocab);
  }

  /** Drafts from SAT rows: argmax for greedy, samples from their distributions q otherwise. */
  drafts(logits: Float32Array, rows: number[]): { tokens: number[]; q: (Float64Array | null)[] } {
    const q = rows.map((r) => this.dist(logits, r));
    return { tokens: q.map((qi, i) => (qi ? sample(qi, this.rng) : argmax(logits, rows[i] * this.vocab, this.vocab))), q };
  }

  /**
   * Verify drafts against target rows: row targetRows[j] is the model's distribution for the
   * position of drafts[j]; targetRows[drafts.length] the one after the last draft. Returns how many
   * drafts were accepted and the token that follows them (bonus or correction).
   */
  verify(logits: Float32Array, targetRows: number[], drafts: number[], q: (Float64Array | null)[], stats: DecodeStats): { accepted: number; next: number } {
    const s = this.sampling;
    let accepted = 0;
    let next = -1;
    for (let j = 0; j < drafts.length; j++) {
      stats.draftedPerPosition[j]++;
      let ok: boolean;
      if (s.kind === 'nucleus' && (s.acceptance ?? 'speculative') === 'speculative') {
        const v = verifyDraft(drafts[j], this.dist(logits, targetRows[j]) as Float64Array, q[j] as Float64Array, this.rng);
        ok = v.accepted;
        next = v.token;
      } else {
        // Greedy, or the match-the-sample rule: the target's own choice decides.
        next = this.choose(logits, targetRows[j]);
        ok = next === drafts[j];
      }
      if (!ok) break;
      accepted++;
      stats.acceptedPerPosition[j]++;
    }
    if (accepted === drafts.length) next = this.choose(logits, targetRows[drafts.length]);
    stats.drafted += drafts.length;
    stats.accepted += accepted;
    if (drafts.length) stats.verifySteps++;
    return { accepted, next };
  }
}
