/**
 * The frame of every calendar page: the header with its search box, the navigation where the
 * variant puts it, the variant's colours, and the pieces pages share (an event's link and its
 * name). Also the plain pages the distractor links lead to, which help with nothing.
 */
import type { InstanceContext } from '../../types.ts';
import { html, layout, raw, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { dayMonthYear } from '../common/dates.ts';
import { timeLabel, type CalEvent, type CalendarState } from './data.ts';
import { CAL_CSS } from './style.ts';
import { fill, type NavKey, type Variant, type Words } from './variant.ts';

export type Ctx = InstanceContext<CalendarState>;

/** Where each navigation entry leads (the month and the day depend on today). */
function navPath(s: CalendarState, key: NavKey): string {
  return { month: `/month/${s.today.slice(0, 7)}`, today: `/day/${s.today}`, new: '/event/new', settings: '/settings', help: '/help', shared: '/shared' }[key];
}

/** A navigation entry's name on this site; the distractors keep one name everywhere. */
export function navLabel(w: Words, key: NavKey): string {
  return { month: w.navMonth, today: w.navToday, new: w.navNew, settings: 'Settings', help: 'Help centre', shared: 'Shared calendars' }[key];
}

/** The accessible name of an event's link on this site: its time, title and date, in the site's words. */
export function eventLabel(w: Words, e: CalEvent): string {
  return fill(w.eventName, { time: timeLabel(e.start), title: e.title, date: dayMonthYear(e.date) });
}

export function eventLink(ctx: Ctx, e: CalEvent): Raw {
  const v = ctx.state.variant;
  const text = v.eventText === 'timeFirst' ? `${timeLabel(e.start)} ${e.title}` : `${e.title} · ${timeLabel(e.start)}`;
  return html`<a href="${hrefs(ctx)(`/event/${e.id}`)}" aria-label="${eventLabel(v.words, e)}">${text}</a>`;
}

function navList(ctx: Ctx): Raw {
  const href = hrefs(ctx);
  const s = ctx.state;
  return html`<ul>${s.variant.nav.map((k) => html`<li><a href="${href(navPath(s, k))}">${navLabel(s.variant.words, k)}</a></li>`)}</ul>`;
}

function themeOf(v: Variant): string {
  return `theme-cal cal-${v.accent} cal-nav-${v.navPlacement} cal-${v.eventText}`;
}

export function calPage(ctx: Ctx, title: string, main: Raw, q = ''): string {
  const href = hrefs(ctx);
  const s = ctx.state;
  const v = s.variant;
  const w = v.words;
  const search = html`<form class="search" role="search" method="get" action="${href('/search')}">
<input type="search" name="q" value="${q}" aria-label="${w.searchBox}" placeholder="${w.searchBox}">
<button type="submit">${w.searchButton}</button>
</form>`;
  const me = html`<span class="me">${s.owner}</span>`;
  const style = html`<style>${raw(CAL_CSS)}</style>`;
  const body = v.navPlacement === 'side' ? html`<div class="cal-shell"><nav class="side-nav" aria-label="Main">${navList(ctx)}</nav><div class="cal-main">${main}</div></div>` : main;
  return layout({
    title,
    siteName: 'Calendar',
    theme: themeOf(v),
    homeHref: href('/'),
    header: v.navPlacement === 'header' ? html`${search}<nav class="header-nav" aria-label="Main">${navList(ctx)}</nav>${me}` : html`${search}${me}`,
    ...(v.navPlacement === 'top' ? { nav: navList(ctx) } : {}),
    main: html`${style}${body}`,
  });
}

const INFO: Record<string, { title: string; text: string }> = {
  '/settings': { title: 'Settings', text: 'Your calendar settings are managed by your organisation. Contact your administrator to change them.' },
  '/help': { title: 'Help centre', text: 'Open a day to see its agenda, or an event to see its details. Our help articles are being rewritten; check back soon.' },
  '/shared': { title: 'Shared calendars', text: 'Nobody has shared a calendar with you yet.' },
  '/sync': { title: 'Sync with your phone', text: 'Phone sync is not available for your account yet.' },
};

/** A distractor page, or undefined for any other path. */
export function infoPage(ctx: Ctx, path: string): string | undefined {
  const page = INFO[path];
  if (!page) return undefined;
  return calPage(ctx, page.title, html`<h1>${page.title}</h1><p>${page.text}</p>`);
}
