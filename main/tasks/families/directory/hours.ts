/**
 * Opening hours: one [open, close) pair of minutes after midnight per weekday (Monday first), or
 * null for a closed day. The "open now" filter reads them against the directory's own clock (a
 * weekday evening, printed on its listing pages), so it never depends on the machine's time.
 */
import type { Rng } from '../../../common/rng.ts';

export type DayHours = [number, number] | null;
/** Monday .. Sunday. */
export type Hours = DayHours[];

export const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
export const DAY_KEYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
export const SATURDAY = 5;
export const SUNDAY = 6;

/** The directory's clock: a weekday, and minutes after midnight. */
export interface Clock {
  day: number;
  minute: number;
}

/** "9:00", "17:30": the way pages print a time and answers quote it. */
export function clockTime(minute: number): string {
  return `${Math.floor(minute / 60)}:${String(minute % 60).padStart(2, '0')}`;
}

export function dayHoursText(h: DayHours, closed: string): string {
  return h ? `${clockTime(h[0])}–${clockTime(h[1])}` : closed;
}

export function openOn(hours: Hours, day: number): boolean {
  return hours[day] !== null;
}

export function openAt(hours: Hours, clock: Clock): boolean {
  const h = hours[clock.day];
  return !!h && h[0] <= clock.minute && clock.minute < h[1];
}

const WEEKDAY_OPEN = [7 * 60, 7 * 60 + 30, 8 * 60, 8 * 60 + 30, 9 * 60, 10 * 60];
const WEEKDAY_CLOSE = [16 * 60, 17 * 60, 17 * 60 + 30, 18 * 60, 19 * 60, 20 * 60, 21 * 60];

/** Weekdays alike (one of them sometimes closed), Saturdays often shorter, Sundays mostly closed. */
export function randomHours(rng: Rng): Hours {
  const weekday: DayHours = [rng.pick(WEEKDAY_OPEN), rng.pick(WEEKDAY_CLOSE)];
  const hours: Hours = Array.from({ length: 5 }, () => [...weekday] as DayHours);
  if (rng.chance(0.15)) hours[rng.below(5)] = null;
  hours.push(rng.chance(0.6) ? [rng.pick([8, 9, 10]) * 60, rng.pick([12, 13, 14, 16, 17]) * 60] : null);
  hours.push(rng.chance(0.3) ? [rng.pick([10, 11]) * 60, rng.pick([14, 15, 16]) * 60] : null);
  return hours;
}

/** Hours on `day` that include the minute `at` (open now) or end by it (closed by now), on the half hour. */
export function hoursAround(rng: Rng, at: number, open: boolean): DayHours {
  const start = rng.pick([7, 8, 9]) * 60;
  const halfHour = (m: number, up: boolean) => (up ? Math.ceil(m / 30) : Math.floor(m / 30)) * 30;
  if (open) return [start, halfHour(at + 1, true) + rng.pick([0, 30, 60, 90])];
  return [start, Math.max(start + 240, halfHour(at, false) - rng.pick([0, 30, 60]))];
}
