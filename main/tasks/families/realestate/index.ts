/** The real-estate family: homes for sale with search, filters and sort, listing facts, saving and tour requests; each instance words, orders and lays out its pages its own way (./variant.ts). */
import type { TaskFamily, Tier } from '../../types.ts';
import { SEEDS, tierFromSeed } from '../common/seeds.ts';
import type { RealEstateState } from './data.ts';
import { handleRealEstate } from './handlers.ts';
import { RealEstateOracle } from './oracle.ts';
import { checkRealEstate, generateRealEstateTask } from './task.ts';

export const realEstateFamily: TaskFamily<RealEstateState> = {
  name: 'realestate',
  description: 'A real-estate listings site: search by area or address, type/bedroom/price filters, sort, listing facts, saving homes and a tour request form; wording, order and layout vary by instance.',
  seeds: { train: { ...SEEDS.train }, test: { ...SEEDS.test } },
  generate(seed: number, tier?: Tier) {
    const t = tier ?? tierFromSeed(seed, 'realestate');
    const { state, instruction, startPath, goalKind } = generateRealEstateTask(seed, t);
    return { instruction, state, goalKind, startPath, tier: t };
  },
  handle: handleRealEstate,
  check: checkRealEstate,
  oracle: (ctx) => new RealEstateOracle(ctx),
};
