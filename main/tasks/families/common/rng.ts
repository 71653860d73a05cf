/** Seeded pseudo-random numbers: every generated site and task is a pure function of its seed. */
import type { Tier } from '../../types.ts';

/** mulberry32: tiny, fast, and good enough for picking words and prices. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mix several integers (seed, salt, ids) into one 32-bit seed, so sub-streams are independent. */
export function mixSeed(...parts: Array<number | string>): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    const s = String(p);
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0xff;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Rng {
  private readonly next01: () => number;
  constructor(seed: number) {
    this.next01 = mulberry32(seed);
  }
  float(): number {
    return this.next01();
  }
  /** Integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next01() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next01() < p;
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next01() * items.length)];
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next01() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
  /** n distinct items (or all of them when n exceeds the list). */
  sample<T>(items: readonly T[], n: number): T[] {
    return this.shuffle(items).slice(0, n);
  }
}

/** Train and test seeds never overlap; every family uses the same split. */
export const SEEDS = {
  train: { from: 0, to: 10000 },
  test: { from: 10000, to: 11000 },
} as const;

/**
 * Held-out (test-only) families: an empty train range and the usual test range, so episodes on them
 * are always recorded as test and nothing trains on them.
 */
export const HELD_OUT_SEEDS = {
  train: { from: 0, to: 0 },
  test: { from: 10000, to: 11000 },
} as const;

/** The tier a seed gets when none is asked for: hashed, so tiers are spread evenly over any range. */
export function tierFromSeed(seed: number, salt: string): Tier {
  return ((mixSeed(seed, salt, 'tier') % 3) + 1) as Tier;
}
