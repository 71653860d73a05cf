/** Which seeds are train and which test, and the tier a seed gets when none is asked for. */
import { mixSeed } from '../../../common/rng.ts';
import type { Tier } from '../../types.ts';

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
