/** Hotel site pages: chrome with search box, home, results with filters, hotel, booking form, confirmation. */
import type { InstanceContext, SiteRequest } from '../../types.ts';
import { attr, html, layout, money, type Raw } from '../common/html.ts';
import { cookieBanner, currentPath, hrefs } from '../common/site.ts';
import { dayMonthYear } from '../common/dates.ts';
import { ratingWord, type Hotel, type HotelBooking, type HotelsState, type Room } from './data.ts';
import { PAGE_SIZE, SORTS, STAR_OPTIONS, runSearch, type HotelQuery, type SearchErrors, type ValidSearch } from './query.ts';

export type Ctx = InstanceContext<HotelsState>;

export function hotelsPage(ctx: Ctx, req: SiteRequest, title: string, main: Raw): string {
  const href = hrefs(ctx);
  return layout({
    title,
    siteName: ctx.state.siteName,
    theme: 'theme-hotels',
    homeHref: href('/'),
    nav: html`<ul><li><a href="${href('/')}">Find a hotel</a></li><li><a href="${href('/trips')}">My bookings</a></li><li><a href="${href('/help')}">Help</a></li></ul>`,
    main,
    overlay: cookieBanner(ctx.state.ui, href, currentPath(req)),
  });
}

function errorList(errors: Record<string, string | undefined>): Raw | '' {
  const list = Object.values(errors).filter(Boolean) as string[];
  return list.length ? html`<div class="errors" role="alert"><p>Please correct the following:</p><ul>${list.map((e) => html`<li>${e}</li>`)}</ul></div>` : '';
}

function field(id: string, name: string, label: string, value: string, err: string | undefined, extra: Raw | string = ''): Raw {
  return html`<div class="field"><label for="${id}">${label}</label><input id="${id}" type="text" name="${name}" value="${value}"${err ? html` aria-invalid="true" aria-describedby="${id}-err"` : ''}${extra}>${err ? html`<p class="field-error" id="${id}-err">${err}</p>` : ''}</div>`;
}

export function searchForm(ctx: Ctx, q: Pick<HotelQuery, 'city' | 'checkin' | 'checkout' | 'guests'>, errors: SearchErrors = {}): Raw {
  const href = hrefs(ctx);
  return html`<form class="hotel-search" role="search" method="get" action="${href('/search')}" aria-label="Search hotels">
${field('h-city', 'city', 'Destination', q.city, errors.city, html` placeholder="City"`)}
${field('h-in', 'checkin', 'Check-in date', q.checkin, errors.checkin, html` placeholder="YYYY-MM-DD"`)}
${field('h-out', 'checkout', 'Check-out date', q.checkout, errors.checkout, html` placeholder="YYYY-MM-DD"`)}
<div class="field"><label for="h-guests">Guests</label><input id="h-guests" type="number" name="guests" min="1" max="6" value="${q.guests}"${errors.guests ? html` aria-invalid="true"` : ''}>${errors.guests ? html`<p class="field-error">${errors.guests}</p>` : ''}</div>
<button type="submit" class="primary">Search hotels</button>
</form>`;
}

export function homePage(ctx: Ctx, req: SiteRequest, q: HotelQuery, errors: SearchErrors = {}): string {
  const href = hrefs(ctx);
  return hotelsPage(
    ctx,
    req,
    'Find a hotel',
    html`<section class="hero"><h1>Find your next stay</h1><p>Best price guarantee on ${ctx.state.hotels.length} hotels.</p></section>
${errorList(errors)}
${searchForm(ctx, q, errors)}
<section><h2>Popular destinations</h2><ul class="chips">${ctx.state.cities.map((c) => html`<li><a href="${href('/city/' + encodeURIComponent(c))}">${c}</a></li>`)}</ul></section>`,
  );
}

