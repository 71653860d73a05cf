/**
 * The hotels family: search by city, dates and guests, filter by stars and price, choose a room,
 * book. Every instance words, orders and lays out its pages its own way (variant.ts), so a policy
 * has to read them.
 */
import type { TaskFamily, Tier } from '../../types.ts';
import { SEEDS, tierFromSeed } from '../common/seeds.ts';
import type { HotelsState } from './data.ts';
import { handleHotels } from './handlers.ts';
import { HotelsOracle } from './oracle.ts';
import { checkHotels, generateHotelsTask } from './task.ts';

export const hotelsFamily: TaskFamily<HotelsState> = {
  name: 'hotels',
  description: 'A hotel booking site: search by city, dates and guests, filter by stars, price and breakfast, sort, choose a room and book; wording, order and layout vary by instance.',
  seeds: { train: { ...SEEDS.train }, test: { ...SEEDS.test } },
  generate(seed: number, tier?: Tier) {
    const t = tier ?? tierFromSeed(seed, 'hotels');
    const { state, instruction, startPath, goalKind } = generateHotelsTask(seed, t);
    return { instruction, state, goalKind, startPath, tier: t };
  },
  handle: handleHotels,
  check: checkHotels,
  oracle: (ctx) => new HotelsOracle(ctx),
};
