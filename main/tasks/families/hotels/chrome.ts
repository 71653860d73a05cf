/**
 * The frame of every hotel page: header, navigation where the variant puts it, the cookie banner in
 * the instance's words, and the pieces several pages share (form fields with their errors, the
 * search form with its fields in the variant's order).
 */
import type { InstanceContext, SiteRequest } from '../../types.ts';
import { html, layout, raw, type Raw } from '../common/html.ts';
import { cookieBanner, currentPath, hrefs } from '../common/site.ts';
import type { HotelsState } from './data.ts';
import type { HotelQuery, SearchErrors } from './query.ts';
import { HOTELS_CSS } from './style.ts';
import type { NavKey, SearchField, Words } from './variant.ts';

export type Ctx = InstanceContext<HotelsState>;

/** Where each navigation entry leads. */
export const NAV_PATHS: Record<NavKey, string> = {
  find: '/',
  trips: '/trips',
  help: '/help',
  deals: '/deals',
  giftCards: '/gift-cards',
  careers: '/careers',
  guides: '/guides',
};

/** A navigation entry's name on this site; the distractors keep one plain name each. */
export function navLabel(w: Words, key: NavKey): string {
  const names: Record<NavKey, string> = { find: w.navFind, trips: w.navTrips, help: w.navHelp, deals: 'Deals', giftCards: 'Gift cards', careers: 'Careers', guides: 'Travel guides' };
  return names[key];
}

function navList(ctx: Ctx): Raw {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  return html`<ul>${v.nav.map((k) => html`<li><a href="${href(NAV_PATHS[k])}">${navLabel(v.words, k)}</a></li>`)}</ul>`;
}

export function hotelsPage(ctx: Ctx, req: SiteRequest, title: string, main: Raw): string {
  const s = ctx.state;
  const v = s.variant;
  const href = hrefs(ctx);
  const style = html`<style>${raw(HOTELS_CSS)}</style>`;
  const body = v.navPlacement === 'side' ? html`<div class="hotels-shell"><nav class="side-nav" aria-label="Main">${navList(ctx)}</nav><div>${main}</div></div>` : main;
  return layout({
    title,
    siteName: s.siteName,
    theme: `theme-hotels hotels-${v.accent} hotels-nav-${v.navPlacement}`,
    homeHref: href('/'),
    ...(v.navPlacement === 'header' ? { header: html`<nav class="header-nav" aria-label="Main">${navList(ctx)}</nav>` } : {}),
    ...(v.navPlacement === 'top' ? { nav: navList(ctx) } : {}),
    main: html`${style}${body}`,
    overlay: cookieBanner(s.ui, href, currentPath(req), v.cookie),
  });
}

export function errorList(errors: Record<string, string | undefined>): Raw | '' {
  const list = Object.values(errors).filter(Boolean) as string[];
  return list.length ? html`<div class="errors" role="alert"><p>Please correct the following:</p><ul>${list.map((e) => html`<li>${e}</li>`)}</ul></div>` : '';
}

/** A labelled input with its error; `type` is text unless given. */
export function field(id: string, name: string, label: string, value: string, err: string | undefined, extra: Raw | string = '', type = 'text'): Raw {
  return html`<div class="field"><label for="${id}">${label}</label><input id="${id}" type="${type}" name="${name}" value="${value}"${err ? html` aria-invalid="true" aria-describedby="${id}-err"` : ''}${extra}>${err ? html`<p class="field-error" id="${id}-err">${err}</p>` : ''}</div>`;
}

function searchField(w: Words, k: SearchField, q: Pick<HotelQuery, SearchField>, errors: SearchErrors): Raw {
  switch (k) {
    case 'city':
      return field('h-city', 'city', w.destination, q.city, errors.city, html` placeholder="City"`);
    case 'checkin':
      return field('h-in', 'checkin', w.checkin, q.checkin, errors.checkin, html` placeholder="YYYY-MM-DD"`);
    case 'checkout':
      return field('h-out', 'checkout', w.checkout, q.checkout, errors.checkout, html` placeholder="YYYY-MM-DD"`);
    case 'guests':
      return field('h-guests', 'guests', w.guests, q.guests, errors.guests, html` min="1" max="6"`, 'number');
  }
}

/** The search form (destination, dates, guests) in the variant's field order. */
export function searchForm(ctx: Ctx, q: Pick<HotelQuery, SearchField>, errors: SearchErrors = {}): Raw {
  const v = ctx.state.variant;
  return html`<form class="hotel-search" role="search" method="get" action="${hrefs(ctx)('/search')}" aria-label="${v.words.search}">
${v.searchFields.map((k) => searchField(v.words, k, q, errors))}
<button type="submit" class="primary">${v.words.search}</button>
</form>`;
}

/** "1 night", "3 guests". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n > 1 ? 's' : ''}`;
}
