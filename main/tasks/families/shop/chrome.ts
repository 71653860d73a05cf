/**
 * The frame of every shop page (header with search and cart, navigation where the variant puts it,
 * the cookie banner in the instance's words) and the pieces pages share: a product list in the
 * variant's view, and the error box of a refused form.
 */
import type { InstanceContext, SiteRequest } from '../../types.ts';
import { html, layout, money, raw, type Raw } from '../common/html.ts';
import { cookieBanner, currentPath, hrefs } from '../common/site.ts';
import { categoryOf, type Product, type ShopState } from './data.ts';
import { SHOP_CSS } from './style.ts';
import { fill, type ExtraNav, type NavKey, type Words } from './variant.ts';

export type Ctx = InstanceContext<ShopState>;

/** The plain pages the distractor links lead to: path and name (the same word on every site). */
export const EXTRA_PAGES: Record<ExtraNav, { path: string; label: string }> = {
  giftCards: { path: '/gift-cards', label: 'Gift cards' },
  help: { path: '/help', label: 'Help centre' },
  stores: { path: '/stores', label: 'Store finder' },
  careers: { path: '/careers', label: 'Careers' },
};

/** Where a navigation entry leads (instance-relative) and its name on this site. */
export function navTarget(key: NavKey): { path: string; query?: Record<string, string>; label: string } {
  if ('extra' in key) return EXTRA_PAGES[key.extra];
  return { path: '/search', query: { category: key.category }, label: categoryOf(key.category)!.label };
}

function navList(ctx: Ctx): Raw {
  const href = hrefs(ctx);
  return html`<ul>${ctx.state.variant.nav.map((k) => {
    const t = navTarget(k);
    return html`<li><a href="${href(t.path, t.query)}">${t.label}</a></li>`;
  })}</ul>`;
}

/** The cart link's name with the cart's item count in it. */
export function cartLinkName(ctx: Ctx): string {
  const count = ctx.state.cart.reduce((n, l) => n + l.qty, 0);
  return fill(ctx.state.variant.words.cartLink, { n: count });
}

export function shopPage(ctx: Ctx, req: SiteRequest, title: string, main: Raw, q = ''): string {
  const href = hrefs(ctx);
  const s = ctx.state;
  const v = s.variant;
  const w = v.words;
  const search = html`<form class="search" role="search" method="get" action="${href('/search')}">
<input type="search" name="q" value="${q}" aria-label="${w.search}" placeholder="${w.search}">
<button type="submit">${w.searchGo}</button>
</form>`;
  const me = html`<span class="me">${fill(w.greeting, { first: s.account.name.split(' ')[0] })}</span>
<a class="cart-link" href="${href('/cart')}">${cartLinkName(ctx)}</a>`;
  const headerNav = v.navPlacement === 'header' ? html`<nav class="header-nav" aria-label="Main">${navList(ctx)}</nav>` : '';
  const style = html`<style>${raw(SHOP_CSS)}</style>`;
  const body = v.navPlacement === 'side' ? html`<div class="shop-shell"><nav class="side-nav" aria-label="Main">${navList(ctx)}</nav><div class="shop-main">${main}</div></div>` : main;
  return layout({
    title,
    siteName: s.storeName,
    theme: `theme-shop shop-${v.accent} shop-nav-${v.navPlacement}`,
    homeHref: href('/'),
    header: html`${search}${headerNav}${me}`,
    ...(v.navPlacement === 'top' ? { nav: navList(ctx) } : {}),
    main: html`${style}${body}`,
    overlay: cookieBanner(s.ui, href, currentPath(req), v.cookie),
    scripts: ['shop.js'],
  });
}

export function stars(r: number): string {
  return `${r.toFixed(1)} out of 5 stars`;
}

export function swatchColor(c: string): string {
  return ({ Red: '#c0392b', Blue: '#2e6bd6', Black: '#222', White: '#eee', Green: '#2e8b57', Grey: '#888', Orange: '#e67e22', Yellow: '#f1c40f', Navy: '#1f2d5a' } as Record<string, string>)[c] ?? '#999';
}

function stockBadge(w: Words, p: Product): Raw | string {
  return p.inStock ? '' : html`<p class="badge out">${w.outOfStock}</p>`;
}

/** Products as this site lists them (home and listing alike), in the given order: cards, rows or a table. */
export function productList(ctx: Ctx, items: Product[]): Raw {
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  const link = (p: Product) => html`<a href="${href(`/product/${p.id}`)}">${p.name}</a>`;
  switch (ctx.state.variant.listView) {
    case 'cards':
      return html`<ul class="grid">${items.map(
        (p) => html`<li class="card">
<div class="swatch" style="background:${swatchColor(p.colors[0])}" aria-hidden="true"></div>
<h3>${link(p)}</h3>
<p class="price">${money(p.price)}</p>
<p class="meta">${stars(p.rating)} · ${p.colors.join(', ')}</p>
${stockBadge(w, p)}
</li>`,
      )}</ul>`;
    case 'list':
      return html`<ul class="product-rows">${items.map((p) => html`<li>${link(p)}<span class="price">${money(p.price)}</span><span class="meta">${stars(p.rating)} · ${p.colors.join(', ')}</span>${p.inStock ? '' : html`<span class="badge out">${w.outOfStock}</span>`}</li>`)}</ul>`;
    case 'table':
      return html`<table class="product-table"><thead><tr><th scope="col">Product</th><th scope="col">Price</th><th scope="col">Rating</th><th scope="col">Colors</th><th scope="col">Stock</th></tr></thead>
<tbody>${items.map((p) => html`<tr><td>${link(p)}</td><td class="price">${money(p.price)}</td><td>${stars(p.rating)}</td><td>${p.colors.join(', ')}</td><td>${p.inStock ? w.inStock : html`<span class="badge out">${w.outOfStock}</span>`}</td></tr>`)}</tbody></table>`;
  }
}

/** The box above a refused form that lists what to correct. */
export function errorBox(errors: string[]): Raw | string {
  return errors.length ? html`<div class="errors" role="alert"><p>Please correct the following:</p><ul>${errors.map((e) => html`<li>${e}</li>`)}</ul></div>` : '';
}
