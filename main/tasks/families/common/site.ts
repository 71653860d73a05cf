/** Pieces every built-in site shares: instance-absolute links and the cookie banner. */
import type { InstanceContext, SiteRequest, SiteResponse } from '../../types.ts';
import { html, type Raw } from './html.ts';
import { DEFAULT_COOKIE_WORDS, type CookieWords } from './variant.ts';

/** Instance path prefix, e.g. "/i/ab12cd"; pages link with absolute paths below it. */
export function prefixOf(ctx: InstanceContext<unknown>): string {
  try {
    return new URL(ctx.baseUrl).pathname.replace(/\/$/, '');
  } catch {
    return '';
  }
}

/** A URL builder bound to an instance: href('/cart') -> '/i/<id>/cart'. */
export function hrefs(ctx: InstanceContext<unknown>): (path: string, query?: Record<string, string | number | undefined>) => string {
  const prefix = prefixOf(ctx);
  return (path, query) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') qs.set(k, String(v));
    const s = qs.toString();
    return prefix + path + (s ? `?${s}` : '');
  };
}

export interface UiState {
  cookiesDismissed: boolean;
}

/**
 * A fixed cookie bar at the bottom of the page: a distractor that can cover content until
 * dismissed. Its words are the instance's (./variant.ts), the original ones when none are given.
 */
export function cookieBanner(ui: UiState, href: (p: string) => string, returnPath: string, words: CookieWords = DEFAULT_COOKIE_WORDS): Raw | undefined {
  if (ui.cookiesDismissed) return undefined;
  return html`<div class="cookie-banner" role="region" aria-label="Cookie consent">
<p>${words.cookieText}</p>
<form method="post" action="${href('/cookies')}">
<input type="hidden" name="return" value="${returnPath}">
<button type="submit" name="choice" value="accept">${words.cookieAccept}</button>
<button type="submit" name="choice" value="reject" class="secondary">${words.cookieReject}</button>
</form>
</div>`;
}

/** The path of a page named by its title below a prefix: ("/wiki/", "Port Ellen") -> "/wiki/Port_Ellen", escaped. */
export function titlePath(prefix: string, title: string): string {
  return prefix + encodeURIComponent(title.replace(/\s+/g, '_'));
}

/** The title a page path names below a prefix (titlePath's inverse); '' for any other path or one that does not decode. */
export function titleFromPath(path: string, prefix: string): string {
  if (!path.startsWith(prefix)) return '';
  try {
    return decodeURIComponent(path.slice(prefix.length)).replace(/_/g, ' ');
  } catch {
    return '';
  }
}

/** Only instance-relative paths are followed back, never another origin. */
export function safeReturn(path: string | null): string {
  return path && path.startsWith('/') && !path.startsWith('//') ? path : '/';
}

export function handleCookies(req: SiteRequest, ui: UiState): SiteResponse {
  ui.cookiesDismissed = true;
  return { kind: 'redirect', location: safeReturn(req.form.get('return')) };
}

/** The path plus query as the page was requested, to come back to after a banner post. */
export function currentPath(req: SiteRequest): string {
  const qs = req.query.toString();
  return req.path + (qs ? `?${qs}` : '');
}
