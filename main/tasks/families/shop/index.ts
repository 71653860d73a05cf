/**
 * The shop family: an outdoor-gear store with search, filters, cart and checkout. Every instance
 * words, orders and lays out its pages its own way (variant.ts), so a policy has to read them.
 */
import type { TaskFamily, Tier } from '../../types.ts';
import { SEEDS, tierFromSeed } from '../common/seeds.ts';
import { checkShop } from './check.ts';
import type { ShopState } from './data.ts';
import { handleShop } from './handlers.ts';
import { ShopOracle } from './oracle.ts';
import { generateShop } from './task.ts';

export const shopFamily: TaskFamily<ShopState> = {
  name: 'shop',
  description: 'An online outdoor-gear store: search, filter and sort products, pick options, manage the cart and check out; wording, order and layout vary by instance.',
  seeds: { train: { ...SEEDS.train }, test: { ...SEEDS.test } },
  generate(seed: number, tier?: Tier) {
    const t = tier ?? tierFromSeed(seed, 'shop');
    const { state, instruction, goalKind } = generateShop(seed, t);
    return { instruction, state, goalKind, startPath: '/', tier: t };
  },
  handle: handleShop,
  check: checkShop,
  oracle: (ctx) => new ShopOracle(ctx),
};
