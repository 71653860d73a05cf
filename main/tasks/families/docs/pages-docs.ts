/** The reading pages of a docs site: home, guides, module pages, function pages and the changelog, each in one major version. */
import type { SiteRequest } from '../../types.ts';
import { html, type Raw } from '../common/html.ts';
import { dayMonthYear } from '../common/dates.ts';
import { hrefs } from '../common/site.ts';
import { paramsIn, type ApiFunction, type Guide, type Sentence } from './library.ts';
import type { Param } from './params.ts';
import { changeSentence, exampleCall, literalCode, signature, typeName } from './render.ts';
import { apiKey, functionsOf, guideKey, moduleKey, pagePath } from './site-map.ts';
import { moduleLabel, type ParamColumn } from './wording.ts';
import { docsPage, pageFooter } from './pages-frame.ts';
import type { Ctx } from './state.ts';

const code = (text: string) => html`<code>${text}</code>`;

export function homePage(ctx: Ctx, major: number): string {
  const s = ctx.state;
  const href = hrefs(ctx);
  const release = s.lib.releases.filter((r) => r.major === major).at(-1)!;
  const sections: Record<string, Raw> = {
    guides: html`<section><h2>${s.ui.guides}</h2><ul>${s.lib.guides.map((g) => html`<li><a href="${href(pagePath(s, guideKey(g.slug), major))}">${g.title}</a></li>`)}</ul></section>`,
    modules: html`<section><h2>${s.ui.api}</h2><ul>${s.lib.modules.map((m) => html`<li><a href="${href(pagePath(s, moduleKey(m), major))}">${moduleLabel(s.ui, m)}</a></li>`)}</ul></section>`,
    news: html`<section><h2>Latest release: ${release.version}</h2><p>Released ${dayMonthYear(release.date)}.</p><ul>${release.changes.map((c) => html`<li>${changeSentence(c, s.lib.style, s.ui.addedStyle)}</li>`)}</ul></section>`,
  };
  return docsPage(ctx, {
    title: `v${major}.x`,
    major,
    key: 'home',
    main: html`<h1>${s.lib.name} v${major}.x</h1>
<p>${s.lib.name} is a small ${s.lib.style === 'python' ? 'Python' : 'TypeScript'} library of ${s.lib.modules.length} modules. These pages document v${major}.x.</p>
${s.look.homeSections.map((k) => sections[k])}`,
  });
}

function sentences(items: readonly Sentence[]): Raw {
  return html`${items.map((x, i) => html`${i ? ' ' : ''}${x.before}${x.fn ? code(x.fn) : ''}${x.after ?? ''}`)}`;
}

export function guidePage(ctx: Ctx, req: SiteRequest, g: Guide, major: number): string {
  const s = ctx.state;
  const key = guideKey(g.slug);
  return docsPage(ctx, {
    title: g.title,
    major,
    key,
    main: html`<article class="guide">
<h1>${g.title}</h1>
${g.deprecated ? html`<p class="notice" role="note">${s.ui.deprecated}: this guide is kept for old projects and is no longer updated.</p>` : ''}
<p>${g.intro}</p>
<p>${sentences(g.body[String(major)] ?? [])}</p>
</article>
${pageFooter(ctx, req, key, major)}`,
  });
}

export function modulePage(ctx: Ctx, req: SiteRequest, module: string, major: number): string {
  const s = ctx.state;
  const href = hrefs(ctx);
  const key = moduleKey(module);
  const fns = functionsOf(s, module, major);
  return docsPage(ctx, {
    title: moduleLabel(s.ui, module),
    major,
    key,
    main: html`<h1>${moduleLabel(s.ui, module)}</h1>
<p>The ${module} module has ${fns.length} functions in v${major}.x.</p>
<ul class="results">${fns.map((f) => html`<li><a href="${href(pagePath(s, apiKey(f.id), major))}">${f.id}</a>: ${f.summary}${f.deprecated ? ` (${s.ui.deprecated})` : ''}</li>`)}</ul>
${pageFooter(ctx, req, key, major)}`,
  });
}

