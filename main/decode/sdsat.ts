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
 *
 * `sdsat-tree` (tree widths given): pass 2 verifies, instead of each SAT row's top token alone, its
 * top few under a tree mask (./tree.ts): widths [3, 2, 1] put the three best first drafts in the
 * pass, the two best second drafts under each, and the best third draft under each of those. A
 * SAT's second choice is right often enough to pay for its row when a verification pass over more
 * positions costs little more than one over a few. Greedy output still equals AR's; under nucleus
 * sampling the tree is verified by the match-the-sample rule (exact).
 *
 * `merged-tree` (copy branches given): pass 2's tree also holds the continuations copied from the
 * context after t (./lookup.ts), merged with the SATs' candidates into one trie, copied ones leading
 * (when the context repeats itself a copy is the likelier draft). Drafts from both sources for one
 * pass: SATs that learned the text's next tokens and copies of text it repeats. Exactness as above.
 */
import type { SatSettings } from '../models/checkpoint.ts';
import type { TransformerLM } from '../models/model.ts';
import { Rng } from '../common/rng.ts';
import { closeCache, Emitter, openCache, satIdsFor } from './generation.ts';
import { BONUS, RESAMPLED, emptyStats, type Decoder, type GenerateOptions, type GenerateResult, type TokenSource } from './types.ts';
import { Chooser } from './verify.ts';
import { topTokens } from './sampling.ts';
import { branchesOf, productTree, trieOf, verifyTree } from './tree.ts';
import { lookupContinuations } from './lookup.ts';

/**
 * `sdsat-tree`'s candidates per draft depth; a depth beyond the list drafts the top token only. The
 * best of [2], [3], [2, 1], [3, 1, 1] and [2, 2, 1, 1] on the shipped code model
 * (docs/benchmarks.md): a SAT's second and third choices for the first draft are right often,
 * later ones seldom.
 */
export const DEFAULT_TREE_WIDTHS: readonly number[] = [3];

export class SdsatDecoder implements Decoder {
  readonly mode: 'sdsat' | 'sdsat-tree' | 'merged-tree';
  private readonly satIds: number[];

  /**
   * @param widths verify a tree of the SAT rows' top candidates (`sdsat-tree`) instead of one draft per row
   * @param copyBranches merge this many continuations copied from the context into that tree (`merged-tree`)
   */
  constructor(private readonly model: TransformerLM, sat: SatSettings, readonly k: number, readonly widths?: readonly number[], readonly copyBranches = 0) {
    this.satIds = satIdsFor(model, sat, k);
    if (widths?.some((w) => !(w >= 1))) throw new Error('tree widths must be at least 1');
    if (copyBranches && !widths) throw new Error('copied branches are merged into a SAT tree: give tree widths');
    this.mode = copyBranches ? 'merged-tree' : widths ? 'sdsat-tree' : 'sdsat';
  }

  async generate(promptIds: readonly number[], options: GenerateOptions): Promise<GenerateResult> {
    const { model } = this;
    const ctx = model.config.ctx;
    const stats = emptyStats(this.mode, promptIds.length, this.k);
    const pick = new Chooser(options.sampling ?? { kind: 'greedy' }, model.config.vocabSize, new Rng(options.seed ?? 0), options.constraint);
    const { cache, pending: first } = openCache(model, promptIds, options, stats);
    // The sequence so far, ending with `pending`, where `merged-tree` looks its copies up.
    const seq = this.copyBranches ? [...promptIds] : [];
    try {
      let pending = first;
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
          pending = pick.choose(logits, 0, out.tokens);
          if (this.copyBranches) seq.push(pending);
          if (!out.push(pending)) break;
          const wait = out.loopEnded();
          if (wait) await wait;
          continue;
        }
        stats.loops++;

        // Pass 1: exact next token + k drafts; the SAT entries leave the cache at once.
        const p1 = model.forward([[pending, ...this.satIds.slice(0, k)]], cache).logits;
        stats.forwardPasses++;
        cache.rollback(P + 1);
        const t = pick.choose(p1, 0, out.tokens);
        if (!out.push(t)) break;
        const rows = Array.from({ length: k }, (_, i) => i + 1);

        // Pass 2: verify the drafts (or the tree hung from t) in one forward pass; keep t and the accepted drafts.
        let verified: { accepted: number[]; next: number; source: TokenSource };
        if (this.widths) {
          const widths = rows.map((r) => this.widths![r - 1] ?? 1);
          const candidates = rows.map((r, d) => topTokens(p1, r * model.config.vocabSize, model.config.vocabSize, widths[d]));
          const satTree = productTree(candidates, widths);
          const tree = this.copyBranches
            ? trieOf([...lookupContinuations([...seq, t], k, this.copyBranches), ...branchesOf(satTree)])
            : satTree;
          verified = verifyTree(model, cache, t, tree, pick, out.tokens, stats);
        } else {
          const drafts = pick.drafts(p1, rows);
          const p2 = model.forward([[t, ...drafts.tokens]], cache).logits;
          stats.forwardPasses++;
          const { accepted, next } = pick.verify(p2, [0, ...rows], drafts.tokens, drafts.q, stats, out.tokens);
          cache.rollback(P + 2 + accepted);
          verified = { accepted: drafts.tokens.slice(0, accepted), next, source: accepted === k ? BONUS : RESAMPLED };
        }
        if (this.copyBranches) seq.push(t, ...verified.accepted, verified.next);
        if (!out.pushVerified(verified.accepted, verified.accepted.length, verified.next, verified.source)) break;
        pending = verified.next;
        const wait = out.loopEnded();
        if (wait) await wait;
      }
      return out.result(stats, start);
    } finally {
      closeCache(cache, promptIds, options);
    }
  }
}
