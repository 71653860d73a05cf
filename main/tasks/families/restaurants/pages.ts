/** Restaurant site pages: chrome with search and an offer dialog, home, listing, restaurant with table finder, reservation. */
import type { InstanceContext, SiteRequest } from '../../types.ts';
import { attr, html, layout, money, type Raw } from '../common/html.ts';
import { currentPath, hrefs } from '../common/site.ts';
import { dayMonthYear, longDate } from '../common/dates.ts';
import { AREAS, CUISINES, TIMES, priceLabel, slotOpen, timeLabel, type Reservation, type Restaurant, type RestaurantsState } from './data.ts';

export type Ctx = InstanceContext<RestaurantsState>;

export const SORTS = [
  { value: 'recommended', label: 'Recommended' },
  { value: 'rating', label: 'Highest rated' },
  { value: 'name', label: 'Name (A to Z)' },
  { value: 'price', label: 'Price (lowest first)' },
] as const;
export const PRICE_OPTIONS = [
  { value: '', label: 'Any price' },
  { value: '1', label: '$ only' },
  { value: '2', label: '$$ or less' },
  { value: '3', label: '$$$ or less' },
] as const;
export const OCCASIONS = ['None', 'Birthday', 'Anniversary', 'Business meal', 'Date night'];
export const PAGE_SIZE = 10;

export function partyLabel(n: number): string {
  return n === 1 ? '1 person' : `${n} people`;
}

function promoDialog(ctx: Ctx, req: SiteRequest): Raw | undefined {
  const s = ctx.state;
  if (s.promo.dismissed) return undefined;
  const href = hrefs(ctx);
  return html`<div class="modal-backdrop">
<div class="modal" role="dialog" aria-labelledby="promo-title">
<h2 id="promo-title">Get 20% off with ${s.siteName}+</h2>
<p>Members get priority tables and 20% off their first three visits. Only $4.99 a month.</p>
<form method="post" action="${href('/promo')}">
<input type="hidden" name="return" value="${currentPath(req)}">
<button type="submit" name="choice" value="join" class="primary">Join ${s.siteName}+</button>
<button type="submit" name="choice" value="dismiss" class="secondary">Dismiss</button>
</form>
</div>
</div>`;
}

export function restaurantsPage(ctx: Ctx, req: SiteRequest, title: string, main: Raw, q = ''): string {
  const href = hrefs(ctx);
  const s = ctx.state;
  return layout({
    title,
    siteName: s.siteName,
    theme: 'theme-restaurants',
    homeHref: href('/'),
    header: html`<form class="search" role="search" method="get" action="${href('/search')}">
<input type="search" name="q" value="${q}" aria-label="Search restaurants" placeholder="Restaurant or cuisine">
<button type="submit">Search</button>
</form>
<span class="me">${s.city}</span>`,
    nav: html`<ul><li><a href="${href('/search')}">All restaurants</a></li>${Object.keys(CUISINES).map((c) => html`<li><a href="${href('/search', { cuisine: c })}">${c}</a></li>`)}<li><a href="${href('/reservations')}">My reservations</a></li><li><a href="${href('/account')}">Account</a></li></ul>`,
    main,
    overlay: promoDialog(ctx, req),
  });
}

function card(ctx: Ctx, r: Restaurant): Raw {
  const href = hrefs(ctx);
  return html`<li class="card">
<h3><a href="${href(`/restaurant/${r.id}`)}">${r.name}</a></h3>
<p class="meta">${r.cuisine} · ${priceLabel(r.priceLevel)} · ${r.area}</p>
<p class="meta">${r.rating.toFixed(1)} out of 5 (${r.reviews} reviews)${r.outdoor ? ' · Outdoor seating' : ''}</p>
</li>`;
}

export function homePage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  const top = [...ctx.state.restaurants].sort((a, b) => a.rank - b.rank).slice(0, 6);
  return restaurantsPage(
    ctx,
    req,
    'Home',
    html`<section class="hero"><h1>Find a table in ${ctx.state.city}</h1><p>${ctx.state.restaurants.length} restaurants, instant confirmation.</p><p><a class="button primary" href="${href('/search')}">Browse all restaurants</a></p></section>
<section><h2>Popular right now</h2><ul class="grid">${top.map((r) => card(ctx, r))}</ul></section>
<section><h2>Neighborhoods</h2><ul class="chips">${AREAS.map((a) => html`<li><a href="${href('/search', { area: a })}">${a}</a></li>`)}</ul></section>`,
  );
}

