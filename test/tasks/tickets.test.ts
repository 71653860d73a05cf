/**
 * The tickets family: buying the asked seats (and near misses), any adjacent pair at tier 3, seat-map
 * and checkout validation, search and filters, the variation between instances (and none within
 * one), and its oracle over real HTTP on 60 train and 60 test seeds of every tier. Pages are driven
 * by the instance's own words.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import type { TicketGoal, TicketsState } from '../../main/tasks/families/tickets/data.ts';
import { eventTitle, seatLabel } from '../../main/tasks/families/tickets/site.ts';
import { navLabel, showTime } from '../../main/tasks/families/tickets/chrome.ts';
import { WORDING, deliveryLabel, drawVariant, type WordKey } from '../../main/tasks/families/tickets/variant.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

type Buy = Extract<TicketGoal, { kind: 'buy' }>;
const TIERS = [1, 2, 3] as const;
const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2);

function open(seed: number, tier: 1 | 2 | 3): { inst: TaskInstance; s: TicketsState; b: MiniBrowser } {
  const inst = server.createInstance('tickets', seed, { tier });
  return { inst, s: inst.ctx.state as TicketsState, b: new MiniBrowser(inst.ctx.agentMessages) };
}

async function buy(seed: number, tier: 2 | 3, seats?: string[]) {
  const { inst, s, b } = open(seed, tier);
  const w = s.variant.words;
  const g = s.goal as Buy;
  const e = s.events.find((x) => x.id === g.event)!;
  await b.goto(`${inst.ctx.baseUrl}/event/${e.id}`);
  await b.click('link', w.selectSeats);
  for (const seat of seats ?? g.seats) await b.click('checkbox', seatLabel(w, e, seat));
  await b.click('button', w.toCheckout);
  await b.fill('textbox', w.name, g.name);
  await b.fill('textbox', w.email, g.email);
  await b.click('radio', deliveryLabel(w, g.delivery));
  await b.click('checkbox', w.agree);
  await b.click('button', w.pay);
  return { inst, s, b, g, e };
}

test('tickets: buying the asked seats succeeds, they become taken; other seats fail', async () => {
  const r = await buy(10000, 2);
  assert.match(r.b.url, /\/order\/TK-\d{6}$/);
  assert.ok(r.inst.family.check(r.inst.ctx).success, JSON.stringify(r.inst.family.check(r.inst.ctx).keyPoints));
  await r.b.goto(`${r.inst.ctx.baseUrl}/event/${r.e.id}/seats`);
  assert.equal(r.b.find('checkbox', `${seatLabel(r.s.variant.words, r.e, r.g.seats[0])} (${r.s.variant.words.taken})`).disabled, true);
  const { s } = open(10001, 2);
  const g = s.goal as Buy;
  const e = s.events.find((x) => x.id === g.event)!;
  const other = ['F', 'G', 'E', 'D'].flatMap((row) => Array.from({ length: 10 }, (_, i) => `${row}${i + 1}`)).find((x) => !e.taken.includes(x) && !g.seats.includes(x))!;
  const w = await buy(10001, 2, [g.seats[0], other]);
  const c = w.inst.family.check(w.inst.ctx);
  assert.equal(c.success, false);
  assert.equal(c.keyPoints.find((k) => k.name.startsWith('seats '))!.met, false);
});

test('tickets: tier 3 accepts any adjacent pair in the row, not two apart', async () => {
  const { s } = open(10002, 3);
  const g = s.goal as Buy;
  const r = await buy(10002, 3);
  assert.ok(r.inst.family.check(r.inst.ctx).success);
  const e = s.events.find((x) => x.id === g.event)!;
  const row = g.section!;
  const free = Array.from({ length: 10 }, (_, i) => `${row}${i + 1}`).filter((x) => !e.taken.includes(x));
  const apart = free.flatMap((a) => free.filter((b) => Number(b.slice(1)) - Number(a.slice(1)) >= 2).map((b) => [a, b]))[0];
  if (apart) {
    const w = await buy(10002, 3, apart);
    assert.equal(w.inst.family.check(w.inst.ctx).keyPoints.find((k) => k.name.startsWith('two adjacent'))!.met, false);
  }
});

test('tickets: seat map and checkout validate; search and filters list events', async () => {
  const { inst, s, b } = open(10003, 2);
  const w = s.variant.words;
  const g = s.goal as Buy;
  const e = s.events.find((x) => x.id === g.event)!;
  await b.goto(`${inst.ctx.baseUrl}/event/${e.id}/seats`);
  await b.click('button', w.toCheckout);
  assert.match(b.text(), /Choose at least one seat/);
  const taken = e.taken[0];
  await b.goto(`${inst.ctx.baseUrl}/event/${e.id}/checkout`);
  assert.match(b.url, /\/seats$/, 'no checkout without seats');
  const res = await fetch(`${inst.ctx.baseUrl}/event/${e.id}/seats`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `seat=${taken}` });
  assert.match(await res.text(), /no longer available/);
  await b.click('checkbox', seatLabel(w, e, g.seats[0]));
  await b.click('button', w.toCheckout);
  await b.fill('textbox', w.name, '<b>x</b>');
  await b.click('button', w.pay);
  for (const re of [/only letters/, /valid email/, /how to get your tickets/, /terms of sale/]) assert.match(b.text(), re);
  assert.ok(b.html.includes('&lt;b&gt;x&lt;/b&gt;'));
  assert.equal(s.orders.length, 0);
  await b.goto(`${inst.ctx.baseUrl}/events?category=${encodeURIComponent(e.category)}&city=${encodeURIComponent(e.city)}`);
  assert.ok(b.has('link', eventTitle(e)));
  assert.ok(s.events.filter((x) => x.category === e.category && x.city === e.city).length === b.observe().elements.filter((x) => x.role === 'link' && s.events.some((y) => eventTitle(y) === x.name)).length);
  // The filters, by their names on this site, give the same list.
  await b.goto(`${inst.ctx.baseUrl}/events`);
  await b.select(w.category, e.category);
  await b.select(w.city, e.city);
  await b.click('button', w.apply);
  assert.match(b.url, new RegExp(`category=${encodeURIComponent(e.category)}`));
  assert.ok(b.has('link', eventTitle(e)));
});

/** Keys whose words share a page, besides the frame's: no synonym may serve two of them (option labels aside). */
const FRAME: WordKey[] = ['search', 'searchButton', 'navAll', 'navOrders'];
const PAGES: Record<string, WordKey[]> = {
  home: ['hero', 'comingUp', 'from', 'date', 'venue', 'prices'],
  listing: ['category', 'city', 'sort', 'apply', 'matching', 'noEvents', 'nextPage', 'prevPage', 'from', 'date', 'venue', 'prices'],
  event: ['category', 'venue', 'date', 'starts', 'prices', 'pricePer', 'selectSeats'],
  seats: ['backToEvent', 'seatsHeading', 'seat', 'taken', 'toCheckout'],
  checkout: ['changeSeats', 'checkout', 'seat', 'total', 'name', 'email', 'delivery', 'mobile', 'willCall', 'agree', 'pay'],
  order: ['confirmed', 'noTickets'],
};

