/** How a settings site prints dates: one of four styles per instance, so an answer cannot be copied by position or pattern alone. */
import { MONTHS, parts } from '../common/dates.ts';
import type { DateStyle } from './look.ts';

export function formatDate(style: DateStyle, isoDate: string): string {
  const { y, m, d } = parts(isoDate);
  switch (style) {
    case 'dmy':
      return `${d} ${MONTHS[m - 1]} ${y}`;
    case 'mdy':
      return `${MONTHS[m - 1]} ${d}, ${y}`;
    case 'short':
      return `${MONTHS[m - 1].slice(0, 3)} ${d}, ${y}`;
    case 'iso':
      return isoDate;
  }
}

/** Every way a person might write the date back: the four styles plus US numeric and day-first short forms. */
export function dateSpellings(isoDate: string): string[] {
  const { y, m, d } = parts(isoDate);
  const styles: DateStyle[] = ['dmy', 'mdy', 'short', 'iso'];
  return [...styles.map((s) => formatDate(s, isoDate)), `${m}/${d}/${y}`, `${String(m).padStart(2, '0')}/${String(d).padStart(2, '0')}/${y}`, `${d} ${MONTHS[m - 1].slice(0, 3)} ${y}`];
}
