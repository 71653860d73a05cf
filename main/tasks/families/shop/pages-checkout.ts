/**
 * Shop pages after browsing: the cart (each line's controls named after its product), the checkout
 * form (its fieldsets and address fields in the variant's order) and the order confirmation.
 */
import type { SiteRequest } from '../../types.ts';
import { attr, html, money, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { SHIPPING, type Address, type CartLine, type Order, type Product, type ShippingId } from './data.ts';
import { errorBox, shopPage, type Ctx } from './chrome.ts';
import { fill, verbOf, type AddressField, type Words } from './variant.ts';

export function lineLabel(p: Product, l: CartLine): string {
  return [l.color, l.size ? `size ${l.size}` : ''].filter(Boolean).join(', ');
}

export function subtotal(ctx: Ctx, lines: CartLine[]): number {
  return lines.reduce((sum, l) => sum + (ctx.state.products.find((p) => p.id === l.productId)?.price ?? 0) * l.qty, 0);
}

/** One cart line's controls, named after its product on this site ("Remove {name}"). */
export function lineNames(w: Words, productName: string): { qty: string; update: string; remove: string } {
  return { qty: fill(w.lineQty, { name: productName }), update: fill(w.lineUpdate, { name: productName }), remove: fill(w.lineRemove, { name: productName }) };
}

function cartRow(ctx: Ctx, l: CartLine, i: number): Raw {
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  const p = ctx.state.products.find((x) => x.id === l.productId)!;
  const names = lineNames(w, p.name);
  return html`<tr>
<td><a href="${href(`/product/${p.id}`)}">${p.name}</a><div class="meta">${lineLabel(p, l)}</div></td>
<td>${money(p.price)}</td>
<td><form method="post" action="${href('/cart/update')}" class="inline">
<input type="hidden" name="line" value="${i}">
<input type="number" name="qty" min="0" max="10" value="${l.qty}" aria-label="${names.qty}">
<button type="submit" aria-label="${names.update}">${verbOf(w.lineUpdate)}</button>
</form></td>
<td>${money(p.price * l.qty)}</td>
<td><form method="post" action="${href('/cart/remove')}" class="inline">
<input type="hidden" name="line" value="${i}">
<button type="submit" class="link" aria-label="${names.remove}">${verbOf(w.lineRemove)}</button>
</form></td>
</tr>`;
}

export function cartPage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  const s = ctx.state;
  const w = s.variant.words;
  const keep = html`<a href="${href('/')}">${w.keepShopping}</a>`;
  return shopPage(
    ctx,
    req,
    w.cartTitle,
    html`<h1>${w.cartTitle}</h1>
${s.cart.length
      ? html`<table class="cart"><thead><tr><th>Product</th><th>Price</th><th>Quantity</th><th>Total</th><th><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${s.cart.map((l, i) => cartRow(ctx, l, i))}</tbody></table>
<p class="subtotal">${w.subtotal}: <strong>${money(subtotal(ctx, s.cart))}</strong></p>
<p class="actions"><a class="button" href="${href('/checkout')}">${w.toCheckout}</a> ${keep}</p>`
      : html`<p>${w.cartEmpty}</p><p>${keep}</p>`}`,
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

/** An address field's label on this site. */
export function addressLabel(w: Words, k: AddressField): string {
  return { name: w.fullName, street: w.street, city: w.city, postal: w.postal }[k];
}

const ADDRESS_EXTRA: Record<AddressField, Raw | string> = {
  name: html` autocomplete="name"`,
  street: html` autocomplete="street-address"`,
  city: '',
  postal: html` inputmode="numeric" placeholder="5 digits"`,
};

function addressField(w: Words, f: CheckoutForm, id: AddressField): Raw {
  const err = f.errors[id];
  return html`<div class="field">
<label for="c-${id}">${addressLabel(w, id)}</label>
<input id="c-${id}" name="${id}" type="text" value="${f[id]}" required${err ? html` aria-invalid="true" aria-describedby="c-${id}-err"` : ''}${ADDRESS_EXTRA[id]}>
${err ? html`<p class="field-error" id="c-${id}-err">${err}</p>` : ''}
</div>`;
}

/** A shipping method's radio label on this site; it always starts with the method's name. */
export function shippingLabel(w: Words, o: (typeof SHIPPING)[number]): string {
  return fill(w.shippingOption, { label: o.label, detail: o.detail, price: money(o.price) });
}

/** What checkout refuses, worded with this site's field names. */
export function validateAddress(w: Words, f: CheckoutForm): CheckoutForm['errors'] {
  const e: CheckoutForm['errors'] = {};
  for (const k of ['name', 'street', 'city', 'postal'] as const) if (!f[k].trim()) e[k] = `${addressLabel(w, k)} is required.`;
  if (!e.postal && !/^\d{5}$/.test(f.postal.trim())) e.postal = `${w.postal} must be 5 digits, e.g. 02139.`;
  if (!SHIPPING.some((o) => o.id === f.shipping)) e.shipping = 'Please choose a shipping method.';
  return e;
}

function summaryItems(ctx: Ctx, lines: CartLine[], withPrice: boolean): Raw {
  const s = ctx.state;
  return html`<ul>${lines.map((l) => {
    const p = s.products.find((x) => x.id === l.productId)!;
    const options = lineLabel(p, l) ? `(${lineLabel(p, l)})` : '';
    return withPrice ? html`<li>${l.qty} × ${p.name} ${options}: ${money(p.price * l.qty)}</li>` : html`<li>${l.qty} × ${p.name} ${options}</li>`;
  })}</ul>`;
}

export function checkoutPage(ctx: Ctx, req: SiteRequest, f: CheckoutForm): string {
  const href = hrefs(ctx);
  const s = ctx.state;
  const v = s.variant;
  const w = v.words;
  const address = html`<fieldset><legend>${w.addressLegend}</legend>
<p class="hint">${w.savedHint}</p>
${v.addressFields.map((k) => addressField(w, f, k))}
</fieldset>`;
  const shipping = html`<fieldset><legend>${w.shippingLegend}</legend>
${SHIPPING.map((o) => html`<div class="radio"><input type="radio" id="ship-${o.id}" name="shipping" value="${o.id}"${attr('checked', o.id === f.shipping)}><label for="ship-${o.id}">${shippingLabel(w, o)}</label></div>`)}
</fieldset>`;
  return shopPage(
    ctx,
    req,
    w.checkoutTitle,
    html`<h1>${w.checkoutTitle}</h1>
${errorBox(Object.values(f.errors))}
<div class="checkout">
<form method="post" action="${href('/checkout')}" novalidate>
${v.shippingFirst ? html`${shipping}${address}` : html`${address}${shipping}`}
<button type="submit" class="primary">${w.placeOrder}</button>
</form>
<aside class="summary"><h2>${w.summaryTitle}</h2>
${summaryItems(ctx, s.cart, true)}
<p>${w.subtotal}: ${money(subtotal(ctx, s.cart))}</p>
<p><a href="${href('/cart')}">${w.editCart}</a></p>
</aside>
</div>`,
  );
}

export function orderPage(ctx: Ctx, req: SiteRequest, o: Order): string {
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  const ship = SHIPPING.find((x) => x.id === (o.shipping as ShippingId))!;
  return shopPage(
    ctx,
    req,
    w.thanks,
    html`<h1>${w.thanks}</h1>
<p role="status">${w.orderNumber} <strong>${o.id}</strong>.</p>
<h2>Items</h2>
${summaryItems(ctx, o.lines, false)}
<h2>Shipping</h2>
<p>${ship.label} (${ship.detail}) to ${o.address.name}, ${o.address.street}, ${o.address.city} ${o.address.postal}</p>
<p>Total charged: <strong>${money(o.total)}</strong></p>
<p><a href="${href('/')}">${w.keepShopping}</a></p>`,
  );
}
