/**
 * The frames of the compare pages: a store's header, search and navigation where its look puts
 * them, the start page of bookmarks, and the pieces store pages share (product listings in the
 * store's view, its shipping line, its labels with their data filled in).
 */
import type { InstanceContext } from '../../types.ts';
import { html, layout, money, raw, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import type { CompareState, Store, StoreItem } from './data.ts';
import { COMPARE_CSS } from './style.ts';
import { fill, type StoreLook, type StoreNavKey, type StoreWords } from './variant.ts';

export type Ctx = InstanceContext<CompareState>;

const style = (): Raw => html`<style>${raw(COMPARE_CSS)}</style>`;

export function lookOf(ctx: Ctx, st: Store): StoreLook {
  return ctx.state.variant.stores[st.key];
}

/** A store's label with the store's name in it (where the label has a place for it). */
export function storeLabel(w: StoreWords, key: keyof StoreWords, st: Store): string {
  return fill(w[key], { store: st.name });
}

/** Where a store's navigation entry leads, below the instance prefix. */
export function storeNavPath(st: Store, key: StoreNavKey): string {
  const sub: Record<Exclude<StoreNavKey, 'stores'>, string> = { orders: 'orders', help: 'help', giftCards: 'gift-cards', returns: 'returns' };
  return key === 'stores' ? '/' : `/s/${st.key}/${sub[key]}`;
}

/** A navigation entry's name in a store: its own words for the real ones, fixed names for distractors. */
export function storeNavLabel(w: StoreWords, st: Store, key: StoreNavKey): string {
  const fixed: Partial<Record<StoreNavKey, string>> = { help: 'Help centre', giftCards: 'Gift cards', returns: 'Returns' };
  return fixed[key] ?? storeLabel(w, key === 'stores' ? 'navStores' : 'navOrders', st);
}

/** "$4.99 per order" or "free", as this store says it. */
export function shippingText(w: StoreWords, st: Store): string {
  return st.shipping ? fill(w.perOrder, { amount: money(st.shipping) }) : w.free;
}

export function stockText(w: StoreWords, it: StoreItem): string {
  return it.inStock ? w.inStock : w.outOfStock;
}

function navList(ctx: Ctx, st: Store): Raw {
  const href = hrefs(ctx);
  const look = lookOf(ctx, st);
  return html`<ul>${look.nav.map((k) => html`<li><a href="${href(storeNavPath(st, k))}">${storeNavLabel(look.words, st, k)}</a></li>`)}</ul>`;
}

export function storePage(ctx: Ctx, st: Store, title: string, main: Raw, q = ''): string {
  const href = hrefs(ctx);
  const look = lookOf(ctx, st);
  const w = look.words;
  const searchName = storeLabel(w, 'search', st);
  const search = html`<form class="search" role="search" method="get" action="${href(`/s/${st.key}/search`)}">
<input type="search" name="q" value="${q}" aria-label="${searchName}" placeholder="${searchName}">
<button type="submit">${w.searchButton}</button>
</form>`;
  const nav = navList(ctx, st);
  const body = look.navPlacement === 'side' ? html`<div class="store-shell"><nav class="side-nav" aria-label="Main">${nav}</nav><div>${main}</div></div>` : main;
  return layout({
    title,
    siteName: st.name,
    theme: `theme-compare store-${look.accent}`,
    homeHref: href(`/s/${st.key}/`),
    header: look.navPlacement === 'header' ? html`${search}<nav class="header-nav" aria-label="Main">${nav}</nav>` : search,
    ...(look.navPlacement === 'top' ? { nav } : {}),
    main: html`${style()}${body}`,
  });
}

/** A page of the start site (the bookmarks, or the parcel tracker a distractor bookmark opens). */
export function startFrame(ctx: Ctx, title: string, main: Raw): string {
  return layout({ title, siteName: ctx.state.variant.start.words.siteName, theme: 'theme-start', homeHref: hrefs(ctx)('/'), main: html`${style()}${main}` });
}

/** Products in the store's view: cards, a list, or a table. */
export function listing(ctx: Ctx, st: Store, items: readonly StoreItem[]): Raw {
  const href = hrefs(ctx);
  const { words: w, listing: view } = lookOf(ctx, st);
  const link = (it: StoreItem) => html`<a href="${href(`/s/${st.key}/p/${it.id}`)}">${it.name}</a>`;
  if (view === 'table') {
    return html`<table class="cart"><thead><tr><th scope="col">Product</th><th scope="col">${w.price}</th><th scope="col">${w.availability}</th></tr></thead>
<tbody>${items.map((it) => html`<tr><td>${link(it)}</td><td>${money(it.price)}</td><td>${stockText(w, it)}</td></tr>`)}</tbody></table>`;
  }
  if (view === 'list') return html`<ul class="product-list">${items.map((it) => html`<li>${link(it)}<p class="price">${money(it.price)}</p><p class="${it.inStock ? 'stock in' : 'stock out'}">${stockText(w, it)}</p></li>`)}</ul>`;
  return html`<ul class="grid">${items.map((it) => html`<li class="card"><h3>${link(it)}</h3><p class="price">${money(it.price)}</p>${it.inStock ? '' : html`<p class="badge out">${w.outOfStock}</p>`}</li>`)}</ul>`;
}
