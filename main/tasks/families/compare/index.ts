/**
 * The compare family: two separate stores (own names, themes, search and checkout) selling the same
 * products at different prices, stock and shipping; tasks compare across them, then answer or buy.
 * The start page and each store word, order and lay themselves out their own way per instance
 * (variant.ts), so a policy has to read them.
 */
import type { TaskFamily, Tier } from '../../types.ts';
import { SEEDS, tierFromSeed } from '../common/seeds.ts';
import type { CompareState } from './data.ts';
import { handleCompare } from './site.ts';
import { CompareOracle } from './oracle.ts';
import { checkCompare, generateCompareTask } from './task.ts';

export const compareFamily: TaskFamily<CompareState> = {
  name: 'compare',
  description: 'Two online stores selling the same products at different prices, stock and shipping: compare across both sites, then answer or buy from the cheaper one; wording, order and layout vary by instance and by store.',
  seeds: { train: { ...SEEDS.train }, test: { ...SEEDS.test } },
  generate(seed: number, tier?: Tier) {
    const t = tier ?? tierFromSeed(seed, 'compare');
    const { state, instruction, goalKind } = generateCompareTask(seed, t);
    return { instruction, state, goalKind, startPath: '/', tier: t };
  },
  handle: handleCompare,
  check: checkCompare,
  oracle: (ctx) => new CompareOracle(ctx),
};
