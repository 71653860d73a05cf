/**
 * Prompt-lookup decoding: drafts copied from the context instead of predicted by SAT tokens, then
 * verified exactly as SDSAT's are. Text that repeats what is already in the context (a web
 * policy's thought line is an element line of its prompt; code repeats its identifiers) drafts
 * itself for free: find the latest earlier place where the last n tokens occurred, and draft the
 * k tokens that followed them there (Saxena's "prompt lookup decoding", 2023).
 *
 * Invariant between loops, as in ./sdsat.ts: the cache holds every token but the last ("pending",
 * at position P). One pass runs [pending, d_1..d_k] at P..P+k: row 0 is the model's own next token
 * (it verifies d_1), row j verifies d_(j+1), row k gives the bonus. Each loop emits the accepted
 * drafts and one more token for one pass; with no match it is a plain AR step (one position).
 * Greedy output equals AR greedy token for token; nucleus sampling verifies a copied draft as a
 * draft whose distribution is all on it (speculative sampling with a point-mass q), so the target
 * distribution is kept.
 *
 * `lookup-tree` drafts several continuations at once (the same suffix followed by different text
 * at different earlier places) as a trie, verified in one pass under a tree mask (./tree.ts).
 */
import type { KVCache, TransformerLM } from '../models/model.ts';
import { Rng } from '../common/rng.ts';
import { closeCache, Emitter, openCache } from './generation.ts';
import { BONUS, EXACT, RESAMPLED, emptyStats, type DecodeStats, type Decoder, type GenerateOptions, type GenerateResult, type Sampling, type TokenSource } from './types.ts';
import { Chooser } from './verify.ts';
import { trieOf, verifyTree } from './tree.ts';
import type { OutputHistory } from './output-history.ts';

/** The longest and shortest suffix looked up: one token alone matches too often to pay for its pass. */
export const LOOKUP_MAX_NGRAM = 3;
export const LOOKUP_MIN_NGRAM = 2;

/**
 * Up to k tokens that followed the latest earlier occurrence of the sequence's last n tokens
 * (n from maxNgram down to minNgram, the first n that matches wins); [] when none does.
 */
export function lookupDrafts(seq: readonly number[], k: number, maxNgram = LOOKUP_MAX_NGRAM, minNgram = LOOKUP_MIN_NGRAM): number[] {
  return lookupContinuations(seq, k, 1, maxNgram, minNgram)[0] ?? [];
}

/**
 * Up to `branches` different continuations (each up to k tokens) of the sequence's last n tokens
 * from their earlier occurrences: the longest n first, then the latest occurrence first. Branch 1
 * is lookupDrafts' draft.
 */
export function lookupContinuations(seq: readonly number[], k: number, branches: number, maxNgram = LOOKUP_MAX_NGRAM, minNgram = LOOKUP_MIN_NGRAM): number[][] {
  const L = seq.length;
  const found: number[][] = [];
  const seen = new Set<string>();
  for (let n = Math.min(maxNgram, L - 1); n >= minNgram; n--) {
    if (collectContinuations(seq, seq.slice(L - n), k, branches, seen, found)) return found;
  }
  return found;
}

/**
 * Add to `found` what followed each occurrence of `suffix` in `hay` that ends before hay's last
 * token (the latest first; up to k tokens each, none whose tokens are already in `seen`) until it
 * holds `count`; true once it does. Prompt lookup scans the sequence for its own tail, the output
 * history (./output-history.ts) each earlier output for it.
 */
export function collectContinuations(hay: readonly number[], suffix: readonly number[], k: number, count: number, seen: Set<string>, found: number[][]): boolean {
  const n = suffix.length;
  // Candidate starts from the latest backwards; a suffix ending at hay's end has nothing after it.
  for (let s = hay.length - n - 1; s >= 0; s--) {
    let j = 0;
    while (j < n && hay[s + j] === suffix[j]) j++;
    if (j < n) continue;
    const next = hay.slice(s + n, s + n + k) as number[];
    const key = next.join();
    if (seen.has(key)) continue;
    seen.add(key);
    found.push(next);
    if (found.length >= count) return true;
  }
  return false;
}

export class LookupDecoder implements Decoder {
  readonly mode: 'lookup' | 'lookup-tree';

