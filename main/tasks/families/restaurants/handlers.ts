/** Routes of the restaurant site: browse and find tables (GET), the offer dialog and reservations (POST). */
import type { SiteRequest, SiteResponse } from '../../types.ts';
import { mixSeed } from '../../../common/rng.ts';
import { safeReturn } from '../common/site.ts';
import { addDays, parseDate } from '../common/dates.ts';
import { TIMES, slotOpen, type Restaurant } from './data.ts';
import { OCCASIONS, accountPage, confirmationPage, homePage, listPage, reservationsPage, reservePage, restaurantPage, type Ctx, type ReserveForm, type TableQuery } from './pages.ts';

const page = (body: string): SiteResponse => ({ kind: 'html', body });
const NAME_RE = /^[\p{L}][\p{L} '\-.]*$/u;

export function tableQuery(ctx: Ctx, q: URLSearchParams): TableQuery {
  const t: TableQuery = { date: (q.get('date') ?? '').trim(), party: (q.get('party') ?? '2').trim(), errors: {} };
  if (!q.has('date') && !q.has('party')) return t;
  const date = parseDate(t.date);
  const today = ctx.state.today;
  if (!t.date) t.errors.date = 'Choose a date.';
  else if (!date) t.errors.date = 'Enter the date as YYYY-MM-DD.';
  else if (date < today) t.errors.date = 'That date is in the past.';
  else if (date > addDays(today, 90)) t.errors.date = 'Reservations open 90 days ahead.';
  const party = Number(t.party);
  if (!/^\d+$/.test(t.party) || party < 1 || party > 8) t.errors.party = 'Party size must be 1 to 8. For larger groups, call the restaurant.';
  if (!Object.keys(t.errors).length && date) t.valid = { date, party };
  return t;
}

/** A bookable slot from reservation parameters, or undefined. */
function slotFrom(ctx: Ctx, p: URLSearchParams): { r: Restaurant; date: string; time: string; party: number } | undefined {
  const r = ctx.state.restaurants.find((x) => x.id === Number(p.get('restaurant')));
  if (!r) return undefined;
  const t = tableQuery(ctx, p);
  const time = p.get('time') ?? '';
  if (!t.valid || !TIMES.includes(time) || !slotOpen(ctx.seed, r, t.valid.date, time, t.valid.party)) return undefined;
  return { r, date: t.valid.date, time, party: t.valid.party };
}

export function handleRestaurants(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const { path } = req;
  if (req.method === 'GET') {
    if (path === '/') return page(homePage(ctx, req));
    if (path === '/search') return page(listPage(ctx, req));
    const rm = path.match(/^\/restaurant\/(\d+)$/);
    if (rm) {
      const r = s.restaurants.find((x) => x.id === Number(rm[1]));
      return r ? page(restaurantPage(ctx, req, r, tableQuery(ctx, req.query))) : { kind: 'not_found' };
    }
    if (path === '/reserve') {
      const slot = slotFrom(ctx, req.query);
      if (!slot) {
        const r = s.restaurants.find((x) => x.id === Number(req.query.get('restaurant')));
        return { kind: 'redirect', location: r ? `/restaurant/${r.id}` : '/' };
      }
      return page(reservePage(ctx, req, slot.r, slot, { name: '', phone: '', occasion: 'None', requests: '', errors: {} }));
    }
    const cm = path.match(/^\/reservation\/([A-Z0-9]+)$/);
    if (cm) {
      const b = s.reservations.find((x) => x.code === cm[1]);
      return b ? page(confirmationPage(ctx, req, b)) : { kind: 'not_found' };
    }
    if (path === '/reservations') return page(reservationsPage(ctx, req));
    if (path === '/account') return page(accountPage(ctx, req, req.query.get('cancelled') === '1' ? 'Your membership is cancelled.' : undefined));
    return { kind: 'not_found' };
  }
  if (path === '/promo') {
    s.promo.dismissed = true;
    if (req.form.get('choice') === 'join') s.promo.joined = true;
    return { kind: 'redirect', location: safeReturn(req.form.get('return')) };
  }
  if (path === '/membership/cancel') {
    s.promo.joined = false;
    return { kind: 'redirect', location: '/account?cancelled=1' };
  }
  if (path === '/reserve') {
    const slot = slotFrom(ctx, req.form);
    if (!slot) return { kind: 'redirect', location: '/' };
    const f: ReserveForm = { name: (req.form.get('name') ?? '').trim(), phone: (req.form.get('phone') ?? '').trim(), occasion: OCCASIONS.includes(req.form.get('occasion') ?? '') ? req.form.get('occasion')! : 'None', requests: req.form.get('requests') ?? '', errors: {} };
    if (!f.name) f.errors.name = 'Enter the name for the reservation.';
    else if (!NAME_RE.test(f.name)) f.errors.name = 'The name may contain only letters, spaces, hyphens and apostrophes.';
    const digits = f.phone.replace(/\D/g, '');
    if (!f.phone) f.errors.phone = 'Enter a phone number so the restaurant can reach you.';
    else if (!/^[\d\s()+.\-]+$/.test(f.phone) || digits.length !== 10) f.errors.phone = 'Enter a 10-digit phone number, e.g. (555) 123-4567.';
    if (Object.keys(f.errors).length) return page(reservePage(ctx, req, slot.r, slot, f));
    const code = `T${(mixSeed(ctx.seed, 'reservation', s.reservations.length) % 900000) + 100000}`;
    s.reservations.push({ code, restaurant: slot.r.id, date: slot.date, time: slot.time, party: slot.party, name: f.name, phone: f.phone, occasion: f.occasion, requests: f.requests });
    return { kind: 'redirect', location: `/reservation/${code}` };
  }
  return { kind: 'not_found' };
}
