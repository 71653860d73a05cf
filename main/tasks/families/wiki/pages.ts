/** Wiki pages: main page, search with exact-title jump, and articles with infobox, contents, sections and tables. */
import type { InstanceContext, SiteRequest, SiteResponse } from '../../types.ts';
import { html, layout, type Raw } from '../common/html.ts';
import { hrefs, titleFromPath, titlePath } from '../common/site.ts';
import { MONTHS_SHORT, type City, type Country, type WikiState } from './data.ts';

export type Ctx = InstanceContext<WikiState>;
const page = (body: string): SiteResponse => ({ kind: 'html', body });

function wikiPage(ctx: Ctx, title: string, main: Raw, q = ''): string {
  const href = hrefs(ctx);
  return layout({
    title,
    siteName: ctx.state.siteName,
    theme: 'theme-wiki',
    homeHref: href('/'),
    header: html`<form class="search" role="search" method="get" action="${href('/search')}">
<input type="search" name="q" value="${q}" aria-label="Search the wiki" placeholder="Search the wiki">
<button type="submit">Search</button>
</form>`,
    nav: html`<ul><li><a href="${href('/')}">Main page</a></li><li><a href="${href('/countries')}">All countries</a></li><li><a href="${href('/help')}">Help</a></li></ul>`,
    main,
  });
}

const n = (x: number) => x.toLocaleString('en-US');

function link(ctx: Ctx, name: string): Raw {
  return html`<a href="${hrefs(ctx)(titlePath('/wiki/', name))}">${name}</a>`;
}

function cityArticle(ctx: Ctx, c: City): string {
  const country = ctx.state.countries.find((x) => x.name === c.country)!;
  const capital = country.capital === c.name;
  const toc = ['History', 'Geography', 'Economy', 'Climate', 'Twin towns'];
  return wikiPage(
    ctx,
    c.name,
    html`<article class="wiki">
<h1>${c.name}</h1>
<p class="meta">From ${ctx.state.siteName}, the free encyclopedia</p>
<table class="infobox"><caption>${c.name}</caption><tbody>
<tr><th scope="row">Country</th><td>${link(ctx, c.country)}</td></tr>
<tr><th scope="row">Status</th><td>${capital ? 'Capital city' : 'City'}</td></tr>
<tr><th scope="row">Founded</th><td>${c.founded}</td></tr>
<tr><th scope="row">Mayor</th><td>${c.mayor}</td></tr>
<tr><th scope="row">Population</th><td>${n(c.population)}</td></tr>
<tr><th scope="row">Elevation</th><td>${n(c.elevation)} m</td></tr>
</tbody></table>
<p><b>${c.name}</b> is a ${capital ? 'capital ' : ''}city in ${link(ctx, c.country)} on the ${c.river}.</p>
<nav class="toc" aria-label="Contents"><h2>Contents</h2><ol>${toc.map((t) => html`<li><a href="#${t.toLowerCase().replace(/\s+/g, '-')}">${t}</a></li>`)}</ol></nav>
<h2 id="history">History</h2>
<p>${c.name} was founded in ${c.founded} as a market town. It grew rapidly in the following centuries and ${capital ? `became the capital of ${c.country}` : `remains one of the main towns of ${c.country}`}.</p>
<h2 id="geography">Geography</h2>
<p>The city lies at an elevation of ${n(c.elevation)} metres on the banks of the ${c.river}.</p>
<h2 id="economy">Economy</h2>
<p>The main industries are ${c.industries.slice(0, -1).join(', ')} and ${c.industries.at(-1)}.</p>
<h2 id="climate">Climate</h2>
<table class="climate"><caption>Climate data for ${c.name}</caption>
<thead><tr><th scope="col">Month</th>${MONTHS_SHORT.map((m) => html`<th scope="col">${m}</th>`)}</tr></thead>
<tbody>
<tr><th scope="row">Average high (°C)</th>${c.high.map((v) => html`<td>${v}</td>`)}</tr>
<tr><th scope="row">Average low (°C)</th>${c.low.map((v) => html`<td>${v}</td>`)}</tr>
<tr><th scope="row">Rainfall (mm)</th>${c.rain.map((v) => html`<td>${v}</td>`)}</tr>
</tbody></table>
<h2 id="twin-towns">Twin towns</h2>
${c.sister ? html`<p>${c.name} is twinned with ${link(ctx, c.sister)}.</p>` : html`<p>${c.name} has no twin towns.</p>`}
</article>`,
  );
}

