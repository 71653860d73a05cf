/**
 * The account activity query: search words, a period, a type and typed dates, newest first, ten to
 * a page. The page renders with it and the oracle asks it which transactions a URL shows, so both
 * agree on what is on screen.
 */
import { addDays, parseDate } from '../common/dates.ts';
import { TXN_TYPES, lastMonth, type Txn } from './data.ts';

export const PERIODS = [
  { value: 'all', label: 'All dates' },
  { value: 'this_month', label: 'This month' },
  { value: 'last_month', label: 'Last month' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
] as const;
export const TYPE_OPTIONS = [{ value: '', label: 'All types' }, ...TXN_TYPES.map((t) => ({ value: t, label: t }))];
export const PAGE_SIZE = 10;

export interface ActivityQuery {
  q: string;
  period: string;
  type: string;
  /** As typed, so the form shows them back. */
  from: string;
  to: string;
  page: number;
}

export interface ActivityResult {
  rows: Txn[];
  items: Txn[];
  page: number;
  pages: number;
  errors: string[];
}

export function parseActivityQuery(q: URLSearchParams): ActivityQuery {
  const period = q.get('period') ?? '';
  const type = q.get('type') ?? '';
  return {
    q: (q.get('q') ?? '').trim().slice(0, 80),
    period: PERIODS.some((p) => p.value === period) ? period : 'all',
    type: TYPE_OPTIONS.some((t) => t.value === type) ? type : '',
    from: (q.get('from') ?? '').trim().slice(0, 40),
    to: (q.get('to') ?? '').trim().slice(0, 40),
    page: Math.min(1000, Math.max(1, Math.floor(Number(q.get('page') ?? '1')) || 1)),
  };
}

/** The dates a period covers, relative to today (inclusive; open ends as ''). */
function periodRange(period: string, today: string): { from: string; to: string } {
  if (period === 'this_month') return { from: today.slice(0, 8) + '01', to: today };
  if (period === 'last_month') return lastMonth(today);
  if (period === '30' || period === '90') return { from: addDays(today, -Number(period) + 1), to: today };
  return { from: '', to: '' };
}

/** The transactions of one account a query shows, and the page of them on screen. */
export function runActivity(all: Txn[], account: string, query: ActivityQuery, today: string): ActivityResult {
  const errors: string[] = [];
  const typed = (text: string, which: string) => {
    if (!text) return '';
    const d = parseDate(text);
    if (!d) errors.push(`Enter the ${which} date as YYYY-MM-DD, e.g. ${today}.`);
    return d ?? '';
  };
  const range = periodRange(query.period, today);
  const from = [range.from, typed(query.from, 'first')].sort().at(-1)!;
  const to = [range.to, typed(query.to, 'last')].filter(Boolean).sort()[0] ?? '';
  const words = query.q.toLowerCase().split(/\s+/).filter(Boolean);
  const rows = all
    .filter((t) => t.account === account)
    .filter((t) => (!from || t.date >= from) && (!to || t.date <= to))
    .filter((t) => !query.type || t.type === query.type)
    .filter((t) => words.every((w) => t.description.toLowerCase().includes(w)))
    .sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id);
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  const page = Math.min(query.page, pages);
  return { rows, items: rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), page, pages, errors };
}
