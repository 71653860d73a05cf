/**
 * The ticketing pages: home (sections in the variant's order), the listing with filters, the event
 * page, the seat map, checkout, the order and the plain pages distractor links lead to. Every label
 * is this instance's (state.variant.words); what a page says about events, seats and prices is the
 * same under every variant.
 */
import type { SiteRequest } from '../../types.ts';
import { attr, html, money, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { CATEGORIES, CITIES, SEATS_PER_ROW, SECTIONS, seatPrice, type TicketEvent } from './data.ts';
import { eventListing, eventTitle, seatLabel, showDate, showTime, tPage, type Ctx } from './chrome.ts';
import { deliveryLabel, fill, type FactKey, type FilterKey, type PayField, type SectionKey } from './variant.ts';

export const PAGE_SIZE = 8;
export const DELIVERY = ['Mobile tickets', 'Will call'] as const;

function homeSection(ctx: Ctx, k: SectionKey): Raw {
  const s = ctx.state;
  const w = s.variant.words;
  if (k === 'hero') return html`<section class="hero"><h1>${w.hero}</h1><p>${fill(w.summary, { count: String(s.events.length), cities: CITIES.join(', ') })}</p></section>`;
  if (k === 'comingUp') {
    const soon = [...s.events].sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id).slice(0, 6);
    return html`<section aria-labelledby="h-soon"><h2 id="h-soon">${w.comingUp}</h2>${eventListing(ctx, soon)}</section>`;
  }
  // A distractor: presale alerts, which sell nothing and name no event.
  return html`<section class="promo" aria-labelledby="h-alerts"><h2 id="h-alerts">Never miss a presale</h2><p>Turn on alerts in our app to hear about new shows first.</p><p><a href="${hrefs(ctx)('/alerts')}">About presale alerts</a></p></section>`;
}

export function homePage(ctx: Ctx): string {
  return tPage(ctx, 'Home', html`${ctx.state.variant.sections.map((k) => homeSection(ctx, k))}`);
}

interface ListQuery {
  q: string;
  category: string;
  city: string;
  sort: 'date' | 'price';
  page: number;
}

function parseListQuery(req: SiteRequest): ListQuery {
  const category = req.query.get('category') ?? '';
  const city = req.query.get('city') ?? '';
  return {
    q: (req.query.get('q') ?? '').trim(),
    category: (CATEGORIES as readonly string[]).includes(category) ? category : '',
    city: CITIES.includes(city) ? city : '',
    sort: req.query.get('sort') === 'price' ? 'price' : 'date',
    page: Math.floor(Number(req.query.get('page') ?? '1')) || 1,
  };
}

function filterControl(ctx: Ctx, f: ListQuery, k: FilterKey): Raw {
  const w = ctx.state.variant.words;
  const select = (id: string, name: string, label: string, options: Array<[string, string]>, chosen: string) =>
    html`<div class="filter"><label for="${id}">${label}</label><select id="${id}" name="${name}">${options.map(([value, text]) => html`<option value="${value}"${attr('selected', value === chosen)}>${text}</option>`)}</select></div>`;
  if (k === 'category') return select('f-cat', 'category', w.category, [['', w.anyCategory], ...CATEGORIES.map((c): [string, string] => [c, c])], f.category);
  if (k === 'city') return select('f-city', 'city', w.city, [['', w.anyCity], ...CITIES.map((c): [string, string] => [c, c])], f.city);
  return select('f-sort', 'sort', w.sort, [['date', w.sortDate], ['price', w.sortPrice]], f.sort);
}

