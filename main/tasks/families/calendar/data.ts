/** Calendar data: two months of events on working days, a time grid, and the free-slot rule. */
import { Rng, mixSeed } from '../../../common/rng.ts';
import { addDays, iso, weekday } from '../common/dates.ts';
import type { Variant } from './variant.ts';

export const TITLES = [
  'Team standup', 'Budget review', 'Dentist appointment', 'Yoga class', 'Project kickoff', 'Design review', 'Quarterly planning', 'Client call', 'Code review',
  'Vendor meeting', 'Lunch with Marcus', '1:1 with Dana', 'Hiring interview', 'Board prep', 'Marketing sync', 'Sprint retro', 'Coffee with Priya', 'Doctor visit',
  'Car service', 'Parent-teacher meeting', 'Book club', 'Product demo', 'Training session', 'Sales pipeline review', 'Office hours', 'Tax advisor', 'Gym session',
  'Roadmap workshop', 'All-hands meeting', 'Security briefing', 'Lunch with Elena', 'Customer workshop', 'Haircut', 'Piano lesson', 'Data migration check-in',
  'Release planning', 'Partner dinner', 'Team offsite prep', 'Performance review', 'Webinar rehearsal', 'Architecture review', 'Volunteer shift', 'Grant proposal review',
  'Intern check-in', 'Legal review', 'Photo shoot', 'Landlord visit', 'Conference call with Oslo office',
];
const LOCATIONS = ['Room 4B', 'Room 210', 'Main office', 'Video call', 'Cafe Verde', 'Downtown clinic', 'Conference room A', 'Online', 'Studio 3'];
export const NEW_TITLES = ['Quarterly check-in', 'Planning session', 'Lunch with Omar', 'Interview debrief', 'Brainstorm', 'Contract signing', 'Sync with design', 'Demo dry run', 'Team lunch', 'Budget sign-off'];

/** Half-hour grid for start and end times, 07:00 to 21:00. */
export const TIMES: string[] = Array.from({ length: 29 }, (_, i) => `${String(7 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`);

export function timeLabel(t: string): string {
  const [h, m] = t.split(':').map(Number);
  return `${((h + 11) % 12) + 1}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

export function minutes(t: string): number {
  const [h, m] = t.split(':').map(Number);
  return h * 60 + m;
}

export function fromMinutes(n: number): string {
  return `${String(Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}`;
}

export interface CalEvent {
  id: number;
  title: string;
  date: string;
  start: string;
  end: string;
  location: string;
  notes: string;
}

export type CalGoal =
  | { kind: 'start_time'; event: number; answer: string }
  | { kind: 'free_slot'; date: string; answer: string }
  | { kind: 'delete'; event: number }
  | { kind: 'create'; title: string; date: string; start: string; end: string; location: string }
  | { kind: 'reschedule'; event: number; date: string; start: string; end: string };

export interface CalendarState {
  owner: string;
  today: string;
  events: CalEvent[];
  goals: CalGoal[];
  /** Every event as generated, to tell side effects from progress. */
  initial: CalEvent[];
  nextId: number;
  /** How this instance looks and words itself (presentation only: ./variant.ts). */
  variant: Variant;
}

/** Earliest one-hour slot on the half-hour grid between 9 AM and 5 PM free of events, or null. */
export function firstFreeHour(events: CalEvent[], date: string): string | null {
  const day = events.filter((e) => e.date === date);
  for (let t = 9 * 60; t + 60 <= 17 * 60; t += 30) {
    if (day.every((e) => minutes(e.end) <= t || minutes(e.start) >= t + 60)) return fromMinutes(t);
  }
  return null;
}

export function generateCalendar(seed: number): { today: string; events: CalEvent[] } {
  const rng = new Rng(mixSeed(seed, 'calendar-data'));
  const today = iso(2026 + rng.int(0, 1), rng.int(1, 12), rng.int(3, 20));
  const first = today.slice(0, 8) + '01';
  const events: CalEvent[] = [];
  let id = 500 + rng.int(0, 300);
  for (let d = 0; d < 62; d++) {
    const date = addDays(first, d);
    const wd = weekday(date);
    if (wd === 0 || wd === 6) {
      if (rng.chance(0.15)) events.push({ id: id++, title: rng.pick(TITLES), date, start: '10:00', end: '11:30', location: rng.pick(LOCATIONS), notes: '' });
      continue;
    }
    // Up to three events spread over the day, never overlapping.
    let t = 8 * 60 + rng.pick([0, 30, 60, 90]);
    const n = rng.int(0, 3);
    const used = new Set<string>();
    for (let k = 0; k < n && t < 17 * 60; k++) {
      const len = rng.pick([30, 60, 60, 90, 120]);
      let title = rng.pick(TITLES);
      while (used.has(title)) title = rng.pick(TITLES);
      used.add(title);
      events.push({ id, title, date, start: fromMinutes(t), end: fromMinutes(t + len), location: rng.pick(LOCATIONS), notes: rng.chance(0.3) ? 'Bring the latest numbers.' : '' });
      id += rng.int(1, 4);
      t += len + rng.pick([0, 30, 60, 90, 120]);
    }
  }
  return { today, events };
}
