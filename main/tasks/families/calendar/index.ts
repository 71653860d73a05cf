/**
 * The calendar family: month and day views, create/edit/delete events, find free slots; questions
 * answered by message. Every instance words, orders and lays out its pages its own way
 * (variant.ts), so a policy has to read them.
 */
import type { TaskFamily, Tier } from '../../types.ts';
import { SEEDS, tierFromSeed } from '../common/seeds.ts';
import type { CalendarState } from './data.ts';
import { handleCalendar } from './handlers.ts';
import { CalendarOracle } from './oracle.ts';
import { checkCalendar, generateCalendarTask } from './task.ts';

export const calendarFamily: TaskFamily<CalendarState> = {
  name: 'calendar',
  description: 'A calendar: month grid and day agenda, search, create/edit/delete events with a confirmation step, free-slot questions answered by message; wording, order and layout vary by instance.',
  seeds: { train: { ...SEEDS.train }, test: { ...SEEDS.test } },
  generate(seed: number, tier?: Tier) {
    const t = tier ?? tierFromSeed(seed, 'calendar');
    const { state, instruction, goalKind } = generateCalendarTask(seed, t);
    return { instruction, state, goalKind, startPath: '/', tier: t };
  },
  handle: handleCalendar,
  check: checkCalendar,
  oracle: (ctx) => new CalendarOracle(ctx),
};
