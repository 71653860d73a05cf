import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import { TIMES, slotOpen, timeLabel, type RestaurantGoal, type RestaurantsState } from '../../main/tasks/families/restaurants/data.ts';
import { partyLabel } from '../../main/tasks/families/restaurants/pages.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

type Reserve = Extract<RestaurantGoal, { kind: 'reserve' }>;

function open(seed: number, tier: 1 | 2 | 3, kind?: RestaurantGoal['kind']): { inst: TaskInstance; s: RestaurantsState; b: MiniBrowser } {
  for (let sd = seed; sd < seed + 100; sd++) {
    const inst = server.createInstance('restaurants', sd, { tier });
    const s = inst.ctx.state as RestaurantsState;
    if (!kind || s.goal.kind === kind) return { inst, s, b: new MiniBrowser(inst.ctx.agentMessages) };
    server.releaseInstance(inst.ctx.id);
  }
  throw new Error(`no ${kind} task`);
}

/** Filter to the cuisine and neighborhood, open the best-rated, find a table and reserve it by hand. */
async function reserve(seed: number, opts: { time?: string } = {}) {
  const { inst, s, b } = open(seed, 3);
  const g = s.goal as Reserve;
  const r = s.restaurants.find((x) => x.id === g.restaurant)!;
  await b.goto(inst.spec.startUrl);
  await b.click('button', 'Dismiss');
  assert.ok(!b.has('button', 'Dismiss'), 'the dialog stays dismissed');
  await b.click('link', 'Browse all restaurants');
  await b.select('Cuisine', g.cuisine!);
  await b.select('Neighborhood', g.area!);
  await b.select('Sort by', 'Highest rated');
  await b.click('button', 'Apply filters');
  const first = b.observe().elements.find((e) => e.role === 'link' && s.restaurants.some((x) => x.name === e.name))!;
  assert.equal(first.name, r.name, 'the highest rated comes first');
  await b.click('link', r.name);
  await b.fill('textbox', 'Date', g.date);
  await b.select('Party size', partyLabel(g.party));
  await b.click('button', 'Find a table');
  await b.click('button', `Reserve ${timeLabel(opts.time ?? g.time)}`);
  await b.fill('textbox', 'Full name', g.name);
  await b.fill('textbox', 'Phone number', g.phone.replace(/\D/g, ''));
  await b.click('button', 'Complete reservation');
  return { inst, s, b, g, r };
}

test('restaurants: reserving the right table along the forms succeeds (phone punctuation does not matter)', async () => {
  const { inst, b } = await reserve(10000);
  assert.match(b.url, /\/reservation\/T\d{6}$/);
  const r = inst.family.check(inst.ctx);
  assert.ok(r.success, JSON.stringify(r.keyPoints));
});

test('restaurants: a later table than the earliest one asked for fails on the time key point', async () => {
  for (let seed = 10000; seed < 10060; seed++) {
    const { s } = open(seed, 3);
    const g = s.goal as Reserve;
    const r = s.restaurants.find((x) => x.id === g.restaurant)!;
    const later = TIMES.find((t) => t > g.time && slotOpen(seed, r, g.date, t, g.party));
    if (!later) continue;
    const { inst } = await reserve(seed, { time: later });
    const c = inst.family.check(inst.ctx);
    assert.equal(c.success, false);
    assert.equal(c.keyPoints.find((k) => k.name.startsWith('time '))!.met, false);
    assert.equal(c.keyPoints.find((k) => k.name.startsWith('restaurant '))!.met, true);
    return;
  }
  assert.fail('no seed with a later open table');
});

test('restaurants: joining through the offer dialog is a side effect the checker reports, undone by cancelling', async () => {
  const { inst, s, b } = open(10001, 1);
  await b.goto(inst.spec.startUrl);
  await b.click('button', `Join ${s.siteName}+`);
  assert.equal(s.promo.joined, true);
  const g = s.goal as Extract<RestaurantGoal, { kind: 'phone' | 'dish_price' }>;
  await b.step(`send_msg_to_user('${g.answer}')`);
  const c = inst.family.check(inst.ctx);
  assert.equal(c.success, false);
  assert.equal(c.keyPoints.find((k) => k.name.startsWith('did not sign up'))!.met, false);
  assert.equal(c.keyPoints.find((k) => k.name.startsWith('correct'))!.met, true);
  // The membership can be cancelled from the account page, which undoes the side effect.
  await b.click('link', 'Account');
  await b.click('button', 'Cancel membership');
  assert.match(b.text(), /Your membership is cancelled/);
  assert.ok(inst.family.check(inst.ctx).success);
});

