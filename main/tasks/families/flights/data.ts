/** Flight site data: airports, airlines, and the day's flights for a route, all derived from the seed. */
import { Rng, mixSeed } from '../../../common/rng.ts';
import type { UiState } from '../common/site.ts';
import type { Variant } from './variant.ts';

export const AIRPORTS = [
  { code: 'BOS', city: 'Boston' },
  { code: 'DEN', city: 'Denver' },
  { code: 'ORD', city: 'Chicago' },
  { code: 'SEA', city: 'Seattle' },
  { code: 'MIA', city: 'Miami' },
  { code: 'AUS', city: 'Austin' },
  { code: 'JFK', city: 'New York' },
  { code: 'SFO', city: 'San Francisco' },
  { code: 'ATL', city: 'Atlanta' },
  { code: 'PHX', city: 'Phoenix' },
  { code: 'LAX', city: 'Los Angeles' },
  { code: 'DFW', city: 'Dallas' },
] as const;

export const FARE_CLASSES = ['Economy', 'Premium Economy', 'Business', 'First'] as const;
export type FareClass = (typeof FARE_CLASSES)[number];
const FARE_FACTOR: Record<FareClass, number> = { Economy: 1, 'Premium Economy': 1.6, Business: 3.1, First: 4.8 };

const AIRLINES = [
  { name: 'Skyward Air', code: 'SK' },
  { name: 'Bluejay Airlines', code: 'BJ' },
  { name: 'Northstar', code: 'NS' },
  { name: 'Cascade Air', code: 'CA' },
  { name: 'Meridian Airways', code: 'MA' },
  { name: 'Pinnacle Air', code: 'PN' },
  { name: 'Horizonline', code: 'HZ' },
  { name: 'Aurora Airlines', code: 'AU' },
];


export interface Flight {
  /** e.g. "SK 482"; unique within a route and day. */
  number: string;
  airline: string;
  from: string;
  to: string;
  date: string;
  /** Minutes after midnight. */
  depart: number;
  /** Minutes, layovers included. */
  duration: number;
  stops: number;
  via: string[];
  /** Whole dollars per passenger in Economy. */
  basePrice: number;
}

export interface Passenger {
  first: string;
  last: string;
}

export interface Draft {
  id: string;
  flight: string;
  from: string;
  to: string;
  date: string;
  fareClass: FareClass;
  passengers: number;
}

export interface Booking extends Draft {
  code: string;
  names: Passenger[];
  /** Whole dollars, all passengers. */
  total: number;
}

export type Criterion = 'cheapest' | 'cheapest_nonstop' | 'shortest';

export interface FlightsGoal {
  criterion: Criterion;
  from: string;
  to: string;
  date: string;
  passengers: number;
  fareClass: FareClass;
  names: Passenger[];
  /** The flight number the criterion picks out, computed at generation. */
  flight: string;
}

export interface FlightsState {
  siteName: string;
  /** The site's "today" (ISO); earlier departure dates are rejected. */
  today: string;
  airlines: Array<{ name: string; code: string }>;
  goal: FlightsGoal;
  drafts: Draft[];
  bookings: Booking[];
  ui: UiState;
  /** How this instance words, orders and lays out its pages (./variant.ts); no bearing on the task. */
  variant: Variant;
}

export function airportLabel(code: string): string {
  const a = AIRPORTS.find((x) => x.code === code);
  return a ? `${a.city} (${a.code})` : code;
}

export function cityOf(code: string): string {
  return AIRPORTS.find((x) => x.code === code)?.city ?? code;
}

export function pickAirlines(seed: number): Array<{ name: string; code: string }> {
  return new Rng(mixSeed(seed, 'airlines')).sample(AIRLINES, 4);
}

/** The flights on one route and day. Pure: the same (seed, route, date) always gives the same list. */
export function flightsFor(seed: number, from: string, to: string, date: string): Flight[] {
  if (from === to) return [];
  const rng = new Rng(mixSeed(seed, 'flights', from, to, date));
  const airlines = pickAirlines(seed);
  // Route length is a property of the pair, not of the day.
  const base = 80 + (mixSeed(seed, 'route', [from, to].sort().join('-')) % 280);
  const others = AIRPORTS.map((a) => a.code).filter((c) => c !== from && c !== to);
  const n = rng.int(6, 10);
  const used = new Set<string>();
  const out: Flight[] = [];
  for (let i = 0; i < n; i++) {
    const al = rng.pick(airlines);
    let number = '';
    do number = `${al.code} ${rng.int(100, 999)}`;
    while (used.has(number));
    used.add(number);
    const stops = i === 0 ? 0 : rng.pick([0, 0, 1, 1, 1, 2]);
    const via = rng.sample(others, stops);
    const duration = base + rng.int(-10, 25) + stops * rng.int(50, 140);
    const basePrice = Math.round(base * 0.9 + rng.int(20, 160) - stops * rng.int(10, 45) + (stops === 0 ? 40 : 0));
    out.push({ number, airline: al.name, from, to, date, depart: 5 * 60 + 5 * rng.int(0, 204), duration, stops, via, basePrice: Math.max(49, basePrice) });
  }
  return out.sort((a, b) => a.depart - b.depart);
}

export function priceFor(f: Flight, fare: FareClass): number {
  return Math.round(f.basePrice * FARE_FACTOR[fare]);
}

export function hhmm(minutes: number): string {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

export function durationText(minutes: number): string {
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** The flight a criterion picks, or undefined when it is not unique (generation then tries another day). */
export function pickByCriterion(flights: Flight[], c: Criterion): Flight | undefined {
  const pool = c === 'cheapest_nonstop' ? flights.filter((f) => f.stops === 0) : flights;
  const key = (f: Flight) => (c === 'shortest' ? f.duration : f.basePrice);
  const sorted = [...pool].sort((a, b) => key(a) - key(b));
  if (!sorted.length || (sorted.length > 1 && key(sorted[0]) === key(sorted[1]))) return undefined;
  return sorted[0];
}
