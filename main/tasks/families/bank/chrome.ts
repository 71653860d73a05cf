/**
 * The frame of every bank page: header, navigation where the variant puts it, the cookie banner or
 * security notice, and the helpers pages share (dates in the site's style, form fields with errors).
 */
import type { InstanceContext, SiteRequest } from '../../types.ts';
import { html, layout, raw, type Raw } from '../common/html.ts';
import { cookieBanner, currentPath, hrefs } from '../common/site.ts';
import { MONTHS, parts } from '../common/dates.ts';
import type { BankState } from './data.ts';
import { BANK_CSS } from './style.ts';
import type { NavKey, Variant, Words } from './variant.ts';

export type Ctx = InstanceContext<BankState>;

/** Where each navigation entry leads, and its name on this site. */
export const NAV_PATHS: Record<NavKey, string> = {
  accounts: '/',
  transfer: '/transfer',
  payees: '/payees',
  scheduled: '/scheduled',
  statements: '/statements',
  abroad: '/abroad',
  rewards: '/rewards',
};

export function navLabel(w: Words, key: NavKey): string {
  const fixed: Partial<Record<NavKey, string>> = { statements: 'Statements', abroad: 'Send money abroad', rewards: 'Rewards' };
  return fixed[key] ?? { accounts: w.navAccounts, transfer: w.navTransfer, payees: w.navPayees, scheduled: w.navScheduled }[key as 'accounts'];
}

/** A date as this site prints it. */
export function showDate(v: Variant, isoDate: string): string {
  const { y, m, d } = parts(isoDate);
  const mon = MONTHS[m - 1].slice(0, 3);
  return v.dateStyle === 'iso' ? isoDate : v.dateStyle === 'dmy' ? `${d} ${mon} ${y}` : `${mon} ${d}, ${y}`;
}

function navList(ctx: Ctx): Raw {
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  return html`<ul>${ctx.state.variant.nav.map((k) => html`<li><a href="${href(NAV_PATHS[k])}">${navLabel(w, k)}</a></li>`)}</ul>`;
}

function securityNotice(ctx: Ctx, req: SiteRequest): Raw | undefined {
  if (ctx.state.ui.noticeDismissed) return undefined;
  return html`<div class="modal-backdrop">
<div class="modal" role="dialog" aria-labelledby="notice-title">
<h2 id="notice-title">A security reminder</h2>
<p>${ctx.state.siteName} will never ask for your password or a one-time code by phone or e-mail.</p>
<form method="post" action="${hrefs(ctx)('/notice')}">
<input type="hidden" name="return" value="${currentPath(req)}">
<button type="submit" class="primary">${ctx.state.variant.words.noticeClose}</button>
</form>
</div>
</div>`;
}

export function bankPage(ctx: Ctx, req: SiteRequest, title: string, main: Raw): string {
  const s = ctx.state;
  const v = s.variant;
  const href = hrefs(ctx);
  const me = html`<span class="me">Signed in as ${s.customer}</span>`;
  const style = html`<style>${raw(BANK_CSS)}</style>`;
  const body = v.navPlacement === 'side' ? html`<div class="bank-shell"><nav class="side-nav" aria-label="Main">${navList(ctx)}</nav><div class="bank-main">${main}</div></div>` : main;
  return layout({
    title,
    siteName: s.siteName,
    theme: `theme-bank bank-${v.accent} bank-nav-${v.navPlacement}`,
    homeHref: href('/'),
    header: v.navPlacement === 'header' ? html`<nav class="header-nav" aria-label="Main">${navList(ctx)}</nav>${me}` : me,
    ...(v.navPlacement === 'top' ? { nav: navList(ctx) } : {}),
    main: html`${style}${body}`,
    overlay: v.overlay === 'cookies' ? cookieBanner(s.ui, href, currentPath(req)) : v.overlay === 'notice' ? securityNotice(ctx, req) : undefined,
  });
}

/** A labelled form field with its error, as every bank form lays them out. */
export function field(id: string, label: string, control: Raw, error?: string): Raw {
  return html`<div class="field"><label for="${id}">${label}</label>${control}${error ? html`<p class="field-error" id="${id}-err">${error}</p>` : ''}</div>`;
}

/** aria attributes for a control whose value was refused. */
export function invalid(id: string, error?: string): Raw {
  return error ? html` aria-invalid="true" aria-describedby="${id}-err"` : html``;
}

export function errorSummary(errors: string[]): Raw {
  return errors.length ? html`<div class="errors" role="alert"><p>Please correct the following:</p><ul>${errors.map((e) => html`<li>${e}</li>`)}</ul></div>` : html``;
}
