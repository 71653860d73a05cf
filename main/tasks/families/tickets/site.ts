/** Ticketing pages and routes: listing with filters, event page, seat map, checkout, order. */
import type { InstanceContext, SiteRequest, SiteResponse } from '../../types.ts';
import { attr, html, layout, money, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { mixSeed } from '../../../common/rng.ts';
import { longDate } from '../common/dates.ts';
import { CATEGORIES, CITIES, SEATS_PER_ROW, SECTIONS, seatPrice, timeLabel, type TicketEvent, type TicketsState } from './data.ts';

export type Ctx = InstanceContext<TicketsState>;
const page = (body: string): SiteResponse => ({ kind: 'html', body });
const NAME_RE = /^[\p{L}][\p{L} '\-.]*$/u;
const EMAIL_RE = /^[^\s@<>,]+@[^\s@<>,]+\.[^\s@<>,]+$/;
export const PAGE_SIZE = 8;
export const DELIVERY = ['Mobile tickets', 'Will call'] as const;

export function eventTitle(e: TicketEvent): string {
  return `${e.name}, ${e.city}`;
}

export function seatLabel(e: TicketEvent, seat: string): string {
  return `Row ${seat[0]}, seat ${seat.slice(1)}, ${money(seatPrice(e, seat))}`;
}

function tPage(ctx: Ctx, title: string, main: Raw, q = ''): string {
  const href = hrefs(ctx);
  return layout({
    title,
    siteName: ctx.state.siteName,
    theme: 'theme-tickets',
    homeHref: href('/'),
    header: html`<form class="search" role="search" method="get" action="${href('/events')}">
<input type="search" name="q" value="${q}" aria-label="Search events" placeholder="Artist, team or show">
<button type="submit">Search</button>
</form>`,
    nav: html`<ul><li><a href="${href('/events')}">All events</a></li>${CATEGORIES.map((c) => html`<li><a href="${href('/events', { category: c })}">${c}</a></li>`)}<li><a href="${href('/orders')}">My tickets</a></li></ul>`,
    main,
  });
}

function card(ctx: Ctx, e: TicketEvent): Raw {
  return html`<li class="card"><h3><a href="${hrefs(ctx)(`/event/${e.id}`)}">${eventTitle(e)}</a></h3><p class="meta">${e.category} · ${e.venue}</p><p class="meta">${longDate(e.date)}, ${timeLabel(e.time)}</p><p class="price">from ${money(seatPrice(e, 'F1'))}</p></li>`;
}

function listPage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  const q = (req.query.get('q') ?? '').trim();
  const category = (CATEGORIES as readonly string[]).includes(req.query.get('category') ?? '') ? req.query.get('category')! : '';
  const city = CITIES.includes(req.query.get('city') ?? '') ? req.query.get('city')! : '';
  const sort = req.query.get('sort') === 'price' ? 'price' : 'date';
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const all = ctx.state.events
    .filter((e) => words.every((w) => `${e.name} ${e.venue} ${e.city} ${e.category}`.toLowerCase().includes(w)))
    .filter((e) => !category || e.category === category)
    .filter((e) => !city || e.city === city)
    .sort((a, b) => (sort === 'price' ? a.basePrice - b.basePrice : 0) || a.date.localeCompare(b.date) || a.id - b.id);
  const pages = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
  const pg = Math.min(pages, Math.max(1, Math.floor(Number(req.query.get('page') ?? '1')) || 1));
  const base = { q, category, city, sort: sort === 'date' ? undefined : sort };
  return tPage(
    ctx,
    'Events',
    html`<div class="listing"><aside><form class="filters" method="get" action="${href('/events')}" aria-label="Filters">
<input type="hidden" name="q" value="${q}">
<label for="f-cat">Category</label><select id="f-cat" name="category"><option value="">All categories</option>${CATEGORIES.map((c) => html`<option value="${c}"${attr('selected', c === category)}>${c}</option>`)}</select>
<label for="f-city">City</label><select id="f-city" name="city"><option value="">All cities</option>${CITIES.map((c) => html`<option value="${c}"${attr('selected', c === city)}>${c}</option>`)}</select>
<label for="f-sort">Sort by</label><select id="f-sort" name="sort"><option value="date"${attr('selected', sort === 'date')}>Date</option><option value="price"${attr('selected', sort === 'price')}>Lowest price</option></select>
<button type="submit">Apply filters</button>
</form></aside><section>
<h1>${q ? `Events matching "${q}"` : 'All events'}</h1>
<p class="count" role="status">${all.length} ${all.length === 1 ? 'event' : 'events'}${pages > 1 ? ` · page ${pg} of ${pages}` : ''}</p>
${all.length ? html`<ul class="grid">${all.slice((pg - 1) * PAGE_SIZE, pg * PAGE_SIZE).map((e) => card(ctx, e))}</ul>` : html`<p>No events match.</p>`}
${pages > 1 ? html`<nav class="pager" aria-label="Pagination">${pg > 1 ? html`<a href="${href('/events', { ...base, page: pg - 1 })}">Previous page</a>` : ''} ${pg < pages ? html`<a href="${href('/events', { ...base, page: pg + 1 })}">Next page</a>` : ''}</nav>` : ''}
</section></div>`,
    q,
  );
}

function eventPage(ctx: Ctx, e: TicketEvent): string {
  const href = hrefs(ctx);
  return tPage(
    ctx,
    e.name,
    html`<article class="event"><h1>${e.name}</h1>
<dl class="headers"><dt>Category</dt><dd>${e.category}</dd><dt>Venue</dt><dd>${e.venue}, ${e.city}</dd><dt>Date</dt><dd>${longDate(e.date)}</dd><dt>Starts</dt><dd>${timeLabel(e.time)}</dd></dl>
<h2>Prices</h2>
<table class="cart"><thead><tr><th scope="col">Section</th><th scope="col">Rows</th><th scope="col">Price per ticket</th></tr></thead>
<tbody>${SECTIONS.map((s) => html`<tr><td>${s.name}</td><td>${s.rows.join(', ')}</td><td>${money(seatPrice(e, s.rows[0] + '1'))}</td></tr>`)}</tbody></table>
<p><a class="button primary" href="${href(`/event/${e.id}/seats`)}">Select seats</a></p></article>`,
  );
}

function seatsPage(ctx: Ctx, e: TicketEvent, error?: string): string {
  const href = hrefs(ctx);
  const held = ctx.state.holds[e.id] ?? [];
  return tPage(
    ctx,
    `Seats: ${e.name}`,
    html`<p><a href="${href(`/event/${e.id}`)}">Back to the event</a></p>
<h1>Choose your seats</h1><p>${eventTitle(e)}, ${longDate(e.date)}. The stage is at the front (row A). Taken seats cannot be chosen.</p>
${error ? html`<div class="errors" role="alert"><p>${error}</p></div>` : ''}
<form method="post" action="${href(`/event/${e.id}/seats`)}" class="seatmap">
${SECTIONS.map(
  (s) => html`<fieldset><legend>${s.name}</legend>${s.rows.map(
    (r) => html`<div class="seat-row"><span class="row-label" aria-hidden="true">${r}</span>${Array.from({ length: SEATS_PER_ROW }, (_, i) => `${r}${i + 1}`).map((seat) => {
      const taken = e.taken.includes(seat);
      return html`<label class="${taken ? 'seat taken' : 'seat'}"><input type="checkbox" name="seat" value="${seat}" aria-label="${seatLabel(e, seat)}${taken ? ' (taken)' : ''}"${attr('disabled', taken)}${attr('checked', held.includes(seat))}><span aria-hidden="true">${seat.slice(1)}</span></label>`;
    })}</div>`,
  )}</fieldset>`,
)}
<button type="submit" class="primary">Continue to checkout</button>
</form>`,
  );
}

interface PayForm {
  name: string;
  email: string;
  delivery: string;
  agree: boolean;
  errors: Partial<Record<'name' | 'email' | 'delivery' | 'agree', string>>;
}

function checkoutPage(ctx: Ctx, e: TicketEvent, f: PayForm): string {
  const href = hrefs(ctx);
  const held = ctx.state.holds[e.id] ?? [];
  const errs = Object.values(f.errors);
  const text = (k: 'name' | 'email', label: string) => html`<div class="field"><label for="p-${k}">${label}</label><input id="p-${k}" type="text" name="${k}" value="${f[k]}"${f.errors[k] ? html` aria-invalid="true"` : ''}>${f.errors[k] ? html`<p class="field-error">${f.errors[k]}</p>` : ''}</div>`;
  return tPage(
    ctx,
    'Checkout',
    html`<p><a href="${href(`/event/${e.id}/seats`)}">Change seats</a></p><h1>Checkout</h1>
<section class="summary" aria-label="Your seats"><h2>${eventTitle(e)}</h2><ul>${held.map((s) => html`<li>${seatLabel(e, s)}</li>`)}</ul><p class="price">Total ${money(held.reduce((t, s) => t + seatPrice(e, s), 0))}</p></section>
${errs.length ? html`<div class="errors" role="alert"><p>Please correct the following:</p><ul>${errs.map((x) => html`<li>${x}</li>`)}</ul></div>` : ''}
<form class="booking" method="post" action="${href(`/event/${e.id}/checkout`)}" novalidate>
${text('name', 'Full name')}
${text('email', 'Email')}
<fieldset><legend>Delivery</legend>${DELIVERY.map((d) => html`<label class="check"><input type="radio" name="delivery" value="${d}"${attr('checked', f.delivery === d)}> ${d}</label>`)}${f.errors.delivery ? html`<p class="field-error">${f.errors.delivery}</p>` : ''}</fieldset>
<div class="field"><label class="check"><input type="checkbox" name="agree" value="1"${attr('checked', f.agree)}> I accept the terms of sale</label>${f.errors.agree ? html`<p class="field-error">${f.errors.agree}</p>` : ''}</div>
<button type="submit" class="primary">Pay now</button>
</form>`,
  );
}

export function handleTickets(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const href = hrefs(ctx);
  const em = req.path.match(/^\/event\/(\d+)(\/seats|\/checkout)?$/);
  const ev = em ? s.events.find((e) => e.id === Number(em[1])) : undefined;
  if (em && !ev) return { kind: 'not_found' };
  if (req.method === 'GET') {
    if (req.path === '/') {
      const soon = [...s.events].sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id).slice(0, 6);
      return page(tPage(ctx, 'Home', html`<section class="hero"><h1>Live events near you</h1><p>${s.events.length} upcoming events in ${CITIES.join(', ')}.</p></section><section><h2>Coming up</h2><ul class="grid">${soon.map((e) => card(ctx, e))}</ul></section>`));
    }
    if (req.path === '/events') return page(listPage(ctx, req));
    if (ev && !em![2]) return page(eventPage(ctx, ev));
    if (ev && em![2] === '/seats') return page(seatsPage(ctx, ev));
    if (ev && em![2] === '/checkout') {
      if (!(s.holds[ev.id] ?? []).length) return { kind: 'redirect', location: `/event/${ev.id}/seats` };
      return page(checkoutPage(ctx, ev, { name: '', email: '', delivery: '', agree: false, errors: {} }));
    }
    const om = req.path.match(/^\/order\/([A-Z0-9-]+)$/);
    if (om) {
      const o = s.orders.find((x) => x.code === om[1]);
      if (!o) return { kind: 'not_found' };
      const e = s.events.find((x) => x.id === o.event)!;
      return page(tPage(ctx, 'Order confirmed', html`<h1>You're going!</h1><p class="notice" role="status">Order ${o.code}: ${o.seats.length} ticket${o.seats.length > 1 ? 's' : ''} for ${eventTitle(e)}, ${longDate(e.date)}. Seats ${o.seats.join(', ')}. ${o.delivery}.</p><p><a href="${href('/orders')}">My tickets</a></p>`));
    }
    if (req.path === '/orders') return page(tPage(ctx, 'My tickets', html`<h1>My tickets</h1>${s.orders.length ? html`<ul>${s.orders.map((o) => html`<li><a href="${href(`/order/${o.code}`)}">${o.code}: ${eventTitle(s.events.find((e) => e.id === o.event)!)}</a></li>`)}</ul>` : html`<p>No tickets yet.</p>`}`));
    return { kind: 'not_found' };
  }
  if (ev && em![2] === '/seats') {
    const seats = [...new Set(req.form.getAll('seat'))];
    const valid = (seat: string) => /^[A-G]([1-9]|10)$/.test(seat) && !ev.taken.includes(seat);
    if (!seats.length) return page(seatsPage(ctx, ev, 'Choose at least one seat.'));
    if (seats.length > 8) return page(seatsPage(ctx, ev, 'You can buy at most 8 tickets.'));
    if (!seats.every(valid)) return page(seatsPage(ctx, ev, 'One of those seats is no longer available.'));
    s.holds[ev.id] = seats.sort((a, b) => a[0].localeCompare(b[0]) || Number(a.slice(1)) - Number(b.slice(1)));
    return { kind: 'redirect', location: `/event/${ev.id}/checkout` };
  }
  if (ev && em![2] === '/checkout') {
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
  return { kind: 'not_found' };
}
