/**
 * The cost structure of speculative decoding on this machine: how long one forward pass over n new
 * positions takes (with a warm KV cache) against a one-token step, what that allows each SDSAT loop
 * at most (the ceiling), and what the measured acceptance rates should give (Leviathan et al.'s
 * expectation), so a reader sees whether drafts or the wider pass stand in the way.
 */
import { KVCache, type TransformerLM } from '../models/model.ts';
import { tMean, type Mean } from '../common/stats.ts';

export interface PassCost {
  positions: number;
  /** Mean milliseconds of one pass, with a 95% interval over the repeats. */
  ms: Mean;
  /** ms / ms of a one-position pass. */
  relative: number;
}

export interface CostOptions {
  /** Tokens already in the cache when the timed pass runs (a decode step mid-generation). */
  cacheLength: number;
  repeats: number;
  warmup: number;
}

/**
 * Time forward passes over each number of new positions. Position counts are interleaved within
 * each repeat so that load from elsewhere falls on all of them alike; the cache is rolled back to
 * `cacheLength` after every pass, as the decoders do.
 */
export function measurePassCost(model: TransformerLM, positions: readonly number[], o: CostOptions): PassCost[] {
  const need = o.cacheLength + Math.max(...positions);
  if (need > model.config.ctx) throw new Error(`cache ${o.cacheLength} + ${Math.max(...positions)} positions exceeds the context of ${model.config.ctx}`);
  const ids = (n: number, salt: number) => Array.from({ length: n }, (_, i) => (i * 31 + salt * 7 + 3) % model.config.vocabSize);
  const cache = new KVCache(1);
  try {
    model.forward([ids(o.cacheLength, 0)], cache, true);
    const samples = new Map<number, number[]>(positions.map((n) => [n, []]));
    for (let r = -o.warmup; r < o.repeats; r++) {
      for (const n of positions) {
        const t0 = performance.now();
        model.forward([ids(n, r + o.warmup + 1)], cache);
        const ms = performance.now() - t0;
        cache.rollback(o.cacheLength);
        if (r >= 0) samples.get(n)?.push(ms);
      }
    }
    const one = tMean(samples.get(positions[0]) ?? []).value ?? NaN;
    return positions.map((n) => {
      const ms = tMean(samples.get(n) ?? []);
      return { positions: n, ms, relative: (ms.value ?? NaN) / one };
    });
  } finally {
    cache.dispose();
  }
}

/** Positions one SDSAT loop runs through the model, per pass. */
export function loopPasses(mode: 'sdsat' | 'sdsat-one-pass', k: number): number[] {
  // Two-pass: [pending, SAT_1..k] then [t, d_1..d_k]. One-pass in steady state (k drafts pending):
  // [pending, d_1..d_k] plus one SAT block of k after each of the k+1 prefixes.
  return mode === 'sdsat' ? [k + 1, k + 1] : [(k + 1) * (k + 1)];
}

/** Tokens one loop emits beyond the accepted drafts: two-pass the exact token and the bonus; one-pass the bonus. */
export function tokensBesidesDrafts(mode: 'sdsat' | 'sdsat-one-pass'): number {
  return mode === 'sdsat' ? 2 : 1;
}

/**
 * Expected accepted drafts per loop from per-position acceptance rates, each conditional on the
 * drafts before it being accepted: sum over i of a_1 * .. * a_i. With one rate a for every position
 * this is Leviathan et al.'s (1 - a^(k+1)) / (1 - a) - 1.
 */
export function expectedAccepted(ratesPerPosition: readonly number[]): number {
  let reach = 1;
  let sum = 0;
  for (const a of ratesPerPosition) {
    reach *= a;
    sum += reach;
  }
  return sum;
}

/** Leviathan et al.'s expected tokens per verification with one acceptance rate a and k drafts. */
export function leviathanTokensPerLoop(a: number, k: number): number {
  return a >= 1 ? k + 1 : (1 - a ** (k + 1)) / (1 - a);
}

/**
 * Speedup over AR predicted from pass costs: tokens a loop emits times the one-token step's time,
 * over the loop's passes' time. `accepted` = k gives the ceiling (every draft accepted).
 */
export function predictedSpeedup(costMs: (positions: number) => number, mode: 'sdsat' | 'sdsat-one-pass', k: number, accepted: number): number {
  const loopMs = loopPasses(mode, k).reduce((s, n) => s + costMs(n), 0);
  return ((tokensBesidesDrafts(mode) + accepted) * costMs(1)) / loopMs;
}

/**
 * The acceptance rate, the same at every draft position, at which `mode` would reach `target` times
 * AR on these pass costs: what a model's drafts must reach before they pay. Bisection (the speedup
 * grows with the rate); null where even every draft accepted falls short of the target.
 */
export function rateNeeded(costMs: (positions: number) => number, mode: 'sdsat' | 'sdsat-one-pass', k: number, target: number): number | null {
  const at = (a: number) => predictedSpeedup(costMs, mode, k, expectedAccepted(new Array<number>(k).fill(a)));
  if (!(at(1) >= target)) return null;
  if (at(0) >= target) return 0;
  let [low, high] = [0, 1];
  for (let i = 0; i < 30; i++) {
    const mid = (low + high) / 2;
    if (at(mid) >= target) high = mid;
    else low = mid;
  }
  return high;
}

/** A pass cost at any position count, interpolated linearly between measured ones. */
export function costAt(rows: readonly PassCost[]): (positions: number) => number {
  const pts = rows.filter((r) => r.ms.value !== null).map((r) => [r.positions, r.ms.value as number] as const).sort((a, b) => a[0] - b[0]);
  return (n) => {
    if (!pts.length) return NaN;
    if (n <= pts[0][0]) return pts[0][1];
    for (let i = 1; i < pts.length; i++) {
      const [x1, y1] = pts[i];
      const [x0, y0] = pts[i - 1];
      if (n <= x1) return y0 + ((y1 - y0) * (n - x0)) / (x1 - x0);
    }
    const [xa, ya] = pts[pts.length - 2] ?? pts[0];
    const [xb, yb] = pts[pts.length - 1];
    return xb === xa ? yb : yb + ((yb - ya) * (n - xb)) / (xb - xa);
  };
}
