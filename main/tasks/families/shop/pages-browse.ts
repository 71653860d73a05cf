/** Shop pages for browsing: the common chrome, home, search listing and product page. */
import type { InstanceContext, SiteRequest } from '../../types.ts';
import { attr, html, layout, money, type Raw } from '../common/html.ts';
import { cookieBanner, currentPath, hrefs } from '../common/site.ts';
import { CATEGORIES, COLORS, FEATURED, categoryOf, type Product, type ShopState } from './data.ts';
import { SORTS, parseListingQuery, runListing } from './query.ts';

export type Ctx = InstanceContext<ShopState>;

export function shopPage(ctx: Ctx, req: SiteRequest, title: string, main: Raw, q = ''): string {
  const href = hrefs(ctx);
  const s = ctx.state;
  const count = s.cart.reduce((n, l) => n + l.qty, 0);
  return layout({
    title,
    siteName: s.storeName,
    theme: 'theme-shop',
    homeHref: href('/'),
    header: html`<form class="search" role="search" method="get" action="${href('/search')}">
<input type="search" name="q" value="${q}" aria-label="Search products" placeholder="Search products">
<button type="submit">Search</button>
</form>
<span class="me">Hi, ${s.account.name.split(' ')[0]}</span>
<a class="cart-link" href="${href('/cart')}">Cart (${count})</a>`,
    nav: html`<ul>${CATEGORIES.map((c) => html`<li><a href="${href('/search', { category: c.slug })}">${c.label}</a></li>`)}</ul>`,
    main,
    overlay: cookieBanner(s.ui, href, currentPath(req)),
    scripts: ['shop.js'],
  });
}

function stars(r: number): string {
  return `${r.toFixed(1)} out of 5 stars`;
}

function card(ctx: Ctx, p: Product): Raw {
  const href = hrefs(ctx);
  return html`<li class="card">
<div class="swatch" style="background:${swatchColor(p.colors[0])}" aria-hidden="true"></div>
<h3><a href="${href(`/product/${p.id}`)}">${p.name}</a></h3>
<p class="price">${money(p.price)}</p>
<p class="meta">${stars(p.rating)} · ${p.colors.join(', ')}</p>
${p.inStock ? '' : html`<p class="badge out">Out of stock</p>`}
</li>`;
}

function swatchColor(c: string): string {
  return ({ Red: '#c0392b', Blue: '#2e6bd6', Black: '#222', White: '#eee', Green: '#2e8b57', Grey: '#888', Orange: '#e67e22', Yellow: '#f1c40f', Navy: '#1f2d5a' } as Record<string, string>)[c] ?? '#999';
}

export function homePage(ctx: Ctx, req: SiteRequest): string {
  const s = ctx.state;
  const featured = s.products.filter((p) => p.inStock).slice(0, FEATURED);
  return shopPage(
    ctx,
    req,
    'Home',
    html`<section class="hero"><h1>Gear up for the season</h1><p>Free returns on all orders. Express shipping available.</p></section>
<section><h2>Featured products</h2><ul class="grid">${featured.map((p) => card(ctx, p))}</ul></section>
<section><h2>Shop by brand</h2><ul class="chips">${s.brands.map((b) => html`<li><a href="${hrefs(ctx)('/search', { brand: b })}">${b}</a></li>`)}</ul></section>`,
  );
}

