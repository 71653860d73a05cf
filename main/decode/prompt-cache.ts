/**
 * Prefix caching: keep the KV caches of recent prompts so a prompt that starts like one of them
 * only runs the tokens it does not share (vLLM's automatic prefix caching and llama.cpp's
 * `cache_prompt` do the same for their servers).
 *
 * A policy's prompts in one episode share their task line, and on a page an action did not leave,
 * much of the page too; a server's requests share system text. Keys and values at a position
 * depend only on the tokens up to it, so a cache rolled back to a shared prefix holds exactly what
 * a fresh prefill would compute there (up to float rounding between pass widths; callers check
 * that outputs stay identical, `eval --compare-decode`).
 *
 * An entry is taken out while a generation uses it and put back after, so two generations running
 * at once never share one. Only the prompt's part of a cache is kept: what a decoder appended
 * (outputs, drafts, SAT positions) is rolled back, and an entry whose ids are not the prompt's
 * (a decoder that reordered it) is dropped rather than trusted.
 */
import { KVCache } from '../models/model.ts';

interface Entry {
  cache: KVCache;
  /** The token ids the cache holds, position by position. */
  ids: number[];
}

/** Totals since the cache was made: how much prefill it saved. */
export interface PromptCacheStats {
  lookups: number;
  /** Lookups that reused at least one token. */
  hits: number;
  promptTokens: number;
  reusedTokens: number;
}

export class PromptCache {
  private entries: Entry[] = [];
  readonly stats: PromptCacheStats = { lookups: 0, hits: 0, promptTokens: 0, reusedTokens: 0 };

  /** @param capacity how many prompts' caches to keep (least recently used leaves first) */
  constructor(readonly capacity = 1) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`prompt cache capacity must be a positive integer, got ${capacity}`);
  }

  /**
   * A one-row cache holding the longest prefix of `prefix` any kept entry shares (all of it at
   * most), and how many tokens that is; a new empty cache when none shares a token. The caller
   * owns the cache until it hands it back with `put`.
   */
  take(prefix: readonly number[]): { cache: KVCache; reused: number } {
    this.stats.lookups++;
    this.stats.promptTokens += prefix.length;
    let best = -1;
    let bestLength = 0;
    this.entries.forEach((e, i) => {
      const n = sharedPrefix(e.ids, prefix);
      if (n > bestLength) [best, bestLength] = [i, n];
    });
    if (best < 0) return { cache: new KVCache(1), reused: 0 };
    const [entry] = this.entries.splice(best, 1);
    entry.cache.rollback(bestLength);
    this.stats.hits++;
    this.stats.reusedTokens += bestLength;
    return { cache: entry.cache, reused: bestLength };
  }

  /**
   * Keep `cache` for later prompts, cut back to its first `length` positions, which must hold
   * `prefix` (the prompt as prefilled). A cache that does not is disposed instead.
   */
  put(cache: KVCache, prefix: readonly number[]): void {
    const n = prefix.length;
    // An empty prefix (a one-token prompt) shares nothing with anything: not worth a place.
    if (n === 0 || cache.batch !== 1 || cache.length < n || sharedPrefix(cache.ids[0], prefix) < n) {
      cache.dispose();
      return;
    }
    cache.rollback(n);
    this.entries.push({ cache, ids: [...prefix] });
    while (this.entries.length > this.capacity) this.entries.shift()!.cache.dispose();
  }

  /** Free every kept cache (the model is being unloaded, or the caller is done). */
  clear(): void {
    for (const e of this.entries) e.cache.dispose();
    this.entries = [];
  }
}

/** Length of the longest common prefix of two token sequences. */
export function sharedPrefix(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}
