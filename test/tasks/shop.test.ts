import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import type { ShopState } from '../../main/tasks/families/shop/data.ts';
import { CATEGORIES, SHIPPING } from '../../main/tasks/families/shop/data.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

function open(seed: number, tier: 1 | 2 | 3): { inst: TaskInstance; s: ShopState; b: MiniBrowser } {
  const inst = server.createInstance('shop', seed, { tier });
  return { inst, s: inst.ctx.state as ShopState, b: new MiniBrowser(inst.ctx.agentMessages) };
}

/** Walk the tier-3 purchase by hand, as a person would, optionally picking the wrong product. */
async function buy(seed: number, wrongProduct: boolean) {
  const { inst, s, b } = open(seed, 3);
  const g = s.goal;
  const target = s.products.find((p) => p.id === g.productId)!;
  const product = wrongProduct ? s.products.find((p) => p.id !== target.id && p.inStock && p.category === target.category)! : target;
  await b.goto(inst.spec.startUrl);
  await b.click('button', 'Accept all cookies');
  assert.ok(!b.has('button', 'Accept all cookies'), 'the banner stays dismissed');
  await b.fill('searchbox', 'Search products', product.name);
  await b.press('searchbox', 'Search products', 'Enter');
  assert.match(b.url, /\/search\?q=/);
  await b.click('link', product.name);
  if (g.color && product.colors.includes(g.color)) await b.select('Color', g.color);
  if (g.size) await b.select('Size', g.size);
  await b.fill('spinbutton', 'Quantity', String(g.qty));
  await b.click('button', 'Add to cart');
  assert.match(b.url, /\/cart$/);
  await b.click('link', 'Proceed to checkout');
  const a = g.address!;
  // First a postal code in the wrong format: the form must say so and keep the other values.
  await b.fill('textbox', 'Full name', a.name);
  await b.fill('textbox', 'Street address', a.street);
  await b.fill('textbox', 'City', a.city);
  await b.fill('textbox', 'Postal code', '12-AB');
  await b.click('radio', new RegExp(`^${SHIPPING.find((x) => x.id === g.shipping)!.label} `));
  await b.click('button', 'Place order');
  assert.match(b.text(), /Postal code must be 5 digits/);
  assert.equal(b.find('textbox', 'Full name').value, a.name);
  assert.equal(b.find('textbox', 'Postal code').invalid, true);
  assert.equal(s.orders.length, 0);
  await b.fill('textbox', 'Postal code', a.postal);
  await b.click('button', 'Place order');
  assert.match(b.url, /\/order\/SO-\d+$/);
  assert.match(b.text(), /Thank you for your order/);
  return inst.family.check(inst.ctx);
}

test('shop: buying the right product along the real forms succeeds', async () => {
  for (const seed of [10001, 10004]) {
    const r = await buy(seed, false);
    assert.ok(r.success, JSON.stringify(r.keyPoints));
    assert.ok(r.keyPoints.some((k) => k.name === 'order placed' && k.met));
  }
});

test('shop: buying the wrong product fails on "right product"', async () => {
  const r = await buy(10002, true);
  assert.equal(r.success, false);
  const kp = Object.fromEntries(r.keyPoints.map((k) => [k.name, k.met]));
  assert.equal(kp['order placed'], true);
  assert.equal(kp['right product'], false);
});

