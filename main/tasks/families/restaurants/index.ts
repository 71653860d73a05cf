/**
 * The restaurants family: search, cuisine/neighborhood/price filters, a table finder by date and party
 * size, and a reservation form; an offer dialog to dismiss. Held out: test seeds only.
 */
import type { TaskFamily, Tier } from '../../types.ts';
import { HELD_OUT_SEEDS, tierFromSeed } from '../common/seeds.ts';
import type { RestaurantsState } from './data.ts';
import { handleRestaurants } from './handlers.ts';
import { RestaurantsOracle } from './oracle.ts';
import { checkRestaurants, generateRestaurantsTask } from './task.ts';

export const restaurantsFamily: TaskFamily<RestaurantsState> = {
  name: 'restaurants',
  description: 'A restaurant reservation site: search, cuisine/neighborhood/price filters, table finder by date and party size, reservation form, offer dialog.',
  heldOut: true,
  seeds: { train: { ...HELD_OUT_SEEDS.train }, test: { ...HELD_OUT_SEEDS.test } },
  generate(seed: number, tier?: Tier) {
    const t = tier ?? tierFromSeed(seed, 'restaurants');
    const { state, instruction, startPath, goalKind } = generateRestaurantsTask(seed, t);
    return { instruction, state, goalKind, startPath, tier: t };
  },
  handle: handleRestaurants,
  check: checkRestaurants,
  oracle: (ctx) => new RestaurantsOracle(ctx),
};
