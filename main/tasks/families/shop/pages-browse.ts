/**
 * Shop pages for browsing: home (its sections in the variant's order), the search listing (its
 * filters in the variant's order and place), the product page, and the plain pages distractor
 * links lead to, which help with nothing.
 */
import type { SiteRequest } from '../../types.ts';
import { attr, html, money, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { CATEGORIES, COLORS, FEATURED, categoryOf, type Product } from './data.ts';
import { SORTS, parseListingQuery, runListing, type ListingQuery } from './query.ts';
import { EXTRA_PAGES, errorBox, productList, shopPage, stars, swatchColor, type Ctx } from './chrome.ts';
import { fill, type FilterKey, type ProductOption, type SectionKey, type Words } from './variant.ts';

// ---- home ----

/** Distractor boxes: each links to a plain page and names no product, brand or category. */
const PROMOS: Record<Exclude<SectionKey, 'hero' | 'featured' | 'brands'>, { heading: string; text: string; link: string; path: string }> = {
  guides: { heading: 'Gear guides', text: 'How to layer for cold mornings, and how to look after waterproof fabrics.', link: 'Read the guides', path: '/guides' },
  club: { heading: 'Members club', text: 'Members collect points on every order and get early access to new colours.', link: 'About the club', path: '/club' },
  app: { heading: 'Shop on the go', text: 'Track your orders and save favourites in our mobile app.', link: 'Get the app', path: '/app' },
};

function homeSection(ctx: Ctx, key: SectionKey): Raw {
  const s = ctx.state;
  const w = s.variant.words;
  const href = hrefs(ctx);
  switch (key) {
    case 'hero':
      return html`<section class="hero"><h1>${w.heroTitle}</h1><p>${w.heroText}</p></section>`;
    case 'featured':
      return html`<section><h2>${w.featured}</h2>${productList(ctx, s.products.filter((p) => p.inStock).slice(0, FEATURED))}</section>`;
    case 'brands':
      return html`<section><h2>${w.brands}</h2><ul class="chips">${s.brands.map((b) => html`<li><a href="${href('/search', { brand: b })}">${b}</a></li>`)}</ul></section>`;
    default: {
      const promo = PROMOS[key];
      return html`<section class="promo"><h2>${promo.heading}</h2><p>${promo.text}</p><p><a href="${href(promo.path)}">${promo.link}</a></p></section>`;
    }
  }
}

export function homePage(ctx: Ctx, req: SiteRequest): string {
  return shopPage(ctx, req, 'Home', html`${ctx.state.variant.sections.map((k) => homeSection(ctx, k))}`);
}

const INFO: Record<string, { title: string; text: string }> = {
  [EXTRA_PAGES.giftCards.path]: { title: 'Gift cards', text: 'Gift cards are sold in our stores only, in amounts from $25 to $500.' },
  [EXTRA_PAGES.help.path]: { title: 'Help centre', text: 'Questions about an order? Write to us from the e-mail address on your account and we answer within two working days.' },
  [EXTRA_PAGES.stores.path]: { title: 'Store finder', text: 'Our stores are open Monday to Saturday, 9 am to 7 pm. Online orders cannot be collected in store.' },
  [EXTRA_PAGES.careers.path]: { title: 'Careers', text: 'We have no open positions at the moment. Check back in the spring.' },
  [PROMOS.guides.path]: { title: PROMOS.guides.heading, text: 'New guides are on their way. Until then, our staff in store are glad to help you choose.' },
  [PROMOS.club.path]: { title: PROMOS.club.heading, text: 'The club is open to customers with an account; membership starts with your next order in store.' },
  [PROMOS.app.path]: { title: 'Our app', text: 'The app is available for phones only. Search for the store name in your app store.' },
};

/** A page a distractor links to, or undefined for any other path. */
export function infoPage(ctx: Ctx, req: SiteRequest): string | undefined {
  const page = INFO[req.path];
  if (!page) return undefined;
  return shopPage(ctx, req, page.title, html`<h1>${page.title}</h1><p>${page.text}</p><p><a href="${hrefs(ctx)('/')}">${ctx.state.variant.words.keepShopping}</a></p>`);
}

/** Every distractor's page path, for tests. */
export const INFO_PATHS: readonly string[] = Object.keys(INFO);

// ---- the listing ----

const SORT_WORD: Record<(typeof SORTS)[number]['value'], keyof Words> = { relevance: 'sortRelevance', price_asc: 'sortPriceAsc', price_desc: 'sortPriceDesc', rating: 'sortRating' };

/** A sort order's name on this site. */
export function sortLabel(w: Words, value: (typeof SORTS)[number]['value']): string {
  return w[SORT_WORD[value]];
}

function selectFilter(id: string, name: string, label: string, options: Array<[string, string]>, chosen: string): Raw {
  return html`<div class="filter"><label for="${id}">${label}</label>
<select id="${id}" name="${name}">${options.map(([value, text]) => html`<option value="${value}"${attr('selected', value === chosen)}>${text}</option>`)}</select></div>`;
}

function filterControl(ctx: Ctx, lq: ListingQuery, key: FilterKey): Raw {
  const s = ctx.state;
  const w = s.variant.words;
  switch (key) {
    case 'category':
      return selectFilter('f-category', 'category', w.category, [['', w.allCategories], ...CATEGORIES.map((c): [string, string] => [c.slug, c.label])], lq.category);
    case 'brand':
      return selectFilter('f-brand', 'brand', w.brand, [['', w.allBrands], ...s.brands.map((b): [string, string] => [b, b])], lq.brand);
    case 'color':
      return selectFilter('f-color', 'color', w.color, [['', w.anyColor], ...COLORS.map((c): [string, string] => [c, c])], lq.color);
    case 'sort':
      return selectFilter('f-sort', 'sort', w.sort, SORTS.map((o): [string, string] => [o.value, sortLabel(w, o.value)]), lq.sort);
    case 'maxPrice':
      return html`<div class="filter"><label for="f-max">${w.maxPrice}</label>
<input id="f-max" type="number" name="max_price" min="0" step="1" value="${Number.isNaN(lq.maxPrice) ? '' : lq.maxPrice}"></div>`;
    case 'inStock':
      return html`<div class="filter"><label class="check"><input type="checkbox" name="in_stock" value="1"${attr('checked', lq.inStock)}> ${w.inStockOnly}</label></div>`;
  }
}

function pager(ctx: Ctx, lq: ListingQuery, page: number, pages: number): Raw | string {
  if (pages <= 1) return '';
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  const base = { q: lq.q, category: lq.category, brand: lq.brand, color: lq.color, max_price: Number.isNaN(lq.maxPrice) ? undefined : lq.maxPrice, in_stock: lq.inStock ? 1 : undefined, sort: lq.sort === 'relevance' ? undefined : lq.sort };
  const to = (n: number) => href('/search', { ...base, page: n });
  return html`<nav class="pager" aria-label="Pagination">
${page > 1 ? html`<a href="${to(page - 1)}">${w.prevPage}</a>` : ''}
${Array.from({ length: pages }, (_, i) => i + 1).map((n) => (n === page ? html`<span aria-current="page">${fill(w.pageN, { n })}</span>` : html`<a href="${to(n)}">${fill(w.pageN, { n })}</a>`))}
${page < pages ? html`<a href="${to(page + 1)}">${w.nextPage}</a>` : ''}
</nav>`;
}

export function listingPage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  const s = ctx.state;
  const v = s.variant;
  const w = v.words;
  const lq = parseListingQuery(req.query);
  const { items, total, pages } = runListing(s.products, lq);
  const page = Math.min(lq.page, pages);
  const cat = categoryOf(lq.category);
  const heading = cat ? cat.label : lq.q ? fill(w.resultsFor, { q: lq.q }) : w.allProducts;
  const filters = html`<form class="filters" method="get" action="${href('/search')}" aria-label="Filters">
<input type="hidden" name="q" value="${lq.q}">
${v.filters.map((k) => filterControl(ctx, lq, k))}
<button type="submit">${w.apply}</button>
</form>`;
  return shopPage(
    ctx,
    req,
    heading,
    html`<div class="listing filters-${v.filtersPlacement}">
<aside>${filters}</aside>
<section>
<h1>${heading}</h1>
<p class="count" role="status">${total} ${total === 1 ? 'product' : 'products'}${pages > 1 ? ` · page ${page} of ${pages}` : ''}</p>
${items.length ? productList(ctx, items) : html`<p>${w.noResults}</p>`}
${pager(ctx, lq, page, pages)}
</section>
</div>`,
    lq.q,
  );
}