test('shop: the cheapest task is met only by the cheapest in-stock item, via filters and sort', async () => {
  const { inst, s, b } = open(10003, 2);
  const g = s.goal;
  await b.goto(inst.spec.startUrl);
  await b.click('button', 'Reject non-essential');
  await b.click('link', CATEGORIES.find((c) => c.slug === g.category)!.label);
  assert.equal(new URL(b.url).searchParams.get('category'), g.category);
  await b.select('Brand', g.brand!);
  await b.click('checkbox', 'In stock only');
  await b.select('Sort by', 'Price: low to high');
  await b.click('button', 'Apply filters');
  const listing = b.url;
  const url = new URL(b.url);
  assert.equal(url.searchParams.get('brand'), g.brand);
  assert.equal(url.searchParams.get('in_stock'), '1');
  assert.equal(url.searchParams.get('sort'), 'price_asc');
  const links = b.observe().elements.filter((e) => e.role === 'link' && s.products.some((p) => p.name === e.name));
  const second = links[1];
  assert.ok(second, 'at least two matching products');
  // Wrong path first: the second-cheapest.
  await b.click('link', second.name);
  if (g.size) await b.select('Size', g.size);
  await b.click('button', 'Add to cart');
  let r = inst.family.check(inst.ctx);
  assert.equal(r.success, false);
  assert.equal(r.keyPoints.find((k) => k.name === 'right product in cart')!.met, false);
  // Fix it: remove, then add the first (cheapest) result with the asked quantity.
  await b.click('button', `Remove ${second.name}`);
  await b.goto(listing);
  await b.click('link', links[0].name);
  if (g.size) await b.select('Size', g.size);
  await b.fill('spinbutton', 'Quantity', String(g.qty));
  await b.click('button', 'Add to cart');
  r = inst.family.check(inst.ctx);
  assert.ok(r.success, JSON.stringify(r.keyPoints));
});

test('shop: product form validates size and quantity; cart updates and removes', async () => {
  const { inst, s, b } = open(10005, 1);
  const p = s.products.find((x) => x.sizes.length && x.inStock)!;
  await b.goto(`${inst.ctx.baseUrl}/product/${p.id}`);
  await b.fill('spinbutton', 'Quantity', '0');
  await b.click('button', 'Add to cart');
  assert.match(b.text(), /Please choose a size/);
  assert.match(b.text(), /Quantity must be a whole number from 1 to 10/);
  assert.equal(s.cart.length, 0);
  await b.select('Size', p.sizes[0]);
  await b.fill('spinbutton', 'Quantity', '2');
  await b.click('button', 'Add to cart');
  assert.deepEqual(s.cart.map((l) => l.qty), [2]);
  await b.fill('spinbutton', `Quantity for ${p.name}`, '5');
  await b.click('button', `Update quantity for ${p.name}`);
  assert.deepEqual(s.cart.map((l) => l.qty), [5]);
  assert.match(b.text(), /Cart \(5\)/);
  await b.click('button', `Remove ${p.name}`);
  assert.equal(s.cart.length, 0);
  assert.match(b.text(), /Your cart is empty/);
  const out = s.products.find((x) => !x.inStock);
  if (out) {
    await b.goto(`${inst.ctx.baseUrl}/product/${out.id}`);
    assert.equal(b.find('button', 'Add to cart').disabled, true);
  }
});

test('shop: search text and submitted values are HTML-escaped', async () => {
  const { inst, s, b } = open(10006, 3);
  const evil = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
  await b.goto(`${inst.ctx.baseUrl}/search?q=${encodeURIComponent(evil)}`);
  assert.ok(!b.html.includes('<script>alert'), 'no raw script from the query');
  assert.ok(!b.html.includes('<img src=x'), 'no raw markup from the query');
  assert.ok(b.html.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'));
  const p = s.products.find((x) => x.inStock && !x.sizes.length) ?? s.products.find((x) => x.inStock)!;
  const body = new URLSearchParams({ product: String(p.id), color: p.colors[0], size: p.sizes[0] ?? '', qty: '1' });
  await b.goto(`${inst.ctx.baseUrl}/cart/add`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() });
  await b.goto(`${inst.ctx.baseUrl}/checkout`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ name: evil, street: '', city: 'X', postal: '12345', shipping: 'express' }).toString() });
  assert.match(b.text(), /Street address is required/);
  assert.ok(!b.html.includes('<script>alert'));
  assert.equal(b.find('textbox', 'Full name').value, evil, 'the value is kept, as text');
  // The cookie banner only follows instance-relative return paths.
  await b.goto(`${inst.ctx.baseUrl}/cookies`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'return=//evil.example/&choice=accept' });
  assert.ok(b.url.startsWith(inst.ctx.baseUrl), b.url);
});

test('shop: the oracle solves every tier over real HTTP', async () => {
  for (const tier of [1, 2, 3] as const) {
    for (const seed of [10010, 10011, 10012, 10013, 10014]) {
      const r = await runAgent(server, 'shop', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints)}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
    }
  }
});
