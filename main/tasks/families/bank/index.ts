/**
 * The bank family: accounts overview, account activity with filters, payees, a transfer form with
 * a review step, and scheduled transfers. Every instance words, orders and lays out its pages its
 * own way (variant.ts), so a policy has to read them.
 */
import type { TaskFamily, Tier } from '../../types.ts';
import { SEEDS, tierFromSeed } from '../common/seeds.ts';
import type { BankState } from './data.ts';
import { handleBank } from './handlers.ts';
import { BankOracle } from './oracle.ts';
import { checkBank } from './check.ts';
import { generateBankTask } from './task.ts';

export const bankFamily: TaskFamily<BankState> = {
  name: 'bank',
  description: 'An online bank: accounts overview, activity with search, period, type and date filters, payees, transfers with a review step, and scheduled transfers; wording, order and layout vary by instance.',
  seeds: { train: { ...SEEDS.train }, test: { ...SEEDS.test } },
  generate(seed: number, tier?: Tier) {
    const t = tier ?? tierFromSeed(seed, 'bank');
    const { state, instruction, startPath, goalKind } = generateBankTask(seed, t);
    return { instruction, state, goalKind, startPath, tier: t };
  },
  handle: handleBank,
  check: checkBank,
  oracle: (ctx) => new BankOracle(ctx),
};
