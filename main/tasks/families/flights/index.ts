/**
 * The flights family: search, sort and filter flights, then book with passenger details. Every
 * instance words, orders and lays out its pages its own way (variant.ts), so a policy has to read them.
 */
import type { TaskFamily, Tier } from '../../types.ts';
import { SEEDS, tierFromSeed } from '../common/seeds.ts';
import { checkFlights } from './check.ts';
import type { FlightsState } from './data.ts';
import { handleFlights } from './handlers.ts';
import { FlightsOracle } from './oracle.ts';
import { generateFlights } from './task.ts';

export const flightsFamily: TaskFamily<FlightsState> = {
  name: 'flights',
  description: 'A flight booking site: search with a date picker, sort and filter results, select a flight and enter passenger details; wording, order and layout vary by instance.',
  seeds: { train: { ...SEEDS.train }, test: { ...SEEDS.test } },
  generate(seed: number, tier?: Tier) {
    const t = tier ?? tierFromSeed(seed, 'flights');
    const { state, instruction, startPath, goalKind } = generateFlights(seed, t);
    return { instruction, state, goalKind, startPath, tier: t };
  },
  handle: handleFlights,
  check: checkFlights,
  oracle: (ctx) => new FlightsOracle(ctx),
};
