/**
 * The shop family: hand-driven purchases along the real forms (in each instance's own words), near
 * misses its checker refuses, form validation and escaping, the variation between instances (and
 * none within one), and its oracle over real HTTP on many seeds of every tier and in real Chromium
 * on a few.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import type { Tier } from '../../main/tasks/types.ts';
import type { ShopState } from '../../main/tasks/families/shop/data.ts';
import { CATEGORIES, SHIPPING } from '../../main/tasks/families/shop/data.ts';
import { WORDING, drawVariant, fill } from '../../main/tasks/families/shop/variant.ts';
import { navTarget } from '../../main/tasks/families/shop/chrome.ts';
import { INFO_PATHS, sortLabel } from '../../main/tasks/families/shop/pages-browse.ts';
import { lineNames, shippingLabel } from '../../main/tasks/families/shop/pages-checkout.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';
import { oracleInChromium } from './helpers/env-run.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

const TIERS = [1, 2, 3] as const;
const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2);

function open(seed: number, tier: Tier): { inst: TaskInstance; s: ShopState; b: MiniBrowser } {
  const inst = server.createInstance('shop', seed, { tier });
  return { inst, s: inst.ctx.state as ShopState, b: new MiniBrowser(inst.ctx.agentMessages) };
}

/** Walk the tier-3 purchase by hand, as a person would, optionally picking the wrong product. */
async function buy(seed: number, wrongProduct: boolean) {
  const { inst, s, b } = open(seed, 3);
  const w = s.variant.words;
  const g = s.goal;
  const target = s.products.find((p) => p.id === g.productId)!;
  const product = wrongProduct ? s.products.find((p) => p.id !== target.id && p.inStock && p.category === target.category)! : target;
  await b.goto(inst.spec.startUrl);
  await b.click('button', s.variant.cookie.cookieAccept);
  assert.ok(!b.has('button', s.variant.cookie.cookieAccept), 'the banner stays dismissed');
  await b.fill('searchbox', w.search, product.name);
  await b.press('searchbox', w.search, 'Enter');
  assert.match(b.url, /\/search\?q=/);
  await b.click('link', product.name);
  if (g.color && product.colors.includes(g.color)) await b.select(w.color, g.color);
  if (g.size) await b.select(w.size, g.size);
  await b.fill('spinbutton', w.qty, String(g.qty));
  await b.click('button', w.addToCart);
  assert.match(b.url, /\/cart$/);
  await b.click('link', w.toCheckout);
  const a = g.address!;
  // First a postal code in the wrong format: the form must say so and keep the other values.
  await b.fill('textbox', w.fullName, a.name);
  await b.fill('textbox', w.street, a.street);
  await b.fill('textbox', w.city, a.city);
  await b.fill('textbox', w.postal, '12-AB');
  await b.click('radio', shippingLabel(w, SHIPPING.find((x) => x.id === g.shipping)!));
  await b.click('button', w.placeOrder);
  assert.ok(b.text().includes(`${w.postal} must be 5 digits`), b.text());
  assert.equal(b.find('textbox', w.fullName).value, a.name);
  assert.equal(b.find('textbox', w.postal).invalid, true);
  assert.equal(s.orders.length, 0);
  await b.fill('textbox', w.postal, a.postal);
  await b.click('button', w.placeOrder);
  assert.match(b.url, /\/order\/SO-\d+$/);
  assert.ok(b.text().includes(w.thanks));
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
  const w = s.variant.words;
  const g = s.goal;
  await b.goto(inst.spec.startUrl);
  await b.click('button', s.variant.cookie.cookieReject);
  await b.click('link', CATEGORIES.find((c) => c.slug === g.category)!.label);
  assert.equal(new URL(b.url).searchParams.get('category'), g.category);
  await b.select(w.brand, g.brand!);
  await b.click('checkbox', w.inStockOnly);
  await b.select(w.sort, sortLabel(w, 'price_asc'));
  await b.click('button', w.apply);
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
  if (g.size) await b.select(w.size, g.size);
  await b.click('button', w.addToCart);
  let r = inst.family.check(inst.ctx);
  assert.equal(r.success, false);
  assert.equal(r.keyPoints.find((k) => k.name === 'right product in cart')!.met, false);
  // Fix it: remove, then add the first (cheapest) result with the asked quantity.
  await b.click('button', lineNames(w, second.name).remove);
  await b.goto(listing);
  await b.click('link', links[0].name);
  if (g.size) await b.select(w.size, g.size);
  await b.fill('spinbutton', w.qty, String(g.qty));
  await b.click('button', w.addToCart);
  r = inst.family.check(inst.ctx);
  assert.ok(r.success, JSON.stringify(r.keyPoints));
});