export function listPage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  const w = v.words;
  const f = parseListQuery(req);
  const words = f.q.toLowerCase().split(/\s+/).filter(Boolean);
  const all = ctx.state.events
    .filter((e) => words.every((x) => `${e.name} ${e.venue} ${e.city} ${e.category}`.toLowerCase().includes(x)))
    .filter((e) => !f.category || e.category === f.category)
    .filter((e) => !f.city || e.city === f.city)
    .sort((a, b) => (f.sort === 'price' ? a.basePrice - b.basePrice : 0) || a.date.localeCompare(b.date) || a.id - b.id);
  const pages = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
  const pg = Math.min(pages, Math.max(1, f.page));
  const base = { q: f.q, category: f.category, city: f.city, sort: f.sort === 'date' ? undefined : f.sort };
  const filters = html`<form class="${v.filtersPlacement === 'side' ? 'filters' : 'filters-bar'} tickets-filters" method="get" action="${href('/events')}" aria-label="Filters">
<input type="hidden" name="q" value="${f.q}">
${v.filters.map((k) => filterControl(ctx, f, k))}
<button type="submit">${w.apply}</button>
</form>`;
  const results = html`<section>
<h1>${f.q ? fill(w.matching, { q: f.q }) : w.navAll}</h1>
<p class="count" role="status">${all.length} ${all.length === 1 ? 'event' : 'events'}${pages > 1 ? ` · page ${pg} of ${pages}` : ''}</p>
${all.length ? eventListing(ctx, all.slice((pg - 1) * PAGE_SIZE, pg * PAGE_SIZE)) : html`<p>${w.noEvents}</p>`}
${pages > 1 ? html`<nav class="pager" aria-label="Pagination">${pg > 1 ? html`<a href="${href('/events', { ...base, page: pg - 1 })}">${w.prevPage}</a>` : ''} ${pg < pages ? html`<a href="${href('/events', { ...base, page: pg + 1 })}">${w.nextPage}</a>` : ''}</nav>` : ''}
</section>`;
  const body = v.filtersPlacement === 'side' ? html`<div class="listing"><aside>${filters}</aside>${results}</div>` : html`${filters}${results}`;
  return tPage(ctx, 'Events', body, f.q);
}

export function eventPage(ctx: Ctx, e: TicketEvent): string {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  const w = v.words;
  const fact: Record<FactKey, [string, string]> = {
    category: [w.category, e.category],
    venue: [w.venue, `${e.venue}, ${e.city}`],
    date: [w.date, showDate(v, e.date)],
    starts: [w.starts, showTime(v, e.time)],
  };
  return tPage(
    ctx,
    e.name,
    html`<article class="event"><h1>${e.name}</h1>
<dl class="headers">${v.facts.map((k) => html`<dt>${fact[k][0]}</dt><dd>${fact[k][1]}</dd>`)}</dl>
<h2>${w.prices}</h2>
<table class="cart"><thead><tr><th scope="col">Section</th><th scope="col">Rows</th><th scope="col">${w.pricePer}</th></tr></thead>
<tbody>${SECTIONS.map((s) => html`<tr><td>${s.name}</td><td>${s.rows.join(', ')}</td><td>${money(seatPrice(e, s.rows[0] + '1'))}</td></tr>`)}</tbody></table>
<p><a class="button primary" href="${href(`/event/${e.id}/seats`)}">${w.selectSeats}</a></p></article>`,
  );
}

function seatBox(ctx: Ctx, e: TicketEvent, seat: string, held: readonly string[]): Raw {
  const w = ctx.state.variant.words;
  const taken = e.taken.includes(seat);
  return html`<label class="${taken ? 'seat taken' : 'seat'}"><input type="checkbox" name="seat" value="${seat}" aria-label="${seatLabel(w, e, seat)}${taken ? ` (${w.taken})` : ''}"${attr('disabled', taken)}${attr('checked', held.includes(seat))}><span aria-hidden="true">${seat.slice(1)}</span></label>`;
}

export function seatsPage(ctx: Ctx, e: TicketEvent, error?: string): string {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  const w = v.words;
  const held = ctx.state.holds[e.id] ?? [];
  const row = (r: string) => html`<div class="seat-row"><span class="row-label" aria-hidden="true">${r}</span>${Array.from({ length: SEATS_PER_ROW }, (_, i) => seatBox(ctx, e, `${r}${i + 1}`, held))}</div>`;
  return tPage(
    ctx,
    `Seats: ${e.name}`,
    html`<p><a href="${href(`/event/${e.id}`)}">${w.backToEvent}</a></p>
<h1>${w.seatsHeading}</h1><p>${eventTitle(e)}, ${showDate(v, e.date)}. ${w.stageNote}</p>
${error ? html`<div class="errors" role="alert"><p>${error}</p></div>` : ''}
<form method="post" action="${href(`/event/${e.id}/seats`)}" class="seatmap">
${SECTIONS.map((s) => html`<fieldset><legend>${s.name}</legend>${s.rows.map(row)}</fieldset>`)}
<button type="submit" class="primary">${w.toCheckout}</button>
</form>`,
  );
}

export interface PayForm {
  name: string;
  email: string;
  delivery: string;
  agree: boolean;
  errors: Partial<Record<'name' | 'email' | 'delivery' | 'agree', string>>;
}