// ---- the product page ----

export interface ProductFormState {
  color?: string;
  size?: string;
  qty?: string;
  errors?: string[];
}

function optionControl(p: Product, f: ProductFormState, w: Words, key: ProductOption): Raw | string {
  const errs = f.errors ?? [];
  switch (key) {
    case 'color':
      return html`<label for="p-color">${w.color}</label>
<select id="p-color" name="color">${p.colors.map((c) => html`<option value="${c}"${attr('selected', c === f.color)}>${c}</option>`)}</select>`;
    case 'size':
      return p.sizes.length
        ? html`<label for="p-size">${w.size}</label>
<select id="p-size" name="size"${attr('aria-invalid="true"', errs.some((e) => e.includes('size')))}><option value="">Choose a size</option>${p.sizes.map((z) => html`<option value="${z}"${attr('selected', z === f.size)}>${z}</option>`)}</select>`
        : '';
    case 'qty':
      return html`<label for="p-qty">${w.qty}</label>
<input id="p-qty" type="number" name="qty" min="1" max="10" value="${f.qty ?? '1'}">`;
  }
}

export function productPage(ctx: Ctx, req: SiteRequest, p: Product, f: ProductFormState = {}): string {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  const w = v.words;
  const cat = categoryOf(p.category)!;
  return shopPage(
    ctx,
    req,
    p.name,
    html`<nav class="crumbs" aria-label="Breadcrumb"><a href="${href('/')}">${w.crumbHome}</a> › <a href="${href('/search', { category: cat.slug })}">${cat.label}</a></nav>
<article class="product">
<div class="swatch big" style="background:${swatchColor(f.color ?? p.colors[0])}" aria-hidden="true"></div>
<div>
<h1>${p.name}</h1>
<p class="brand-line">${fill(w.byBrand, { brand: p.brand })}</p>
<p class="price">${money(p.price)}</p>
<p class="meta">${stars(p.rating)}</p>
<p class="${p.inStock ? 'stock in' : 'stock out'}">${p.inStock ? w.inStock : w.outOfStock}</p>
<p>${p.description}</p>
${errorBox(f.errors ?? [])}
<form method="post" action="${href('/cart/add')}" class="buy">
<input type="hidden" name="product" value="${p.id}">
${v.productOptions.map((k) => optionControl(p, f, w, k))}
<button type="submit"${attr('disabled', !p.inStock)}>${w.addToCart}</button>
</form>
</div>
</article>`,
  );
}
