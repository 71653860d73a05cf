/**
 * Listings as listing and search pages show them: name search, town, type, opening-day, open-now
 * and minimum-rating filters, four sort orders, pagination. The task generator ranks with the same
 * code, so the listing a tier-3 task asks for is the one the site puts first.
 *
 * Unknown filter values are dropped, never guessed at, and each one is reported so the page can say
 * what it ignored: a visitor who typed a junk URL gets a clear page, not an error.
 */
import { normalizeText } from '../../../common/normalize.ts';
import { DAY_KEYS, openAt, openOn } from './hours.ts';
import { slugify, townOf, type DirectoryState, type Listing, type ListingQuery } from './data.ts';
import type { SortKey } from './look.ts';

export const SORT_KEYS: SortKey[] = ['recommended', 'rating', 'reviews', 'name'];
export const MIN_RATINGS = [3, 3.5, 4, 4.5];
const MAX_QUERY = 100;

export function emptyQuery(): ListingQuery {
  return { q: '', town: '', type: '', days: [], openNow: false, minRating: 0, sort: 'recommended', page: 1 };
}

export function typeSlug(type: string): string {
  return slugify(type);
}

/** The query a URL's parameters describe, and a sentence for every value it had to ignore. */
export function parseListingQuery(s: DirectoryState, params: URLSearchParams): { query: ListingQuery; problems: string[] } {
  const w = s.look.words;
  const problems: string[] = [];
  const query = emptyQuery();
  const shown = (v: string) => (v.length > 40 ? `${v.slice(0, 40)}…` : v);
  query.q = (params.get('q') ?? '').trim().slice(0, MAX_QUERY);
  const town = params.get('town') ?? '';
  if (town && townOf(s, town)) query.town = town;
  else if (town) problems.push(`There is no ${w.region.toLowerCase()} called “${shown(town)}”; showing every one.`);
  const type = params.get('type') ?? '';
  if (type && s.types.some((t) => typeSlug(t) === type)) query.type = type;
  else if (type) problems.push(`“${shown(type)}” is not a type we list; showing every type.`);
  for (const d of params.getAll('day')) {
    const i = DAY_KEYS.indexOf(d);
    if (i >= 0) {
      if (!query.days.includes(i)) query.days.push(i);
    } else if (d) problems.push(`“${shown(d)}” is not a day of the week; that filter was left out.`);
  }
  query.days.sort((a, b) => a - b);
  const open = params.get('open') ?? '';
  if (open === '1') query.openNow = true;
  else if (open) problems.push(`“${shown(open)}” is not a value the open-now filter takes; it was left out.`);
  const min = params.get('min') ?? '';
  if (min && MIN_RATINGS.includes(Number(min))) query.minRating = Number(min);
  else if (min) problems.push(`“${shown(min)}” is not a rating you can filter by; showing every rating.`);
  const sort = params.get('sort') ?? '';
  if ((SORT_KEYS as string[]).includes(sort)) query.sort = sort as SortKey;
  else if (sort) problems.push(`“${shown(sort)}” is not a sort order; showing ${w.sorts.recommended.toLowerCase()} first.`);
  const page = params.get('page');
  if (page !== null && page !== '') {
    if (/^\d{1,6}$/.test(page) && Number(page) >= 1) query.page = Number(page);
    else problems.push(`There is no page “${shown(page)}”; showing page 1.`);
  }
  return { query, problems };
}

/** The query as URL parameters, defaults left out (pager links; the oracle compares with them). */
export function queryParams(q: ListingQuery, page = q.page): URLSearchParams {
  const p = new URLSearchParams();
  if (q.q) p.set('q', q.q);
  if (q.town) p.set('town', q.town);
  if (q.type) p.set('type', q.type);
  for (const d of q.days) p.append('day', DAY_KEYS[d]);
  if (q.openNow) p.set('open', '1');
  if (q.minRating) p.set('min', String(q.minRating));
  if (q.sort !== 'recommended') p.set('sort', q.sort);
  if (page > 1) p.set('page', String(page));
  return p;
}

/** Words as search compares them: lower case, split on anything but letters and digits. */
export function words(text: string): string[] {
  return normalizeText(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Every word typed starts a word of the listing's name or town ("clinic" finds "Clinical Supplies" too). */
export function matchesSearch(s: Pick<DirectoryState, 'towns'>, l: Listing, q: string): boolean {
  const want = words(q);
  const have = words(`${l.name} ${s.towns.find((t) => t.slug === l.town)?.name ?? ''}`);
  return want.every((w) => have.some((h) => h.startsWith(w)));
}

export function passesFilters(s: DirectoryState, l: Listing, q: ListingQuery): boolean {
  return (
    (!q.town || l.town === q.town) &&
    (!q.type || typeSlug(l.type) === q.type) &&
    q.days.every((d) => openOn(l.hours, d)) &&
    (!q.openNow || openAt(l.hours, s.clock)) &&
    l.rating >= q.minRating &&
    (!q.q || matchesSearch(s, l, q.q))
  );
}

const byName = (s: DirectoryState) => (a: Listing, b: Listing) => a.name.localeCompare(b.name) || (townOf(s, a.town)?.name ?? '').localeCompare(townOf(s, b.town)?.name ?? '');

export function sortListings(s: DirectoryState, list: Listing[], sort: SortKey, q = ''): Listing[] {
  const name = byName(s);
  const exact = (l: Listing) => (q && normalizeText(l.name) === normalizeText(q) ? 0 : 1);
  const by: Record<SortKey, (a: Listing, b: Listing) => number> = {
    // A search puts listings named exactly as typed first, then the directory's own order.
    recommended: (a, b) => exact(a) - exact(b) || a.rank - b.rank,
    rating: (a, b) => b.rating - a.rating || b.reviews - a.reviews || name(a, b),
    reviews: (a, b) => b.reviews - a.reviews || b.rating - a.rating || name(a, b),
    name,
  };
  return [...list].sort(by[sort]);
}

/** The listings of a subcategory (or, without one, of the whole directory) that the query keeps, in its order. */
export function runListingQuery(s: DirectoryState, q: ListingQuery, scope?: { category: string; sub: string }): Listing[] {
  const inScope = scope ? s.listings.filter((l) => l.category === scope.category && l.sub === scope.sub) : s.listings;
  return sortListings(s, inScope.filter((l) => passesFilters(s, l, q)), q.sort, q.q);
}

export interface PageOf<T> {
  items: T[];
  page: number;
  pages: number;
  total: number;
}

/** One page of results; a page past the end shows the last one (the caller says so). */
export function paginate<T>(all: T[], page: number, size: number): PageOf<T> {
  const pages = Math.max(1, Math.ceil(all.length / size));
  const p = Math.min(Math.max(1, page), pages);
  return { items: all.slice((p - 1) * size, p * size), page: p, pages, total: all.length };
}
