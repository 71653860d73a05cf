/**
 * Routes of the hotel site: search and browse (GET), booking (POST, then redirect to the
 * confirmation), help and the distractor pages. Nothing changes state but a booking and the cookie banner.
 */
import type { SiteRequest, SiteResponse } from '../../types.ts';
import { mixSeed } from '../../../common/rng.ts';
import { handleCookies } from '../common/site.ts';
import { parseHotelQuery, validateSearch } from './query.ts';
import type { Ctx } from './chrome.ts';
import { cityPage, homePage, infoPage, tripsPage } from './pages-home.ts';
import { resultsPage } from './pages-results.ts';
import { bookPage, confirmationPage, hotelPage, type BookForm } from './pages-stay.ts';

const page = (body: string): SiteResponse => ({ kind: 'html', body });
const NAME_RE = /^[\p{L}][\p{L} '\-.]*$/u;
const EMAIL_RE = /^[^\s@<>,]+@[^\s@<>,]+\.[^\s@<>,]+$/;

export function handleHotels(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const { path } = req;
  const params = req.method === 'GET' ? req.query : req.form;
  if (req.method === 'GET') {
    if (path === '/') return page(homePage(ctx, req, parseHotelQuery(req.query)));
    if (path === '/search') {
      const q = parseHotelQuery(req.query);
      const { errors, valid } = validateSearch(q, s.cities, s.today);
      return page(valid ? resultsPage(ctx, req, q, valid) : homePage(ctx, req, q, errors));
    }
    const cm = path.match(/^\/city\/([^/]+)$/);
    if (cm) {
      let name = '';
      try {
        name = decodeURIComponent(cm[1]);
      } catch {
        return { kind: 'not_found' };
      }
      const city = s.cities.find((c) => c === name);
      return city ? page(cityPage(ctx, req, city)) : { kind: 'not_found' };
    }
    const hm = path.match(/^\/hotel\/(\d+)$/);
    if (hm) {
      const h = s.hotels.find((x) => x.id === Number(hm[1]));
      if (!h) return { kind: 'not_found' };
      const q = { ...parseHotelQuery(req.query), city: h.city };
      const dated = !!(q.checkin || q.checkout);
      const { errors, valid } = validateSearch(q, s.cities, s.today);
      return page(hotelPage(ctx, req, h, valid, dated ? errors : {}));
    }
    if (path === '/book') {
      const found = lookup(ctx, params);
      if (!found) return { kind: 'redirect', location: '/' };
      return page(bookPage(ctx, req, found.h, found.r, found.v, { first: '', last: '', email: '', requests: '', agree: false, errors: {} }));
    }
    const bm = path.match(/^\/confirmation\/([A-Z0-9]+)$/);
    if (bm) {
      const b = s.bookings.find((x) => x.code === bm[1]);
      return b ? page(confirmationPage(ctx, req, b)) : { kind: 'not_found' };
    }
    if (path === '/trips') return page(tripsPage(ctx, req));
    const info = infoPage(ctx, req);
    return info ? page(info) : { kind: 'not_found' };
  }
  if (path === '/cookies') return handleCookies(req, s.ui);
  if (path === '/book') {
    const found = lookup(ctx, params);
    if (!found) return { kind: 'redirect', location: '/' };
    const f: BookForm = { first: (req.form.get('first') ?? '').trim(), last: (req.form.get('last') ?? '').trim(), email: (req.form.get('email') ?? '').trim(), requests: req.form.get('requests') ?? '', agree: req.form.get('agree') === '1', errors: {} };
    if (!f.first) f.errors.first = 'First name is required.';
    else if (!NAME_RE.test(f.first)) f.errors.first = 'First name may contain only letters, spaces, hyphens and apostrophes.';
    if (!f.last) f.errors.last = 'Last name is required.';
    else if (!NAME_RE.test(f.last)) f.errors.last = 'Last name may contain only letters, spaces, hyphens and apostrophes.';
    if (!f.email) f.errors.email = 'Email is required.';
    else if (!EMAIL_RE.test(f.email)) f.errors.email = 'Enter a valid email address, e.g. name@example.com.';
    if (!f.agree) f.errors.agree = 'Please accept the cancellation policy.';
    if (Object.keys(f.errors).length) return page(bookPage(ctx, req, found.h, found.r, found.v, f));
    const code = bookingCode(ctx.seed, s.bookings.length);
    s.bookings.push({ code, hotel: found.h.id, room: found.r.id, checkin: found.v.checkin, checkout: found.v.checkout, guests: found.v.guests, first: f.first, last: f.last, email: f.email, requests: f.requests, total: found.r.price * found.v.nights });
    return { kind: 'redirect', location: `/confirmation/${code}` };
  }
  return { kind: 'not_found' };
}

/** Hotel, room and a valid stay from booking parameters; the room must sleep the party. */
function lookup(ctx: Ctx, p: URLSearchParams) {
  const s = ctx.state;
  const h = s.hotels.find((x) => x.id === Number(p.get('hotel')));
  const r = h?.rooms.find((x) => x.id === p.get('room'));
  if (!h || !r) return undefined;
  const { valid } = validateSearch({ ...parseHotelQuery(p), city: h.city }, s.cities, s.today);
  if (!valid || r.sleeps < valid.guests) return undefined;
  return { h, r, v: valid };
}

function bookingCode(seed: number, n: number): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let h = mixSeed(seed, 'hotel-booking', n);
  let out = 'H';
  for (let i = 0; i < 7; i++) {
    out += alphabet[h % alphabet.length];
    h = (Math.floor(h / alphabet.length) ^ mixSeed(h, i)) >>> 0;
  }
  return out;
}
