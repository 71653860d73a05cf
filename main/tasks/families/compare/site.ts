/**
 * Both stores and the start page: search, product pages, a buy-now checkout with validation, order
 * pages, and the plain pages distractor links lead to. Every label, order and view is the
 * instance's own (./variant.ts through ./chrome.ts); what a page says about prices, stock and
 * shipping is the same under all of them.
 */
import type { SiteRequest, SiteResponse } from '../../types.ts';
import { html, money, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { mixSeed } from '../../../common/rng.ts';
import type { Store, StoreItem } from './data.ts';
import { listing, lookOf, shippingText, startFrame, stockText, storeLabel, storePage, type Ctx } from './chrome.ts';
import { fill, type CheckoutField, type StoreSectionKey } from './variant.ts';

export type { Ctx } from './chrome.ts';
const page = (body: string): SiteResponse => ({ kind: 'html', body });
const NAME_RE = /^[\p{L}][\p{L} '\-.]*$/u;

function startPage(ctx: Ctx): string {
  const href = hrefs(ctx);
  const { words: w, stores, view, tracker } = ctx.state.variant.start;
  const bookmarks = stores.map((k) => ctx.state.stores.find((st) => st.key === k)!).map((st) => ({ name: st.name, href: href(`/s/${st.key}/`) }));
  if (tracker) bookmarks.push({ name: 'Parcel tracker', href: href('/tracker') });
  const list =
    view === 'chips'
      ? html`<ul class="chips">${bookmarks.map((b) => html`<li><a class="button" href="${b.href}">${b.name}</a></li>`)}</ul>`
      : view === 'cards'
        ? html`<ul class="grid">${bookmarks.map((b) => html`<li class="card"><h3><a href="${b.href}">${b.name}</a></h3></li>`)}</ul>`
        : html`<ul class="bookmarks">${bookmarks.map((b) => html`<li><a href="${b.href}">${b.name}</a></li>`)}</ul>`;
  return startFrame(ctx, 'Start', html`<h1>${w.heading}</h1>${list}<p>${w.note}</p>`);
}

/** A distractor bookmark's page: it tracks nothing the task is about. */
function trackerPage(ctx: Ctx): string {
  return startFrame(ctx, 'Parcel tracker', html`<h1>Parcel tracker</h1><p>No parcels are on their way to you.</p><p><a href="${hrefs(ctx)('/')}">Back to the start page</a></p>`);
}

function homeSection(ctx: Ctx, st: Store, k: StoreSectionKey): Raw {
  const w = lookOf(ctx, st).words;
  if (k === 'shipping') return html`<p class="store-section">${w.shipping}: ${shippingText(w, st)}.</p>`;
  if (k === 'products') return html`<section class="store-section" aria-labelledby="h-products"><h2 id="h-products">${w.allProducts}</h2>${listing(ctx, st, st.items)}</section>`;
  // A distractor: a promo box about returns, with no price and no product in it.
  return html`<section class="store-section promo" aria-labelledby="h-promo"><h2 id="h-promo">Free returns for 30 days</h2><p>Changed your mind? Send it back within 30 days of delivery.</p><p><a href="${hrefs(ctx)(`/s/${st.key}/returns`)}">Read the returns policy</a></p></section>`;
}

function homePage(ctx: Ctx, st: Store): string {
  const look = lookOf(ctx, st);
  return storePage(ctx, st, 'Home', html`<h1>${storeLabel(look.words, 'welcome', st)}</h1>${look.sections.map((k) => homeSection(ctx, st, k))}`);
}

function searchPage(ctx: Ctx, st: Store, q: string): string {
  const w = lookOf(ctx, st).words;
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const hits = st.items.filter((it) => words.length && words.every((x) => it.name.toLowerCase().includes(x)));
  return storePage(ctx, st, 'Search', html`<h1>${fill(w.resultsFor, { q })}</h1>${hits.length ? listing(ctx, st, hits) : html`<p>${w.noResults}</p>`}`, q);
}

function productPage(ctx: Ctx, st: Store, it: StoreItem): string {
  const href = hrefs(ctx);
  const { words: w, productView } = lookOf(ctx, st);
  const stock = html`<span class="${it.inStock ? 'stock in' : 'stock out'}">${stockText(w, it)}</span>`;
  const facts =
    productView === 'facts'
      ? html`<table class="cart facts"><tbody><tr><th scope="row">${w.price}</th><td class="price">${money(it.price)}</td></tr><tr><th scope="row">${w.availability}</th><td>${stock}</td></tr><tr><th scope="row">${w.shipping}</th><td>${shippingText(w, st)}</td></tr></tbody></table>`
      : html`<p class="price">${money(it.price)}</p><p>${stock}</p><p>${w.shipping}: ${shippingText(w, st)}.</p>`;
  const buy = it.inStock ? html`<p><a class="button primary" href="${href(`/s/${st.key}/checkout/${it.id}`)}">${w.buyNow}</a></p>` : '';
  return storePage(ctx, st, it.name, html`<article class="product"><div><h1>${it.name}</h1>${facts}${buy}</div></article>`);
}

interface CheckoutForm {
  qty: string;
  name: string;
  street: string;
  city: string;
  zip: string;
  errors: Partial<Record<CheckoutField, string>>;
}

/** One checkout field with its label in the store's words and its error, if any. */
function checkoutField(ctx: Ctx, st: Store, f: CheckoutForm, k: CheckoutField): Raw {
  const w = lookOf(ctx, st).words;
  const err = f.errors[k];
  const input = k === 'qty' ? html`<input id="c-qty" type="number" name="qty" min="1" max="10" value="${f.qty}"` : html`<input id="c-${k}" type="text" name="${k}" value="${f[k]}"`;
  return html`<div class="field"><label for="c-${k}">${w[k]}</label>${input}${err ? html` aria-invalid="true" aria-describedby="c-${k}-err"` : ''}>${err ? html`<p class="field-error" id="c-${k}-err">${err}</p>` : ''}</div>`;
}

function checkoutPage(ctx: Ctx, st: Store, itemId: number, f: CheckoutForm): string {
  const href = hrefs(ctx);
  const look = lookOf(ctx, st);
  const w = look.words;
  const it = st.items.find((x) => x.id === itemId)!;
  const errs = Object.values(f.errors);
  return storePage(
    ctx,
    st,
    'Checkout',
    html`<p><a href="${href(`/s/${st.key}/p/${it.id}`)}">${fill(w.backTo, { item: it.name })}</a></p>
<h1>${w.checkout}</h1>
<section class="summary" aria-label="Order summary"><p>${it.name}, ${money(it.price)} each. ${w.shipping}: ${shippingText(w, st)}.</p></section>
${errs.length ? html`<div class="errors" role="alert"><p>Please correct the following:</p><ul>${errs.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
<form class="booking" method="post" action="${href(`/s/${st.key}/checkout/${it.id}`)}" novalidate>
${look.checkoutFields.map((k) => checkoutField(ctx, st, f, k))}
<button type="submit" class="primary">${w.placeOrder}</button>
</form>`,
  );
}

function ordersPage(ctx: Ctx, st: Store): string {
  const href = hrefs(ctx);
  const w = lookOf(ctx, st).words;
  const os = ctx.state.orders.filter((o) => o.store === st.key);
  const title = storeLabel(w, 'navOrders', st);
  return storePage(ctx, st, title, html`<h1>${title}</h1>${os.length ? html`<ul>${os.map((o) => html`<li><a href="${href(`/s/${st.key}/order/${o.code}`)}">${o.code}</a></li>`)}</ul>` : html`<p>${w.noOrders}</p>`}`);
}

/** The plain pages a store's distractor links lead to: they help with nothing the task asks. */
const INFO: Record<string, { title: string; text: string }> = {
  '/help': { title: 'Help centre', text: 'Questions about an order? Write to us from your order page and we answer within two working days.' },
  '/gift-cards': { title: 'Gift cards', text: 'Gift cards are sold in our shops only, and cannot be used online yet.' },
  '/returns': { title: 'Returns', text: 'Send anything back unused within 30 days of delivery for a full refund of its price.' },
};

function infoPage(ctx: Ctx, st: Store, sub: string): string | undefined {
  const info = INFO[sub];
  return info && storePage(ctx, st, info.title, html`<h1>${info.title}</h1><p>${info.text}</p><p><a href="${hrefs(ctx)(`/s/${st.key}/`)}">Continue shopping</a></p>`);
}

function storeGet(ctx: Ctx, req: SiteRequest, st: Store, sub: string): SiteResponse {
  const s = ctx.state;
  if (sub === '/') return page(homePage(ctx, st));
  if (sub === '/search') return page(searchPage(ctx, st, (req.query.get('q') ?? '').trim()));
  const pm = sub.match(/^\/p\/(\d+)$/);
  if (pm) {
    const it = st.items.find((x) => x.id === Number(pm[1]));
    return it ? page(productPage(ctx, st, it)) : { kind: 'not_found' };
  }
  const cm = sub.match(/^\/checkout\/(\d+)$/);
  if (cm) {
    const it = st.items.find((x) => x.id === Number(cm[1]));
    if (!it || !it.inStock) return { kind: 'redirect', location: `/s/${st.key}/` };
    return page(checkoutPage(ctx, st, it.id, { qty: '1', name: '', street: '', city: '', zip: '', errors: {} }));
  }
  const om = sub.match(/^\/order\/([A-Z0-9-]+)$/);
  if (om) {
    const o = s.orders.find((x) => x.code === om[1] && x.store === st.key);
    if (!o) return { kind: 'not_found' };
    const it = st.items.find((x) => x.id === o.item)!;
    const w = lookOf(ctx, st).words;
    return page(storePage(ctx, st, w.orderPlaced, html`<h1>${w.orderPlaced}</h1><p class="notice" role="status">Order ${o.code}: ${o.qty} × ${it.name}, total ${money(it.price * o.qty + st.shipping)}, shipping to ${o.city}.</p>`));
  }
  if (sub === '/orders') return page(ordersPage(ctx, st));
  const info = infoPage(ctx, st, sub);
  return info ? page(info) : { kind: 'not_found' };
}

function placeOrder(ctx: Ctx, req: SiteRequest, st: Store, itemId: number): SiteResponse {
  const s = ctx.state;
  const it = st.items.find((x) => x.id === itemId);
  if (!it || !it.inStock) return { kind: 'redirect', location: `/s/${st.key}/` };
  const g = (k: string) => (req.form.get(k) ?? '').trim();
  const f: CheckoutForm = { qty: g('qty'), name: g('name'), street: g('street'), city: g('city'), zip: g('zip'), errors: {} };
  if (!/^\d+$/.test(f.qty) || Number(f.qty) < 1 || Number(f.qty) > 10) f.errors.qty = 'Quantity must be from 1 to 10.';
  if (!f.name) f.errors.name = 'Enter your full name.';
  else if (!NAME_RE.test(f.name)) f.errors.name = 'Your name may contain only letters, spaces, hyphens and apostrophes.';
  if (!f.street) f.errors.street = 'Enter a street address.';
  if (!f.city) f.errors.city = 'Enter a city.';
  if (!/^\d{5}$/.test(f.zip)) f.errors.zip = 'Enter a 5-digit ZIP code.';
  if (Object.keys(f.errors).length) return page(checkoutPage(ctx, st, it.id, f));
  const code = `${st.key.toUpperCase()}-${(mixSeed(ctx.seed, 'order', s.orders.length) % 900000) + 100000}`;
  s.orders.push({ code, store: st.key, item: it.id, qty: Number(f.qty), name: f.name, street: f.street, city: f.city, zip: f.zip });
  return { kind: 'redirect', location: `/s/${st.key}/order/${code}` };
}

export function handleCompare(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  if (req.method === 'GET' && req.path === '/') return page(startPage(ctx));
  if (req.method === 'GET' && req.path === '/tracker') return page(trackerPage(ctx));
  const m = req.path.match(/^\/s\/([ab])(\/.*)$/);
  if (!m) return { kind: 'not_found' };
  const st = s.stores.find((x) => x.key === m[1])!;
  const sub = m[2];
  if (req.method === 'GET') return storeGet(ctx, req, st, sub);
  const cm = sub.match(/^\/checkout\/(\d+)$/);
  return cm ? placeOrder(ctx, req, st, Number(cm[1])) : { kind: 'not_found' };
}
