/** The settings site's chrome (header, navigation in the instance's style), its home page and the invoices page. */
import type { InstanceContext, SiteRequest } from '../../types.ts';
import { html, layout, money, type Raw } from '../common/html.ts';
import { cookieBanner, currentPath, hrefs } from '../common/site.ts';
import type { SettingsState } from './data.ts';
import { formatDate } from './format.ts';
import { pagePath, pagesOf } from './forms.ts';
import { PAGE_BLURBS, type PageKey } from './vocabulary.ts';

export type Ctx = InstanceContext<SettingsState>;

/** Which page is showing, for marking the current link and the breadcrumb. */
export type Where = PageKey | 'home' | 'invoices';

function navLinks(ctx: Ctx, where: Where): Raw {
  const look = ctx.state.look;
  const href = hrefs(ctx);
  const current = (p: Where) => (p === where || (p === 'billing' && where === 'invoices') ? html` aria-current="page"` : '');
  return html`<ul>
<li><a href="${href('/')}"${current('home')}>${look.homeLink}</a></li>
${pagesOf(look).map((p) => html`<li><a href="${href(pagePath(look, p))}"${current(p)}>${look.titles[p]}</a></li>`)}
</ul>`;
}

/** A hub site has no menu on its pages, only the way back: "All settings › Billing". */
function breadcrumb(ctx: Ctx, where: Where): Raw | '' {
  const look = ctx.state.look;
  const href = hrefs(ctx);
  if (where === 'home') return '';
  const trail = where === 'invoices' ? html` › <a href="${href(pagePath(look, 'billing'))}">${look.titles.billing}</a>` : '';
  return html`<nav class="breadcrumb" aria-label="Breadcrumb"><a href="${href('/')}">${look.homeLink}</a>${trail}</nav>`;
}

export function settingsPage(ctx: Ctx, req: SiteRequest, where: Where, title: string, body: Raw): string {
  const s = ctx.state;
  const look = s.look;
  const href = hrefs(ctx);
  let main: Raw;
  if (look.nav === 'sidebar') main = html`<div class="listing settings-sidebar"><aside><nav aria-label="Settings">${navLinks(ctx, where)}</nav></aside><div class="settings-content">${body}</div></div>`;
  else if (look.nav === 'hub') main = html`${breadcrumb(ctx, where)}${body}`;
  else main = body;
  return layout({
    title,
    siteName: s.siteName,
    theme: `theme-settings ${look.accent} settings-${look.blocks} settings-nav-${look.nav}`,
    homeHref: href('/'),
    header: html`<span class="me">Signed in as ${s.values['profile.displayName']}</span>`,
    nav: look.nav === 'tabs' ? navLinks(ctx, where) : undefined,
    main,
    overlay: cookieBanner(s.ui, href, currentPath(req)),
  });
}

/** A saved-or-done line at the top of a page, read by screen readers as a status. */
export function notice(text: string | undefined): Raw | '' {
  return text ? html`<p class="notice" role="status">${text}</p>` : '';
}

export function homePage(ctx: Ctx, req: SiteRequest): string {
  const s = ctx.state;
  const look = s.look;
  const href = hrefs(ctx);
  return settingsPage(
    ctx,
    req,
    'home',
    look.homeTitle,
    html`<h1>${look.homeTitle}</h1>
<p>Signed in as ${s.values['profile.displayName']} (${s.values['profile.email']}).</p>
<ul class="grid settings-sections">
${pagesOf(look).map((p) => html`<li class="card"><h3><a href="${href(pagePath(look, p))}">${look.titles[p]}</a></h3><p class="meta">${PAGE_BLURBS[p]}</p></li>`)}
</ul>`,
  );
}

export function invoicesPage(ctx: Ctx, req: SiteRequest): string {
  const s = ctx.state;
  const look = s.look;
  const href = hrefs(ctx);
  const rows = [...s.billing.invoices].sort((a, b) => (look.invoicesNewestFirst ? b.date.localeCompare(a.date) : a.date.localeCompare(b.date)));
  return settingsPage(
    ctx,
    req,
    'invoices',
    look.invoicesLink,
    html`<h1>${look.invoicesLink}</h1>
<p><a href="${href(pagePath(look, 'billing'))}">Back to ${look.titles.billing}</a></p>
<p class="meta">${look.invoicesNewestFirst ? 'Newest first.' : 'Oldest first.'} Invoices are issued once a month.</p>
<table class="cart invoices">
<thead><tr><th scope="col">Date</th><th scope="col">Invoice</th><th scope="col">Amount</th><th scope="col">Status</th></tr></thead>
<tbody>${rows.map((i) => html`<tr><td>${formatDate(look.dateStyle, i.date)}</td><td>${i.number}</td><td>${money(i.cents)}</td><td>${i.status}</td></tr>`)}</tbody>
</table>`,
  );
}
