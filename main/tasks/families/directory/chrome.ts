/**
 * What every directory page shares: the header with search, navigation in the instance's order and
 * words, the overlay (cookie banner or newsletter dialog), listing links that name their town, the
 * decoy boxes, the list of listings in the instance's layout, the filter form and the pager.
 */
import type { InstanceContext, SiteRequest } from '../../types.ts';
import { attr, html, layout, type Raw } from '../common/html.ts';
import { cookieBanner, currentPath, hrefs } from '../common/site.ts';
import { DAY_KEYS, DAY_NAMES, SATURDAY, SUNDAY } from './hours.ts';
import { MIN_RATINGS, SORT_KEYS, typeSlug } from './query.ts';
import { dayCheckboxLabel, ratingLabel, type NavKey } from './look.ts';
import { categoryOf, listingById, listingLabel, townOf, type DirectoryState, type Listing, type ListingQuery } from './data.ts';

export type Ctx = InstanceContext<DirectoryState>;
export type Href = ReturnType<typeof hrefs>;

const NAV_PATHS: Record<NavKey, string> = { home: '/', categories: '/categories', saved: '/saved', popular: '/popular', help: '/help' };

export function listingPath(l: Listing): string {
  return `/place/${l.id}`;
}

export function directoryPage(ctx: Ctx, req: SiteRequest, title: string, main: Raw, q = ''): string {
  const s = ctx.state;
  const w = s.look.words;
  const href = hrefs(ctx);
  return layout({
    title,
    siteName: s.siteName,
    theme: s.look.theme,
    homeHref: href('/'),
    header: html`<form class="search" role="search" method="get" action="${href('/search')}">
<input type="search" name="q" value="${q}" aria-label="${w.searchBox}" placeholder="${w.searchBox}">
<button type="submit">${w.searchButton}</button>
</form>`,
    nav: html`<ul>${s.look.navOrder.map((k) => html`<li><a href="${href(NAV_PATHS[k])}">${k === 'saved' ? `${w.nav.saved} (${s.saved.length})` : w.nav[k]}</a></li>`)}</ul>`,
    main,
    overlay: overlay(ctx, req, href),
  });
}

function overlay(ctx: Ctx, req: SiteRequest, href: Href): Raw | undefined {
  const s = ctx.state;
  const w = s.look.words;
  if (s.look.overlay === 'cookie') return cookieBanner(s.ui, href, currentPath(req));
  if (s.look.overlay === 'none' || s.ui.cookiesDismissed) return undefined;
  return html`<div class="modal-backdrop"><div class="modal" role="dialog" aria-labelledby="dir-dialog-title"><form method="post" action="${href('/dialog')}">
<input type="hidden" name="return" value="${currentPath(req)}">
<h2 id="dir-dialog-title">${w.dialogTitle}</h2>
<p>New ${s.listsWhat} in your area, once a week.</p>
<button type="submit" name="choice" value="join" class="primary">${w.join}</button>
<button type="submit" name="choice" value="dismiss" class="secondary">${w.dismiss}</button>
</form></div></div>`;
}

export function listingLink(ctx: Ctx, l: Listing): Raw {
  return html`<a href="${hrefs(ctx)(listingPath(l))}">${listingLabel(ctx.state, l)}</a>`;
}

/** Links to listings by id, in a plain list (features, picks, decoy boxes). */
export function linkList(ctx: Ctx, ids: number[]): Raw {
  const items = ids.map((id) => listingById(ctx.state, id)).filter((l): l is Listing => !!l);
  return html`<ul class="plain">${items.map((l) => html`<li>${listingLink(ctx, l)}</li>`)}</ul>`;
}

/** The decoy boxes the instance has: popular, recently viewed, a sponsored listing. None links an asked listing. */
export function decoyBoxes(ctx: Ctx): Raw {
  const s = ctx.state;
  const w = s.look.words;
  const sponsored = listingById(s, s.sponsored);
  const box = (label: string, body: Raw) => html`<aside class="summary" aria-label="${label}"><h2>${label}</h2>${body}</aside>`;
  return html`${s.look.decoys.map((d) => {
    if (d === 'popular') return box(w.popularHeading, linkList(ctx, s.popular.slice(0, 3)));
    if (d === 'recent') return box(w.recentHeading, linkList(ctx, s.recent));
    return sponsored ? box(w.sponsored, html`<p>${listingLink(ctx, sponsored)}: ${categoryOf(s, sponsored.category)?.name} you can trust.</p>`) : '';
  })}`;
}

export function stars(s: DirectoryState, l: Listing): string {
  return `${l.rating.toFixed(1)} ★ (${l.reviews} ${s.look.words.reviewsNoun})`;
}

