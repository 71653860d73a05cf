/** Real-estate pages: search listing with filters, home detail with facts and a tour request form. */
import type { InstanceContext, SiteRequest } from '../../types.ts';
import { attr, html, layout, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { dayMonthYear } from '../common/dates.ts';
import { TOUR_TIMES, TYPES, timeLabel, type Home, type RealEstateState, type Tour } from './data.ts';

export type Ctx = InstanceContext<RealEstateState>;

export const SORTS = [
  { value: 'newest', label: 'Newest listings' },
  { value: 'price_asc', label: 'Price (low to high)' },
  { value: 'price_desc', label: 'Price (high to low)' },
  { value: 'sqft', label: 'Square feet' },
] as const;
export const BEDS = [
  { value: '', label: 'Any' },
  { value: '1', label: '1+' },
  { value: '2', label: '2+' },
  { value: '3', label: '3+' },
  { value: '4', label: '4+' },
  { value: '5', label: '5+' },
] as const;
export const PAGE_SIZE = 9;

export const dollars = (n: number) => `$${n.toLocaleString('en-US')}`;

export function rePage(ctx: Ctx, title: string, main: Raw, q = ''): string {
  const href = hrefs(ctx);
  return layout({
    title,
    siteName: ctx.state.siteName,
    theme: 'theme-homes',
    homeHref: href('/'),
    header: html`<form class="search" role="search" method="get" action="${href('/homes')}">
<input type="search" name="q" value="${q}" aria-label="City, neighborhood or address" placeholder="City, neighborhood or address">
<button type="submit">Search homes</button>
</form>`,
    nav: html`<ul><li><a href="${href('/homes')}">Homes for sale</a></li><li><a href="${href('/saved')}">Saved homes (${ctx.state.saved.length})</a></li><li><a href="${href('/tours')}">My tours</a></li></ul>`,
    main,
  });
}

function card(ctx: Ctx, h: Home): Raw {
  return html`<li class="card">
<h3><a href="${hrefs(ctx)(`/home/${h.id}`)}">${h.address}, ${h.city}</a></h3>
<p class="price">${dollars(h.price)}</p>
<p class="meta">${h.type} · ${h.beds} bd · ${h.baths} ba · ${h.sqft.toLocaleString('en-US')} sq ft</p>
<p class="meta">${h.neighborhood} · ${h.daysListed === 0 ? 'New today' : `${h.daysListed} days on market`}</p>
</li>`;
}

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
    beds: BEDS.some((b) => b.value === q.get('beds')) ? q.get('beds')! : '',
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

export function homePage(ctx: Ctx): string {
  const href = hrefs(ctx);
  const cities = [...new Set(ctx.state.homes.map((h) => h.city))].sort();
  return rePage(
    ctx,
    'Find a home',
    html`<section class="hero"><h1>Find your next home</h1><p>${ctx.state.homes.length} homes for sale. Request a tour in minutes.</p></section>
<section><h2>Browse by city</h2><ul class="chips">${cities.map((c) => html`<li><a href="${href('/homes', { q: c })}">Homes in ${c}</a></li>`)}</ul></section>`,
  );
}

export function listPage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  const q = parseHomeQuery(req.query);
  const all = runHomeQuery(ctx.state.homes, q);
  const pages = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
  const page = Math.min(q.page, pages);
  const items = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const base = { q: q.q, type: q.type, beds: q.beds, max_price: q.maxPrice, sort: q.sort === 'newest' ? undefined : q.sort };
  const heading = q.q ? `Homes for sale: ${q.q}` : 'Homes for sale';
  return rePage(
    ctx,
    heading,
    html`<div class="listing">
<aside><form class="filters" method="get" action="${href('/homes')}" aria-label="Filters">
<input type="hidden" name="q" value="${q.q}">
<label for="f-type">Home type</label>
<select id="f-type" name="type"><option value="">Any type</option>${TYPES.map((t) => html`<option value="${t}"${attr('selected', t === q.type)}>${t}</option>`)}</select>
<label for="f-beds">Bedrooms</label>
<select id="f-beds" name="beds">${BEDS.map((b) => html`<option value="${b.value}"${attr('selected', b.value === q.beds)}>${b.label}</option>`)}</select>
<label for="f-max">Max price ($)</label>
<input id="f-max" type="number" name="max_price" min="0" step="1000" value="${q.maxPrice}">
<label for="f-sort">Sort by</label>
<select id="f-sort" name="sort">${SORTS.map((o) => html`<option value="${o.value}"${attr('selected', o.value === q.sort)}>${o.label}</option>`)}</select>
<button type="submit">Apply filters</button>
</form></aside>
<section>
<h1>${heading}</h1>
<p class="count" role="status">${all.length} ${all.length === 1 ? 'home' : 'homes'}${pages > 1 ? ` · page ${page} of ${pages}` : ''}</p>
${items.length ? html`<ul class="grid">${items.map((h) => card(ctx, h))}</ul>` : html`<p>No homes match. Try a different area or fewer filters.</p>`}
${pages > 1 ? html`<nav class="pager" aria-label="Pagination">${page > 1 ? html`<a href="${href('/homes', { ...base, page: page - 1 })}">Previous page</a>` : ''} ${page < pages ? html`<a href="${href('/homes', { ...base, page: page + 1 })}">Next page</a>` : ''}</nav>` : ''}
</section>
</div>`,
    q.q,
  );
}

