/**
 * The frame of every flight page: header, navigation where the variant puts it (in its order,
 * with its distractor links), the cookie banner in the instance's words, and the layout CSS.
 */
import type { InstanceContext, SiteRequest } from '../../types.ts';
import { html, layout, raw, type Raw } from '../common/html.ts';
import { cookieBanner, currentPath, hrefs } from '../common/site.ts';
import type { FlightsState } from './data.ts';
import { FLIGHTS_CSS } from './style.ts';
import type { NavKey, Words } from './variant.ts';

export type Ctx = InstanceContext<FlightsState>;

/** Where each navigation entry leads. */
export const NAV_PATHS: Record<NavKey, string> = {
  search: '/',
  trips: '/trips',
  help: '/help',
  deals: '/deals',
  baggage: '/baggage',
  status: '/status',
  giftCards: '/gift-cards',
};

/** A navigation link's name on this site; the distractors keep one name everywhere. */
export function navLabel(w: Words, key: NavKey): string {
  const names: Record<NavKey, string> = { search: w.navSearch, trips: w.navTrips, help: w.navHelp, deals: 'Deals', baggage: 'Baggage', status: 'Flight status', giftCards: 'Gift cards' };
  return names[key];
}

function navList(ctx: Ctx): Raw {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  return html`<ul>${v.nav.map((k) => html`<li><a href="${href(NAV_PATHS[k])}">${navLabel(v.words, k)}</a></li>`)}</ul>`;
}

export function flightsPage(ctx: Ctx, req: SiteRequest, title: string, main: Raw): string {
  const s = ctx.state;
  const v = s.variant;
  const href = hrefs(ctx);
  const style = html`<style>${raw(FLIGHTS_CSS)}</style>`;
  const body = v.navPlacement === 'side' ? html`<div class="flights-shell"><nav class="side-nav" aria-label="Main">${navList(ctx)}</nav><div>${main}</div></div>` : main;
  return layout({
    title,
    siteName: s.siteName,
    theme: `theme-flights flights-${v.accent} flights-nav-${v.navPlacement}`,
    homeHref: href('/'),
    ...(v.navPlacement === 'header' ? { header: html`<nav class="header-nav" aria-label="Main">${navList(ctx)}</nav>` } : {}),
    ...(v.navPlacement === 'top' ? { nav: navList(ctx) } : {}),
    main: html`${style}${body}`,
    overlay: cookieBanner(s.ui, href, currentPath(req), v.cookie),
    scripts: ['flights.js'],
  });
}

/** A field's error line, and the attributes tying a refused control to it. */
export function fieldError(msg: string | undefined, id: string): Raw | string {
  return msg ? html`<p class="field-error" id="${id}-err">${msg}</p>` : '';
}

export function invalid(msg: string | undefined, id: string): Raw | string {
  return msg ? html` aria-invalid="true" aria-describedby="${id}-err"` : '';
}

export function errorSummary(errors: string[]): Raw | string {
  return errors.length ? html`<div class="errors" role="alert"><p>Please fix the following:</p><ul>${errors.map((x) => html`<li>${x}</li>`)}</ul></div>` : '';
}
