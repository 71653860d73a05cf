/**
 * The compare family: buying at the cheaper or the dearer store, the cheaper-store answer, checkout
 * validation, the variation between instances (and none within one), and its oracle over real HTTP
 * on 60 train and 60 test seeds of every tier. Pages are driven by each store's own words.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import { totalAt, type CompareGoal, type CompareState, type Store } from '../../main/tasks/families/compare/data.ts';
import { STORE_WORDING, START_WORDING, distractorCount, drawVariant, fill, type StoreWords } from '../../main/tasks/families/compare/variant.ts';
import { storeLabel, storeNavLabel } from '../../main/tasks/families/compare/chrome.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

type Buy = Extract<CompareGoal, { kind: 'buy' }>;
const TIERS = [1, 2, 3] as const;
const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2);

function open(seed: number, tier: 1 | 2 | 3): { inst: TaskInstance; s: CompareState; b: MiniBrowser } {
  const inst = server.createInstance('compare', seed, { tier });
  return { inst, s: inst.ctx.state as CompareState, b: new MiniBrowser(inst.ctx.agentMessages) };
}

/** A store's words on this instance. */
const wordsOf = (s: CompareState, st: Store): StoreWords => s.variant.stores[st.key].words;

/** Fill the checkout form with the given values, each field by its label in the store's words. */
async function fillCheckout(b: MiniBrowser, w: StoreWords, v: { qty: string; name: string; street?: string; city?: string; zip: string }) {
  await b.fill('spinbutton', w.qty, v.qty);
  await b.fill('textbox', w.name, v.name);
  if (v.street !== undefined) await b.fill('textbox', w.street, v.street);
  if (v.city !== undefined) await b.fill('textbox', w.city, v.city);
  await b.fill('textbox', w.zip, v.zip);
  await b.click('button', w.placeOrder);
}

async function buyAt(seed: number, key: 'a' | 'b') {
  const { inst, s, b } = open(seed, 3);
  const g = s.goal as Buy;
  const st = s.stores.find((x) => x.key === key)!;
  const it = st.items.find((x) => x.id === g.item)!;
  const w = wordsOf(s, st);
  await b.goto(inst.spec.startUrl);
  await b.click('link', st.name);
  await b.fill('searchbox', storeLabel(w, 'search', st), it.name.split(' ')[0]);
  await b.press('searchbox', storeLabel(w, 'search', st), 'Enter');
  await b.click('link', it.name);
  if (!b.has('link', w.buyNow)) return null;
  await b.click('link', w.buyNow);
  await fillCheckout(b, w, { qty: String(g.qty), name: g.name, street: g.street, city: g.city, zip: g.zip });
  return { inst, s, b, g };
}

test('compare: buying at the cheaper store succeeds; the dearer store fails on the store key point', async () => {
  const ok = (await buyAt(10000, (open(10000, 3).s.goal as Buy).store))!;
  assert.match(ok.b.url, /\/order\/[AB]-\d{6}$/);
  assert.ok(ok.inst.family.check(ok.inst.ctx).success, JSON.stringify(ok.inst.family.check(ok.inst.ctx).keyPoints));
  for (let seed = 10000; seed < 10050; seed++) {
    const g = open(seed, 3).s.goal as Buy;
    const w = await buyAt(seed, g.store === 'a' ? 'b' : 'a');
    if (!w) continue;
    const c = w.inst.family.check(w.inst.ctx);
    assert.equal(c.success, false);
    assert.equal(c.keyPoints.find((k) => k.name.startsWith('bought at'))!.met, false);
    assert.equal(c.keyPoints.find((k) => k.name === 'address')!.met, true);
    return;
  }
  assert.fail('no seed where the dearer store has the product');
});

test('compare: the cheaper store counts shipping, and the answer is the store named first', async () => {
  const { inst, s } = open(10001, 2);
  const g = s.goal as Extract<CompareGoal, { kind: 'cheaper' }>;
  const [ta, tb] = s.stores.map((st) => totalAt(st, g.item, 1));
  assert.equal(g.answer, (ta ?? Infinity) < (tb ?? Infinity) ? s.stores[0].name : s.stores[1].name);
  const other = s.stores.find((st) => st.name !== g.answer)!.name;
  inst.ctx.agentMessages.push(`${other} is cheaper than ${g.answer}`);
  assert.equal(inst.family.check(inst.ctx).success, false);
  inst.ctx.agentMessages.push(`${g.answer} is cheaper than ${other}`);
  assert.ok(inst.family.check(inst.ctx).success);
});

test('compare: checkout validates its fields; out-of-stock products cannot be bought', async () => {
  const { inst, s, b } = open(10002, 3);
  const st = s.stores[0];
  const w = wordsOf(s, st);
  const it = st.items.find((x) => x.inStock)!;
  await b.goto(`${inst.ctx.baseUrl}/s/a/checkout/${it.id}`);
  await fillCheckout(b, w, { qty: '0', name: '<i>x</i>', zip: '12' });
  for (const re of [/Quantity must be from 1 to 10/, /only letters/, /Enter a street address/, /Enter a city/, /5-digit ZIP/]) assert.match(b.text(), re);
  assert.ok(b.html.includes('&lt;i&gt;x&lt;/i&gt;'));
  assert.equal(b.find('textbox', w.name).invalid, true);
  const out = s.stores.flatMap((x) => x.items.filter((i) => !i.inStock).map((i) => ({ x, i })))[0];
  if (out) {
    const wo = wordsOf(s, out.x);
    await b.goto(`${inst.ctx.baseUrl}/s/${out.x.key}/p/${out.i.id}`);
    assert.match(b.text(), new RegExp(wo.outOfStock));
    assert.ok(!b.has('link', wo.buyNow));
    await b.goto(`${inst.ctx.baseUrl}/s/${out.x.key}/checkout/${out.i.id}`);
    assert.ok(!b.has('button', wo.placeOrder));
  }
  assert.equal(s.orders.length, 0);
});

