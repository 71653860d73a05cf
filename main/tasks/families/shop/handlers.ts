/** Routes of the shop site: pages on GET, cart and checkout mutations on POST (then redirect). */
import type { SiteRequest, SiteResponse } from '../../types.ts';
import { handleCookies } from '../common/site.ts';
import { SHIPPING, type Address } from './data.ts';
import { cartPage, checkoutPage, emptyCheckout, orderPage, subtotal, validateAddress, type CheckoutForm } from './pages-checkout.ts';
import { homePage, infoPage, listingPage, productPage } from './pages-browse.ts';
import type { Ctx } from './chrome.ts';

const page = (body: string, status = 200): SiteResponse => ({ kind: 'html', status, body });

export function handleShop(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const { path } = req;
  if (req.method === 'GET') {
    if (path === '/') return page(homePage(ctx, req));
    if (path === '/search') return page(listingPage(ctx, req));
    const pm = path.match(/^\/product\/(\d+)$/);
    if (pm) {
      const p = s.products.find((x) => x.id === Number(pm[1]));
      return p ? page(productPage(ctx, req, p)) : { kind: 'not_found' };
    }
    if (path === '/cart') return page(cartPage(ctx, req));
    if (path === '/checkout') {
      if (!s.cart.length) return { kind: 'redirect', location: '/cart' };
      return page(checkoutPage(ctx, req, emptyCheckout(s.account)));
    }
    const om = path.match(/^\/order\/([A-Z0-9-]+)$/);
    if (om) {
      const o = s.orders.find((x) => x.id === om[1]);
      return o ? page(orderPage(ctx, req, o)) : { kind: 'not_found' };
    }
    const info = infoPage(ctx, req);
    return info ? page(info) : { kind: 'not_found' };
  }
  if (path === '/cookies') return handleCookies(req, s.ui);
  if (path === '/cart/add') return addToCart(req, ctx);
  if (path === '/cart/update' || path === '/cart/remove') {
    const i = Number(req.form.get('line'));
    const line = Number.isInteger(i) ? s.cart[i] : undefined;
    if (line) {
      const qty = path === '/cart/remove' ? 0 : Math.floor(Number(req.form.get('qty')));
      if (Number.isFinite(qty) && qty >= 0) {
        if (qty === 0) s.cart.splice(i, 1);
        else line.qty = Math.min(qty, 10);
      }
    }
    return { kind: 'redirect', location: '/cart' };
  }
  if (path === '/checkout') return placeOrder(req, ctx);
  return { kind: 'not_found' };
}

function addToCart(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const p = s.products.find((x) => x.id === Number(req.form.get('product')));
  if (!p) return { kind: 'not_found' };
  const color = req.form.get('color') ?? p.colors[0];
  const size = req.form.get('size') ?? '';
  const qtyText = (req.form.get('qty') ?? '1').trim();
  const errors: string[] = [];
  if (!p.inStock) errors.push('This product is out of stock.');
  if (!p.colors.includes(color)) errors.push('Please choose a color.');
  if (p.sizes.length && !p.sizes.includes(size)) errors.push('Please choose a size.');
  const qty = Number(qtyText);
  if (!/^\d+$/.test(qtyText) || qty < 1 || qty > 10) errors.push('Quantity must be a whole number from 1 to 10.');
  if (errors.length) return page(productPage(ctx, req, p, { color, size, qty: qtyText, errors }), 200);
  const same = s.cart.find((l) => l.productId === p.id && l.color === color && (l.size ?? '') === size);
  if (same) same.qty = Math.min(10, same.qty + qty);
  else s.cart.push({ productId: p.id, color, ...(p.sizes.length ? { size } : {}), qty });
  return { kind: 'redirect', location: '/cart' };
}

function placeOrder(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  if (!s.cart.length) return { kind: 'redirect', location: '/cart' };
  const f: CheckoutForm = {
    name: req.form.get('name') ?? '',
    street: req.form.get('street') ?? '',
    city: req.form.get('city') ?? '',
    postal: req.form.get('postal') ?? '',
    shipping: req.form.get('shipping') ?? '',
    errors: {},
  };
  f.errors = validateAddress(s.variant.words, f);
  if (Object.keys(f.errors).length) return page(checkoutPage(ctx, req, f), 200);
  const ship = SHIPPING.find((o) => o.id === f.shipping)!;
  const address: Address = { name: f.name.trim(), street: f.street.trim(), city: f.city.trim(), postal: f.postal.trim() };
  const id = `SO-${10000 + ((ctx.seed * 7919 + s.orders.length * 104729) % 90000)}`;
  s.orders.push({ id, lines: s.cart.map((l) => ({ ...l })), shipping: ship.id, address, total: subtotal(ctx, s.cart) + ship.price });
  s.cart = [];
  return { kind: 'redirect', location: `/order/${id}` };
}
