/**
 * The frame of every webmail page: the header with the search box, the folder navigation where the
 * variant puts it (a bar, a sidebar or inside the header), and the dates as the site prints them.
 */
import type { InstanceContext } from '../../types.ts';
import { html, layout, raw, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import type { WebmailState } from './data.ts';
import { MAIL_CSS } from './style.ts';
import { folderName, type NavKey, type Variant } from './variant.ts';

export type Ctx = InstanceContext<WebmailState>;

/** Where each navigation entry leads; the distractors' names are the same on every site. */
const NAV_PATHS: Record<NavKey, string> = {
  inbox: '/folder/inbox',
  starred: '/folder/starred',
  sent: '/folder/sent',
  archive: '/folder/archive',
  spam: '/folder/spam',
  contacts: '/contacts',
  settings: '/settings',
  help: '/help',
};
const DISTRACTOR_NAMES: Partial<Record<NavKey, string>> = { contacts: 'Contacts', settings: 'Settings', help: 'Help centre' };

export function navName(v: Variant, key: NavKey): string {
  return DISTRACTOR_NAMES[key] ?? folderName(v, key);
}

/** The Compose link and the folder list, in the variant's order; the inbox link carries its unread count. */
function navigation(ctx: Ctx, current: string | undefined): Raw {
  const href = hrefs(ctx);
  const s = ctx.state;
  const v = s.variant;
  const unread = s.messages.filter((m) => m.folder === 'inbox' && !m.read).length;
  const compose = html`<p><a class="button" href="${href('/compose')}">${v.words.compose}</a></p>`;
  const item = (k: NavKey) =>
    html`<li><a href="${href(NAV_PATHS[k])}"${current === k ? raw(' aria-current="page"') : ''}>${navName(v, k)}${k === 'inbox' && unread ? html` <span class="count">${unread}</span>` : ''}</a></li>`;
  const folders = html`<ul class="folders">${v.nav.map(item)}</ul>`;
  return html`<div class="mail-nav">${v.composeFirst ? html`${compose}${folders}` : html`${folders}${compose}`}</div>`;
}

export function mailPage(ctx: Ctx, title: string, main: Raw, opts: { q?: string; current?: string } = {}): string {
  const href = hrefs(ctx);
  const s = ctx.state;
  const v = s.variant;
  const w = v.words;
  const nav = navigation(ctx, opts.current);
  const search = html`<form class="search" role="search" method="get" action="${href('/search')}">
<input type="search" name="q" value="${opts.q ?? ''}" aria-label="${w.searchBox}" placeholder="${w.searchBox}">
<button type="submit">${w.searchButton}</button>
</form>`;
  const me = html`<span class="me">${s.me.email}</span>`;
  const style = html`<style>${raw(MAIL_CSS)}</style>`;
  const body = v.navPlacement === 'side' ? html`<div class="mail-shell"><nav class="side-nav" aria-label="Folders">${nav}</nav><div class="mail-main">${main}</div></div>` : main;
  return layout({
    title,
    siteName: w.siteName,
    theme: `theme-mail mail-${v.accent} mail-nav-${v.navPlacement}`,
    homeHref: href('/'),
    header: v.navPlacement === 'header' ? html`${search}<nav class="header-nav" aria-label="Folders">${nav}</nav>${me}` : html`${search}${me}`,
    ...(v.navPlacement === 'top' ? { nav } : {}),
    main: html`${style}${body}`,
    scripts: ['webmail.js'],
  });
}

/** A date as a reply quotes it ("Mar 4"): part of the message text, so the same on every site. */
export function shortDate(iso: string): string {
  const d = new Date(iso + ':00Z');
  return d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** A date as this site's listings print it. */
export function listDate(v: Variant, iso: string): string {
  if (v.dateStyle === 'iso') return iso.slice(0, 10);
  const d = new Date(iso + ':00Z');
  return v.dateStyle === 'md' ? shortDate(iso) : `${d.getUTCDate()} ${d.toLocaleDateString('en-US', { month: 'short', timeZone: 'UTC' })}`;
}

export function longDate(iso: string): string {
  const d = new Date(iso + ':00Z');
  return d.toLocaleString('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
}
