/** A hotel's page (its rooms as a table or cards), the booking form (fields in the variant's order) and the confirmation. */
import type { SiteRequest } from '../../types.ts';
import { attr, html, money, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { dayMonthYear } from '../common/dates.ts';
import { ratingWord, type Hotel, type HotelBooking, type Room } from './data.ts';
import type { SearchErrors, ValidSearch } from './query.ts';
import { errorList, field, hotelsPage, plural, searchForm, type Ctx } from './chrome.ts';
import { starsText, stayQuery } from './pages-results.ts';
import { say, type BookField, type Words } from './variant.ts';

/** What a room offers to this stay: its reserve button, or why it cannot be reserved. */
function reserveControl(ctx: Ctx, h: Hotel, r: Room, v: ValidSearch | undefined): Raw | string {
  if (!v) return 'Choose dates';
  if (r.sleeps < v.guests) return `Too small for ${v.guests} guests`;
  return html`<form method="get" action="${hrefs(ctx)('/book')}" class="inline">
<input type="hidden" name="hotel" value="${h.id}"><input type="hidden" name="room" value="${r.id}"><input type="hidden" name="checkin" value="${v.checkin}"><input type="hidden" name="checkout" value="${v.checkout}"><input type="hidden" name="guests" value="${v.guests}">
<button type="submit" class="primary">${say(ctx.state.variant.words.reserve, { room: r.name })}</button>
</form>`;
}

function roomsList(ctx: Ctx, h: Hotel, v: ValidSearch | undefined): Raw {
  const w = ctx.state.variant.words;
  const nightly = (r: Room) => say(w.perNight, { price: money(r.price) });
  const total = (r: Room) => (v ? money(r.price * v.nights) : '—');
  const policy = (r: Room) => (r.refundable ? 'Free cancellation' : 'Non-refundable');
  if (ctx.state.variant.roomsView === 'cards') {
    return html`<ul class="room-cards">${h.rooms.map(
      (r) => html`<li><h3>${r.name}</h3>
<p class="meta">Sleeps ${r.sleeps} · ${policy(r)}</p>
<p class="price">${nightly(r)}</p>
${v ? html`<p class="meta">${total(r)} for ${plural(v.nights, 'night')}</p>` : ''}
<p>${reserveControl(ctx, h, r, v)}</p></li>`,
    )}</ul>`;
  }
  return html`<table class="cart rooms">
<thead><tr><th scope="col">Room</th><th scope="col">Sleeps</th><th scope="col">Price per night</th><th scope="col">Total</th><th scope="col">Cancellation</th><th scope="col">Reserve</th></tr></thead>
<tbody>${h.rooms.map((r) => html`<tr>
<th scope="row">${r.name}</th>
<td>Sleeps ${r.sleeps}</td>
<td>${nightly(r)}</td>
<td>${total(r)}</td>
<td>${policy(r)}</td>
<td>${reserveControl(ctx, h, r, v)}</td>
</tr>`)}</tbody>
</table>`;
}

export function hotelPage(ctx: Ctx, req: SiteRequest, h: Hotel, v: ValidSearch | undefined, errors: SearchErrors = {}): string {
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  const q = { city: h.city, checkin: v?.checkin ?? req.query.get('checkin') ?? '', checkout: v?.checkout ?? req.query.get('checkout') ?? '', guests: String(v?.guests ?? (req.query.get('guests') || '2')) };
  return hotelsPage(
    ctx,
    req,
    h.name,
    html`<p>${v ? html`<a href="${href('/search', { city: h.city, ...stayQuery(v) })}">${w.backToResults}</a>` : html`<a href="${href('/city/' + encodeURIComponent(h.city))}">${say(w.moreInCity, { city: h.city })}</a>`}</p>
<article class="hotel">
<h1>${h.name}</h1>
<p class="meta">${starsText(h.stars)} · ${h.address}</p>
<p class="meta">Guest rating ${h.rating.toFixed(1)} out of 10, ${ratingWord(h.rating)} (${h.reviews.toLocaleString('en-US')} reviews)</p>
<h2>${w.amenities}</h2>
${h.amenities.length ? html`<ul>${h.amenities.map((a) => html`<li>${a}</li>`)}</ul>` : html`<p>No listed amenities.</p>`}
<h2>${w.rooms}</h2>
${v ? html`<p>Prices for ${dayMonthYear(v.checkin)} to ${dayMonthYear(v.checkout)} (${plural(v.nights, 'night')}), ${plural(v.guests, 'guest')}.</p>` : html`<p>Enter your dates to reserve a room.</p>${errorList(errors)}${searchForm(ctx, q, errors)}`}
${roomsList(ctx, h, v)}
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

function bookField(w: Words, k: BookField, f: BookForm): Raw {
  if (k === 'requests') return html`<div class="field"><label for="b-req">${w.requests}</label><textarea id="b-req" name="requests" rows="3">${f.requests}</textarea></div>`;
  const ids: Record<Exclude<BookField, 'requests'>, string> = { first: 'b-first', last: 'b-last', email: 'b-email' };
  return field(ids[k], k, w[k], f[k], f.errors[k]);
}

export function bookPage(ctx: Ctx, req: SiteRequest, h: Hotel, r: Room, v: ValidSearch, f: BookForm): string {
  const href = hrefs(ctx);
  const variant = ctx.state.variant;
  const w = variant.words;
  return hotelsPage(
    ctx,
    req,
    w.bookHeading,
    html`<p><a href="${href(`/hotel/${h.id}`, stayQuery(v))}">${say(w.backToHotel, { hotel: h.name })}</a></p>
<h1>${w.bookHeading}</h1>
<section class="summary" aria-label="Booking summary">
<h2>${h.name}</h2>
<p>${r.name} · ${dayMonthYear(v.checkin)} to ${dayMonthYear(v.checkout)} · ${plural(v.nights, 'night')} · ${plural(v.guests, 'guest')}</p>
<p class="price">Total ${money(r.price * v.nights)}</p>
</section>
${errorList(f.errors)}
<form class="booking" method="post" action="${href('/book')}" novalidate>
<input type="hidden" name="hotel" value="${h.id}"><input type="hidden" name="room" value="${r.id}"><input type="hidden" name="checkin" value="${v.checkin}"><input type="hidden" name="checkout" value="${v.checkout}"><input type="hidden" name="guests" value="${v.guests}">
${variant.bookFields.map((k) => bookField(w, k, f))}
<div class="field"><label class="check"><input type="checkbox" name="agree" value="1"${attr('checked', f.agree)}${f.errors.agree ? html` aria-invalid="true"` : ''}> ${w.agree}</label>${f.errors.agree ? html`<p class="field-error">${f.errors.agree}</p>` : ''}</div>
<p class="meta">${r.refundable ? 'Free cancellation until 48 hours before check-in.' : 'This rate is non-refundable.'}</p>
<button type="submit" class="primary">${w.confirm}</button>
</form>`,
  );
}

export function confirmationPage(ctx: Ctx, req: SiteRequest, b: HotelBooking): string {
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  const h = ctx.state.hotels.find((x) => x.id === b.hotel)!;
  const r = h.rooms.find((x) => x.id === b.room)!;
  return hotelsPage(
    ctx,
    req,
    w.confirmedHeading,
    html`<h1>${w.confirmedHeading}</h1>
<p class="notice" role="status">Your confirmation number is ${b.code}. We sent the details to ${b.email}.</p>
<dl class="headers">
<dt>Hotel</dt><dd>${h.name}, ${h.city}</dd>
<dt>Room</dt><dd>${r.name}</dd>
<dt>Dates</dt><dd>${dayMonthYear(b.checkin)} to ${dayMonthYear(b.checkout)}</dd>
<dt>Guests</dt><dd>${b.guests}</dd>
<dt>Guest name</dt><dd>${b.first} ${b.last}</dd>
<dt>Total</dt><dd>${money(b.total)}</dd>
</dl>
<p><a href="${href('/trips')}">${w.viewTrips}</a> · <a href="${href('/')}">${w.findAnother}</a></p>`,
  );
}