export function listingPage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  const s = ctx.state;
  const lq = parseListingQuery(req.query);
  const { items, total, pages } = runListing(s.products, lq);
  const page = Math.min(lq.page, pages);
  const cat = categoryOf(lq.category);
  const heading = cat ? cat.label : lq.q ? `Results for "${lq.q}"` : 'All products';
  const base = { q: lq.q, category: lq.category, brand: lq.brand, color: lq.color, max_price: Number.isNaN(lq.maxPrice) ? undefined : lq.maxPrice, in_stock: lq.inStock ? 1 : undefined, sort: lq.sort === 'relevance' ? undefined : lq.sort };
  const pager =
    pages > 1
      ? html`<nav class="pager" aria-label="Pagination">
${page > 1 ? html`<a href="${href('/search', { ...base, page: page - 1 })}">Previous page</a>` : ''}
${Array.from({ length: pages }, (_, i) => i + 1).map((n) => (n === page ? html`<span aria-current="page">Page ${n}</span>` : html`<a href="${href('/search', { ...base, page: n })}">Page ${n}</a>`))}
${page < pages ? html`<a href="${href('/search', { ...base, page: page + 1 })}">Next page</a>` : ''}
</nav>`
      : '';
  const filters = html`<form class="filters" method="get" action="${href('/search')}" aria-label="Filters">
<input type="hidden" name="q" value="${lq.q}">
<label for="f-category">Category</label>
<select id="f-category" name="category"><option value="">All categories</option>${CATEGORIES.map((c) => html`<option value="${c.slug}"${attr('selected', c.slug === lq.category)}>${c.label}</option>`)}</select>
<label for="f-brand">Brand</label>
<select id="f-brand" name="brand"><option value="">All brands</option>${s.brands.map((b) => html`<option value="${b}"${attr('selected', b === lq.brand)}>${b}</option>`)}</select>
<label for="f-color">Color</label>
<select id="f-color" name="color"><option value="">Any color</option>${COLORS.map((c) => html`<option value="${c}"${attr('selected', c === lq.color)}>${c}</option>`)}</select>
<label for="f-max">Max price ($)</label>
<input id="f-max" type="number" name="max_price" min="0" step="1" value="${Number.isNaN(lq.maxPrice) ? '' : lq.maxPrice}">
<label class="check"><input type="checkbox" name="in_stock" value="1"${attr('checked', lq.inStock)}> In stock only</label>
<label for="f-sort">Sort by</label>
<select id="f-sort" name="sort">${SORTS.map((o) => html`<option value="${o.value}"${attr('selected', o.value === lq.sort)}>${o.label}</option>`)}</select>
<button type="submit">Apply filters</button>
</form>`;
  return shopPage(
    ctx,
    req,
    heading,
    html`<div class="listing">
<aside>${filters}</aside>
<section>
<h1>${heading}</h1>
<p class="count" role="status">${total} ${total === 1 ? 'product' : 'products'}${pages > 1 ? ` · page ${page} of ${pages}` : ''}</p>
${items.length ? html`<ul class="grid">${items.map((p) => card(ctx, p))}</ul>` : html`<p>No products match your search. Try removing a filter.</p>`}
${pager}
</section>
</div>`,
    lq.q,
  );
}

export interface ProductFormState {
  color?: string;
  size?: string;
  qty?: string;
  errors?: string[];
}

export function productPage(ctx: Ctx, req: SiteRequest, p: Product, f: ProductFormState = {}): string {
  const href = hrefs(ctx);
  const cat = categoryOf(p.category)!;
  const errs = f.errors ?? [];
  return shopPage(
    ctx,
    req,
    p.name,
    html`<nav class="crumbs" aria-label="Breadcrumb"><a href="${href('/')}">Home</a> › <a href="${href('/search', { category: cat.slug })}">${cat.label}</a></nav>
<article class="product">
<div class="swatch big" style="background:${swatchColor(f.color ?? p.colors[0])}" aria-hidden="true"></div>
<div>
<h1>${p.name}</h1>
<p class="brand-line">by ${p.brand}</p>
<p class="price">${money(p.price)}</p>
<p class="meta">${stars(p.rating)}</p>
<p class="${p.inStock ? 'stock in' : 'stock out'}">${p.inStock ? 'In stock' : 'Out of stock'}</p>
<p>${p.description}</p>
${errs.length ? html`<div class="errors" role="alert"><p>Please correct the following:</p><ul>${errs.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
<form method="post" action="${href('/cart/add')}" class="buy">
<input type="hidden" name="product" value="${p.id}">
<label for="p-color">Color</label>
<select id="p-color" name="color">${p.colors.map((c) => html`<option value="${c}"${attr('selected', c === f.color)}>${c}</option>`)}</select>
${p.sizes.length ? html`<label for="p-size">Size</label>
<select id="p-size" name="size"${attr('aria-invalid="true"', errs.some((e) => e.includes('size')))}><option value="">Choose a size</option>${p.sizes.map((z) => html`<option value="${z}"${attr('selected', z === f.size)}>${z}</option>`)}</select>` : ''}
<label for="p-qty">Quantity</label>
<input id="p-qty" type="number" name="qty" min="1" max="10" value="${f.qty ?? '1'}">
<button type="submit"${attr('disabled', !p.inStock)}>Add to cart</button>
</form>
</div>
</article>`,
  );
}
