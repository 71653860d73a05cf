/** The hotel search: validation of destination, dates and guests, then filters, sort and pagination. */
import { parseDate } from '../common/dates.ts';
import { cheapestFitting, type Hotel } from './data.ts';

/** Sort orders by their query value; each site labels them in its own words (variant.ts). */
export const SORTS = ['recommended', 'price_asc', 'price_desc', 'rating'] as const;

/** Star filter values ('' for any); labelled by variant.ts starsLabel. */
export const STAR_OPTIONS = ['', '3', '4', '5'] as const;

export const PAGE_SIZE = 8;

export interface HotelQuery {
  city: string;
  checkin: string;
  checkout: string;
  guests: string;
  stars: string;
  maxPrice: string;
  breakfast: boolean;
  sort: string;
  page: number;
}

/** The query's value for `key` when it is one of `allowed`, else `fallback`. */
function oneOf(q: URLSearchParams, key: string, allowed: readonly string[], fallback: string): string {
  const v = q.get(key);
  return v !== null && allowed.includes(v) ? v : fallback;
}

export function parseHotelQuery(q: URLSearchParams): HotelQuery {
  return {
    city: (q.get('city') ?? '').trim(),
    checkin: (q.get('checkin') ?? '').trim(),
    checkout: (q.get('checkout') ?? '').trim(),
    guests: (q.get('guests') ?? '2').trim(),
    stars: oneOf(q, 'stars', STAR_OPTIONS, ''),
    maxPrice: (q.get('max_price') ?? '').trim(),
    breakfast: q.get('breakfast') === '1',
    sort: oneOf(q, 'sort', SORTS, 'recommended'),
    page: Math.max(1, Math.floor(Number(q.get('page') ?? '1')) || 1),
  };
}

export interface ValidSearch {
  city: string;
  checkin: string;
  checkout: string;
  guests: number;
  nights: number;
}

export type SearchErrors = Partial<Record<'city' | 'checkin' | 'checkout' | 'guests', string>>;

export function validateSearch(q: HotelQuery, cities: string[], today: string): { errors: SearchErrors; valid?: ValidSearch } {
  const e: SearchErrors = {};
  const city = cities.find((c) => c.toLowerCase() === q.city.toLowerCase());
  if (!q.city) e.city = 'Enter a destination.';
  else if (!city) e.city = `We have no hotels in "${q.city}". Try ${cities.join(', ')}.`;
  const ci = parseDate(q.checkin);
  const co = parseDate(q.checkout);
  if (!q.checkin) e.checkin = 'Enter a check-in date.';
  else if (!ci) e.checkin = 'Enter the check-in date as YYYY-MM-DD.';
  else if (ci < today) e.checkin = 'Check-in cannot be in the past.';
  if (!q.checkout) e.checkout = 'Enter a check-out date.';
  else if (!co) e.checkout = 'Enter the check-out date as YYYY-MM-DD.';
  else if (ci && co <= ci) e.checkout = 'Check-out must be after check-in.';
  const nights = ci && co ? Math.round((Date.parse(co) - Date.parse(ci)) / 86400000) : 0;
  if (!e.checkout && nights > 30) e.checkout = 'Stays are limited to 30 nights.';
  const g = Number(q.guests);
  if (!/^\d+$/.test(q.guests) || g < 1 || g > 6) e.guests = 'Guests must be a number from 1 to 6.';
  if (Object.keys(e).length || !city || !ci || !co) return { errors: e };
  return { errors: e, valid: { city, checkin: ci, checkout: co, guests: g, nights } };
}

/** Hotels in the city with a room for the party, filtered and sorted; price is the cheapest fitting room. */
export function runSearch(hotels: Hotel[], v: ValidSearch, q: HotelQuery): { items: Array<{ h: Hotel; price: number }>; total: number; pages: number } {
  const max = Number(q.maxPrice);
  let items = hotels
    .filter((h) => h.city === v.city)
    .map((h) => ({ h, price: cheapestFitting(h, v.guests)?.price ?? -1 }))
    .filter((x) => x.price >= 0)
    .filter((x) => !q.stars || x.h.stars >= Number(q.stars))
    .filter((x) => !q.maxPrice || !Number.isFinite(max) || x.price <= max * 100)
    .filter((x) => !q.breakfast || x.h.amenities.includes('Free breakfast'));
  const by: Record<string, (a: { h: Hotel; price: number }, b: { h: Hotel; price: number }) => number> = {
    recommended: (a, b) => a.h.rank - b.h.rank,
    price_asc: (a, b) => a.price - b.price || a.h.rank - b.h.rank,
    price_desc: (a, b) => b.price - a.price || a.h.rank - b.h.rank,
    rating: (a, b) => b.h.rating - a.h.rating || a.h.rank - b.h.rank,
  };
  items = items.sort(by[q.sort]);
  const pages = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
  const page = Math.min(q.page, pages);
  return { items: items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), total: items.length, pages };
}
