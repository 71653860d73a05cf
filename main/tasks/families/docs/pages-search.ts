/**
 * The docs search: every word of the query must occur in a page's title or text. Results show a
 * title, the section and version, and a snippet around the first match; filters narrow them by
 * section and version. Title matches rank first, then API pages, changelog releases and guides, and
 * only the first few are listed, so finding a guide among many hits takes the section filter.
 */
import type { SiteRequest } from '../../types.ts';
import { attr, html } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { existsIn, paramsIn } from './library.ts';
import { changeSentence } from './render.ts';
import { apiKey, functionsOf, guideKey, moduleKey, pagePath } from './site-map.ts';
import { moduleLabel, versionOption } from './wording.ts';
import { docsPage } from './pages-frame.ts';
import type { Ctx, DocsState } from './state.ts';

export const SECTIONS = ['all', 'guides', 'api', 'changelog'] as const;
export type Section = (typeof SECTIONS)[number];
/** Results listed before the filters must narrow them. */
export const RESULT_CAP = 3;

interface Entry {
  section: Exclude<Section, 'all'>;
  title: string;
  text: string;
  path: string;
}

export function sectionLabel(s: DocsState, section: Section): string {
  return section === 'all' ? s.ui.allSections : s.ui[section];
}

function entries(s: DocsState, major: number): Entry[] {
  const guides = s.lib.guides.map((g): Entry => ({
    section: 'guides',
    title: g.title,
    text: [g.intro, ...(g.body[String(major)] ?? []).map((x) => `${x.before}${x.fn ?? ''}${x.after ?? ''}`)].join(' '),
    path: pagePath(s, guideKey(g.slug), major),
  }));
  const api = s.lib.functions.filter((f) => existsIn(f, major)).map((f): Entry => ({
    section: 'api',
    title: f.id,
    text: `${f.summary} ${paramsIn(f, major)!.map((p) => `${p.name}: ${p.description}`).join(' ')}`,
    path: pagePath(s, apiKey(f.id), major),
  }));
  const modules = s.lib.modules.map((m): Entry => ({
    section: 'api',
    title: moduleLabel(s.ui, m),
    text: functionsOf(s, m, major).map((f) => `${f.id}: ${f.summary}`).join(' '),
    path: pagePath(s, moduleKey(m), major),
  }));
  const changelog = s.lib.releases.filter((r) => r.major === major).map((r): Entry => ({
    section: 'changelog',
    title: `${s.ui.changelog} ${r.version}`,
    text: r.changes.map((c) => changeSentence(c, s.lib.style, s.ui.addedStyle)).join(' '),
    path: `${pagePath(s, 'changelog', major)}#r-${r.version.replace('.', '-')}`,
  }));
  return [...api, ...modules, ...changelog, ...guides];
}

/** The query's words: case and surrounding code quotes do not matter. */
export function queryWords(q: string): string[] {
  return q.toLowerCase().replace(/[`'"]/g, ' ').split(/\s+/).filter(Boolean);
}

export function runSearch(s: DocsState, q: string, section: Section, major: number): Entry[] {
  const words = queryWords(q);
  if (!words.length) return [];
  const hits = entries(s, major).filter((e) => (section === 'all' || e.section === section) && words.every((w) => `${e.title} ${e.text}`.toLowerCase().includes(w)));
  const inTitle = (e: Entry) => (words.every((w) => e.title.toLowerCase().includes(w)) ? 0 : 1);
  return hits.map((e, i) => ({ e, i })).sort((a, b) => inTitle(a.e) - inTitle(b.e) || a.i - b.i).map((x) => x.e);
}

function snippet(text: string, word: string): string {
  const at = Math.max(0, text.toLowerCase().indexOf(word));
  const from = Math.max(0, text.lastIndexOf(' ', Math.max(0, at - 50)));
  const to = text.indexOf(' ', Math.min(text.length, at + word.length + 60));
  const cut = text.slice(from, to < 0 ? text.length : to).trim();
  return `${from > 0 ? '… ' : ''}${cut}${to >= 0 && to < text.length ? ' …' : ''}`;
}

export function parseSearch(s: DocsState, req: SiteRequest): { q: string; section: Section; major: number } {
  const q = (req.query.get('q') ?? '').trim().slice(0, 200);
  const section = (SECTIONS as readonly string[]).includes(req.query.get('section') ?? '') ? (req.query.get('section') as Section) : 'all';
  const v = Number(req.query.get('v'));
  return { q, section, major: s.lib.majors.includes(v) ? v : s.lib.latest };
}

export function searchPage(ctx: Ctx, req: SiteRequest): string {
  const s = ctx.state;
  const { ui } = s;
  const href = hrefs(ctx);
  const { q, section, major } = parseSearch(s, req);
  const hits = runSearch(s, q, section, major);
  const shown = hits.slice(0, RESULT_CAP);
  const first = queryWords(q)[0] ?? '';
  return docsPage(ctx, {
    title: ui.resultsHeading,
    major,
    q,
    main: html`<h1>${ui.resultsHeading}</h1>
<form class="filters" method="get" action="${href('/search')}" aria-label="Filters">
<input type="hidden" name="q" value="${q}">
<label for="f-section">${ui.sectionFilter}</label>
<select id="f-section" name="section">${SECTIONS.map((x) => html`<option value="${x}"${attr('selected', x === section)}>${sectionLabel(s, x)}</option>`)}</select>
<label for="f-version">${ui.versionFilter}</label>
<select id="f-version" name="v">${s.lib.majors.map((m) => html`<option value="${m}"${attr('selected', m === major)}>${versionOption(ui, m, s.lib.latest)}</option>`)}</select>
<button type="submit">${ui.applyFilters}</button>
</form>
${q ? html`<p role="status">${hits.length} result${hits.length === 1 ? '' : 's'} for "${q}" in ${sectionLabel(s, section)}, v${major}.x.${hits.length > shown.length ? ` Showing the first ${shown.length}; narrow the search with the filters.` : ''}</p>` : html`<p>Type a word to search the documentation.</p>`}
<ol class="results">${shown.map((e) => html`<li><a href="${href(e.path)}">${e.title}</a><p class="meta">${sectionLabel(s, e.section)} · v${major}.x</p><p>${snippet(e.text, first)}</p></li>`)}</ol>`,
  });
}
