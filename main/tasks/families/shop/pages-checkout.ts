/** Shop pages after browsing: the cart, the checkout form and the order confirmation. */
import type { SiteRequest } from '../../types.ts';
import { attr, html, money, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { SHIPPING, type Address, type CartLine, type Order, type Product, type ShippingId } from './data.ts';
import { shopPage, type Ctx } from './pages-browse.ts';

export function lineLabel(p: Product, l: CartLine): string {
  return [l.color, l.size ? `size ${l.size}` : ''].filter(Boolean).join(', ');
}

export function subtotal(ctx: Ctx, lines: CartLine[]): number {
  return lines.reduce((sum, l) => sum + (ctx.state.products.find((p) => p.id === l.productId)?.price ?? 0) * l.qty, 0);
}

export function cartPage(ctx: Ctx, req: SiteRequest, notice?: string): string {
  const href = hrefs(ctx);
  const s = ctx.state;
  const rows = s.cart.map((l, i) => {
    const p = s.products.find((x) => x.id === l.productId)!;
    return html`<tr>
<td><a href="${href(`/product/${p.id}`)}">${p.name}</a><div class="meta">${lineLabel(p, l)}</div></td>
<td>${money(p.price)}</td>
<td><form method="post" action="${href('/cart/update')}" class="inline">
<input type="hidden" name="line" value="${i}">
<input type="number" name="qty" min="0" max="10" value="${l.qty}" aria-label="Quantity for ${p.name}">
<button type="submit" aria-label="Update quantity for ${p.name}">Update</button>
</form></td>
<td>${money(p.price * l.qty)}</td>
<td><form method="post" action="${href('/cart/remove')}" class="inline">
<input type="hidden" name="line" value="${i}">
<button type="submit" class="link" aria-label="Remove ${p.name}">Remove</button>
</form></td>
</tr>`;
  });
  return shopPage(
    ctx,
    req,
    'Shopping cart',
    html`<h1>Shopping cart</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
${s.cart.length
      ? html`<table class="cart"><thead><tr><th>Product</th><th>Price</th><th>Quantity</th><th>Total</th><th><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table>
<p class="subtotal">Subtotal: <strong>${money(subtotal(ctx, s.cart))}</strong></p>
<p class="actions"><a class="button" href="${href('/checkout')}">Proceed to checkout</a> <a href="${href('/')}">Continue shopping</a></p>`
      : html`<p>Your cart is empty.</p><p><a href="${href('/')}">Continue shopping</a></p>`}`,
  );
}

export interface CheckoutForm {
  name: string;
  street: string;
  city: string;
  postal: string;
  shipping: string;
  errors: Partial<Record<keyof Address | 'shipping', string>>;
}

export function emptyCheckout(saved: Address): CheckoutForm {
  return { ...saved, shipping: 'standard', errors: {} };
}

function field(id: keyof Address, label: string, f: CheckoutForm, extra: Raw | string = ''): Raw {
  const err = f.errors[id];
  return html`<div class="field">
<label for="c-${id}">${label}</label>
<input id="c-${id}" name="${id}" type="text" value="${f[id]}" required${err ? html` aria-invalid="true" aria-describedby="c-${id}-err"` : ''}${extra}>
${err ? html`<p class="field-error" id="c-${id}-err">${err}</p>` : ''}
</div>`;
}

export function checkoutPage(ctx: Ctx, req: SiteRequest, f: CheckoutForm): string {
  const href = hrefs(ctx);
  const s = ctx.state;
  const errs = Object.values(f.errors);
  return shopPage(
    ctx,
    req,
    'Checkout',
    html`<h1>Checkout</h1>
${errs.length ? html`<div class="errors" role="alert"><p>Please fix the following errors:</p><ul>${errs.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
<div class="checkout">
<form method="post" action="${href('/checkout')}" novalidate>
<fieldset><legend>Shipping address</legend>
<p class="hint">Your saved address is filled in; change it to ship somewhere else.</p>
${field('name', 'Full name', f, html` autocomplete="name"`)}
${field('street', 'Street address', f, html` autocomplete="street-address"`)}
${field('city', 'City', f)}
${field('postal', 'Postal code', f, html` inputmode="numeric" placeholder="5 digits"`)}
</fieldset>
<fieldset><legend>Shipping method</legend>
${SHIPPING.map((o) => html`<div class="radio"><input type="radio" id="ship-${o.id}" name="shipping" value="${o.id}"${attr('checked', o.id === f.shipping)}><label for="ship-${o.id}">${o.label} (${o.detail}) ${money(o.price)}</label></div>`)}
</fieldset>
<button type="submit" class="primary">Place order</button>
</form>
<aside class="summary"><h2>Order summary</h2>
<ul>${s.cart.map((l) => {
      const p = s.products.find((x) => x.id === l.productId)!;
      return html`<li>${l.qty} × ${p.name} ${lineLabel(p, l) ? `(${lineLabel(p, l)})` : ''}: ${money(p.price * l.qty)}</li>`;
    })}</ul>
<p>Subtotal: ${money(subtotal(ctx, s.cart))}</p>
<p><a href="${href('/cart')}">Edit cart</a></p>
</aside>
</div>`,
  );
}

export function orderPage(ctx: Ctx, req: SiteRequest, o: Order): string {
  const href = hrefs(ctx);
  const s = ctx.state;
  const ship = SHIPPING.find((x) => x.id === (o.shipping as ShippingId))!;
  return shopPage(
    ctx,
    req,
    'Order confirmed',
    html`<h1>Thank you for your order!</h1>
<p role="status">Your order number is <strong>${o.id}</strong>.</p>
<h2>Items</h2>
<ul>${o.lines.map((l) => {
      const p = s.products.find((x) => x.id === l.productId)!;
      return html`<li>${l.qty} × ${p.name} ${lineLabel(p, l) ? `(${lineLabel(p, l)})` : ''}</li>`;
    })}</ul>
<h2>Shipping</h2>
<p>${ship.label} (${ship.detail}) to ${o.address.name}, ${o.address.street}, ${o.address.city} ${o.address.postal}</p>
<p>Total charged: <strong>${money(o.total)}</strong></p>
<p><a href="${href('/')}">Continue shopping</a></p>`,
  );
}