test('shop: product form validates size and quantity; cart updates and removes', async () => {
  const { inst, s, b } = open(10005, 1);
  const w = s.variant.words;
  const p = s.products.find((x) => x.sizes.length && x.inStock)!;
  const line = lineNames(w, p.name);
  await b.goto(`${inst.ctx.baseUrl}/product/${p.id}`);
  await b.fill('spinbutton', w.qty, '0');
  await b.click('button', w.addToCart);
  assert.match(b.text(), /Please choose a size/);
  assert.match(b.text(), /Quantity must be a whole number from 1 to 10/);
  assert.equal(s.cart.length, 0);
  await b.select(w.size, p.sizes[0]);
  await b.fill('spinbutton', w.qty, '2');
  await b.click('button', w.addToCart);
  assert.deepEqual(s.cart.map((l) => l.qty), [2]);
  await b.fill('spinbutton', line.qty, '5');
  await b.click('button', line.update);
  assert.deepEqual(s.cart.map((l) => l.qty), [5]);
  assert.ok(b.has('link', fill(w.cartLink, { n: 5 })));
  await b.click('button', line.remove);
  assert.equal(s.cart.length, 0);
  assert.ok(b.text().includes(w.cartEmpty));
  const out = s.products.find((x) => !x.inStock);
  if (out) {
    await b.goto(`${inst.ctx.baseUrl}/product/${out.id}`);
    assert.equal(b.find('button', w.addToCart).disabled, true);
  }
});

test('shop: search text and submitted values are HTML-escaped', async () => {
  const { inst, s, b } = open(10006, 3);
  const w = s.variant.words;
  const evil = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
  await b.goto(`${inst.ctx.baseUrl}/search?q=${encodeURIComponent(evil)}`);
  assert.ok(!b.html.includes('<script>alert'), 'no raw script from the query');
  assert.ok(!b.html.includes('<img src=x'), 'no raw markup from the query');
  assert.ok(b.html.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'));
  const p = s.products.find((x) => x.inStock && !x.sizes.length) ?? s.products.find((x) => x.inStock)!;
  const body = new URLSearchParams({ product: String(p.id), color: p.colors[0], size: p.sizes[0] ?? '', qty: '1' });
  await b.goto(`${inst.ctx.baseUrl}/cart/add`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() });
  await b.goto(`${inst.ctx.baseUrl}/checkout`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ name: evil, street: '', city: 'X', postal: '12345', shipping: 'express' }).toString() });
  assert.ok(b.text().includes(`${w.street} is required`), b.text());
  assert.ok(!b.html.includes('<script>alert'));
  assert.equal(b.find('textbox', w.fullName).value, evil, 'the value is kept, as text');
  // The cookie banner only follows instance-relative return paths.
  await b.goto(`${inst.ctx.baseUrl}/cookies`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'return=//evil.example/&choice=accept' });
  assert.ok(b.url.startsWith(inst.ctx.baseUrl), b.url);
});

test('shop: instances differ in wording, order, distractors and layout; one seed renders the same twice', async () => {
  const variants = Array.from({ length: 40 }, (_, i) => drawVariant(10000 + i));
  for (const knob of ['navPlacement', 'listView', 'filtersPlacement', 'shippingFirst', 'accent'] as const) {
    assert.ok(new Set(variants.map((v) => v[knob])).size >= 2, `${knob} never varies`);
  }
  for (const key of ['addToCart', 'search', 'apply', 'placeOrder', 'toCheckout'] as const) {
    assert.equal(new Set(variants.map((v) => v.words[key])).size, 4, `every synonym of "${WORDING[key][0]}" is drawn`);
  }
  assert.equal(new Set(variants.map((v) => v.cookie.cookieAccept)).size, 4, 'the cookie banner varies too');
  assert.ok(new Set(variants.map((v) => JSON.stringify(v.nav))).size >= 30, 'navigation orders vary');
  assert.ok(new Set(variants.map((v) => v.sections.join())).size >= 20, 'section orders vary');
  assert.ok(new Set(variants.map((v) => v.filters.join())).size >= 25, 'filter orders vary');
  assert.ok(new Set(variants.map((v) => v.addressFields.join())).size >= 3, 'address field orders vary');
  assert.ok(new Set(variants.map((v) => v.productOptions.join())).size >= 3, 'product option orders vary');
  const distractors = variants.map((v) => v.nav.length - CATEGORIES.length + v.sections.length - 3);
  assert.ok(distractors.every((d) => d >= 1 && d <= 3), `one to three distractors each: ${distractors.join()}`);
  assert.deepEqual(new Set(distractors), new Set([1, 2, 3]));

  // A name always means one thing: no synonym of one label is another's, nor (for the checkout's
  // fields, which the oracle matches by their start) the start of another's.
  const owner = new Map<string, string>();
  for (const [key, list] of Object.entries(WORDING)) for (const word of list) {
    assert.ok(!owner.has(word.toLowerCase()) || owner.get(word.toLowerCase()) === key, `"${word}" is a synonym of both ${key} and ${owner.get(word.toLowerCase())}`);
    owner.set(word.toLowerCase(), key);
  }
  const fields = ['fullName', 'street', 'city', 'postal', 'search'] as const;
  for (const a of fields) for (const b of fields) if (a !== b) for (const x of WORDING[a]) for (const y of WORDING[b]) assert.ok(!y.toLowerCase().startsWith(x.toLowerCase()), `${a} "${x}" starts ${b} "${y}"`);

  // Two seeds, the same pages: different navigation names or order, different product-form labels.
  const pagesOf = async (seed: number) => {
    const { inst, s, b } = open(seed, 1);
    await b.goto(`${inst.ctx.baseUrl}/`);
    const names = s.variant.nav.map((k) => navTarget(k).label);
    const nav = b.observe().elements.filter((e) => e.role === 'link' && names.includes(e.name)).map((e) => e.name);
    await b.goto(`${inst.ctx.baseUrl}/product/${s.products.find((p) => p.inStock && p.sizes.length)!.id}`);
    const form = b.observe().elements.filter((e) => ['combobox', 'spinbutton', 'button', 'searchbox'].includes(e.role)).map((e) => e.name);
    return { nav, form };
  };
  const a = await pagesOf(10000);
  const c = await pagesOf(10001);
  assert.notDeepEqual(a.nav, c.nav);
  assert.notDeepEqual(a.form, c.form);

  // The same seed twice: byte for byte the same pages, but for the instance's own prefix.
  const render = async (seed: number) => {
    const { inst, s, b } = open(seed, 3);
    const p = s.products.find((x) => x.inStock && x.sizes.length)!;
    s.cart.push({ productId: p.id, color: p.colors[0], size: p.sizes[0], qty: 2 });
    return b.instancePages(inst.ctx.baseUrl, ['/', '/search?q=tee', '/search?category=jackets&sort=price_asc&page=2', `/product/${p.id}`, '/cart', '/checkout', ...INFO_PATHS]);
  };
  assert.deepEqual(await render(10007), await render(10007));
});

