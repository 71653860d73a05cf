/** Routes of the flight site: search (GET), select and book (POST, then redirect). */
import type { SiteRequest, SiteResponse } from '../../types.ts';
import { mixSeed } from '../../../common/rng.ts';
import { handleCookies } from '../common/site.ts';
import { AIRPORTS, FARE_CLASSES, flightsFor, priceFor, type FareClass } from './data.ts';
import { parseDate } from '../common/dates.ts';
import { confirmationPage, passengersPage, tripsPage, type PassengerForm } from './pages-book.ts';
import { infoPage } from './pages-info.ts';
import type { Ctx } from './chrome.ts';
import { SORTS, resultsPage, searchPage, type SearchForm } from './pages-search.ts';
import { nameLabel } from './variant.ts';

const page = (body: string): SiteResponse => ({ kind: 'html', body });
const NAME_RE = /^[\p{L}][\p{L} '\-.]*$/u;

function searchFormFrom(q: URLSearchParams): SearchForm {
  return {
    from: q.get('from') ?? '',
    to: q.get('to') ?? '',
    date: q.get('pick') ?? q.get('date') ?? '',
    passengers: q.get('passengers') ?? '1',
    fareClass: q.get('class') ?? 'Economy',
    cal: q.get('cal') ?? undefined,
  };
}

function validateSearch(ctx: Ctx, f: SearchForm): { errors: NonNullable<SearchForm['errors']>; date: string | null } {
  const e: NonNullable<SearchForm['errors']> = {};
  const codes = AIRPORTS.map((a) => a.code) as string[];
  if (!codes.includes(f.from)) e.from = 'Choose the airport you fly from.';
  if (!codes.includes(f.to)) e.to = 'Choose your destination airport.';
  else if (f.to === f.from) e.to = 'Destination must differ from the origin.';
  const date = parseDate(f.date);
  if (!f.date.trim()) e.date = 'Enter a departure date.';
  else if (!date) e.date = 'Enter the date as YYYY-MM-DD, e.g. 2026-03-14.';
  else if (date < ctx.state.today) e.date = 'The departure date cannot be in the past.';
  const n = Number(f.passengers);
  if (!/^\d+$/.test(f.passengers.trim()) || n < 1 || n > 6) e.passengers = 'Passengers must be a number from 1 to 6.';
  if (!(FARE_CLASSES as readonly string[]).includes(f.fareClass)) e.fareClass = 'Choose a fare class.';
  return { errors: e, date };
}

export function handleFlights(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const { path } = req;
  if (req.method === 'GET') {
    if (path === '/') return page(searchPage(ctx, req, searchFormFrom(req.query)));
    if (path === '/results') {
      const f = searchFormFrom(req.query);
      const { errors, date } = validateSearch(ctx, f);
      if (Object.keys(errors).length || !date) return page(searchPage(ctx, req, { ...f, errors }));
      const sort = SORTS.find((x) => x === req.query.get('sort')) ?? 'departure';
      return page(resultsPage(ctx, req, { from: f.from, to: f.to, date, passengers: Number(f.passengers), fareClass: f.fareClass as FareClass, sort, nonstop: req.query.get('nonstop') === '1' }));
    }
    const pm = path.match(/^\/passengers\/([a-z0-9]+)$/);
    if (pm) {
      const d = s.drafts.find((x) => x.id === pm[1]);
      return d ? page(passengersPage(ctx, req, d, { first: [], last: [], errors: {} })) : { kind: 'not_found' };
    }
    const bm = path.match(/^\/booking\/([A-Z0-9]+)$/);
    if (bm) {
      const b = s.bookings.find((x) => x.code === bm[1]);
      return b ? page(confirmationPage(ctx, req, b)) : { kind: 'not_found' };
    }
    if (path === '/trips') return page(tripsPage(ctx, req));
    const info = infoPage(ctx, req);
    return info ? page(info) : { kind: 'not_found' };
  }
  if (path === '/cookies') return handleCookies(req, s.ui);
  if (path === '/select') {
    const f = searchFormFrom(req.form);
    const { errors, date } = validateSearch(ctx, f);
    const flight = date ? flightsFor(ctx.seed, f.from, f.to, date).find((x) => x.number === req.form.get('flight')) : undefined;
    if (date && !flight && !errors.from) errors.from = 'That flight is not available on this route and date.';
    if (Object.keys(errors).length || !date || !flight) return page(searchPage(ctx, req, { ...f, errors }));
    const id = `d${s.drafts.length + 1}${(mixSeed(ctx.seed, s.drafts.length) % 1000).toString(36)}`;
    s.drafts.push({ id, flight: flight.number, from: f.from, to: f.to, date, fareClass: f.fareClass as FareClass, passengers: Number(f.passengers) });
    return { kind: 'redirect', location: `/passengers/${id}` };
  }
  const pm = path.match(/^\/passengers\/([a-z0-9]+)$/);
  if (pm) {
    const d = s.drafts.find((x) => x.id === pm[1]);
    if (!d) return { kind: 'not_found' };
    const form: PassengerForm = { first: req.form.getAll('first'), last: req.form.getAll('last'), errors: {} };
    // Errors name each field as its label does on this site.
    for (let i = 0; i < d.passengers; i++) {
      for (const part of ['first', 'last'] as const) {
        const v = (form[part][i] ?? '').trim();
        const label = nameLabel(s.variant.words, part, i);
        if (!v) form.errors[`${part}${i}`] = `${label} is required.`;
        else if (!NAME_RE.test(v)) form.errors[`${part}${i}`] = `${label} may contain only letters, spaces, hyphens and apostrophes.`;
      }
    }
    if (Object.keys(form.errors).length) return page(passengersPage(ctx, req, d, form));
    const flight = flightsFor(ctx.seed, d.from, d.to, d.date).find((x) => x.number === d.flight)!;
    const code = confirmationCode(ctx.seed, s.bookings.length);
    const names = Array.from({ length: d.passengers }, (_, i) => ({ first: form.first[i].trim(), last: form.last[i].trim() }));
    s.bookings.push({ ...d, code, names, total: priceFor(flight, d.fareClass) * d.passengers });
    return { kind: 'redirect', location: `/booking/${code}` };
  }
  return { kind: 'not_found' };
}

function confirmationCode(seed: number, n: number): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let h = mixSeed(seed, 'booking', n);
  let out = '';
  for (let i = 0; i < 6; i++) {
    out += alphabet[h % alphabet.length];
    h = Math.floor(h / alphabet.length) ^ mixSeed(h, i);
    h >>>= 0;
  }
  return out;
}
