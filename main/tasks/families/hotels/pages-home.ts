/**
 * The home page (its boxes in the variant's order), a city's page, the bookings list, help, and the
 * pages the distractor links lead to (deals, gift cards, careers, guides, membership, the app),
 * which help with nothing: none names a hotel or a price.
 */
import type { SiteRequest } from '../../types.ts';
import { html, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { dayMonthYear } from '../common/dates.ts';
import type { HotelQuery, SearchErrors } from './query.ts';
import { errorList, hotelsPage, navLabel, searchForm, type Ctx } from './chrome.ts';
import { say, type SectionKey } from './variant.ts';

type Section = (ctx: Ctx, q: HotelQuery, errors: SearchErrors) => Raw;

const searchSection: Section = (ctx, q, errors) => html`${errorList(errors)}${searchForm(ctx, q, errors)}`;

function destinationsSection(ctx: Ctx): Raw {
  const href = hrefs(ctx);
  return html`<section><h2>${ctx.state.variant.words.destinations}</h2><ul class="chips">${ctx.state.cities.map((c) => html`<li><a href="${href('/city/' + encodeURIComponent(c))}">${c}</a></li>`)}</ul></section>`;
}

/** A distractor: member prices, which the membership page says this site does not show. */
function membersSection(ctx: Ctx): Raw {
  return html`<section class="hotels-promo" aria-labelledby="h-members"><h2 id="h-members">Members save more</h2>
<p>Join our free rewards club and collect points on every stay.</p>
<p><a href="${hrefs(ctx)('/members')}">About the rewards club</a></p></section>`;
}

/** A distractor: reasons to book here, with nothing to click. */
function reasonsSection(ctx: Ctx): Raw {
  return html`<section aria-labelledby="h-reasons"><h2 id="h-reasons">Why book with ${ctx.state.siteName}</h2>
<ul><li>No booking fees</li><li>Free cancellation on many rooms</li><li>Support around the clock</li></ul></section>`;
}

/** A distractor: the mobile app. */
function appSection(ctx: Ctx): Raw {
  return html`<section class="hotels-promo" aria-labelledby="h-app"><h2 id="h-app">Take your trips with you</h2>
<p>Keep your bookings at hand with our mobile app.</p>
<p><a href="${hrefs(ctx)('/app')}">Get the app</a></p></section>`;
}

const SECTIONS: Record<SectionKey, Section> = {
  search: searchSection,
  destinations: destinationsSection,
  members: membersSection,
  reasons: reasonsSection,
  app: appSection,
};

export function homePage(ctx: Ctx, req: SiteRequest, q: HotelQuery, errors: SearchErrors = {}): string {
  const v = ctx.state.variant;
  const w = v.words;
  return hotelsPage(
    ctx,
    req,
    w.navFind,
    html`<section class="hero"><h1>${w.homeTitle}</h1><p>${say(w.homeTagline, { count: ctx.state.hotels.length })}</p></section>
${v.sections.map((k) => SECTIONS[k](ctx, q, errors))}`,
  );
}

export function cityPage(ctx: Ctx, req: SiteRequest, city: string): string {
  const hs = ctx.state.hotels.filter((h) => h.city === city).sort((a, b) => a.rank - b.rank);
  const heading = say(ctx.state.variant.words.resultsHeading, { city });
  return hotelsPage(
    ctx,
    req,
    heading,
    html`<h1>${heading}</h1><p>Choose your dates to see prices and availability.</p>
${searchForm(ctx, { city, checkin: '', checkout: '', guests: '2' })}
<ul class="plain">${hs.map((h) => html`<li>${h.name}, ${h.stars}-star, ${h.neighborhood}</li>`)}</ul>`,
  );
}

export function tripsPage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  const s = ctx.state;
  const title = navLabel(s.variant.words, 'trips');
  return hotelsPage(
    ctx,
    req,
    title,
    html`<h1>${title}</h1>
${s.bookings.length ? html`<ul>${s.bookings.map((b) => html`<li><a href="${href(`/confirmation/${b.code}`)}">${b.code}: ${s.hotels.find((h) => h.id === b.hotel)?.name}, ${dayMonthYear(b.checkin)}</a></li>`)}</ul>` : html`<p>You have no bookings yet.</p>`}`,
  );
}

/** Help, and the distractor pages: a title and a paragraph each. */
const INFO: Record<string, { title: string; text: string }> = {
  '/help': { title: 'Help', text: 'Search by destination, dates and number of guests. Prices are per room per night and include taxes. Check-in is from 3 PM.' },
  '/deals': { title: 'Deals', text: 'There are no deals for your dates at the moment. Prices in the search results are the best we have.' },
  '/gift-cards': { title: 'Gift cards', text: 'Gift cards are sold in our mobile app and cannot be bought or redeemed on this website.' },
  '/careers': { title: 'Careers', text: 'We have no open positions right now. Please check back later.' },
  '/guides': { title: 'Travel guides', text: 'Our travel guides are being rewritten and will be back soon.' },
  '/members': { title: 'Rewards club', text: 'The rewards club collects points in the mobile app. Prices on this website are the same for everyone.' },
  '/app': { title: 'Our app', text: 'The app is coming soon to your app store.' },
};

/** Help or a distractor page, or undefined for any other path. Help's title is the site's own word. */
export function infoPage(ctx: Ctx, req: SiteRequest): string | undefined {
  const page = INFO[req.path];
  if (!page) return undefined;
  const title = req.path === '/help' ? navLabel(ctx.state.variant.words, 'help') : page.title;
  return hotelsPage(ctx, req, title, html`<h1>${title}</h1><p>${page.text}</p>`);
}
