/**
 * The frame of every ticketing page (header search, navigation where the variant puts it) and the
 * pieces pages share: dates and times in the site's style, event titles, seat names, and event
 * listings in the site's view.
 */
import type { InstanceContext } from '../../types.ts';
import { html, layout, money, raw, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { MONTHS, WEEKDAYS, longDate, parts, weekday } from '../common/dates.ts';
import { seatPrice, timeLabel, type TicketEvent, type TicketsState } from './data.ts';
import { TICKETS_CSS } from './style.ts';
import { fill, type NavKey, type Variant, type Words } from './variant.ts';

export type Ctx = InstanceContext<TicketsState>;

export function eventTitle(e: TicketEvent): string {
  return `${e.name}, ${e.city}`;
}

/** A seat's checkbox name on this site, e.g. "Row C, seat 7, $81.00" or "C7 ($81.00)". */
export function seatLabel(w: Words, e: TicketEvent, seat: string): string {
  return fill(w.seat, { row: seat[0], num: seat.slice(1), price: money(seatPrice(e, seat)) });
}

/** A date as this site prints it. */
export function showDate(v: Variant, isoDate: string): string {
  const { y, m, d } = parts(isoDate);
  const day = WEEKDAYS[weekday(isoDate)];
  if (v.dateStyle === 'short') return `${day.slice(0, 3)} ${d} ${MONTHS[m - 1].slice(0, 3)} ${y}`;
  return v.dateStyle === 'us' ? `${day}, ${MONTHS[m - 1]} ${d}, ${y}` : longDate(isoDate);
}

/** A start time as this site prints it: 7:30 PM or 19:30. */
export function showTime(v: Variant, time: string): string {
  return v.clock === '24h' ? time : timeLabel(time);
}

/** Where each navigation entry leads (a path and query), and its name on this site. */
export function navTarget(key: NavKey): { path: string; query?: Record<string, string> } {
  if (key.startsWith('category:')) return { path: '/events', query: { category: key.slice('category:'.length) } };
  const paths: Record<string, string> = { all: '/events', orders: '/orders', giftCards: '/gift-cards', help: '/help', sell: '/sell' };
  return { path: paths[key] };
}

export function navLabel(w: Words, key: NavKey): string {
  const fixed: Record<string, string> = { all: w.navAll, orders: w.navOrders, giftCards: 'Gift cards', help: 'Help centre', sell: 'Sell your tickets' };
  return key.startsWith('category:') ? key.slice('category:'.length) : fixed[key];
}

function navList(ctx: Ctx): Raw {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  return html`<ul>${v.nav.map((k) => {
    const t = navTarget(k);
    return html`<li><a href="${href(t.path, t.query)}">${navLabel(v.words, k)}</a></li>`;
  })}</ul>`;
}

export function tPage(ctx: Ctx, title: string, main: Raw, q = ''): string {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  const w = v.words;
  const search = html`<form class="search" role="search" method="get" action="${href('/events')}">
<input type="search" name="q" value="${q}" aria-label="${w.search}" placeholder="${w.searchHint}">
<button type="submit">${w.searchButton}</button>
</form>`;
  const nav = navList(ctx);
  const body = v.navPlacement === 'side' ? html`<div class="tickets-shell"><nav class="side-nav" aria-label="Main">${nav}</nav><div>${main}</div></div>` : main;
  return layout({
    title,
    siteName: ctx.state.siteName,
    theme: `theme-tickets tickets-${v.accent}`,
    homeHref: href('/'),
    header: v.navPlacement === 'header' ? html`${search}<nav class="header-nav" aria-label="Main">${nav}</nav>` : search,
    ...(v.navPlacement === 'top' ? { nav } : {}),
    main: html`<style>${raw(TICKETS_CSS)}</style>${body}`,
  });
}

/** Events in the site's view: cards, a plain list, or a table. */
export function eventListing(ctx: Ctx, events: readonly TicketEvent[]): Raw {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  const w = v.words;
  const link = (e: TicketEvent) => html`<a href="${href(`/event/${e.id}`)}">${eventTitle(e)}</a>`;
  const when = (e: TicketEvent) => `${showDate(v, e.date)}, ${showTime(v, e.time)}`;
  const from = (e: TicketEvent) => fill(w.from, { price: money(seatPrice(e, 'F1')) });
  if (v.listing === 'table') {
    return html`<table class="cart"><thead><tr><th scope="col">Event</th><th scope="col">${w.date}</th><th scope="col">${w.venue}</th><th scope="col">${w.prices}</th></tr></thead>
<tbody>${events.map((e) => html`<tr><td>${link(e)}<br><span class="meta">${e.category}</span></td><td>${when(e)}</td><td>${e.venue}</td><td>${from(e)}</td></tr>`)}</tbody></table>`;
  }
  if (v.listing === 'list') return html`<ul class="event-list">${events.map((e) => html`<li><p>${link(e)} <span class="meta">${e.category} · ${e.venue}</span></p><p>${when(e)}</p><p class="price">${from(e)}</p></li>`)}</ul>`;
  return html`<ul class="grid">${events.map((e) => html`<li class="card"><h3>${link(e)}</h3><p class="meta">${e.category} · ${e.venue}</p><p class="meta">${when(e)}</p><p class="price">${from(e)}</p></li>`)}</ul>`;
}
