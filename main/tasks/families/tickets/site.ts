/**
 * Ticketing routes: listing with filters, event page, seat map, checkout, order, and the plain
 * pages distractor links lead to. The pages themselves are in ./pages.ts, their frame in ./chrome.ts.
 */
import type { SiteRequest, SiteResponse } from '../../types.ts';
import { mixSeed } from '../../../common/rng.ts';
import { checkoutPage, DELIVERY, eventPage, homePage, infoPage, listPage, orderPage, ordersPage, seatsPage, type PayForm } from './pages.ts';
import type { Ctx } from './chrome.ts';
import type { TicketEvent } from './data.ts';

export { eventTitle, seatLabel, type Ctx } from './chrome.ts';
export { DELIVERY, PAGE_SIZE } from './pages.ts';
const page = (body: string): SiteResponse => ({ kind: 'html', body });
const NAME_RE = /^[\p{L}][\p{L} '\-.]*$/u;
const EMAIL_RE = /^[^\s@<>,]+@[^\s@<>,]+\.[^\s@<>,]+$/;

function handleGet(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const em = req.path.match(/^\/event\/(\d+)(\/seats|\/checkout)?$/);
  if (em) {
    const ev = s.events.find((e) => e.id === Number(em[1]));
    if (!ev) return { kind: 'not_found' };
    if (!em[2]) return page(eventPage(ctx, ev));
    if (em[2] === '/seats') return page(seatsPage(ctx, ev));
    if (!(s.holds[ev.id] ?? []).length) return { kind: 'redirect', location: `/event/${ev.id}/seats` };
    return page(checkoutPage(ctx, ev, { name: '', email: '', delivery: '', agree: false, errors: {} }));
  }
  if (req.path === '/') return page(homePage(ctx));
  if (req.path === '/events') return page(listPage(ctx, req));
  if (req.path === '/orders') return page(ordersPage(ctx));
  const om = req.path.match(/^\/order\/([A-Z0-9-]+)$/);
  const body = om ? orderPage(ctx, om[1]) : infoPage(ctx, req.path);
  return body ? page(body) : { kind: 'not_found' };
}

function holdSeats(req: SiteRequest, ctx: Ctx, ev: TicketEvent): SiteResponse {
  const seats = [...new Set(req.form.getAll('seat'))];
  const valid = (seat: string) => /^[A-G]([1-9]|10)$/.test(seat) && !ev.taken.includes(seat);
  if (!seats.length) return page(seatsPage(ctx, ev, 'Choose at least one seat.'));
  if (seats.length > 8) return page(seatsPage(ctx, ev, 'You can buy at most 8 tickets.'));
  if (!seats.every(valid)) return page(seatsPage(ctx, ev, 'One of those seats is no longer available.'));
  ctx.state.holds[ev.id] = seats.sort((a, b) => a[0].localeCompare(b[0]) || Number(a.slice(1)) - Number(b.slice(1)));
  return { kind: 'redirect', location: `/event/${ev.id}/checkout` };
}

function pay(req: SiteRequest, ctx: Ctx, ev: TicketEvent): SiteResponse {
  const s = ctx.state;
  const held = s.holds[ev.id] ?? [];
  if (!held.length) return { kind: 'redirect', location: `/event/${ev.id}/seats` };
  const g = (k: string) => (req.form.get(k) ?? '').trim();
  const f: PayForm = { name: g('name'), email: g('email'), delivery: g('delivery'), agree: g('agree') === '1', errors: {} };
  if (!f.name) f.errors.name = 'Enter the name for the tickets.';
  else if (!NAME_RE.test(f.name)) f.errors.name = 'The name may contain only letters, spaces, hyphens and apostrophes.';
  if (!EMAIL_RE.test(f.email)) f.errors.email = 'Enter a valid email address.';
  if (!(DELIVERY as readonly string[]).includes(f.delivery)) f.errors.delivery = 'Choose how to get your tickets.';
  if (!f.agree) f.errors.agree = 'Please accept the terms of sale.';
  if (Object.keys(f.errors).length) return page(checkoutPage(ctx, ev, f));
  const code = `TK-${(mixSeed(ctx.seed, 'tickets', s.orders.length) % 900000) + 100000}`;
  s.orders.push({ code, event: ev.id, seats: held, name: f.name, email: f.email, delivery: f.delivery });
  ev.taken.push(...held);
  delete s.holds[ev.id];
  return { kind: 'redirect', location: `/order/${code}` };
}

export function handleTickets(req: SiteRequest, ctx: Ctx): SiteResponse {
  if (req.method === 'GET') return handleGet(req, ctx);
  const em = req.path.match(/^\/event\/(\d+)(\/seats|\/checkout)$/);
  const ev = em ? ctx.state.events.find((e) => e.id === Number(em[1])) : undefined;
  if (!ev) return { kind: 'not_found' };
  return em![2] === '/seats' ? holdSeats(req, ctx, ev) : pay(req, ctx, ev);
}
