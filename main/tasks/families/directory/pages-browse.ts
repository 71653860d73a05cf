/** Directory pages for finding a listing: home, all categories, a category, a subcategory's listing, search, popular, saved, help. */
import type { SiteRequest } from '../../types.ts';
import { html, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { paginate, parseListingQuery, queryParams, runListingQuery } from './query.ts';
import { clockLine, decoyBoxes, directoryPage, filterForm, linkList, listingLink, listingList, pager, problemsNotice, withFilters, type Ctx } from './chrome.ts';
import { listingById, listingLabel, type Category, type Listing, type Subcategory } from './data.ts';
import type { HomeSection } from './look.ts';

const count = (n: number, noun: string) => `${n} ${n === 1 ? noun.replace(/s$/, '') : noun}`;

function categoryLinks(ctx: Ctx): Raw {
  const s = ctx.state;
  const href = hrefs(ctx);
  const items = s.categories.map((c) => html`<li${s.look.listLayout === 'cards' ? html` class="card"` : ''}><a href="${href(`/c/${c.slug}`)}">${c.name}</a> <span class="meta">${c.blurb}</span></li>`);
  return html`<ul class="${s.look.listLayout === 'cards' ? 'grid' : 'plain'}">${items}</ul>`;
}

export function homePage(ctx: Ctx, req: SiteRequest): string {
  const s = ctx.state;
  const w = s.look.words;
  const sections: Record<HomeSection, () => Raw> = {
    categories: () => html`<section aria-label="${w.categoriesHeading}"><h2>${w.categoriesHeading}</h2>${categoryLinks(ctx)}</section>`,
    featured: () => html`<section aria-label="${w.featuredHeading}"><h2>${w.featuredHeading}</h2>${linkList(ctx, s.featured)}</section>`,
    decoys: () => decoyBoxes(ctx),
    towns: () => html`<section aria-label="Towns"><h2>Towns we cover</h2><p>${s.towns.map((t) => t.name).join(', ')}.</p></section>`,
  };
  return directoryPage(ctx, req, 'Home', html`<h1>${s.siteName}</h1><p>${s.listings.length} ${s.listsWhat}, checked by our editors.</p>${s.look.homeOrder.map((k) => sections[k]())}`);
}

export function categoriesPage(ctx: Ctx, req: SiteRequest): string {
  const s = ctx.state;
  const href = hrefs(ctx);
  const title = s.look.words.nav.categories;
  return directoryPage(
    ctx,
    req,
    title,
    html`<h1>${title}</h1>${s.categories.map((c) => html`<section aria-label="${c.name}"><h2><a href="${href(`/c/${c.slug}`)}">${c.name}</a></h2><ul class="chips">${c.subs.map((sub) => html`<li><a href="${href(`/c/${c.slug}/${sub.slug}`)}">${sub.name}</a></li>`)}</ul></section>`)}`,
  );
}

export function categoryPage(ctx: Ctx, req: SiteRequest, c: Category): string {
  const s = ctx.state;
  const w = s.look.words;
  const href = hrefs(ctx);
  const inCategory = (sub: Subcategory) => s.listings.filter((l) => l.category === c.slug && l.sub === sub.slug).length;
  return directoryPage(
    ctx,
    req,
    c.name,
    html`<p class="breadcrumb"><a href="${href('/')}">${s.siteName}</a> › ${c.name}</p>
<h1>${c.name}</h1><p>${c.blurb}</p>
<section aria-label="${w.subsHeading}"><h2>${w.subsHeading}</h2><ul class="chips">${c.subs.map((sub) => html`<li><a href="${href(`/c/${c.slug}/${sub.slug}`)}">${sub.name}</a> <span class="meta">(${inCategory(sub)})</span></li>`)}</ul></section>
<section aria-label="${w.picksHeading}"><h2>${w.picksHeading}</h2>${linkList(ctx, s.picks[c.slug] ?? [])}</section>
${decoyBoxes(ctx)}`,
  );
}

/** A result list with its count, the ignored-input notice, the pager and the clock. */
function results(ctx: Ctx, all: Listing[], page: number, problems: string[], link: (p: number) => string, withCategory: boolean, empty: string): Raw {
  const s = ctx.state;
  const shown = paginate(all, page, s.look.pageSize);
  const past = page > shown.pages ? [`Page ${page} is past the last page; showing page ${shown.page}.`] : [];
  return html`${problemsNotice([...problems, ...past])}
<p class="count" role="status">${count(shown.total, 'listings')}</p>
${shown.items.length ? listingList(ctx, shown.items, withCategory) : html`<p>${empty}</p>`}
${pager(ctx, shown.page, shown.pages, link)}
${clockLine(s)}`;
}

export function listingPage(ctx: Ctx, req: SiteRequest, c: Category, sub: Subcategory): string {
  const s = ctx.state;
  const href = hrefs(ctx);
  const path = `/c/${c.slug}/${sub.slug}`;
  const { query, problems } = parseListingQuery(s, req.query);
  const all = runListingQuery(s, query, { category: c.slug, sub: sub.slug });
  const link = (p: number) => `${href(path)}?${queryParams(query, p)}`.replace(/\?$/, '');
  return directoryPage(
    ctx,
    req,
    `${sub.name} – ${c.name}`,
    html`<p class="breadcrumb"><a href="${href('/')}">${s.siteName}</a> › <a href="${href(`/c/${c.slug}`)}">${c.name}</a> › ${sub.name}</p>
<h1>${sub.name}</h1>
${withFilters(ctx, filterForm(ctx, href(path), query, false), results(ctx, all, query.page, problems, link, false, 'Nothing matches these filters. Try fewer of them.'))}
${decoyBoxes(ctx)}`,
  );
}

export function searchPage(ctx: Ctx, req: SiteRequest): string {
  const s = ctx.state;
  const href = hrefs(ctx);
  const { query, problems } = parseListingQuery(s, req.query);
  const all = query.q ? runListingQuery(s, query) : [];
  const link = (p: number) => `${href('/search')}?${queryParams(query, p)}`;
  const heading = query.q ? `Results for “${query.q}”` : 'Search';
  return directoryPage(
    ctx,
    req,
    heading,
    html`<h1>${heading}</h1>
${query.q ? withFilters(ctx, filterForm(ctx, href('/search'), query, true), results(ctx, all, query.page, problems, link, true, 'No listings match. Check the spelling or use fewer filters.')) : html`<p>Type a name in the search box.</p>`}`,
    query.q,
  );
}

export function popularPage(ctx: Ctx, req: SiteRequest): string {
  const title = ctx.state.look.words.nav.popular;
  return directoryPage(ctx, req, title, html`<h1>${title}</h1><p>The listings people opened most this week.</p>${linkList(ctx, ctx.state.popular)}`);
}

export function savedPage(ctx: Ctx, req: SiteRequest, notice?: string): string {
  const s = ctx.state;
  const w = s.look.words;
  const href = hrefs(ctx);
  const title = w.nav.saved;
  const rows = s.saved.map((e) => ({ e, l: listingById(s, e.id) })).filter((x): x is { e: (typeof s.saved)[number]; l: Listing } => !!x.l);
  return directoryPage(
    ctx,
    req,
    title,
    html`<h1>${title}</h1>${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
${rows.length ? html`<ul class="plain">${rows.map(({ e, l }) => html`<li>${listingLink(ctx, l)}${e.note ? html` <span class="meta">Note: ${e.note}</span>` : ''}
<form method="post" action="${href(`/place/${l.id}/unsave`)}" class="inline"><input type="hidden" name="return" value="/saved"><button type="submit" class="link" aria-label="${w.remove} ${listingLabel(s, l)}">${w.remove}</button></form></li>`)}</ul>` : html`<p>Nothing saved yet.</p>`}`,
  );
}

export function helpPage(ctx: Ctx, req: SiteRequest): string {
  const s = ctx.state;
  const href = hrefs(ctx);
  const title = s.look.words.nav.help;
  return directoryPage(
    ctx,
    req,
    title,
    html`<h1>${title}</h1>
<p>Browse by category, then narrow a list down with its filters, or search for a name. Listings with branches in several towns show the town beside the name.</p>
${s.newsletter ? html`<form method="post" action="${href('/newsletter/stop')}"><p>You get our newsletter. <button type="submit">Unsubscribe from the newsletter</button></p></form>` : ''}`,
  );
}
