/** Ticketing data: concerts, plays and games with venues, dates, seat sections and taken seats, from the seed. */
import { Rng, mixSeed } from '../../../common/rng.ts';
import { addDays, iso } from '../common/dates.ts';
import type { Variant } from './variant.ts';

export const CATEGORIES = ['Concert', 'Theater', 'Comedy', 'Sports'] as const;
const NAMES: Record<string, string[]> = {
  Concert: ['The Midnight Owls', 'Luna Ray', 'Brass Harbor', 'Static Bloom', 'Velvet Echo', 'Northern Lights Orchestra', 'Kite Runners', 'June & the Tides'],
  Theater: ['Hamlet', 'The Glass Menagerie', 'Our Town', 'A Doll\u2019s House', 'The Tempest', 'Death of a Salesman'],
  Comedy: ['Maya Chen Live', 'The Improv Hour', 'Dan Ortiz: No Notes', 'Laugh Track Tuesday'],
  Sports: ['Rivertown FC vs Harbor United', 'Comets vs Mariners', 'City Marathon Expo', 'Falcons vs Bears'],
};
const VENUES = ['Riverside Arena', 'The Paramount', 'Civic Hall', 'Lakeside Amphitheater', 'The Blue Room', 'Union Stadium'];
export const CITIES = ['Chicago', 'Denver', 'Austin', 'Seattle'];
export const SECTIONS = [
  { name: 'Floor', rows: ['A', 'B'], factor: 2.2 },
  { name: 'Lower level', rows: ['C', 'D', 'E'], factor: 1.5 },
  { name: 'Balcony', rows: ['F', 'G'], factor: 1 },
];
export const SEATS_PER_ROW = 10;
export const TIMES = ['19:00', '19:30', '20:00', '14:00'];

export interface TicketEvent {
  id: number;
  name: string;
  category: (typeof CATEGORIES)[number];
  venue: string;
  city: string;
  date: string;
  time: string;
  /** Balcony price in cents; other sections scale from it. */
  basePrice: number;
  /** Taken seats, "C7". */
  taken: string[];
}

export type TicketGoal =
  | { kind: 'fact'; event: number; label: string; answer: string }
  | { kind: 'buy'; event: number; seats: string[]; name: string; email: string; delivery: 'Mobile tickets' | 'Will call'; category?: string; city?: string; section?: string };

export interface TicketOrder {
  code: string;
  event: number;
  seats: string[];
  name: string;
  email: string;
  delivery: string;
}

export interface TicketsState {
  siteName: string;
  today: string;
  events: TicketEvent[];
  /** Seats held in the current selection, per event, before checkout. */
  holds: Record<number, string[]>;
  orders: TicketOrder[];
  goal: TicketGoal;
  /** How this site looks and words itself (./variant.ts); never the content. */
  variant: Variant;
}

export function sectionOf(seat: string) {
  return SECTIONS.find((s) => s.rows.includes(seat[0]))!;
}

export function seatPrice(e: TicketEvent, seat: string): number {
  return Math.round((e.basePrice * sectionOf(seat).factor) / 100) * 100;
}

export function timeLabel(t: string): string {
  const [h, m] = t.split(':').map(Number);
  return `${((h + 11) % 12) + 1}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

export function generateEvents(seed: number): { today: string; events: TicketEvent[] } {
  const rng = new Rng(mixSeed(seed, 'tickets-data'));
  const today = iso(2026 + rng.int(0, 1), rng.int(1, 12), rng.int(1, 28));
  const events: TicketEvent[] = [];
  let id = 400 + rng.int(0, 300);
  const used = new Set<string>();
  for (let i = 0; i < 28; i++) {
    const category = rng.pick(CATEGORIES);
    const name = rng.pick(NAMES[category]);
    const city = rng.pick(CITIES);
    const date = addDays(today, rng.int(2, 60));
    if (used.has(`${name}|${city}`)) continue;
    used.add(`${name}|${city}`);
    const taken: string[] = [];
    for (const s of SECTIONS) for (const r of s.rows) for (let n = 1; n <= SEATS_PER_ROW; n++) if (rng.chance(0.35)) taken.push(`${r}${n}`);
    events.push({ id, name, category, venue: rng.pick(VENUES), city, date, time: rng.pick(TIMES), basePrice: rng.int(25, 90) * 100, taken });
    id += rng.int(1, 9);
  }
  return { today, events };
}

/** The first pair (or run of n) of adjacent free seats in a row, left to right, or null. */
export function adjacentFree(e: TicketEvent, row: string, n: number): string[] | null {
  for (let start = 1; start + n - 1 <= SEATS_PER_ROW; start++) {
    const seats = Array.from({ length: n }, (_, k) => `${row}${start + k}`);
    if (seats.every((s) => !e.taken.includes(s))) return seats;
  }
  return null;
}
