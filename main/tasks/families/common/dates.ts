/** Calendar dates as the sites read and print them (no time zones: plain Y-M-D). */

export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function iso(y: number, m: number, d: number): string {
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export function parts(isoDate: string): { y: number; m: number; d: number } {
  const [y, m, d] = isoDate.split('-').map(Number);
  return { y, m, d };
}

export function daysIn(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

export function weekday(isoDate: string): number {
  const { y, m, d } = parts(isoDate);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

export function addDays(isoDate: string, n: number): string {
  const { y, m, d } = parts(isoDate);
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return iso(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

/** "Saturday, 14 March 2026". */
export function longDate(isoDate: string): string {
  const { y, m, d } = parts(isoDate);
  return `${WEEKDAYS[weekday(isoDate)]}, ${d} ${MONTHS[m - 1]} ${y}`;
}

/** "14 March 2026". */
export function dayMonthYear(isoDate: string): string {
  const { y, m, d } = parts(isoDate);
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

/**
 * Accept what people type into a date field: 2026-03-14, 14 March 2026, March 14, 2026,
 * 03/14/2026 (US order), 14 Mar 2026. Returns ISO or null.
 */
export function parseDate(text: string): string | null {
  const t = text.trim().replace(/,/g, ' ').replace(/\s+/g, ' ');
  let y: number, m: number, d: number;
  let mm: RegExpMatchArray | null;
  const monthIndex = (s: string) => MONTHS.findIndex((x) => x.toLowerCase().startsWith(s.toLowerCase().slice(0, 3))) + 1;
  if ((mm = t.match(/^(\d{4})-(\d{1,2})-(\d{1,2})$/))) [y, m, d] = [+mm[1], +mm[2], +mm[3]];
  else if ((mm = t.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/))) [y, m, d] = [+mm[3], +mm[1], +mm[2]];
  else if ((mm = t.match(/^(?:[A-Za-z]+ )?(\d{1,2}) ([A-Za-z]{3,}) (\d{4})$/))) [y, m, d] = [+mm[3], monthIndex(mm[2]), +mm[1]];
  else if ((mm = t.match(/^(?:[A-Za-z]+ )?([A-Za-z]{3,}) (\d{1,2}) (\d{4})$/))) [y, m, d] = [+mm[3], monthIndex(mm[1]), +mm[2]];
  else return null;
  if (m < 1 || m > 12 || d < 1 || d > daysIn(y, m)) return null;
  return iso(y, m, d);
}