export function cityPage(ctx: Ctx, req: SiteRequest, city: string): string {
  const hs = ctx.state.hotels.filter((h) => h.city === city).sort((a, b) => a.rank - b.rank);
  return hotelsPage(
    ctx,
    req,
    `Hotels in ${city}`,
    html`<h1>Hotels in ${city}</h1><p>Choose your dates to see prices and availability.</p>
${searchForm(ctx, { city, checkin: '', checkout: '', guests: '2' })}
<ul class="plain">${hs.map((h) => html`<li>${h.name}, ${h.stars}-star, ${h.neighborhood}</li>`)}</ul>`,
  );
}

function starsText(n: number): string {
  return `${n}-star hotel`;
}

function stayQuery(v: ValidSearch): Record<string, string | number> {
  return { checkin: v.checkin, checkout: v.checkout, guests: v.guests };
}

export function resultsPage(ctx: Ctx, req: SiteRequest, q: HotelQuery, v: ValidSearch): string {
  const href = hrefs(ctx);
  const { items, total, pages } = runSearch(ctx.state.hotels, v, q);
  const page = Math.min(q.page, pages);
  const base = { city: v.city, checkin: v.checkin, checkout: v.checkout, guests: v.guests, stars: q.stars, max_price: q.maxPrice, breakfast: q.breakfast ? 1 : undefined, sort: q.sort === 'recommended' ? undefined : q.sort };
  const pager =
    pages > 1
      ? html`<nav class="pager" aria-label="Pagination">
${page > 1 ? html`<a href="${href('/search', { ...base, page: page - 1 })}">Previous page</a>` : ''}
${Array.from({ length: pages }, (_, i) => i + 1).map((n) => (n === page ? html`<span aria-current="page">Page ${n}</span>` : html`<a href="${href('/search', { ...base, page: n })}">Page ${n}</a>`))}
${page < pages ? html`<a href="${href('/search', { ...base, page: page + 1 })}">Next page</a>` : ''}
</nav>`
      : '';
  const filters = html`<form class="filters" method="get" action="${href('/search')}" aria-label="Filters">
<input type="hidden" name="city" value="${v.city}"><input type="hidden" name="checkin" value="${v.checkin}"><input type="hidden" name="checkout" value="${v.checkout}"><input type="hidden" name="guests" value="${v.guests}">
<label for="f-stars">Minimum stars</label>
<select id="f-stars" name="stars">${STAR_OPTIONS.map((o) => html`<option value="${o.value}"${attr('selected', o.value === q.stars)}>${o.label}</option>`)}</select>
<label for="f-max">Max price per night ($)</label>
<input id="f-max" type="number" name="max_price" min="0" step="1" value="${q.maxPrice}">
<label class="check"><input type="checkbox" name="breakfast" value="1"${attr('checked', q.breakfast)}> Free breakfast</label>
<label for="f-sort">Sort by</label>
<select id="f-sort" name="sort">${SORTS.map((o) => html`<option value="${o.value}"${attr('selected', o.value === q.sort)}>${o.label}</option>`)}</select>
<button type="submit">Apply filters</button>
</form>`;
  const card = (x: { h: Hotel; price: number }) => html`<li class="card hotel-card">
<h3><a href="${href(`/hotel/${x.h.id}`, stayQuery(v))}">${x.h.name}</a></h3>
<p class="meta">${starsText(x.h.stars)} · ${x.h.neighborhood}</p>
<p class="meta">${x.h.rating.toFixed(1)} ${ratingWord(x.h.rating)} (${x.h.reviews.toLocaleString('en-US')} reviews)</p>
<p class="meta">${x.h.amenities.join(' · ')}</p>
<p class="price">from ${money(x.price)} per night</p>
<p class="meta">${money(x.price * v.nights)} for ${v.nights} night${v.nights > 1 ? 's' : ''}</p>
</li>`;
  const heading = `Hotels in ${v.city}`;
  return hotelsPage(
    ctx,
    req,
    heading,
    html`${searchForm(ctx, { city: v.city, checkin: v.checkin, checkout: v.checkout, guests: String(v.guests) })}
<div class="listing">
<aside>${filters}</aside>
<section>
<h1>${heading}</h1>
<p class="count" role="status">${total} ${total === 1 ? 'hotel' : 'hotels'} for ${dayMonthYear(v.checkin)} to ${dayMonthYear(v.checkout)}, ${v.guests} guest${v.guests > 1 ? 's' : ''}${pages > 1 ? ` · page ${page} of ${pages}` : ''}</p>
${items.length ? html`<ul class="grid">${items.map(card)}</ul>` : html`<p>No hotels match your filters. Try removing a filter.</p>`}
${pager}
<p class="meta">Showing up to ${PAGE_SIZE} hotels per page.</p>
</section>
</div>`,
  );
}

