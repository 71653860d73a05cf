/**
 * The tickets family: concerts, plays and games; search and filters, event page, a seat map, and
 * checkout. Every instance words, orders and lays out its pages its own way (variant.ts).
 */
import type { TaskFamily, Tier } from '../../types.ts';
import { SEEDS, tierFromSeed } from '../common/seeds.ts';
import type { TicketsState } from './data.ts';
import { handleTickets } from './site.ts';
import { TicketsOracle } from './oracle.ts';
import { checkTickets, generateTicketsTask } from './task.ts';

export const ticketsFamily: TaskFamily<TicketsState> = {
  name: 'tickets',
  description: 'An event ticketing site: search, category/city filters, event pages with section prices, a seat map of checkboxes, checkout with delivery choice; wording, order and layout vary by instance.',
  seeds: { train: { ...SEEDS.train }, test: { ...SEEDS.test } },
  generate(seed: number, tier?: Tier) {
    const t = tier ?? tierFromSeed(seed, 'tickets');
    const { state, instruction, startPath, goalKind } = generateTicketsTask(seed, t);
    return { instruction, state, goalKind, startPath, tier: t };
  },
  handle: handleTickets,
  check: checkTickets,
  oracle: (ctx) => new TicketsOracle(ctx),
};
