/** Real-estate pages: the home page with its sections, and the search listing with filters, sort and pages. */
import type { SiteRequest } from '../../types.ts';
import { attr, html, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { TYPES, type Home } from './data.ts';
import { dollars, rePage, type Ctx } from './chrome.ts';
import { bedsLabel, countLabel, fill, type FilterKey, type SectionKey, type Words } from './variant.ts';

/** Sort orders: the value in the URL and the key of its name on this site. */
export const SORTS = [
  { value: 'newest', word: 'sortNewest' },
  { value: 'price_asc', word: 'sortPriceAsc' },
  { value: 'price_desc', word: 'sortPriceDesc' },
  { value: 'sqft', word: 'sortSqft' },
] as const satisfies ReadonlyArray<{ value: string; word: keyof Words }>;
/** The bedrooms filter's values: any, or at least 1 to 5. */
export const BEDS = ['', '1', '2', '3', '4', '5'] as const;
export const PAGE_SIZE = 9;

export interface HomeQuery {
  q: string;
  type: string;
  beds: string;
  maxPrice: string;
  sort: string;
  page: number;
}

export function parseHomeQuery(q: URLSearchParams): HomeQuery {
  return {
    q: (q.get('q') ?? '').trim(),
    type: (TYPES as readonly string[]).includes(q.get('type') ?? '') ? q.get('type')! : '',
    beds: (BEDS as readonly string[]).includes(q.get('beds') ?? '') ? q.get('beds')! : '',
    maxPrice: (q.get('max_price') ?? '').trim(),
    sort: SORTS.some((s) => s.value === q.get('sort')) ? q.get('sort')! : 'newest',
    page: Math.max(1, Math.floor(Number(q.get('page') ?? '1')) || 1),
  };
}

export function runHomeQuery(homes: Home[], q: HomeQuery): Home[] {
  const words = q.q.toLowerCase().replace(/,/g, ' ').split(/\s+/).filter(Boolean);
  const max = Number(q.maxPrice.replace(/[$,]/g, ''));
  const by: Record<string, (a: Home, b: Home) => number> = {
    newest: (a, b) => a.daysListed - b.daysListed || a.id - b.id,
    price_asc: (a, b) => a.price - b.price,
    price_desc: (a, b) => b.price - a.price,
    sqft: (a, b) => b.sqft - a.sqft || a.id - b.id,
  };
  return homes
    .filter((h) => words.every((w) => `${h.address} ${h.city} ${h.neighborhood}`.toLowerCase().includes(w)))
    .filter((h) => !q.type || h.type === q.type)
    .filter((h) => !q.beds || h.beds >= Number(q.beds))
    .filter((h) => !q.maxPrice || !Number.isFinite(max) || h.price <= max)
    .sort(by[q.sort]);
}

// ---- the home page ----

function heroSection(ctx: Ctx): Raw {
  const w = ctx.state.variant.words;
  return html`<section class="hero"><h1>${w.heroHeading}</h1><p>${ctx.state.homes.length} homes for sale. Request a tour in minutes.</p></section>`;
}

function citiesSection(ctx: Ctx): Raw {
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  const cities = [...new Set(ctx.state.homes.map((h) => h.city))].sort();
  return html`<section><h2>${w.citiesHeading}</h2><ul class="chips">${cities.map((c) => html`<li><a href="${href('/homes', { q: c })}">${fill(w.cityLink, { city: c })}</a></li>`)}</ul></section>`;
}

/** A distractor: a promo box pointing at one of the site's plain pages. */
function promo(ctx: Ctx, heading: string, text: string, link: string, path: string): Raw {
  return html`<section class="promo"><h2>${heading}</h2><p>${text}</p><p><a href="${hrefs(ctx)(path)}">${link}</a></p></section>`;
}

const SECTIONS: Record<SectionKey, (ctx: Ctx) => Raw> = {
  hero: heroSection,
  cities: citiesSection,
  rates: (ctx) => promo(ctx, 'Mortgage rates this week', 'Fixed rates are down a little since last month.', 'Compare mortgage rates', '/mortgage'),
  selling: (ctx) => promo(ctx, 'Thinking of selling?', 'Find out what your place could be worth.', 'Get a free valuation', '/sell'),
  guides: (ctx) => promo(ctx, 'Moving soon?', 'Checklists for packing, utilities and your first week.', 'Read the moving guides', '/guides'),
};

export function homePage(ctx: Ctx): string {
  return rePage(ctx, 'Find a home', html`${ctx.state.variant.sections.map((k) => SECTIONS[k](ctx))}`);
}

// ---- the search listing ----

function filterControl(w: Words, q: HomeQuery, k: FilterKey): Raw {
  const controls: Record<FilterKey, () => Raw> = {
    type: () =>
      html`<label for="f-type">${w.filterType}</label>
<select id="f-type" name="type"><option value="">${w.anyType}</option>${TYPES.map((t) => html`<option value="${t}"${attr('selected', t === q.type)}>${t}</option>`)}</select>`,
    beds: () =>
      html`<label for="f-beds">${w.filterBeds}</label>
<select id="f-beds" name="beds">${BEDS.map((b) => html`<option value="${b}"${attr('selected', b === q.beds)}>${b ? bedsLabel(w, b) : w.anyBeds}</option>`)}</select>`,
    maxPrice: () =>
      html`<label for="f-max">${w.filterMaxPrice}</label>
<input id="f-max" type="number" name="max_price" min="0" step="1000" value="${q.maxPrice}">`,
    sort: () =>
      html`<label for="f-sort">${w.filterSort}</label>
<select id="f-sort" name="sort">${SORTS.map((o) => html`<option value="${o.value}"${attr('selected', o.value === q.sort)}>${w[o.word]}</option>`)}</select>`,
  };
  return html`<div class="filter">${controls[k]()}</div>`;
}

function filterForm(ctx: Ctx, q: HomeQuery): Raw {
  const v = ctx.state.variant;
  return html`<form class="filters" method="get" action="${hrefs(ctx)('/homes')}" aria-label="Filters">
<input type="hidden" name="q" value="${q.q}">
${v.filters.map((k) => filterControl(v.words, q, k))}
<button type="submit">${v.words.applyFilters}</button>
</form>`;
}

const facts = (h: Home) => `${h.type} · ${h.beds} bd · ${h.baths} ba · ${h.sqft.toLocaleString('en-US')} sq ft`;
const onMarket = (h: Home) => (h.daysListed === 0 ? 'New today' : `${h.daysListed} days on market`);

/** The results in the variant's view; every view names a home by one link, "address, city". */
function results(ctx: Ctx, items: Home[]): Raw {
  const href = hrefs(ctx);
  const link = (h: Home) => html`<a href="${href(`/home/${h.id}`)}">${h.address}, ${h.city}</a>`;
  const view = ctx.state.variant.listView;
  if (view === 'table') {
    return html`<table class="cart homes-table"><thead><tr><th scope="col">Address</th><th scope="col">Price</th><th scope="col">Type</th><th scope="col">Beds</th><th scope="col">Baths</th><th scope="col">Sq ft</th><th scope="col">Neighborhood</th></tr></thead>
<tbody>${items.map((h) => html`<tr><td>${link(h)}</td><td class="price">${dollars(h.price)}</td><td>${h.type}</td><td>${h.beds}</td><td>${h.baths}</td><td>${h.sqft.toLocaleString('en-US')}</td><td>${h.neighborhood}</td></tr>`)}</tbody></table>`;
  }
  if (view === 'list') {
    return html`<ul class="homes-list">${items.map((h) => html`<li>${link(h)} · <strong>${dollars(h.price)}</strong><span class="meta">${facts(h)} · ${h.neighborhood} · ${onMarket(h)}</span></li>`)}</ul>`;
  }
  return html`<ul class="grid">${items.map(
    (h) => html`<li class="card">
<h3>${link(h)}</h3>
<p class="price">${dollars(h.price)}</p>
<p class="meta">${facts(h)}</p>
<p class="meta">${h.neighborhood} · ${onMarket(h)}</p>
</li>`,
  )}</ul>`;
}

export function listPage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  const w = v.words;
  const q = parseHomeQuery(req.query);
  const all = runHomeQuery(ctx.state.homes, q);
  const pages = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
  const page = Math.min(q.page, pages);
  const items = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const base = { q: q.q, type: q.type, beds: q.beds, max_price: q.maxPrice, sort: q.sort === 'newest' ? undefined : q.sort };
  const heading = q.q ? `${w.navHomes}: ${q.q}` : w.navHomes;
  const pager = html`<nav class="pager" aria-label="Pagination">${page > 1 ? html`<a href="${href('/homes', { ...base, page: page - 1 })}">${w.prevPage}</a>` : ''} ${page < pages ? html`<a href="${href('/homes', { ...base, page: page + 1 })}">${w.nextPage}</a>` : ''}</nav>`;
  // Filters in a bar sit under the heading; beside the results they fill their own column.
  const top = v.filtersPlacement === 'top';
  const found = html`<section>
<h1>${heading}</h1>
${top ? filterForm(ctx, q) : ''}
<p class="count" role="status">${countLabel(w, all.length)}${pages > 1 ? ` · page ${page} of ${pages}` : ''}</p>
${items.length ? results(ctx, items) : html`<p>No homes match. Try a different area or fewer filters.</p>`}
${pages > 1 ? pager : ''}
</section>`;
  const body = top ? html`<div class="listing-top">${found}</div>` : html`<div class="listing"><aside>${filterForm(ctx, q)}</aside>${found}</div>`;
  return rePage(ctx, heading, body, q.q);
}