  /**
   * @param branches continuations drafted per loop: 1 is a single draft (`lookup`); more are merged
   *   into a trie and verified together under a tree mask (`lookup-tree`, ./tree.ts)
   */
  constructor(private readonly model: TransformerLM, readonly k: number, readonly branches = 1) {
    if (!(k >= 1)) throw new Error('k must be at least 1 (drafted tokens per loop)');
    if (!(branches >= 1)) throw new Error('branches must be at least 1');
    this.mode = branches > 1 ? 'lookup-tree' : 'lookup';
  }

  async generate(promptIds: readonly number[], options: GenerateOptions): Promise<GenerateResult> {
    const { model } = this;
    const ctx = model.config.ctx;
    const vocab = model.config.vocabSize;
    const stats = emptyStats(this.mode, promptIds.length, this.k);
    const sampling = options.sampling ?? { kind: 'greedy' };
    const pick = new Chooser(sampling, vocab, new Rng(options.seed ?? 0), options.constraint);
    const { cache, pending: first } = openCache(model, promptIds, options, stats);
    // The whole sequence so far (prompt, then output), where drafts are looked up.
    const seq = [...promptIds];
    try {
      let pending = first;
      const out = new Emitter(options);
      const start = performance.now();
      while (!out.done) {
        const P = cache.length;
        if (P + 1 > ctx) break;
        stats.loops++;
        const maxDrafts = Math.min(this.k, ctx - P - 1);
        const drafts = draftsFor(seq, maxDrafts, this.branches, options.outputHistory);
        const verified = this.branches > 1
          ? verifyTree(model, cache, pending, trieOf(drafts), pick, out.tokens, stats)
          : verifyCopied(model, cache, pending, drafts[0] ?? [], pick, sampling, out.tokens, stats);
        seq.push(...verified.accepted, verified.next);
        if (!out.pushVerified(verified.accepted, verified.accepted.length, verified.next, verified.source)) break;
        pending = verified.next;
        const wait = out.loopEnded();
        if (wait) await wait;
      }
      options.outputHistory?.add(promptIds, out.tokens);
      return out.result(stats, start);
    } finally {
      closeCache(cache, promptIds, options);
    }
  }
}

/**
 * A loop's drafts: continuations copied from the sequence itself; where it holds none, one from
 * earlier outputs (./output-history.ts). Only there: measured on the policy's training instances
 * (2026-12-07, k = 8), history drafts that widened trees which already had a branch cost more
 * than they brought (decode 47.5 ms a step against 44.7 without history), one branch where there
 * was none paid (40.1-42.2).
 */
export function draftsFor(seq: readonly number[], k: number, branches: number, history?: OutputHistory): number[][] {
  const found = lookupContinuations(seq, k, branches);
  return found.length || !history ? found : history.continuations(seq, k, 1);
}

/**
 * One loop of `lookup`: a pass over [pending, ...drafts] after a cache of length P, the drafts
 * verified as speculative drafts whose distribution is all on them (a plain one-position step when
 * there are none), and the cache cut back to pending and the accepted drafts.
 */
function verifyCopied(model: TransformerLM, cache: KVCache, pending: number, drafts: number[], pick: Chooser, sampling: Sampling, emitted: readonly number[], stats: DecodeStats): { accepted: number[]; next: number; source: TokenSource } {
  const P = cache.length;
  const { logits } = model.forward([[pending, ...drafts]], cache, drafts.length === 0);
  stats.forwardPasses++;
  if (drafts.length === 0) return { accepted: [], next: pick.choose(logits, 0, emitted), source: EXACT };
  const q = copiedDraftQ(drafts, sampling, model.config.vocabSize);
  const rows = Array.from({ length: drafts.length + 1 }, (_, i) => i);
  const { accepted, next } = pick.verify(logits, rows, drafts, q, stats, emitted);
  cache.rollback(P + 1 + accepted);
  return { accepted: drafts.slice(0, accepted), next, source: accepted === drafts.length ? BONUS : RESAMPLED };
}

/**
 * The draft distributions of copied drafts for verification: a copy is certain, so under sampling
 * each q is all on its token (speculative sampling then keeps the target distribution); greedy
 * verification needs none.
 */
export function copiedDraftQ(drafts: readonly number[], sampling: Sampling, vocab: number): (Float64Array | null)[] {
  return drafts.map((token) => {
    if (sampling.kind !== 'nucleus') return null;
    const q = new Float64Array(vocab);
    q[token] = 1;
    return q;
  });
}