export interface ListQuery {
  q: string;
  cuisine: string;
  price: string;
  area: string;
  outdoor: boolean;
  sort: string;
  page: number;
}

export function parseListQuery(q: URLSearchParams): ListQuery {
  return {
    q: (q.get('q') ?? '').trim(),
    cuisine: q.get('cuisine') && q.get('cuisine')! in CUISINES ? q.get('cuisine')! : '',
    price: PRICE_OPTIONS.some((o) => o.value === q.get('price')) ? q.get('price')! : '',
    area: AREAS.includes(q.get('area') ?? '') ? q.get('area')! : '',
    outdoor: q.get('outdoor') === '1',
    sort: SORTS.some((o) => o.value === q.get('sort')) ? q.get('sort')! : 'recommended',
    page: Math.max(1, Math.floor(Number(q.get('page') ?? '1')) || 1),
  };
}

export function runList(rs: Restaurant[], q: ListQuery): Restaurant[] {
  const words = q.q.toLowerCase().split(/\s+/).filter(Boolean);
  const by: Record<string, (a: Restaurant, b: Restaurant) => number> = {
    recommended: (a, b) => a.rank - b.rank,
    rating: (a, b) => b.rating - a.rating || a.rank - b.rank,
    name: (a, b) => a.name.localeCompare(b.name),
    price: (a, b) => a.priceLevel - b.priceLevel || a.rank - b.rank,
  };
  return rs
    .filter((r) => words.every((w) => `${r.name} ${r.cuisine} ${r.area} ${r.menu.map((d) => d.name).join(' ')}`.toLowerCase().includes(w)))
    .filter((r) => !q.cuisine || r.cuisine === q.cuisine)
    .filter((r) => !q.price || r.priceLevel <= Number(q.price))
    .filter((r) => !q.area || r.area === q.area)
    .filter((r) => !q.outdoor || r.outdoor)
    .sort(by[q.sort]);
}

export function listPage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  const q = parseListQuery(req.query);
  const all = runList(ctx.state.restaurants, q);
  const pages = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
  const page = Math.min(q.page, pages);
  const items = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const base = { q: q.q, cuisine: q.cuisine, price: q.price, area: q.area, outdoor: q.outdoor ? 1 : undefined, sort: q.sort === 'recommended' ? undefined : q.sort };
  const heading = q.q ? `Results for "${q.q}"` : q.cuisine ? `${q.cuisine} restaurants` : 'All restaurants';
  return restaurantsPage(
    ctx,
    req,
    heading,
    html`<div class="listing">
<aside><form class="filters" method="get" action="${href('/search')}" aria-label="Filters">
<input type="hidden" name="q" value="${q.q}">
<label for="f-cuisine">Cuisine</label>
<select id="f-cuisine" name="cuisine"><option value="">Any cuisine</option>${Object.keys(CUISINES).map((c) => html`<option value="${c}"${attr('selected', c === q.cuisine)}>${c}</option>`)}</select>
<label for="f-area">Neighborhood</label>
<select id="f-area" name="area"><option value="">Any neighborhood</option>${AREAS.map((a) => html`<option value="${a}"${attr('selected', a === q.area)}>${a}</option>`)}</select>
<label for="f-price">Price</label>
<select id="f-price" name="price">${PRICE_OPTIONS.map((o) => html`<option value="${o.value}"${attr('selected', o.value === q.price)}>${o.label}</option>`)}</select>
<label class="check"><input type="checkbox" name="outdoor" value="1"${attr('checked', q.outdoor)}> Outdoor seating</label>
<label for="f-sort">Sort by</label>
<select id="f-sort" name="sort">${SORTS.map((o) => html`<option value="${o.value}"${attr('selected', o.value === q.sort)}>${o.label}</option>`)}</select>
<button type="submit">Apply filters</button>
</form></aside>
<section>
<h1>${heading}</h1>
<p class="count" role="status">${all.length} ${all.length === 1 ? 'restaurant' : 'restaurants'}${pages > 1 ? ` · page ${page} of ${pages}` : ''}</p>
${items.length ? html`<ul class="grid">${items.map((r) => card(ctx, r))}</ul>` : html`<p>No restaurants match. Try removing a filter.</p>`}
${pages > 1 ? html`<nav class="pager" aria-label="Pagination">${page > 1 ? html`<a href="${href('/search', { ...base, page: page - 1 })}">Previous page</a>` : ''} ${page < pages ? html`<a href="${href('/search', { ...base, page: page + 1 })}">Next page</a>` : ''}</nav>` : ''}
</section>
</div>`,
    q.q,
  );
}

