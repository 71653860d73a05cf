/** Picks the flight task for a seed and tier and phrases its instruction. */
import type { GoalKind, Tier } from '../../types.ts';
import { Rng, mixSeed } from '../../../common/rng.ts';
import { AIRPORTS, FARE_CLASSES, cityOf, flightsFor, pickAirlines, pickByCriterion, type Criterion, type FareClass, type FlightsGoal, type FlightsState } from './data.ts';
import { addDays, dayMonthYear, iso } from '../common/dates.ts';
import { drawVariant } from './variant.ts';

const FIRST = ['Jane', 'Omar', 'Lucia', 'Kwame', 'Sara', 'Ben', 'Yuki', 'Nadia', 'Pedro', 'Ingrid', 'Ravi', 'Chloe', 'Felix', 'Amara', 'Leo'];
const LAST = ['Doe', 'Haddad', 'Fernandez', 'Mensah', 'Lund', "O'Brien", 'Sato', 'Karimi', 'Alves', 'Berg', 'Iyer', 'Dubois', 'Wagner', 'Obi', 'Marsh'];
const SITES = ['SkyTrip', 'FlyFinder', 'AirHop', 'JetQuest'];

const CRITERION_TEXT: Record<Criterion, string> = {
  cheapest: 'the cheapest flight',
  cheapest_nonstop: 'the cheapest nonstop flight',
  shortest: 'the fastest flight (shortest total travel time)',
};

export function generateFlights(seed: number, tier: Tier): { state: FlightsState; instruction: string; startPath: string; goalKind: GoalKind } {
  const rng = new Rng(mixSeed(seed, 'flights-task', tier));
  const year = 2026 + rng.int(0, 1);
  const month = rng.int(1, 12);
  const today = iso(year, month, 1);
  const [from, to] = rng.sample(AIRPORTS.map((a) => a.code), 2);
  const criterion = rng.pick<Criterion>(['cheapest', 'cheapest_nonstop', 'shortest']);
  // Walk forward from a random day until the criterion names exactly one flight.
  let date = addDays(today, rng.int(7, 40));
  let flight = pickByCriterion(flightsFor(seed, from, to, date), criterion);
  while (!flight) {
    date = addDays(date, 1);
    flight = pickByCriterion(flightsFor(seed, from, to, date), criterion);
  }
  const passengers = tier === 3 ? 2 : 1;
  const fareClass: FareClass = tier === 3 ? rng.pick(FARE_CLASSES.slice(1)) : 'Economy';
  const names = Array.from({ length: passengers }, () => ({ first: rng.pick(FIRST), last: rng.pick(LAST) }));
  const goal: FlightsGoal = { criterion, from, to, date, passengers, fareClass, names, flight: flight.number };
  // The variant draws from its own stream of the seed, so the task above is what it always was.
  const state: FlightsState = { siteName: rng.pick(SITES), today, airlines: pickAirlines(seed), goal, drafts: [], bookings: [], ui: { cookiesDismissed: true }, variant: drawVariant(seed) };
  // The flight site shows no cookie banner (the shop has one); tiers stay within their step budgets.
  const who = names.map((n) => `${n.first} ${n.last}`).join(' and ');
  const route = `from ${cityOf(from)} to ${cityOf(to)} on ${dayMonthYear(date)}`;
  let instruction: string;
  let startPath = '/';
  if (tier === 1) {
    // Tier 1 starts on the results of a search someone already ran.
    startPath = `/results?${new URLSearchParams({ from, to, date, passengers: '1', class: 'Economy' })}`;
    instruction = `These are the flights ${route}. Book ${CRITERION_TEXT[criterion]} in Economy for one passenger, ${who}.`;
  } else {
    const pax = passengers === 1 ? '1 adult' : `${passengers} adults`;
    instruction = `Book ${CRITERION_TEXT[criterion]} ${route} for ${pax} in ${fareClass}. Passenger${passengers > 1 ? 's' : ''}: ${who}.`;
  }
  // Every flights task is a booking.
  return { state, instruction, startPath, goalKind: 'state' };
}