export function hotelPage(ctx: Ctx, req: SiteRequest, h: Hotel, v: ValidSearch | undefined, errors: SearchErrors = {}): string {
  const href = hrefs(ctx);
  const q = { city: h.city, checkin: v?.checkin ?? req.query.get('checkin') ?? '', checkout: v?.checkout ?? req.query.get('checkout') ?? '', guests: String(v?.guests ?? (req.query.get('guests') || '2')) };
  const roomRow = (r: Room) => html`<tr>
<th scope="row">${r.name}</th>
<td>Sleeps ${r.sleeps}</td>
<td>${money(r.price)} per night</td>
<td>${v ? money(r.price * v.nights) : '—'}</td>
<td>${r.refundable ? 'Free cancellation' : 'Non-refundable'}</td>
<td>${
    !v
      ? 'Choose dates'
      : r.sleeps < v.guests
        ? `Too small for ${v.guests} guests`
        : html`<form method="get" action="${href('/book')}" class="inline">
<input type="hidden" name="hotel" value="${h.id}"><input type="hidden" name="room" value="${r.id}"><input type="hidden" name="checkin" value="${v.checkin}"><input type="hidden" name="checkout" value="${v.checkout}"><input type="hidden" name="guests" value="${v.guests}">
<button type="submit" class="primary">Reserve ${r.name}</button>
</form>`
  }</td>
</tr>`;
  return hotelsPage(
    ctx,
    req,
    h.name,
    html`<p>${v ? html`<a href="${href('/search', { city: h.city, ...stayQuery(v) })}">Back to results</a>` : html`<a href="${href('/city/' + encodeURIComponent(h.city))}">More hotels in ${h.city}</a>`}</p>
<article class="hotel">
<h1>${h.name}</h1>
<p class="meta">${starsText(h.stars)} · ${h.address}</p>
<p class="meta">Guest rating ${h.rating.toFixed(1)} out of 10, ${ratingWord(h.rating)} (${h.reviews.toLocaleString('en-US')} reviews)</p>
<h2>Amenities</h2>
${h.amenities.length ? html`<ul>${h.amenities.map((a) => html`<li>${a}</li>`)}</ul>` : html`<p>No listed amenities.</p>`}
<h2>Rooms</h2>
${v ? html`<p>Prices for ${dayMonthYear(v.checkin)} to ${dayMonthYear(v.checkout)} (${v.nights} night${v.nights > 1 ? 's' : ''}), ${v.guests} guest${v.guests > 1 ? 's' : ''}.</p>` : html`<p>Enter your dates to reserve a room.</p>${errorList(errors)}${searchForm(ctx, q, errors)}`}
<table class="cart rooms">
<thead><tr><th scope="col">Room</th><th scope="col">Sleeps</th><th scope="col">Price per night</th><th scope="col">Total</th><th scope="col">Cancellation</th><th scope="col">Reserve</th></tr></thead>
<tbody>${h.rooms.map(roomRow)}</tbody>
</table>
</article>`,
  );
}

export interface BookForm {
  first: string;
  last: string;
  email: string;
  requests: string;
  agree: boolean;
  errors: Partial<Record<'first' | 'last' | 'email' | 'agree', string>>;
}