test('shop: distractor links lead to a plain page that holds no product and changes nothing', async () => {
  for (const seed of [10000, 10001, 10002, 10003, 10004, 10005]) {
    const { inst, s, b } = open(seed, 3);
    const before = JSON.stringify({ cart: s.cart, orders: s.orders });
    await b.goto(inst.spec.startUrl);
    const home = b.observe().elements.filter((e) => e.role === 'link').map((e) => e.name);
    const core = new Set([s.storeName, ...CATEGORIES.map((c) => c.label), ...s.brands, ...s.products.map((p) => p.name), fill(s.variant.words.cartLink, { n: 0 })]);
    const extra = home.filter((n) => !core.has(n));
    assert.ok(extra.length >= 1 && extra.length <= 3, `seed ${seed}: ${extra.join(', ')}`);
    for (const name of extra) {
      await b.goto(inst.spec.startUrl);
      await b.click('link', name);
      assert.equal(b.status, 200);
      assert.ok(INFO_PATHS.includes(new URL(b.url).pathname.replace(/^\/i\/\w+/, '')), b.url);
      assert.ok(!b.observe().elements.some((e) => s.products.some((p) => e.name.includes(p.name))), 'no product on a distractor page');
    }
    assert.equal(JSON.stringify({ cart: s.cart, orders: s.orders }), before);
  }
});

test('shop: the oracle solves 60 train and 60 test seeds of every tier over real HTTP', async (t) => {
  for (const tier of TIERS) {
    const steps: number[] = [];
    for (const seed of [...Array.from({ length: 60 }, (_, i) => i * 13), ...Array.from({ length: 60 }, (_, i) => 10000 + i)]) {
      const r = await runAgent(server, 'shop', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${r.instance.spec.instruction}\n${JSON.stringify(c.keyPoints.filter((k) => !k.met))}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
      steps.push(r.steps);
      server.releaseInstance(r.instance.ctx.id);
    }
    t.diagnostic(`tier ${tier}: mean oracle steps ${mean(steps)} (min ${Math.min(...steps)}, max ${Math.max(...steps)}) over ${steps.length} seeds`);
  }
});

test('shop: the oracle succeeds in real Chromium on test seeds of every tier', async (t) => {
  const seeds = [10100, 10101, 10102, 10103];
  // These four seeds put the navigation in all three places and show every product-list view.
  assert.deepEqual(new Set(seeds.map((x) => drawVariant(x).navPlacement)), new Set(['top', 'side', 'header']));
  assert.deepEqual(new Set(seeds.map((x) => drawVariant(x).listView)), new Set(['cards', 'list', 'table']));
  const steps = await oracleInChromium(server, 'shop', seeds);
  t.diagnostic(`Chromium mean oracle steps over ${seeds.length} seeds: tier 1 ${steps[1].toFixed(2)}, tier 2 ${steps[2].toFixed(2)}, tier 3 ${steps[3].toFixed(2)}`);
});
