/** Token choice (greedy or nucleus) and draft verification, shared by every decoder. */
import type { Rng } from '../common/rng.ts';
import { argmax, maskedRow, nucleusDistribution, sample, verifyDraft } from './sampling.ts';
import type { DecodeStats, Sampling, TokenConstraint } from './types.ts';

/** Greedy tokens a constraint tests one by one before the whole mask is built. */
const LAZY_CANDIDATES = 8;

/**
 * The row's tokens best first, as argmax ranks them (the first on ties), at most `limit`, and only
 * finite ones: what argmax of the masked row would pick is the first allowed among them.
 */
function* ranked(logits: Float32Array, offset: number, n: number, limit: number): Generator<number> {
  const taken = new Set<number>();
  for (let k = 0; k < limit; k++) {
    let best = -1;
    let bestV = -Infinity;
    for (let i = 0; i < n; i++) {
      const v = logits[offset + i];
      if (v > bestV && !taken.has(i)) {
        bestV = v;
        best = i;
      }
    }
    if (best < 0) return;
    taken.add(best);
    yield best;
  }
}

/**
 * Token choice and distributions over rows of a logits block, for one sampling setting. With a
 * constraint, the model's own choices (not SAT drafts: verification rejects a draft the constraint
 * forbids) are made among the allowed tokens only.
 */
export class Chooser {
  constructor(private readonly sampling: Sampling, private readonly vocab: number, private readonly rng: Rng, private readonly constraint?: TokenConstraint) {}

  /** The row's logits with forbidden tokens at -Infinity, as [array, offset]; the block itself when nothing is forbidden. */
  private row(logits: Float32Array, row: number, emitted?: readonly number[]): [Float32Array, number] {
    const mask = emitted && this.constraint ? this.constraint.allowed(emitted) : null;
    return mask ? [maskedRow(logits, row * this.vocab, this.vocab, mask), 0] : [logits, row * this.vocab];
  }

  /** Target (or draft) distribution of a row; null for greedy. `emitted`: the output before this row's token, for the constraint. */
  dist(logits: Float32Array, row: number, emitted?: readonly number[]): Float64Array | null {
    const s = this.sampling;
    if (s.kind !== 'nucleus') return null;
    const [l, offset] = this.row(logits, row, emitted);
    return nucleusDistribution(l, s.topP, s.temperature, offset, this.vocab);
  }

  /** The token plain decoding would emit from this row (argmax, or a nucleus sample), after `emitted`. */
  choose(logits: Float32Array, row: number, emitted?: readonly number[]): number {
    const p = this.dist(logits, row, emitted);
    if (p) return sample(p, this.rng);
    if (emitted && this.constraint?.firstAllowed) {
      const first = this.constraint.firstAllowed(emitted, ranked(logits, row * this.vocab, this.vocab, LAZY_CANDIDATES));
      if (first !== undefined) return first;
    }
    const [l, offset] = this.row(logits, row, emitted);
    return argmax(l, offset, this.vocab);
  }

  /** Drafts from SAT rows: argmax for greedy, samples from their distributions q otherwise. */
  drafts(logits: Float32Array, rows: number[]): { tokens: number[]; q: (Float64Array | null)[] } {
    const q = rows.map((r) => this.dist(logits, r));
    return { tokens: q.map((qi, i) => (qi ? sample(qi, this.rng) : argmax(logits, rows[i] * this.vocab, this.vocab))), q };
  }

  /**
   * Verify drafts against target rows: row targetRows[j] is the model's distribution for the
   * position of drafts[j]; targetRows[drafts.length] the one after the last draft. Returns how many
   * drafts were accepted and the token that follows them (bonus or correction). `emitted`: the
   * output before the first draft, for the constraint.
   */
  verify(logits: Float32Array, targetRows: number[], drafts: number[], q: (Float64Array | null)[], stats: DecodeStats, emitted: readonly number[] = []): { accepted: number; next: number } {
    const s = this.sampling;
    let accepted = 0;
    let next = -1;
    const before = (j: number) => (this.constraint ? [...emitted, ...drafts.slice(0, j)] : undefined);
    for (let j = 0; j < drafts.length; j++) {
      stats.draftedPerPosition[j]++;
      let ok: boolean;
      if (s.kind === 'nucleus' && (s.acceptance ?? 'speculative') === 'speculative') {
        const v = verifyDraft(drafts[j], this.dist(logits, targetRows[j], before(j)) as Float64Array, q[j] as Float64Array, this.rng);
        ok = v.accepted;
        next = v.token;
      } else {
        // Greedy, or the match-the-sample rule: the target's own choice decides.
        next = this.choose(logits, targetRows[j], before(j));
        ok = next === drafts[j];
      }
      if (!ok) break;
      accepted++;
      stats.acceptedPerPosition[j]++;
    }
    if (accepted === drafts.length) next = this.choose(logits, targetRows[drafts.length], before(drafts.length));
    stats.drafted += drafts.length;
    stats.accepted += accepted;
    if (drafts.length) stats.verifySteps++;
    return { accepted, next };
  }
}
