/**
 * The frame of every real-estate page: the header with the search box, the navigation where the
 * variant puts it, the variant's colours and layout rules; and the plain pages the distractor
 * links and boxes lead to.
 */
import type { InstanceContext, SiteRequest } from '../../types.ts';
import { html, layout, raw, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import type { RealEstateState } from './data.ts';
import { HOMES_CSS } from './style.ts';
import { navLabel, type NavKey } from './variant.ts';

export type Ctx = InstanceContext<RealEstateState>;

export const dollars = (n: number) => `$${n.toLocaleString('en-US')}`;

/** Where each navigation entry leads. */
export const NAV_PATHS: Record<NavKey, string> = {
  homes: '/homes',
  saved: '/saved',
  tours: '/tours',
  sell: '/sell',
  mortgage: '/mortgage',
  agents: '/agents',
};

function navList(ctx: Ctx): Raw {
  const href = hrefs(ctx);
  const s = ctx.state;
  return html`<ul>${s.variant.nav.map((k) => html`<li><a href="${href(NAV_PATHS[k])}">${navLabel(s.variant.words, k, s.saved.length)}</a></li>`)}</ul>`;
}

function searchForm(ctx: Ctx, q: string): Raw {
  const w = ctx.state.variant.words;
  return html`<form class="search" role="search" method="get" action="${hrefs(ctx)('/homes')}">
<input type="search" name="q" value="${q}" aria-label="${w.searchBox}" placeholder="${w.searchBox}">
<button type="submit">${w.searchButton}</button>
</form>`;
}

/** A page of the site around `main`; `q` is what the search box shows. */
export function rePage(ctx: Ctx, title: string, main: Raw, q = ''): string {
  const v = ctx.state.variant;
  const style = html`<style>${raw(HOMES_CSS)}</style>`;
  const body = v.navPlacement === 'side' ? html`<div class="homes-shell"><nav class="side-nav" aria-label="Main">${navList(ctx)}</nav><div class="homes-main">${main}</div></div>` : main;
  return layout({
    title,
    siteName: ctx.state.siteName,
    theme: `theme-homes homes-${v.accent} homes-nav-${v.navPlacement}`,
    homeHref: hrefs(ctx)('/'),
    header: v.navPlacement === 'header' ? html`${searchForm(ctx, q)}<nav class="header-nav" aria-label="Main">${navList(ctx)}</nav>` : searchForm(ctx, q),
    ...(v.navPlacement === 'top' ? { nav: navList(ctx) } : {}),
    main: html`${style}${body}`,
  });
}

/** The distractors' pages: nothing on them touches a home, a tour or a saved list. */
const INFO: Record<string, { title: string; text: string }> = {
  '/sell': { title: 'Sell your home', text: 'Thinking of selling? Our partner agents offer a free valuation by phone. Call 0800 555 0142 to book one.' },
  '/mortgage': { title: 'Mortgages', text: 'Rates change daily. Speak to a lender to find out what you could borrow; this site does not offer loans.' },
  '/agents': { title: 'Find an agent', text: 'Every listing names its agent. Agents answer questions about a home once you request a tour of it.' },
  '/guides': { title: 'Moving guides', text: 'Packing lists, utility checklists and tips for your first week in a new home are coming soon.' },
};

/** A distractor's page, or undefined for any other path. */
export function infoPage(ctx: Ctx, req: SiteRequest): string | undefined {
  const page = INFO[req.path];
  if (!page) return undefined;
  return rePage(ctx, page.title, html`<h1>${page.title}</h1><p>${page.text}</p><p><a href="${hrefs(ctx)('/homes')}">${ctx.state.variant.words.navHomes}</a></p>`);
}