export function bookPage(ctx: Ctx, req: SiteRequest, h: Hotel, r: Room, v: ValidSearch, f: BookForm): string {
  const href = hrefs(ctx);
  return hotelsPage(
    ctx,
    req,
    'Your booking',
    html`<p><a href="${href(`/hotel/${h.id}`, stayQuery(v))}">Back to ${h.name}</a></p>
<h1>Complete your booking</h1>
<section class="summary" aria-label="Booking summary">
<h2>${h.name}</h2>
<p>${r.name} · ${dayMonthYear(v.checkin)} to ${dayMonthYear(v.checkout)} · ${v.nights} night${v.nights > 1 ? 's' : ''} · ${v.guests} guest${v.guests > 1 ? 's' : ''}</p>
<p class="price">Total ${money(r.price * v.nights)}</p>
</section>
${errorList(f.errors)}
<form class="booking" method="post" action="${href('/book')}" novalidate>
<input type="hidden" name="hotel" value="${h.id}"><input type="hidden" name="room" value="${r.id}"><input type="hidden" name="checkin" value="${v.checkin}"><input type="hidden" name="checkout" value="${v.checkout}"><input type="hidden" name="guests" value="${v.guests}">
${field('b-first', 'first', 'First name', f.first, f.errors.first)}
${field('b-last', 'last', 'Last name', f.last, f.errors.last)}
${field('b-email', 'email', 'Email', f.email, f.errors.email)}
<div class="field"><label for="b-req">Special requests (optional)</label><textarea id="b-req" name="requests" rows="3">${f.requests}</textarea></div>
<div class="field"><label class="check"><input type="checkbox" name="agree" value="1"${attr('checked', f.agree)}${f.errors.agree ? html` aria-invalid="true"` : ''}> I accept the cancellation policy</label>${f.errors.agree ? html`<p class="field-error">${f.errors.agree}</p>` : ''}</div>
<p class="meta">${r.refundable ? 'Free cancellation until 48 hours before check-in.' : 'This rate is non-refundable.'}</p>
<button type="submit" class="primary">Confirm booking</button>
</form>`,
  );
}

export function confirmationPage(ctx: Ctx, req: SiteRequest, b: HotelBooking): string {
  const href = hrefs(ctx);
  const h = ctx.state.hotels.find((x) => x.id === b.hotel)!;
  const r = h.rooms.find((x) => x.id === b.room)!;
  return hotelsPage(
    ctx,
    req,
    'Booking confirmed',
    html`<h1>Booking confirmed</h1>
<p class="notice" role="status">Your confirmation number is ${b.code}. We sent the details to ${b.email}.</p>
<dl class="headers">
<dt>Hotel</dt><dd>${h.name}, ${h.city}</dd>
<dt>Room</dt><dd>${r.name}</dd>
<dt>Dates</dt><dd>${dayMonthYear(b.checkin)} to ${dayMonthYear(b.checkout)}</dd>
<dt>Guests</dt><dd>${b.guests}</dd>
<dt>Guest name</dt><dd>${b.first} ${b.last}</dd>
<dt>Total</dt><dd>${money(b.total)}</dd>
</dl>
<p><a href="${href('/trips')}">View my bookings</a> · <a href="${href('/')}">Find another hotel</a></p>`,
  );
}

export function tripsPage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  const bs = ctx.state.bookings;
  return hotelsPage(
    ctx,
    req,
    'My bookings',
    html`<h1>My bookings</h1>
${bs.length ? html`<ul>${bs.map((b) => html`<li><a href="${href(`/confirmation/${b.code}`)}">${b.code}: ${ctx.state.hotels.find((h) => h.id === b.hotel)?.name}, ${dayMonthYear(b.checkin)}</a></li>`)}</ul>` : html`<p>You have no bookings yet.</p>`}`,
  );
}

export function helpPage(ctx: Ctx, req: SiteRequest): string {
  return hotelsPage(ctx, req, 'Help', html`<h1>Help</h1><p>Search by destination, dates and number of guests. Prices are per room per night and include taxes. Check-in is from 3 PM.</p>`);
}