function countryArticle(ctx: Ctx, c: Country): string {
  const cities = c.cities.map((name) => ctx.state.cities.find((x) => x.name === name)!);
  return wikiPage(
    ctx,
    c.name,
    html`<article class="wiki">
<h1>${c.name}</h1>
<p class="meta">From ${ctx.state.siteName}, the free encyclopedia</p>
<table class="infobox"><caption>${c.name}</caption><tbody>
<tr><th scope="row">Capital</th><td>${link(ctx, c.capital)}</td></tr>
<tr><th scope="row">Official language</th><td>${c.language}</td></tr>
<tr><th scope="row">Currency</th><td>${c.currency}</td></tr>
<tr><th scope="row">Area</th><td>${n(c.area)} km²</td></tr>
</tbody></table>
<p><b>${c.name}</b> is a country whose capital is ${c.capital}. Its official language is ${c.language}.</p>
<h2 id="cities">Cities</h2>
<table class="cities"><caption>Cities of ${c.name}</caption>
<thead><tr><th scope="col">City</th><th scope="col">River</th></tr></thead>
<tbody>${cities.map((x) => html`<tr><td>${link(ctx, x.name)}</td><td>${x.river}</td></tr>`)}</tbody>
</table>
</article>`,
  );
}

export function handleWiki(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const href = hrefs(ctx);
  if (req.method !== 'GET') return { kind: 'not_found' };
  if (req.path === '/') {
    const featured = s.cities[0];
    return page(
      wikiPage(
        ctx,
        'Main page',
        html`<h1>Welcome to ${s.siteName}</h1><p>The free encyclopedia of ${s.countries.length} countries and ${s.cities.length} cities.</p>
<section><h2>Featured article</h2><p>${link(ctx, featured.name)} is a city in ${featured.country}, founded in ${featured.founded}.</p></section>
<section><h2>Countries</h2><ul class="chips">${s.countries.map((c) => html`<li>${link(ctx, c.name)}</li>`)}</ul></section>`,
      ),
    );
  }
  if (req.path === '/countries') return page(wikiPage(ctx, 'All countries', html`<h1>All countries</h1><ul>${s.countries.map((c) => html`<li>${link(ctx, c.name)}</li>`)}</ul>`));
  if (req.path === '/help') return page(wikiPage(ctx, 'Help', html`<h1>Help</h1><p>Type an article title in the search box to go straight to it, or a few words to list matching articles.</p>`));
  if (req.path === '/search') {
    const q = (req.query.get('q') ?? '').trim();
    const all = [...s.countries.map((c) => ({ name: c.name, text: `${c.name} country capital ${c.capital} ${c.language} ${c.cities.join(' ')}` })), ...s.cities.map((c) => ({ name: c.name, text: `${c.name} city ${c.country} ${c.river} ${c.mayor} ${c.industries.join(' ')}` }))];
    const exact = all.find((a) => a.name.toLowerCase() === q.toLowerCase());
    if (exact) return { kind: 'redirect', location: titlePath('/wiki/', exact.name) };
    const words = q.toLowerCase().split(/\s+/).filter(Boolean);
    const hits = words.length ? all.filter((a) => words.every((w) => a.text.toLowerCase().includes(w))) : [];
    return page(
      wikiPage(
        ctx,
        'Search results',
        html`<h1>Search results</h1>
${q ? html`<p role="status">${hits.length} result${hits.length === 1 ? '' : 's'} for "${q}". There is no article titled "${q}".</p>` : html`<p>Type something to search.</p>`}
<ul class="results">${hits.slice(0, 20).map((h) => html`<li>${link(ctx, h.name)} <span class="meta">${h.text.slice(h.name.length + 1, h.name.length + 80)}</span></li>`)}</ul>`,
        q,
      ),
    );
  }
  // An empty title or one that does not decode is no article page at all.
  const title = titleFromPath(req.path, '/wiki/');
  if (title) {
    const city = s.cities.find((c) => c.name === title);
    if (city) return page(cityArticle(ctx, city));
    const country = s.countries.find((c) => c.name === title);
    if (country) return page(countryArticle(ctx, country));
    return { kind: 'html', status: 404, body: wikiPage(ctx, 'No such article', html`<h1>No such article</h1><p>${s.siteName} does not have an article titled "${title}". <a href="${href('/search', { q: title })}">Search for it</a>.</p>`) };
  }
  return { kind: 'not_found' };
}
