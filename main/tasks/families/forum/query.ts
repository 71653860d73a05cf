/**
 * Thread listings as the board and search pages show them: keyword, board and age filters, four
 * sort orders, pagination. The task generator ranks with the same code, so the thread a tier-3
 * task asks for is the one the site puts first.
 */
import { addDays } from '../common/dates.ts';
import { normalizeText } from '../../../common/normalize.ts';
import { lastActivity, replyCount, voteCount, type ForumState, type Thread } from './data.ts';
import type { PeriodKey, SortKey } from './look.ts';

export const SORT_KEYS: SortKey[] = ['activity', 'newest', 'replies', 'votes'];
export const PERIOD_KEYS: PeriodKey[] = ['', '7', '30'];

export interface ThreadQuery {
  q: string;
  board: string;
  period: PeriodKey;
  sort: SortKey;
  page: number;
}

export function parseThreadQuery(q: URLSearchParams, board = ''): ThreadQuery {
  const period = q.get('period') ?? '';
  const sort = q.get('sort') ?? '';
  return {
    q: (q.get('q') ?? '').trim(),
    board: board || (q.get('board') ?? ''),
    period: (PERIOD_KEYS as string[]).includes(period) ? (period as PeriodKey) : '',
    sort: (SORT_KEYS as string[]).includes(sort) ? (sort as SortKey) : 'activity',
    page: Math.max(1, Math.floor(Number(q.get('page') ?? '1')) || 1),
  };
}

/** Words of a text as search compares them: lower case, split on anything but letters and digits. */
export function words(text: string): string[] {
  return normalizeText(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Threads started within the last `days` days, today included (0 = any age). */
export function startedWithin(today: string, t: Thread, days: number): boolean {
  return days === 0 || t.started > addDays(today, -days);
}

export function runThreadQuery(s: ForumState, q: ThreadQuery): Thread[] {
  const want = words(q.q);
  const by: Record<SortKey, (a: Thread, b: Thread) => number> = {
    activity: (a, b) => lastActivity(s, b.id).localeCompare(lastActivity(s, a.id)) || b.id - a.id,
    newest: (a, b) => b.started.localeCompare(a.started) || b.id - a.id,
    replies: (a, b) => replyCount(s, b.id) - replyCount(s, a.id) || b.id - a.id,
    votes: (a, b) => voteCount(s, b) - voteCount(s, a) || b.id - a.id,
  };
  return s.threads
    .filter((t) => !q.board || t.board === q.board)
    .filter((t) => startedWithin(s.today, t, Number(q.period || 0)))
    .filter((t) => {
      const have = new Set(words(t.title));
      return want.every((w) => have.has(w));
    })
    .sort(by[q.sort]);
}

export interface PageOf<T> {
  items: T[];
  page: number;
  pages: number;
  total: number;
}

export function paginate<T>(all: T[], page: number, size: number): PageOf<T> {
  const pages = Math.max(1, Math.ceil(all.length / size));
  const p = Math.min(Math.max(1, page), pages);
  return { items: all.slice((p - 1) * size, p * size), page: p, pages, total: all.length };
}