/** Listings in the instance's layout: cards, a table or a list; `withCategory` adds each one's category (search). */
export function listingList(ctx: Ctx, items: Listing[], withCategory: boolean): Raw {
  const s = ctx.state;
  const w = s.look.words;
  const town = (l: Listing) => townOf(s, l.town)?.name ?? '';
  const category = (l: Listing) => (withCategory ? html` · ${categoryOf(s, l.category)?.name}` : '');
  if (s.look.listLayout === 'table') {
    return html`<table class="cart listings"><thead><tr><th scope="col">Name</th><th scope="col">${w.region}</th><th scope="col">${w.type}</th><th scope="col">${w.rating}</th></tr></thead><tbody>
${items.map((l) => html`<tr><td>${listingLink(ctx, l)}${category(l)}</td><td>${town(l)}</td><td>${l.type}</td><td>${stars(s, l)}</td></tr>`)}
</tbody></table>`;
  }
  if (s.look.listLayout === 'cards') {
    return html`<ul class="grid listings">${items.map((l) => html`<li class="card">
<h3>${listingLink(ctx, l)}</h3>
<p class="meta">${town(l)} · ${l.type}${category(l)}</p>
<p class="meta">${stars(s, l)}</p></li>`)}</ul>`;
  }
  return html`<ul class="results listings">${items.map((l) => html`<li>${listingLink(ctx, l)} <span class="meta">${town(l)} · ${l.type}${category(l)} · ${stars(s, l)}</span></li>`)}</ul>`;
}

/** The filter and sort form of a listing or search page, in the instance's words and controls. */
export function filterForm(ctx: Ctx, action: string, q: ListingQuery, withSearch: boolean): Raw {
  const s = ctx.state;
  const w = s.look.words;
  const select = (id: string, name: string, label: string, options: Array<{ value: string; label: string }>, current: string) =>
    html`<div class="field"><label for="${id}">${label}</label><select id="${id}" name="${name}">${options.map((o) => html`<option value="${o.value}"${attr('selected', o.value === current)}>${o.label}</option>`)}</select></div>`;
  const checkbox = (id: string, name: string, value: string, label: string, on: boolean) =>
    html`<div class="field"><label for="${id}"><input type="checkbox" id="${id}" name="${name}" value="${value}"${attr('checked', on)}> ${label}</label></div>`;
  const days =
    s.look.dayControl === 'select'
      ? select('f-day', 'day', w.day, [{ value: '', label: w.anyDay }, ...DAY_NAMES.map((d, i) => ({ value: DAY_KEYS[i], label: d }))], q.days.length ? DAY_KEYS[q.days[0]] : '')
      : html`${[SATURDAY, SUNDAY].map((d) => checkbox(`f-day-${DAY_KEYS[d]}`, 'day', DAY_KEYS[d], dayCheckboxLabel(w, DAY_NAMES[d]), q.days.includes(d)))}`;
  return html`<form class="${s.look.filtersAt === 'side' ? 'filters' : 'hotel-search'}" method="get" action="${action}" aria-label="Filter listings">
${withSearch ? html`<input type="hidden" name="q" value="${q.q}">` : ''}
${select('f-town', 'town', w.region, [{ value: '', label: w.allRegions }, ...s.towns.map((t) => ({ value: t.slug, label: t.name }))], q.town)}
${select('f-type', 'type', w.type, [{ value: '', label: w.allTypes }, ...s.types.map((t) => ({ value: typeSlug(t), label: t }))], q.type)}
${days}
${checkbox('f-open', 'open', '1', w.openNow, q.openNow)}
${select('f-min', 'min', w.rating, [{ value: '', label: w.anyRating }, ...MIN_RATINGS.map((n) => ({ value: String(n), label: ratingLabel(w, n) }))], q.minRating ? String(q.minRating) : '')}
${select('f-sort', 'sort', w.sort, SORT_KEYS.map((k) => ({ value: k, label: w.sorts[k] })), q.sort)}
<button type="submit">${w.apply}</button>
</form>`;
}

/** Results beside (or below) the filters, as the instance places them. */
export function withFilters(ctx: Ctx, filters: Raw, results: Raw): Raw {
  return ctx.state.look.filtersAt === 'side' ? html`<div class="listing">${filters}<section aria-label="Results">${results}</section></div>` : html`${filters}<section aria-label="Results">${results}</section>`;
}

/** Previous/next links in the instance's words. */
export function pager(ctx: Ctx, page: number, pages: number, link: (p: number) => string): Raw {
  if (pages <= 1) return html``;
  const w = ctx.state.look.words;
  return html`<nav class="pager" aria-label="Pagination">${page > 1 ? html`<a href="${link(page - 1)}">${w.previous}</a>` : ''} <span>Page ${page} of ${pages}</span> ${page < pages ? html`<a href="${link(page + 1)}">${w.next}</a>` : ''}</nav>`;
}

/** Sentences about input the page ignored (an unknown town, a junk page number). */
export function problemsNotice(problems: string[]): Raw {
  return problems.length ? html`<div class="errors" role="alert">${problems.map((p) => html`<p>${p}</p>`)}</div>` : html``;
}

/** The directory's clock, so "open now" can be checked by a reader. */
export function clockLine(s: DirectoryState): Raw {
  const m = s.clock.minute;
  return html`<p class="meta">Opening times are local. It is now ${DAY_NAMES[s.clock.day]}, ${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}.</p>`;
}
