/**
 * Drafts from earlier outputs: a decoder that is called again and again on prompts of one kind (a
 * policy, step after step) writes text whose frame repeats while its prompt does not hold it: the
 * action after the thought line (`]\nclick('`), the call's closing (`')` and the end token), the
 * first word of an output. Prompt lookup (./lookup.ts) finds none of that; the outputs of earlier
 * calls do (retrieval drafting, as REST does from a datastore, here from the caller's own recent
 * outputs).
 *
 * Each entry is an earlier output with the last tokens of its prompt before it, so the first
 * tokens of an output are found after the prompt's closing tokens too. Drafts are verified as any
 * copied draft: outputs stay exactly the model's.
 */

import { collectContinuations } from './lookup.ts';

/** Prompt tokens kept before each output: as many as the longest n-gram looked up. */
const PROMPT_TAIL = 3;

export class OutputHistory {
  private entries: number[][] = [];

  /**
   * @param capacity how many earlier outputs to keep (the oldest leaves first)
   * @param maxNgram longest suffix looked up; shorter ones down to minNgram are tried when it has no match
   * @param minNgram shortest suffix looked up (2, prompt lookup's own floor: on the policy's
   *   training instances 1, 2 and 3 measured within noise of each other, 40.1-42.7 ms a step)
   */
  constructor(readonly capacity = 32, readonly maxNgram = PROMPT_TAIL, readonly minNgram = 2) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`output history capacity must be a positive integer, got ${capacity}`);
    if (!(minNgram >= 1 && maxNgram >= minNgram)) throw new Error(`output history n-grams must satisfy 1 <= min <= max, got ${minNgram}..${maxNgram}`);
  }

  get size(): number {
    return this.entries.length;
  }

  /** Keep an output (after the prompt it answered) for later calls. */
  add(prompt: readonly number[], output: readonly number[]): void {
    if (!output.length) return;
    this.entries.push([...prompt.slice(-this.maxNgram), ...output]);
    while (this.entries.length > this.capacity) this.entries.shift();
  }

  /**
   * Up to `count` continuations (each up to k tokens) of `seq`'s last n tokens in earlier outputs,
   * none equal to one in `exclude`: the most recent output first, and in it the latest occurrence;
   * the longest n that matches anywhere wins.
   */
  continuations(seq: readonly number[], k: number, count: number, exclude: readonly (readonly number[])[] = []): number[][] {
    const found: number[][] = [];
    if (count <= 0 || k <= 0) return found;
    const seen = new Set(exclude.map((c) => c.join()));
    for (let n = Math.min(this.maxNgram, seq.length); n >= this.minNgram; n--) {
      const suffix = seq.slice(seq.length - n);
      for (let e = this.entries.length - 1; e >= 0; e--) {
        if (collectContinuations(this.entries[e], suffix, k, count, seen, found)) return found;
      }
      // The longest suffix that matched decides, as in prompt lookup: a shorter one is weaker evidence.
      if (found.length) return found;
    }
    return found;
  }

  clear(): void {
    this.entries = [];
  }
}