/** One clause of a parameter ("Default: 10"), its label in the site's wording. */
function clause(ctx: Ctx, p: Param, column: ParamColumn): { label: string; value: Raw } {
  const { ui, lib } = ctx.state;
  if (column === 'type') return { label: ui.type, value: code(typeName(p.type, lib.style)) };
  if (column === 'default') return { label: ui.default, value: p.default ? code(literalCode(p.default, lib.style)) : html`${ui.required}` };
  return { label: ui.description, value: html`${p.description}${p.since ? ` ${ui.since} ${p.since}.` : ''}` };
}

function paramsBlock(ctx: Ctx, params: readonly Param[]): Raw {
  const { look, ui } = ctx.state;
  if (look.params === 'table') {
    return html`<table class="params cart"><thead><tr><th scope="col">${ui.name}</th>${look.columns.map((c) => html`<th scope="col">${clause(ctx, params[0], c).label}</th>`)}</tr></thead>
<tbody>${params.map((p) => html`<tr><th scope="row">${code(p.name)}</th>${look.columns.map((c) => html`<td>${clause(ctx, p, c).value}</td>`)}</tr>`)}</tbody></table>`;
  }
  if (look.params === 'dl') {
    return html`<dl class="params">${params.map((p) => html`<dt>${code(p.name)}</dt>${look.columns.map((c) => {
      const x = clause(ctx, p, c);
      return html`<dd>${x.label}: ${x.value}</dd>`;
    })}`)}</dl>`;
  }
  return html`<ul class="params">${params.map((p) => html`<li>${code(p.name)}: ${look.columns.map((c, i) => {
    const x = clause(ctx, p, c);
    return html`${i ? '; ' : ''}${x.label}: ${x.value}`;
  })}</li>`)}</ul>`;
}

export function apiPage(ctx: Ctx, req: SiteRequest, fn: ApiFunction, major: number): string {
  const s = ctx.state;
  const { ui } = s;
  const href = hrefs(ctx);
  const key = apiKey(fn.id);
  const params = paramsIn(fn, major)!;
  const sections: Record<string, Raw> = {
    params: html`<section><h2>${ui.parameters}</h2>${paramsBlock(ctx, params)}</section>`,
    returns: html`<section><h2>${ui.returns}</h2><p>${code(fn.returns)}</p></section>`,
    example: html`<section><h2>${ui.example}</h2><pre>${code(exampleCall(fn, params, s.lib.style))}</pre></section>`,
    notes: html`<section><h2>${ui.notes}</h2><p>${ui.since} ${fn.since}.</p></section>`,
  };
  const use = fn.deprecated && s.lib.functions.find((f) => f.id === fn.deprecated!.use);
  return docsPage(ctx, {
    title: fn.id,
    major,
    key,
    main: html`<article class="api">
<h1>${fn.id}</h1>
${fn.deprecated && use ? html`<p class="notice" role="note">${ui.deprecated} since ${fn.deprecated.since}: use <a href="${href(pagePath(s, apiKey(use.id), major))}">${use.id}</a> instead.</p>` : ''}
<p>${fn.summary}</p>
<pre class="signature">${code(signature(fn, params, s.lib.style))}</pre>
${s.look.apiSections.map((k) => sections[k])}
</article>
${pageFooter(ctx, req, key, major)}`,
  });
}

export function changelogPage(ctx: Ctx, req: SiteRequest, major: number): string {
  const s = ctx.state;
  const releases = s.lib.releases.filter((r) => r.major === major).reverse();
  return docsPage(ctx, {
    title: s.ui.changelog,
    major,
    key: 'changelog',
    main: html`<h1>${s.ui.changelog}: v${major}.x</h1>
<p>Releases of v${major}.x, newest first. The version selector shows the other versions' releases.</p>
${releases.map((r) => html`<section><h2 id="r-${r.version.replace('.', '-')}">${r.version}</h2><p class="meta">Released ${dayMonthYear(r.date)}</p>
<ul>${r.changes.map((c) => html`<li>${changeSentence(c, s.lib.style, s.ui.addedStyle)}</li>`)}</ul></section>`)}
${pageFooter(ctx, req, 'changelog', major)}`,
  });
}

/** A page that exists in other versions only (a function added later, say). */
export function missingInVersion(ctx: Ctx, title: string, major: number): string {
  return docsPage(ctx, {
    title,
    major,
    main: html`<h1>${title}</h1><p role="status">This page does not exist in v${major}.x.</p><p><a href="${hrefs(ctx)(`/v${major}/`)}">Back to the v${major}.x documentation</a></p>`,
  });
}
