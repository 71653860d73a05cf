/**
 * Search results: the search form again, the filters (in the variant's order, beside the results or
 * above them), the hotels as cards, a list or a table, and the pager, all in the site's words.
 */
import type { SiteRequest } from '../../types.ts';
import { attr, html, money, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { dayMonthYear } from '../common/dates.ts';
import { ratingWord, type Hotel } from './data.ts';
import { PAGE_SIZE, SORTS, STAR_OPTIONS, runSearch, type HotelQuery, type ValidSearch } from './query.ts';
import { hotelsPage, plural, searchForm, type Ctx } from './chrome.ts';
import { say, sortLabel, starsLabel, type FilterKey, type Words } from './variant.ts';

type Item = { h: Hotel; price: number };

/** The stay a results page or hotel page is about, as query parameters. */
export function stayQuery(v: ValidSearch): Record<string, string | number> {
  return { checkin: v.checkin, checkout: v.checkout, guests: v.guests };
}

export function starsText(n: number): string {
  return `${n}-star hotel`;
}

function filterControl(w: Words, k: FilterKey, q: HotelQuery): Raw {
  switch (k) {
    case 'stars':
      return html`<div class="filter"><label for="f-stars">${w.stars}</label>
<select id="f-stars" name="stars">${STAR_OPTIONS.map((o) => html`<option value="${o}"${attr('selected', o === q.stars)}>${starsLabel(w, o)}</option>`)}</select></div>`;
    case 'maxPrice':
      return html`<div class="filter"><label for="f-max">${w.maxPrice}</label>
<input id="f-max" type="number" name="max_price" min="0" step="1" value="${q.maxPrice}"></div>`;
    case 'breakfast':
      return html`<div class="filter"><label class="check"><input type="checkbox" name="breakfast" value="1"${attr('checked', q.breakfast)}> ${w.breakfast}</label></div>`;
    case 'sort':
      return html`<div class="filter"><label for="f-sort">${w.sort}</label>
<select id="f-sort" name="sort">${SORTS.map((o) => html`<option value="${o}"${attr('selected', o === q.sort)}>${sortLabel(w, o)}</option>`)}</select></div>`;
  }
}

function filtersForm(ctx: Ctx, q: HotelQuery, v: ValidSearch): Raw {
  const variant = ctx.state.variant;
  return html`<form class="filters" method="get" action="${hrefs(ctx)('/search')}" aria-label="Filters">
<input type="hidden" name="city" value="${v.city}"><input type="hidden" name="checkin" value="${v.checkin}"><input type="hidden" name="checkout" value="${v.checkout}"><input type="hidden" name="guests" value="${v.guests}">
${variant.filters.map((k) => filterControl(variant.words, k, q))}
<button type="submit">${variant.words.apply}</button>
</form>`;
}

/** The hotels of one page in the variant's view; every hotel's name is a link to its page. */
function hotelsList(ctx: Ctx, items: Item[], v: ValidSearch): Raw {
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  const link = (h: Hotel) => html`<a href="${href(`/hotel/${h.id}`, stayQuery(v))}">${h.name}</a>`;
  const rating = (h: Hotel) => `${h.rating.toFixed(1)} ${ratingWord(h.rating)} (${h.reviews.toLocaleString('en-US')} reviews)`;
  const from = (x: Item) => `from ${say(w.perNight, { price: money(x.price) })}`;
  const total = (x: Item) => `${money(x.price * v.nights)} for ${plural(v.nights, 'night')}`;
  switch (ctx.state.variant.resultsView) {
    case 'cards':
      return html`<ul class="grid">${items.map(
        (x) => html`<li class="card hotel-card">
<h3>${link(x.h)}</h3>
<p class="meta">${starsText(x.h.stars)} · ${x.h.neighborhood}</p>
<p class="meta">${rating(x.h)}</p>
<p class="meta">${x.h.amenities.join(' · ')}</p>
<p class="price">${from(x)}</p>
<p class="meta">${total(x)}</p>
</li>`,
      )}</ul>`;
    case 'list':
      return html`<ul class="hotel-rows">${items.map(
        (x) => html`<li><div><h3>${link(x.h)}</h3>
<p class="meta">${starsText(x.h.stars)} · ${x.h.neighborhood} · ${rating(x.h)}</p>
<p class="meta">${x.h.amenities.join(' · ')}</p></div>
<div><p class="price">${from(x)}</p><p class="meta">${total(x)}</p></div></li>`,
      )}</ul>`;
    case 'table':
      return html`<table class="cart hotel-table"><thead><tr><th scope="col">Hotel</th><th scope="col">Stars</th><th scope="col">Area</th><th scope="col">Rating</th><th scope="col">${w.amenities}</th><th scope="col">Price</th></tr></thead>
<tbody>${items.map((x) => html`<tr><td>${link(x.h)}</td><td>${x.h.stars}</td><td>${x.h.neighborhood}</td><td>${rating(x.h)}</td><td>${x.h.amenities.join(', ') || '—'}</td><td>${from(x)}; ${total(x)}</td></tr>`)}</tbody></table>`;
  }
}

function pager(ctx: Ctx, base: Record<string, string | number | undefined>, page: number, pages: number): Raw | '' {
  if (pages <= 1) return '';
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  const to = (n: number) => href('/search', { ...base, page: n });
  const label = (n: number) => say(w.pageN, { n });
  return html`<nav class="pager" aria-label="Pagination">
${page > 1 ? html`<a href="${to(page - 1)}">${w.prevPage}</a>` : ''}
${Array.from({ length: pages }, (_, i) => i + 1).map((n) => (n === page ? html`<span aria-current="page">${label(n)}</span>` : html`<a href="${to(n)}">${label(n)}</a>`))}
${page < pages ? html`<a href="${to(page + 1)}">${w.nextPage}</a>` : ''}
</nav>`;
}

export function resultsPage(ctx: Ctx, req: SiteRequest, q: HotelQuery, v: ValidSearch): string {
  const variant = ctx.state.variant;
  const { items, total, pages } = runSearch(ctx.state.hotels, v, q);
  const page = Math.min(q.page, pages);
  const base = { city: v.city, checkin: v.checkin, checkout: v.checkout, guests: v.guests, stars: q.stars, max_price: q.maxPrice, breakfast: q.breakfast ? 1 : undefined, sort: q.sort === 'recommended' ? undefined : q.sort };
  const heading = say(variant.words.resultsHeading, { city: v.city });
  const filters = filtersForm(ctx, q, v);
  const top = variant.filtersPlacement === 'top';
  return hotelsPage(
    ctx,
    req,
    heading,
    html`${searchForm(ctx, { city: v.city, checkin: v.checkin, checkout: v.checkout, guests: String(v.guests) })}
<div class="listing${top ? ' filters-top' : ''}">
${top ? '' : html`<aside>${filters}</aside>`}
<section>
<h1>${heading}</h1>
${top ? filters : ''}
<p class="count" role="status">${total} ${total === 1 ? 'hotel' : 'hotels'} for ${dayMonthYear(v.checkin)} to ${dayMonthYear(v.checkout)}, ${plural(v.guests, 'guest')}${pages > 1 ? ` · page ${page} of ${pages}` : ''}</p>
${items.length ? hotelsList(ctx, items, v) : html`<p>No hotels match your filters. Try removing a filter.</p>`}
${pager(ctx, base, page, pages)}
<p class="meta">Showing up to ${PAGE_SIZE} hotels per page.</p>
</section>
</div>`,
  );
}
