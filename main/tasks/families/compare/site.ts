/** Both stores and the start page: search, product pages, a buy-now checkout with validation, order pages. */
import type { InstanceContext, SiteRequest, SiteResponse } from '../../types.ts';
import { html, layout, money, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { mixSeed } from '../../../common/rng.ts';
import type { CompareState, Store } from './data.ts';

export type Ctx = InstanceContext<CompareState>;
const page = (body: string): SiteResponse => ({ kind: 'html', body });
const NAME_RE = /^[\p{L}][\p{L} '\-.]*$/u;

function storePage(ctx: Ctx, st: Store, title: string, main: Raw, q = ''): string {
  const href = hrefs(ctx);
  return layout({
    title,
    siteName: st.name,
    theme: `theme-store-${st.key}`,
    homeHref: href(`/s/${st.key}/`),
    header: html`<form class="search" role="search" method="get" action="${href(`/s/${st.key}/search`)}">
<input type="search" name="q" value="${q}" aria-label="Search ${st.name}" placeholder="Search ${st.name}">
<button type="submit">Search</button>
</form>`,
    nav: html`<ul><li><a href="${href('/')}">All stores</a></li><li><a href="${href(`/s/${st.key}/orders`)}">Your ${st.name} orders</a></li></ul>`,
    main,
  });
}

function grid(ctx: Ctx, st: Store, items: Store['items']): Raw {
  const href = hrefs(ctx);
  return html`<ul class="grid">${items.map((it) => html`<li class="card"><h3><a href="${href(`/s/${st.key}/p/${it.id}`)}">${it.name}</a></h3><p class="price">${money(it.price)}</p>${it.inStock ? '' : html`<p class="badge out">Out of stock</p>`}</li>`)}</ul>`;
}

interface CheckoutForm {
  qty: string;
  name: string;
  street: string;
  city: string;
  zip: string;
  errors: Partial<Record<'qty' | 'name' | 'street' | 'city' | 'zip', string>>;
}

function checkoutPage(ctx: Ctx, st: Store, itemId: number, f: CheckoutForm): string {
  const href = hrefs(ctx);
  const it = st.items.find((x) => x.id === itemId)!;
  const errs = Object.values(f.errors);
  const field = (k: 'name' | 'street' | 'city' | 'zip', label: string) =>
    html`<div class="field"><label for="c-${k}">${label}</label><input id="c-${k}" type="text" name="${k}" value="${f[k]}"${f.errors[k] ? html` aria-invalid="true" aria-describedby="c-${k}-err"` : ''}>${f.errors[k] ? html`<p class="field-error" id="c-${k}-err">${f.errors[k]}</p>` : ''}</div>`;
  return storePage(
    ctx,
    st,
    'Checkout',
    html`<p><a href="${href(`/s/${st.key}/p/${it.id}`)}">Back to ${it.name}</a></p>
<h1>Checkout</h1>
<section class="summary" aria-label="Order summary"><p>${it.name}, ${money(it.price)} each. Shipping ${st.shipping ? money(st.shipping) : 'free'} per order.</p></section>
${errs.length ? html`<div class="errors" role="alert"><p>Please correct the following:</p><ul>${errs.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
<form class="booking" method="post" action="${href(`/s/${st.key}/checkout/${it.id}`)}" novalidate>
<div class="field"><label for="c-qty">Quantity</label><input id="c-qty" type="number" name="qty" min="1" max="10" value="${f.qty}"${f.errors.qty ? html` aria-invalid="true"` : ''}>${f.errors.qty ? html`<p class="field-error">${f.errors.qty}</p>` : ''}</div>
${field('name', 'Full name')}
${field('street', 'Street address')}
${field('city', 'City')}
${field('zip', 'ZIP code')}
<button type="submit" class="primary">Place order</button>
</form>`,
  );
}

export function handleCompare(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const href = hrefs(ctx);
  if (req.path === '/' && req.method === 'GET') {
    return page(
      layout({
        title: 'Start',
        siteName: 'Start page',
        theme: 'theme-start',
        homeHref: href('/'),
        main: html`<h1>Your shopping bookmarks</h1><ul class="chips">${s.stores.map((st) => html`<li><a class="button" href="${href(`/s/${st.key}/`)}">${st.name}</a></li>`)}</ul><p>Both stores ship anywhere in the country.</p>`,
      }),
    );
  }
  const m = req.path.match(/^\/s\/([ab])(\/.*)$/);
  if (!m) return { kind: 'not_found' };
  const st = s.stores.find((x) => x.key === m[1])!;
  const sub = m[2];
  if (req.method === 'GET') {
    if (sub === '/') return page(storePage(ctx, st, 'Home', html`<h1>Welcome to ${st.name}</h1><p>Shipping: ${st.shipping ? `${money(st.shipping)} per order` : 'free on every order'}.</p><h2>All products</h2>${grid(ctx, st, st.items)}`));
    if (sub === '/search') {
      const q = (req.query.get('q') ?? '').trim();
      const words = q.toLowerCase().split(/\s+/).filter(Boolean);
      const hits = st.items.filter((it) => words.length && words.every((w) => it.name.toLowerCase().includes(w)));
      return page(storePage(ctx, st, 'Search', html`<h1>Results for "${q}"</h1>${hits.length ? grid(ctx, st, hits) : html`<p>No products match.</p>`}`, q));
    }
    const pm = sub.match(/^\/p\/(\d+)$/);
    if (pm) {
      const it = st.items.find((x) => x.id === Number(pm[1]));
      if (!it) return { kind: 'not_found' };
      return page(
        storePage(
          ctx,
          st,
          it.name,
          html`<article class="product"><div><h1>${it.name}</h1><p class="price">${money(it.price)}</p>
<p class="${it.inStock ? 'stock in' : 'stock out'}">${it.inStock ? 'In stock' : 'Out of stock'}</p>
<p>Shipping: ${st.shipping ? `${money(st.shipping)} per order` : 'free'}.</p>
${it.inStock ? html`<p><a class="button primary" href="${href(`/s/${st.key}/checkout/${it.id}`)}">Buy now</a></p>` : ''}</div></article>`,
        ),
      );
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
      return page(storePage(ctx, st, 'Order placed', html`<h1>Order placed</h1><p class="notice" role="status">Order ${o.code}: ${o.qty} × ${it.name}, total ${money(it.price * o.qty + st.shipping)}, shipping to ${o.city}.</p>`));
    }
    if (sub === '/orders') {
      const os = s.orders.filter((o) => o.store === st.key);
      return page(storePage(ctx, st, 'Your orders', html`<h1>Your orders</h1>${os.length ? html`<ul>${os.map((o) => html`<li><a href="${href(`/s/${st.key}/order/${o.code}`)}">${o.code}</a></li>`)}</ul>` : html`<p>No orders yet.</p>`}`));
    }
    return { kind: 'not_found' };
  }
  const cm = sub.match(/^\/checkout\/(\d+)$/);
  if (cm) {
    const it = st.items.find((x) => x.id === Number(cm[1]));
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
  return { kind: 'not_found' };
}
