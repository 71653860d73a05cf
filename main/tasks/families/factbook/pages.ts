/** Factbook pages: home (featured records, regions, every record at tier 1), region pages, search with exact-name jump, record pages in the site's fact layout (half with a contents list of sections), a newsletter dialog. */
import type { InstanceContext, SiteRequest, SiteResponse } from '../../types.ts';
import { html, layout, type Raw } from '../common/html.ts';
import { currentPath, hrefs, safeReturn, titleFromPath, titlePath } from '../common/site.ts';
import type { FactRecord, FactbookState } from './data.ts';

export type Ctx = InstanceContext<FactbookState>;
const page = (body: string): SiteResponse => ({ kind: 'html', body });

/** Record pages live at /r/<name>, spaces as underscores. */
export const RECORD_PREFIX = '/r/';

export function recordPath(name: string): string {
  return titlePath(RECORD_PREFIX, name);
}

/** Region pages live at /region/<name>. */
const REGION_PREFIX = '/region/';

/** An in-page anchor for a section title ("Visiting" -> "visiting"). */
const anchor = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-');

function noticeDialog(ctx: Ctx, req: SiteRequest): Raw | undefined {
  const n = ctx.state.notice;
  if (!n || n.dismissed) return undefined;
  return html`<div class="modal-backdrop">
<div class="modal" role="dialog" aria-labelledby="notice-title">
<h2 id="notice-title">${n.title}</h2>
<p>News about the ${ctx.state.kind} of ${ctx.state.siteName}, once a week.</p>
<form method="post" action="${hrefs(ctx)('/notice')}">
<input type="hidden" name="return" value="${currentPath(req)}">
<button type="submit" name="choice" value="join" class="primary">${n.join}</button>
<button type="submit" name="choice" value="close" class="secondary">${n.close}</button>
</form>
</div>
</div>`;
}

function sitePage(ctx: Ctx, req: SiteRequest, title: string, main: Raw, q = ''): string {
  const href = hrefs(ctx);
  return layout({
    title,
    siteName: ctx.state.siteName,
    theme: 'theme-factbook',
    homeHref: href('/'),
    header: html`<form class="search" role="search" method="get" action="${href('/search')}">
<input type="search" name="q" value="${q}" aria-label="Search ${ctx.state.kind}" placeholder="Search ${ctx.state.kind}">
<button type="submit">Search</button>
</form>`,
    nav: html`<ul><li><a href="${href('/')}">Home</a></li><li><a href="${href('/about')}">About</a></li></ul>`,
    main,
    overlay: noticeDialog(ctx, req),
  });
}

function recordLink(ctx: Ctx, name: string): Raw {
  return html`<a href="${hrefs(ctx)(recordPath(name))}">${name}</a>`;
}

function regionLink(ctx: Ctx, name: string): Raw {
  return html`<a href="${hrefs(ctx)(titlePath(REGION_PREFIX, name))}">${name}</a>`;
}

function regionsBlock(ctx: Ctx): Raw {
  return html`<section><h2>Regions</h2><ul class="chips">${ctx.state.regions.map((r) => html`<li>${regionLink(ctx, r)}</li>`)}</ul></section>`;
}

function factsBlock(s: FactbookState, r: FactRecord): Raw {
  if (s.layout === 'table') return html`<table class="facts"><caption>Facts</caption><tbody>${r.facts.map((f) => html`<tr><th scope="row">${f.label}</th><td>${f.shown}</td></tr>`)}</tbody></table>`;
  if (s.layout === 'list') return html`<dl class="facts">${r.facts.map((f) => html`<dt>${f.label}</dt><dd>${f.shown}</dd>`)}</dl>`;
  if (s.layout === 'lines') return html`<ul class="facts">${r.facts.map((f) => html`<li><b>${f.label}:</b> ${f.shown}</li>`)}</ul>`;
  return html`<table class="facts"><caption>Facts</caption><thead><tr>${r.facts.map((f) => html`<th scope="col">${f.label}</th>`)}</tr></thead><tbody><tr>${r.facts.map((f) => html`<td>${f.shown}</td>`)}</tr></tbody></table>`;
}