test('compare: instances differ in wording, order, distractors and layout; one seed renders the same twice', async () => {
  const variants = Array.from({ length: 40 }, (_, i) => drawVariant(10000 + i));
  const looks = variants.flatMap((v) => [v.stores.a, v.stores.b]);
  for (const knob of ['navPlacement', 'listing', 'productView', 'accent'] as const) assert.ok(new Set(looks.map((l) => l[knob])).size >= 2, `${knob} never varies`);
  assert.ok(new Set(variants.map((v) => v.start.view)).size === 3, 'the start page has three views');
  assert.ok(new Set(variants.map((v) => v.start.stores.join())).size === 2, 'the bookmarks come in both orders');
  assert.ok(variants.every((v) => v.stores.a.accent !== v.stores.b.accent), 'the two stores never share an accent');
  for (const key of ['buyNow', 'placeOrder', 'searchButton', 'navStores'] as const) assert.equal(new Set(looks.map((l) => l.words[key])).size, 4, `every synonym of "${STORE_WORDING[key][0]}" is drawn`);
  assert.equal(new Set(variants.map((v) => v.start.words.heading)).size, 4);
  assert.ok(new Set(looks.map((l) => l.nav.join())).size >= 6, 'navigation orders vary');
  assert.ok(new Set(looks.map((l) => l.sections.join())).size >= 4, 'home-page orders vary');
  assert.ok(new Set(looks.map((l) => l.checkoutFields.join())).size >= 3, 'checkout field orders vary');
  assert.ok(variants.every((v) => distractorCount(v) >= 1 && distractorCount(v) <= 3), 'one to three distractors each');
  assert.ok(new Set(variants.map(distractorCount)).size === 3);
  // A name always means one thing: no synonym serves two keys of a store page, or of the start page.
  for (const wording of [STORE_WORDING, START_WORDING]) {
    const all = Object.values(wording).flat().map((x) => x.toLowerCase());
    assert.equal(new Set(all).size, all.length, 'synonym lists are disjoint');
  }

  // Two seeds, the same store pages: different navigation names or order, different checkout labels.
  const pagesOf = async (seed: number) => {
    const { inst, s, b } = open(seed, 3);
    const st = s.stores[0];
    const look = s.variant.stores.a;
    await b.goto(`${inst.ctx.baseUrl}/s/a/`);
    const names = look.nav.map((k) => storeNavLabel(look.words, st, k));
    const nav = b.observe().elements.filter((e) => e.role === 'link' && names.includes(e.name)).map((e) => e.name);
    await b.goto(`${inst.ctx.baseUrl}/s/a/checkout/${st.items.find((i) => i.inStock)!.id}`);
    const form = b.observe().elements.filter((e) => ['spinbutton', 'textbox', 'button'].includes(e.role)).map((e) => e.name);
    return { nav, form };
  };
  const a = await pagesOf(10000);
  const c = await pagesOf(10001);
  assert.notDeepEqual(a.nav, c.nav);
  assert.notDeepEqual(a.form, c.form);

  // The same seed twice: byte for byte the same pages, but for the instance's own prefix.
  const render = async (seed: number) => {
    const { inst, s, b } = open(seed, 3);
    const item = s.stores[1].items.find((i) => i.inStock)!;
    return b.instancePages(inst.ctx.baseUrl, ['/', '/tracker', '/s/a/', '/s/b/', `/s/a/search?q=${encodeURIComponent(item.name)}`, `/s/b/p/${item.id}`, `/s/b/checkout/${item.id}`, '/s/a/orders', '/s/b/help', '/s/a/returns']);
  };
  assert.deepEqual(await render(10007), await render(10007));
  // Search results carry the query, verbatim, in the store's words.
  const { inst, s, b } = open(10007, 1);
  await b.goto(`${inst.ctx.baseUrl}/s/b/search?q=kettle`);
  assert.ok(b.has('heading', fill(wordsOf(s, s.stores[1]).resultsFor, { q: 'kettle' })));
});

test('compare: the oracle solves 60 train and 60 test seeds of every tier over real HTTP', async (t) => {
  for (const tier of TIERS) {
    const steps: number[] = [];
    for (const seed of [...Array.from({ length: 60 }, (_, i) => i * 13), ...Array.from({ length: 60 }, (_, i) => 10000 + i)]) {
      const r = await runAgent(server, 'compare', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints.filter((k) => !k.met))}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
      steps.push(r.steps);
      server.releaseInstance(r.instance.ctx.id);
    }
    t.diagnostic(`tier ${tier}: mean oracle steps ${mean(steps)} (min ${Math.min(...steps)}, max ${Math.max(...steps)}) over ${steps.length} seeds`);
  }
});