export interface TourForm {
  date: string;
  time: string;
  name: string;
  email: string;
  phone: string;
  errors: Partial<Record<'date' | 'time' | 'name' | 'email' | 'phone', string>>;
}

export function detailPage(ctx: Ctx, h: Home, f: TourForm, notice?: string): string {
  const href = hrefs(ctx);
  const saved = ctx.state.saved.includes(h.id);
  const errs = Object.values(f.errors);
  const inv = (k: keyof TourForm['errors']) => (f.errors[k] ? html` aria-invalid="true" aria-describedby="t-${k}-err"` : '');
  const err = (k: keyof TourForm['errors']) => (f.errors[k] ? html`<p class="field-error" id="t-${k}-err">${f.errors[k]}</p>` : '');
  const text = (k: 'date' | 'name' | 'email' | 'phone', label: string, ph = '') => html`<div class="field"><label for="t-${k}">${label}</label><input id="t-${k}" type="text" name="${k}" value="${f[k]}"${ph ? html` placeholder="${ph}"` : ''}${inv(k)}>${err(k)}</div>`;
  return rePage(
    ctx,
    `${h.address}, ${h.city}`,
    html`<p><a href="${href('/homes', { q: h.city })}">More homes in ${h.city}</a></p>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<article class="home">
<h1>${h.address}, ${h.city}</h1>
<p class="price">${dollars(h.price)}</p>
<form method="post" action="${href(`/home/${h.id}/save`)}" class="inline"><button type="submit" aria-pressed="${saved ? 'true' : 'false'}">${saved ? 'Unsave home' : 'Save home'}</button></form>
<h2>Facts and features</h2>
<table class="cart facts"><tbody>
<tr><th scope="row">Home type</th><td>${h.type}</td></tr>
<tr><th scope="row">Bedrooms</th><td>${h.beds}</td></tr>
<tr><th scope="row">Bathrooms</th><td>${h.baths}</td></tr>
<tr><th scope="row">Square feet</th><td>${h.sqft.toLocaleString('en-US')}</td></tr>
<tr><th scope="row">Year built</th><td>${h.yearBuilt}</td></tr>
<tr><th scope="row">HOA fee</th><td>${h.hoa ? `${dollars(h.hoa)} per month` : 'None'}</td></tr>
<tr><th scope="row">Neighborhood</th><td>${h.neighborhood}</td></tr>
<tr><th scope="row">Listing agent</th><td>${h.agent}</td></tr>
</tbody></table>
<section class="reserve" aria-label="Request a tour">
<h2>Request a tour</h2>
${errs.length ? html`<div class="errors" role="alert"><p>Please correct the following:</p><ul>${errs.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
<form class="booking" method="post" action="${href(`/home/${h.id}/tour`)}" novalidate>
${text('date', 'Tour date', 'YYYY-MM-DD')}
<div class="field"><label for="t-time">Tour time</label><select id="t-time" name="time"${inv('time')}><option value="">Choose a time</option>${TOUR_TIMES.map((t) => html`<option value="${t}"${attr('selected', t === f.time)}>${timeLabel(t)}</option>`)}</select>${err('time')}</div>
${text('name', 'Your name')}
${text('email', 'Email')}
${text('phone', 'Phone')}
<button type="submit" class="primary">Request tour</button>
</form>
</section>
</article>`,
  );
}

export function tourPage(ctx: Ctx, t: Tour): string {
  const href = hrefs(ctx);
  const h = ctx.state.homes.find((x) => x.id === t.home)!;
  return rePage(
    ctx,
    'Tour requested',
    html`<h1>Tour requested</h1>
<p class="notice" role="status">${h.agent} will meet you at ${h.address} on ${dayMonthYear(t.date)} at ${timeLabel(t.time)}. Reference ${t.code}.</p>
<p><a href="${href('/tours')}">My tours</a> · <a href="${href('/homes')}">Keep looking</a></p>`,
  );
}

export function simpleList(ctx: Ctx, title: string, body: Raw): string {
  return rePage(ctx, title, html`<h1>${title}</h1>${body}`);
}