function payField(ctx: Ctx, f: PayForm, k: PayField): Raw {
  const w = ctx.state.variant.words;
  const err = f.errors[k];
  const error = err ? html`<p class="field-error">${err}</p>` : '';
  if (k === 'delivery') {
    return html`<fieldset><legend>${w.delivery}</legend>${DELIVERY.map((d) => html`<label class="check"><input type="radio" name="delivery" value="${d}"${attr('checked', f.delivery === d)}> ${deliveryLabel(w, d)}</label>`)}${error}</fieldset>`;
  }
  return html`<div class="field"><label for="p-${k}">${w[k]}</label><input id="p-${k}" type="text" name="${k}" value="${f[k]}"${err ? html` aria-invalid="true"` : ''}>${error}</div>`;
}

export function checkoutPage(ctx: Ctx, e: TicketEvent, f: PayForm): string {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  const w = v.words;
  const held = ctx.state.holds[e.id] ?? [];
  const errs = Object.values(f.errors);
  const total = money(held.reduce((t, s) => t + seatPrice(e, s), 0));
  return tPage(
    ctx,
    'Checkout',
    html`<p><a href="${href(`/event/${e.id}/seats`)}">${w.changeSeats}</a></p><h1>${w.checkout}</h1>
<section class="summary" aria-label="Your seats"><h2>${eventTitle(e)}</h2><ul>${held.map((s) => html`<li>${seatLabel(w, e, s)}</li>`)}</ul><p class="price">${fill(w.total, { price: total })}</p></section>
${errs.length ? html`<div class="errors" role="alert"><p>Please correct the following:</p><ul>${errs.map((x) => html`<li>${x}</li>`)}</ul></div>` : ''}
<form class="booking" method="post" action="${href(`/event/${e.id}/checkout`)}" novalidate>
${v.payFields.map((k) => payField(ctx, f, k))}
<div class="field"><label class="check"><input type="checkbox" name="agree" value="1"${attr('checked', f.agree)}> ${w.agree}</label>${f.errors.agree ? html`<p class="field-error">${f.errors.agree}</p>` : ''}</div>
<button type="submit" class="primary">${w.pay}</button>
</form>`,
  );
}

export function orderPage(ctx: Ctx, code: string): string | undefined {
  const s = ctx.state;
  const w = s.variant.words;
  const o = s.orders.find((x) => x.code === code);
  if (!o) return undefined;
  const e = s.events.find((x) => x.id === o.event)!;
  const delivery = (DELIVERY as readonly string[]).includes(o.delivery) ? deliveryLabel(w, o.delivery as (typeof DELIVERY)[number]) : o.delivery;
  return tPage(
    ctx,
    w.confirmed,
    html`<h1>${w.confirmed}</h1><p class="notice" role="status">Order ${o.code}: ${o.seats.length} ticket${o.seats.length > 1 ? 's' : ''} for ${eventTitle(e)}, ${showDate(s.variant, e.date)}. Seats ${o.seats.join(', ')}. ${delivery}.</p><p><a href="${hrefs(ctx)('/orders')}">${w.navOrders}</a></p>`,
  );
}

export function ordersPage(ctx: Ctx): string {
  const s = ctx.state;
  const w = s.variant.words;
  const href = hrefs(ctx);
  return tPage(ctx, w.navOrders, html`<h1>${w.navOrders}</h1>${s.orders.length ? html`<ul>${s.orders.map((o) => html`<li><a href="${href(`/order/${o.code}`)}">${o.code}: ${eventTitle(s.events.find((e) => e.id === o.event)!)}</a></li>`)}</ul>` : html`<p>${w.noTickets}</p>`}`);
}

/** The plain pages the distractors lead to: they sell nothing and name no event. */
const INFO: Record<string, { title: string; text: string }> = {
  '/gift-cards': { title: 'Gift cards', text: 'Gift cards are sold at the box office of each venue and cannot be redeemed online yet.' },
  '/help': { title: 'Help centre', text: 'Questions about an order? Reply to your confirmation email and we answer within a day.' },
  '/sell': { title: 'Sell your tickets', text: 'Reselling tickets is not available on this site. Tickets you bought can be transferred at the venue.' },
  '/alerts': { title: 'Presale alerts', text: 'Presale alerts are sent by our mobile app. There are no alerts to set up on the website.' },
};

export function infoPage(ctx: Ctx, path: string): string | undefined {
  const info = INFO[path];
  return info && tPage(ctx, info.title, html`<h1>${info.title}</h1><p>${info.text}</p><p><a href="${hrefs(ctx)('/events')}">${ctx.state.variant.words.navAll}</a></p>`);
}