test('restaurants: the table finder and reservation form validate input; full tables cannot be booked', async () => {
  const { inst, s, b } = open(10002, 2);
  const g = s.goal as Reserve;
  const r = s.restaurants.find((x) => x.id === g.restaurant)!;
  await b.goto(inst.spec.startUrl);
  await b.click('button', 'Dismiss');
  await b.fill('textbox', 'Date', '1999-01-01');
  await b.click('button', 'Find a table');
  assert.match(b.text(), /That date is in the past/);
  await b.fill('textbox', 'Date', 'soon');
  await b.click('button', 'Find a table');
  assert.match(b.text(), /Enter the date as YYYY-MM-DD/);
  await b.fill('textbox', 'Date', g.date);
  await b.select('Party size', partyLabel(g.party));
  await b.click('button', 'Find a table');
  for (const t of TIMES) assert.equal(b.has('button', `Reserve ${timeLabel(t)}`), slotOpen(inst.ctx.seed, r, g.date, t, g.party), t);
  await b.click('button', `Reserve ${timeLabel(g.time)}`);
  await b.fill('textbox', 'Full name', '<i>Mallory</i>');
  await b.fill('textbox', 'Phone number', '12345');
  await b.click('button', 'Complete reservation');
  assert.match(b.text(), /The name may contain only letters/);
  assert.match(b.text(), /Enter a 10-digit phone number/);
  assert.ok(b.html.includes('&lt;i&gt;Mallory&lt;/i&gt;'));
  assert.equal(s.reservations.length, 0);
  const full = TIMES.find((t) => !slotOpen(inst.ctx.seed, r, g.date, t, g.party));
  if (full) {
    await b.goto(`${inst.ctx.baseUrl}/reserve?${new URLSearchParams({ restaurant: String(r.id), date: g.date, party: String(g.party), time: full })}`);
    assert.ok(!b.has('button', 'Complete reservation'), 'a fully booked time sends you back to the restaurant');
  }
});

test('restaurants: search, filters and sort', async () => {
  const { inst, s, b } = open(10003, 1);
  await b.goto(inst.spec.startUrl);
  await b.click('button', 'Dismiss');
  const target = s.restaurants[3];
  await b.fill('searchbox', 'Search restaurants', target.name.toLowerCase());
  await b.press('searchbox', 'Search restaurants', 'Enter');
  assert.ok(b.has('link', target.name));
  await b.goto(`${inst.ctx.baseUrl}/search`);
  await b.select('Price', '$$ or less');
  await b.click('checkbox', 'Outdoor seating');
  await b.select('Sort by', 'Name (A to Z)');
  await b.click('button', 'Apply filters');
  const want = s.restaurants.filter((r) => r.priceLevel <= 2 && r.outdoor).map((r) => r.name).sort((a, c) => a.localeCompare(c)).slice(0, 10);
  const shown = b.observe().elements.filter((e) => e.role === 'link' && s.restaurants.some((r) => r.name === e.name)).map((e) => e.name);
  assert.deepEqual(shown, want);
});

test('restaurants: questions are answered by message; phone format does not matter, a wrong number fails', async () => {
  const { inst, s, b } = open(10004, 1, 'phone');
  const g = s.goal as Extract<RestaurantGoal, { kind: 'phone' }>;
  await b.goto(inst.spec.startUrl);
  await b.step(`send_msg_to_user('Call ${g.answer.replace(/\D/g, '').replace(/(\d{3})(\d{3})(\d{4})/, '$1.$2.$3')}')`);
  assert.ok(inst.family.check(inst.ctx).success);
  const w = open(10004, 1, 'phone');
  await w.b.step(`send_msg_to_user('(555) 000-0000')`);
  assert.equal(w.inst.family.check(w.inst.ctx).success, false);
});

test('restaurants: the oracle solves every tier over real HTTP', async () => {
  for (const tier of [1, 2, 3] as const) {
    for (const seed of [10010, 10011, 10012, 10013, 10014]) {
      const r = await runAgent(server, 'restaurants', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints)}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
    }
  }
});