export interface TableQuery {
  date: string;
  party: string;
  errors: Partial<Record<'date' | 'party', string>>;
  /** Set when date and party are valid. */
  valid?: { date: string; party: number };
}

export function restaurantPage(ctx: Ctx, req: SiteRequest, r: Restaurant, t: TableQuery): string {
  const href = hrefs(ctx);
  const slots = t.valid
    ? html`<h3>Tables on ${longDate(t.valid.date)} for ${partyLabel(t.valid.party)}</h3>
<ul class="slots">${TIMES.map((time) =>
        slotOpen(ctx.seed, r, t.valid!.date, time, t.valid!.party)
          ? html`<li><form method="get" action="${href('/reserve')}" class="inline"><input type="hidden" name="restaurant" value="${r.id}"><input type="hidden" name="date" value="${t.valid!.date}"><input type="hidden" name="party" value="${t.valid!.party}"><input type="hidden" name="time" value="${time}"><button type="submit">Reserve ${timeLabel(time)}</button></form></li>`
          : html`<li class="full">${timeLabel(time)} fully booked</li>`,
      )}</ul>`
    : '';
  const errs = Object.values(t.errors);
  return restaurantsPage(
    ctx,
    req,
    r.name,
    html`<nav class="crumbs" aria-label="Breadcrumb"><a href="${href('/')}">Home</a> › <a href="${href('/search', { cuisine: r.cuisine })}">${r.cuisine}</a></nav>
<article class="restaurant">
<h1>${r.name}</h1>
<dl class="headers">
<dt>Cuisine</dt><dd>${r.cuisine}</dd>
<dt>Price</dt><dd>${priceLabel(r.priceLevel)}</dd>
<dt>Rating</dt><dd>${r.rating.toFixed(1)} out of 5 (${r.reviews} reviews)</dd>
<dt>Neighborhood</dt><dd>${r.area}</dd>
<dt>Address</dt><dd>${r.address}</dd>
<dt>Phone</dt><dd>${r.phone}</dd>
<dt>Hours</dt><dd>Dinner daily, 5:00 PM to 10:00 PM</dd>
<dt>Seating</dt><dd>${r.outdoor ? 'Indoor and outdoor' : 'Indoor only'}</dd>
</dl>
<section class="reserve" aria-label="Make a reservation">
<h2>Make a reservation</h2>
${errs.length ? html`<div class="errors" role="alert"><ul>${errs.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
<form method="get" action="${href(`/restaurant/${r.id}`)}" class="inline">
<label for="t-date">Date</label>
<input id="t-date" type="text" name="date" value="${t.date}" placeholder="YYYY-MM-DD"${t.errors.date ? html` aria-invalid="true"` : ''}>
<label for="t-party">Party size</label>
<select id="t-party" name="party">${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => html`<option value="${n}"${attr('selected', String(n) === t.party)}>${partyLabel(n)}</option>`)}</select>
<button type="submit" class="primary">Find a table</button>
</form>
${slots}
</section>
<h2>Menu</h2>
<table class="cart menu">
<thead><tr><th scope="col">Dish</th><th scope="col">Price</th></tr></thead>
<tbody>${r.menu.map((d) => html`<tr><td>${d.name}</td><td>${money(d.price)}</td></tr>`)}</tbody>
</table>
</article>`,
  );
}

export interface ReserveForm {
  name: string;
  phone: string;
  occasion: string;
  requests: string;
  errors: Partial<Record<'name' | 'phone', string>>;
}

export function reservePage(ctx: Ctx, req: SiteRequest, r: Restaurant, slot: { date: string; time: string; party: number }, f: ReserveForm): string {
  const href = hrefs(ctx);
  const errs = Object.values(f.errors);
  const field = (id: string, name: 'name' | 'phone', label: string) =>
    html`<div class="field"><label for="${id}">${label}</label><input id="${id}" type="text" name="${name}" value="${f[name]}"${f.errors[name] ? html` aria-invalid="true" aria-describedby="${id}-err"` : ''}>${f.errors[name] ? html`<p class="field-error" id="${id}-err">${f.errors[name]}</p>` : ''}</div>`;
  return restaurantsPage(
    ctx,
    req,
    'Complete your reservation',
    html`<p><a href="${href(`/restaurant/${r.id}`, { date: slot.date, party: slot.party })}">Back to ${r.name}</a></p>
<h1>Complete your reservation</h1>
<section class="summary" aria-label="Reservation summary"><h2>${r.name}</h2><p>${longDate(slot.date)} at ${timeLabel(slot.time)}, ${partyLabel(slot.party)}</p><p class="meta">We hold your table for 15 minutes.</p></section>
${errs.length ? html`<div class="errors" role="alert"><p>Please correct the following:</p><ul>${errs.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
<form class="booking" method="post" action="${href('/reserve')}" novalidate>
<input type="hidden" name="restaurant" value="${r.id}"><input type="hidden" name="date" value="${slot.date}"><input type="hidden" name="party" value="${slot.party}"><input type="hidden" name="time" value="${slot.time}">
${field('r-name', 'name', 'Full name')}
${field('r-phone', 'phone', 'Phone number')}
<div class="field"><label for="r-occasion">Occasion (optional)</label><select id="r-occasion" name="occasion">${OCCASIONS.map((o) => html`<option value="${o}"${attr('selected', o === f.occasion)}>${o}</option>`)}</select></div>
<div class="field"><label for="r-req">Special requests (optional)</label><textarea id="r-req" name="requests" rows="3">${f.requests}</textarea></div>
<button type="submit" class="primary">Complete reservation</button>
</form>`,
  );
}

export function confirmationPage(ctx: Ctx, req: SiteRequest, b: Reservation): string {
  const href = hrefs(ctx);
  const r = ctx.state.restaurants.find((x) => x.id === b.restaurant)!;
  return restaurantsPage(
    ctx,
    req,
    'Reservation confirmed',
    html`<h1>Reservation confirmed</h1>
<p class="notice" role="status">You're all set. Confirmation code ${b.code}.</p>
<dl class="headers"><dt>Restaurant</dt><dd>${r.name}</dd><dt>When</dt><dd>${dayMonthYear(b.date)} at ${timeLabel(b.time)}</dd><dt>Party</dt><dd>${partyLabel(b.party)}</dd><dt>Name</dt><dd>${b.name}</dd><dt>Phone</dt><dd>${b.phone}</dd></dl>
<p><a href="${href('/reservations')}">My reservations</a></p>`,
  );
}

export function reservationsPage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  const bs = ctx.state.reservations;
  return restaurantsPage(
    ctx,
    req,
    'My reservations',
    html`<h1>My reservations</h1>${bs.length ? html`<ul>${bs.map((b) => html`<li><a href="${href(`/reservation/${b.code}`)}">${b.code}: ${ctx.state.restaurants.find((r) => r.id === b.restaurant)?.name}, ${dayMonthYear(b.date)} at ${timeLabel(b.time)}</a></li>`)}</ul>` : html`<p>No reservations yet.</p>`}`,
  );
}

export function accountPage(ctx: Ctx, req: SiteRequest, notice?: string): string {
  const href = hrefs(ctx);
  const s = ctx.state;
  return restaurantsPage(
    ctx,
    req,
    'Account',
    html`<h1>Account</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<h2>${s.siteName}+ membership</h2>
${s.promo.joined ? html`<p>You are a ${s.siteName}+ member ($4.99 a month).</p>
<form method="post" action="${href('/membership/cancel')}"><button type="submit">Cancel membership</button></form>` : html`<p>You are not a member.</p>`}`,
  );
}