function recordPage(ctx: Ctx, req: SiteRequest, r: FactRecord): string {
  const s = ctx.state;
  const others = s.records.filter((x) => x !== r).slice(0, 3);
  return sitePage(
    ctx,
    req,
    r.name,
    html`<article>
<h1>${r.name}</h1>
<p>${r.intro} Region: ${regionLink(ctx, r.region)}.</p>
${r.sections ? html`<nav aria-label="Contents"><ul>${r.sections.map((x) => html`<li><a href="#${anchor(x.title)}">${x.title}</a></li>`)}</ul></nav>` : ''}
${factsBlock(s, r)}
${r.items ? html`<table class="items"><caption>${r.items.caption}</caption><thead><tr><th scope="col">${r.items.itemHeader}</th><th scope="col">${r.items.valueHeader}</th></tr></thead>
<tbody>${r.items.rows.map((row) => html`<tr><th scope="row">${row.item}</th><td>${row.value}</td></tr>`)}</tbody></table>` : ''}
${(r.sections ?? []).map((x) => html`<h2 id="${anchor(x.title)}">${x.title}</h2><p>${x.text}</p>`)}
<h2>See also</h2>
<ul>${others.map((x) => html`<li>${recordLink(ctx, x.name)}</li>`)}</ul>
</article>`,
  );
}

export function handleFactbook(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  if (req.method === 'POST') {
    if (req.path !== '/notice' || !s.notice) return { kind: 'not_found' };
    s.notice.dismissed = true;
    if (req.form.get('choice') === 'join') s.notice.joined = true;
    return { kind: 'redirect', location: safeReturn(req.form.get('return')) };
  }
  if (req.path === '/') {
    // Tiers 2 and 3 say nothing of searching: home looks as it does at tier 1 (featured records,
    // regions), only without the asked record, so what sends a policy to the search box is that
    // no link names what the task asks for.
    const list = s.homeLinks ? html`<h2>All ${s.kind}</h2><ul class="chips">${s.records.map((r) => html`<li>${recordLink(ctx, r.name)}</li>`)}</ul>` : '';
    const [first, ...recent] = s.featured;
    const featured = html`<section><h2>Featured</h2><p>${recordLink(ctx, first)} is this week's featured entry.</p>${recent.length ? html`<h3>Recently updated</h3><ul>${recent.map((n) => html`<li>${recordLink(ctx, n)}</li>`)}</ul>` : ''}</section>`;
    return page(sitePage(ctx, req, 'Home', html`<h1>${s.siteName}</h1><p>A register of ${s.records.length} ${s.kind}.</p>${featured}${regionsBlock(ctx)}${list}`));
  }
  const region = titleFromPath(req.path, REGION_PREFIX);
  if (region && s.regions.includes(region)) {
    const here = s.records.filter((r) => r.region === region);
    return page(sitePage(ctx, req, region, html`<h1>${region}</h1><p>${here.length} ${s.kind} listed in ${region}.</p><ul>${here.map((r) => html`<li>${recordLink(ctx, r.name)}</li>`)}</ul>`));
  }
  if (req.path === '/about') return page(sitePage(ctx, req, 'About', html`<h1>About</h1><p>${s.siteName} keeps facts about ${s.kind}. Entries are checked once a year.</p>`));
  if (req.path === '/search') {
    const q = (req.query.get('q') ?? '').trim();
    const exact = s.records.find((r) => r.name.toLowerCase() === q.toLowerCase());
    if (exact) return { kind: 'redirect', location: recordPath(exact.name) };
    const words = q.toLowerCase().split(/\s+/).filter(Boolean);
    const hits = words.length ? s.records.filter((r) => words.some((w) => r.name.toLowerCase().includes(w))) : [];
    return page(
      sitePage(
        ctx,
        req,
        'Search',
        html`<h1>Search</h1>${q ? html`<p role="status">${hits.length} result${hits.length === 1 ? '' : 's'} for "${q}".</p>` : html`<p>Type a name to search.</p>`}
<ul class="results">${hits.map((r) => html`<li>${recordLink(ctx, r.name)}</li>`)}</ul>`,
        q,
      ),
    );
  }
  const name = titleFromPath(req.path, RECORD_PREFIX);
  const r = name ? s.records.find((x) => x.name === name) : undefined;
  return r ? page(recordPage(ctx, req, r)) : { kind: 'not_found' };
}