test('tickets: instances differ in wording, order, distractors and layout; one seed renders the same twice', async () => {
  const variants = Array.from({ length: 40 }, (_, i) => drawVariant(10000 + i));
  for (const knob of ['navPlacement', 'filtersPlacement', 'listing', 'dateStyle', 'clock', 'accent'] as const) assert.ok(new Set(variants.map((v) => v[knob])).size >= 2, `${knob} never varies`);
  for (const key of ['selectSeats', 'toCheckout', 'pay', 'apply', 'search'] as const) assert.equal(new Set(variants.map((v) => v.words[key])).size, 4, `every synonym of "${WORDING[key][0]}" is drawn`);
  assert.ok(new Set(variants.map((v) => v.nav.join())).size >= 30, 'navigation orders vary');
  assert.ok(new Set(variants.map((v) => v.sections.join())).size >= 4, 'home-page orders vary');
  assert.ok(new Set(variants.map((v) => v.filters.join())).size >= 5, 'filter orders vary');
  assert.ok(new Set(variants.map((v) => v.facts.join())).size >= 10, 'event fact orders vary');
  assert.ok(new Set(variants.map((v) => v.payFields.join())).size === 3, 'checkout field orders vary');
  const extras = (v: (typeof variants)[number]) => v.nav.length - 6 + v.sections.length - 2;
  assert.ok(variants.every((v) => extras(v) >= 1 && extras(v) <= 3), 'one to three distractors each');
  assert.equal(new Set(variants.map(extras)).size, 3);
  for (const [page, keys] of Object.entries(PAGES)) {
    const all = [...FRAME, ...keys].flatMap((k) => WORDING[k].map((x) => x.toLowerCase()));
    assert.equal(new Set(all).size, all.length, `synonyms on the ${page} page are disjoint`);
  }

  // Two seeds, the same pages: different navigation names or order, different form labels.
  const pagesOf = async (seed: number) => {
    const { inst, s, b } = open(seed, 2);
    const e = s.events.find((x) => x.id === s.goal.event)!;
    await b.goto(`${inst.ctx.baseUrl}/events`);
    const names = s.variant.nav.map((k) => navLabel(s.variant.words, k));
    const nav = b.observe().elements.filter((x) => x.role === 'link' && names.includes(x.name)).map((x) => x.name);
    const filters = b.observe().elements.filter((x) => ['combobox', 'button'].includes(x.role)).map((x) => x.name);
    await b.goto(`${inst.ctx.baseUrl}/event/${e.id}/seats`);
    const seats = b.observe().elements.filter((x) => ['checkbox', 'button'].includes(x.role)).map((x) => x.name);
    return { nav, filters, seats };
  };
  const a = await pagesOf(10000);
  const c = await pagesOf(10001);
  assert.notDeepEqual(a.nav, c.nav);
  assert.notDeepEqual(a.filters, c.filters);
  assert.notDeepEqual(a.seats, c.seats);

  // The same seed twice: byte for byte the same pages, but for the instance's own prefix.
  const render = async (seed: number) => {
    const { inst, s, b } = open(seed, 3);
    const e = s.events.find((x) => x.id === s.goal.event)!;
    return b.instancePages(inst.ctx.baseUrl, ['/', '/events', '/events?sort=price&page=2', `/events?q=${encodeURIComponent(e.name)}`, `/event/${e.id}`, `/event/${e.id}/seats`, '/orders', '/help', '/alerts']);
  };
  assert.deepEqual(await render(10007), await render(10007));

  // Start times print on the site's clock, and the checker reads either.
  const twelve = variants.findIndex((v) => v.clock === '12h');
  const day = variants.findIndex((v) => v.clock === '24h');
  assert.notEqual(showTime(variants[twelve], '19:30'), showTime(variants[day], '19:30'));
});

test('tickets: the oracle solves 60 train and 60 test seeds of every tier over real HTTP', async (t) => {
  for (const tier of TIERS) {
    const steps: number[] = [];
    for (const seed of [...Array.from({ length: 60 }, (_, i) => i * 13), ...Array.from({ length: 60 }, (_, i) => 10000 + i)]) {
      const r = await runAgent(server, 'tickets', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints.filter((k) => !k.met))}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
      steps.push(r.steps);
      server.releaseInstance(r.instance.ctx.id);
    }
    t.diagnostic(`tier ${tier}: mean oracle steps ${mean(steps)} (min ${Math.min(...steps)}, max ${Math.max(...steps)}) over ${steps.length} seeds`);
  }
});
