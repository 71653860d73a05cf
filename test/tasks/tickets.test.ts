import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import type { TicketGoal, TicketsState } from '../../main/tasks/families/tickets/data.ts';
import { eventTitle, seatLabel } from '../../main/tasks/families/tickets/site.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

type Buy = Extract<TicketGoal, { kind: 'buy' }>;

function open(seed: number, tier: 1 | 2 | 3): { inst: TaskInstance; s: TicketsState; b: MiniBrowser } {
  const inst = server.createInstance('tickets', seed, { tier });
  return { inst, s: inst.ctx.state as TicketsState, b: new MiniBrowser(inst.ctx.agentMessages) };
}

async function buy(seed: number, tier: 2 | 3, seats?: string[]) {
  const { inst, s, b } = open(seed, tier);
  const g = s.goal as Buy;
  const e = s.events.find((x) => x.id === g.event)!;
  await b.goto(`${inst.ctx.baseUrl}/event/${e.id}`);
  await b.click('link', 'Select seats');
  for (const seat of seats ?? g.seats) await b.click('checkbox', seatLabel(e, seat));
  await b.click('button', 'Continue to checkout');
  await b.fill('textbox', 'Full name', g.name);
  await b.fill('textbox', 'Email', g.email);
  await b.click('radio', g.delivery);
  await b.click('checkbox', 'I accept the terms of sale');
  await b.click('button', 'Pay now');
  return { inst, s, b, g, e };
}

test('tickets: buying the asked seats succeeds, they become taken; other seats fail', async () => {
  const r = await buy(10000, 2);
  assert.match(r.b.url, /\/order\/TK-\d{6}$/);
  assert.ok(r.inst.family.check(r.inst.ctx).success, JSON.stringify(r.inst.family.check(r.inst.ctx).keyPoints));
  await r.b.goto(`${r.inst.ctx.baseUrl}/event/${r.e.id}/seats`);
  assert.equal(r.b.find('checkbox', `${seatLabel(r.e, r.g.seats[0])} (taken)`).disabled, true);
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
  const g = s.goal as Buy;
  const e = s.events.find((x) => x.id === g.event)!;
  await b.goto(`${inst.ctx.baseUrl}/event/${e.id}/seats`);
  await b.click('button', 'Continue to checkout');
  assert.match(b.text(), /Choose at least one seat/);
  const taken = e.taken[0];
  await b.goto(`${inst.ctx.baseUrl}/event/${e.id}/checkout`);
  assert.match(b.url, /\/seats$/, 'no checkout without seats');
  const res = await fetch(`${inst.ctx.baseUrl}/event/${e.id}/seats`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `seat=${taken}` });
  assert.match(await res.text(), /no longer available/);
  await b.click('checkbox', seatLabel(e, g.seats[0]));
  await b.click('button', 'Continue to checkout');
  await b.fill('textbox', 'Full name', '<b>x</b>');
  await b.click('button', 'Pay now');
  for (const re of [/only letters/, /valid email/, /how to get your tickets/, /terms of sale/]) assert.match(b.text(), re);
  assert.ok(b.html.includes('&lt;b&gt;x&lt;/b&gt;'));
  assert.equal(s.orders.length, 0);
  await b.goto(`${inst.ctx.baseUrl}/events?category=${encodeURIComponent(e.category)}&city=${encodeURIComponent(e.city)}`);
  assert.ok(b.has('link', eventTitle(e)));
  assert.ok(s.events.filter((x) => x.category === e.category && x.city === e.city).length === b.observe().elements.filter((x) => x.role === 'link' && s.events.some((y) => eventTitle(y) === x.name)).length);
});

test('tickets: the oracle solves every tier over real HTTP', async () => {
  for (const tier of [1, 2, 3] as const) {
    for (const seed of [10010, 10011, 10012, 10013, 10014]) {
      const r = await runAgent(server, 'tickets', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints)}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
    }
  }
});
