/**
 * The frame around every docs page: a header with the search box and the version selector (in the
 * site's order), a table of contents (guides, API reference by module, changelog, in the site's
 * order) beside, below or above the page, and the feedback and report blocks of content pages.
 */
import type { SiteRequest } from '../../types.ts';
import { attr, html, layout, type Raw } from '../common/html.ts';
import { currentPath, hrefs } from '../common/site.ts';
import { functionsOf, pagePath, type PageKey } from './site-map.ts';
import { moduleLabel, versionOption, type TocGroup } from './wording.ts';
import type { Ctx } from './state.ts';

export interface FrameOptions {
  title: string;
  /** The version the page belongs to (the search uses its filter's). */
  major: number;
  /** The page shown, for the version selector and the contents' expanded module; absent on search and report pages. */
  key?: PageKey;
  main: Raw;
  q?: string;
}

function searchForm(ctx: Ctx, major: number, q: string): Raw {
  const { ui } = ctx.state;
  return html`<form class="search" role="search" method="get" action="${hrefs(ctx)('/search')}">
<input type="search" name="q" value="${q}" aria-label="${ui.searchBox}" placeholder="${ui.searchBox}">
<input type="hidden" name="v" value="${major}">
<button type="submit">${ui.searchButton}</button>
</form>`;
}

/** A GET form: without JavaScript the choice is applied by its button, and the server keeps the reader on the same page. */
function versionForm(ctx: Ctx, major: number, key: PageKey): Raw {
  const { ui, lib } = ctx.state;
  return html`<form class="version" method="get" action="${hrefs(ctx)('/switch')}">
<input type="hidden" name="page" value="${key}">
<label for="version-select">${ui.versionSelect}</label>
<select id="version-select" name="v">${lib.majors.map((m) => html`<option value="${m}"${attr('selected', m === major)}>${versionOption(ui, m, lib.latest)}</option>`)}</select>
<button type="submit">${ui.versionButton}</button>
</form>`;
}

function tocGroup(ctx: Ctx, group: TocGroup, major: number, key: PageKey | undefined): Raw {
  const s = ctx.state;
  const href = hrefs(ctx);
  const link = (k: PageKey, text: string) => html`<a href="${href(pagePath(s, k, major))}">${text}</a>`;
  if (group === 'guides') return html`<h2>${s.ui.guides}</h2><ul>${s.lib.guides.map((g) => html`<li>${link(`guide:${g.slug}`, g.title)}</li>`)}</ul>`;
  if (group === 'changelog') return html`<p>${link('changelog', s.ui.changelog)}</p>`;
  // The module of the page shown is expanded, as reference docs show where the reader is.
  const open = key?.startsWith('module:') ? key.slice(7) : key?.startsWith('api:') ? s.lib.functions.find((f) => f.id === key.slice(4))?.module : undefined;
  return html`<h2>${s.ui.api}</h2><ul>${s.lib.modules.map(
    (m) =>
      html`<li>${link(`module:${m}`, moduleLabel(s.ui, m))}${m === open ? html`<ul>${functionsOf(s, m, major).map((f) => html`<li>${link(`api:${f.id}`, f.deprecated ? `${f.id} (deprecated)` : f.id)}</li>`)}</ul>` : ''}</li>`,
  )}</ul>`;
}

function toc(ctx: Ctx, major: number, key: PageKey | undefined): Raw {
  return html`${ctx.state.look.tocGroups.map((g) => tocGroup(ctx, g, major, key))}`;
}

export function docsPage(ctx: Ctx, o: FrameOptions): string {
  const s = ctx.state;
  const href = hrefs(ctx);
  const search = searchForm(ctx, o.major, o.q ?? '');
  const version = o.key ? versionForm(ctx, o.major, o.key) : '';
  const contents = html`<aside class="toc" aria-label="${s.ui.toc}">${toc(ctx, o.major, o.key)}</aside>`;
  const doc = html`<div class="doc">${o.main}</div>`;
  const main = s.look.frame === 'sidebar' ? html`<div class="listing">${contents}${doc}</div>` : s.look.frame === 'below' ? html`${doc}${contents}` : doc;
  return layout({
    title: o.title,
    siteName: s.siteName,
    theme: s.look.theme,
    homeHref: href(`/v${o.major}/`),
    header: s.look.versionFirst ? html`${version}${search}` : html`${search}${version}`,
    ...(s.look.frame === 'top' ? { nav: toc(ctx, o.major, o.key) } : {}),
    main,
  });
}

/** "Was this page helpful?": two submit buttons; a vote can be changed or withdrawn. */
export function feedbackBlock(ctx: Ctx, req: SiteRequest, key: PageKey, major: number): Raw {
  const { ui, feedback } = ctx.state;
  const vote = feedback[key];
  const hidden = html`<input type="hidden" name="page" value="${key}"><input type="hidden" name="v" value="${major}"><input type="hidden" name="return" value="${currentPath(req)}">`;
  const action = hrefs(ctx)('/feedback');
  return html`<section class="feedback" aria-label="Feedback">
<h2>${ui.helpfulQuestion}</h2>
<form method="post" action="${action}">${hidden}
<button type="submit" name="choice" value="yes">${ui.yes}</button>
<button type="submit" name="choice" value="no">${ui.no}</button>
</form>
${vote ? html`<p role="status">${ui.thanks} (${vote === 'yes' ? ui.yes : ui.no})</p><form method="post" action="${action}">${hidden}<button type="submit" name="choice" value="withdraw" class="link">${ui.withdraw}</button></form>` : ''}
</section>`;
}

export function reportLink(ctx: Ctx, key: PageKey, major: number): Raw {
  return html`<p class="report"><a href="${hrefs(ctx)('/report', { page: key, v: major })}">${ctx.state.ui.reportLink}</a></p>`;
}

/** The end of every content page: feedback and the report link, in the site's order. */
export function pageFooter(ctx: Ctx, req: SiteRequest, key: PageKey, major: number): Raw {
  const fb = feedbackBlock(ctx, req, key, major);
  const rl = reportLink(ctx, key, major);
  return ctx.state.look.feedbackFirst ? html`${fb}${rl}` : html`${rl}${fb}`;
}
