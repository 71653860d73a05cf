import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import { cheapestFitting, type HotelsGoal, type HotelsState } from '../../main/tasks/families/hotels/data.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

type Book = Extract<HotelsGoal, { kind: 'book' }>;

function open(seed: number, tier: 1 | 2 | 3, kind?: HotelsGoal['kind']): { inst: TaskInstance; s: HotelsState; b: MiniBrowser } {
  for (let sd = seed; sd < seed + 100; sd++) {
    const inst = server.createInstance('hotels', sd, { tier });
    const s = inst.ctx.state as HotelsState;
    if (!kind || s.goal.kind === kind) return { inst, s, b: new MiniBrowser(inst.ctx.agentMessages) };
    server.releaseInstance(inst.ctx.id);
  }
  throw new Error(`no ${kind} task`);
}

/** Search, open the hotel and book a room by hand; `room` lets a test book the wrong one. */
async function book(seed: number, opts: { room?: string; email?: string } = {}) {
  const { inst, s, b } = open(seed, 3);
  const g = s.goal as Book;
  const h = s.hotels.find((x) => x.id === g.hotel)!;
  await b.goto(inst.spec.startUrl);
  await b.click('button', 'Accept all cookies');
  await b.fill('textbox', 'Destination', h.city.toUpperCase());
  await b.fill('textbox', 'Check-in date', g.checkin);
  await b.fill('textbox', 'Check-out date', g.checkout);
  await b.fill('spinbutton', 'Guests', String(g.guests));
  await b.click('button', 'Search hotels');
  assert.match(b.url, /\/search\?/);
  while (!b.has('link', h.name)) await b.click('link', 'Next page');
  await b.click('link', h.name);
  const room = h.rooms.find((r) => r.id === (opts.room ?? g.room))!;
  await b.click('button', `Reserve ${room.name}`);
  await b.fill('textbox', 'First name', g.first);
  await b.fill('textbox', 'Last name', g.last);
  await b.fill('textbox', 'Email', opts.email ?? g.email);
  await b.click('checkbox', 'I accept the cancellation policy');
  await b.click('button', 'Confirm booking');
  return { inst, s, b, g, h };
}

test('hotels: booking the right room along the forms succeeds', async () => {
  const { inst, b, g } = await book(10000);
  assert.match(b.url, /\/confirmation\/H[A-Z0-9]{7}$/);
  assert.match(b.text(), /Booking confirmed/);
  const r = inst.family.check(inst.ctx);
  assert.ok(r.success, JSON.stringify(r.keyPoints));
  assert.equal(inst.ctx.state && (inst.ctx.state as HotelsState).bookings[0].checkin, g.checkin);
});

test('hotels: booking another room of the right hotel fails on the room key point', async () => {
  for (let seed = 10000; seed < 10050; seed++) {
    const { s } = open(seed, 3);
    const g = s.goal as Book;
    const h = s.hotels.find((x) => x.id === g.hotel)!;
    const other = h.rooms.find((r) => r.id !== g.room && r.sleeps >= g.guests);
    if (!other) continue;
    const { inst } = await book(seed, { room: other.id });
    const r = inst.family.check(inst.ctx);
    assert.equal(r.success, false);
    assert.equal(r.keyPoints.find((k) => k.name.startsWith('room '))!.met, false);
    assert.equal(r.keyPoints.find((k) => k.name.startsWith('hotel '))!.met, true);
    return;
  }
  assert.fail('no seed with a second room that fits');
});

test('hotels: search and booking forms report invalid input and book nothing', async () => {
  const { inst, s, b } = open(10001, 3);
  await b.goto(inst.spec.startUrl);
  await b.fill('textbox', 'Destination', 'Atlantis');
  await b.fill('textbox', 'Check-in date', '2020-01-01');
  await b.fill('textbox', 'Check-out date', 'someday');
  await b.fill('spinbutton', 'Guests', '9');
  await b.click('button', 'Search hotels');
  const t = b.text();
  assert.match(t, /We have no hotels in "Atlantis"/);
  assert.match(t, /Check-in cannot be in the past/);
  assert.match(t, /check-out date as YYYY-MM-DD/);
  assert.match(t, /Guests must be a number from 1 to 6/);
  assert.equal(b.find('textbox', 'Destination').invalid, true);
  // Check-out before check-in.
  const g = s.goal as Book;
  await b.fill('textbox', 'Destination', s.search.city);
  await b.fill('textbox', 'Check-in date', g.checkout);
  await b.fill('textbox', 'Check-out date', g.checkin);
  await b.fill('spinbutton', 'Guests', '2');
  await b.click('button', 'Search hotels');
  assert.match(b.text(), /Check-out must be after check-in/);
  // The booking form: empty fields, a bad email, the policy unchecked.
  await b.goto(`${inst.ctx.baseUrl}/book?${new URLSearchParams({ hotel: String(g.hotel), room: g.room, checkin: g.checkin, checkout: g.checkout, guests: String(g.guests) })}`);
  await b.fill('textbox', 'First name', '<b>Eve</b>');
  await b.fill('textbox', 'Email', 'not-an-email');
  await b.click('button', 'Confirm booking');
  const e = b.text();
  assert.match(e, /First name may contain only letters/);
  assert.match(e, /Last name is required/);
  assert.match(e, /Enter a valid email address/);
  assert.match(e, /Please accept the cancellation policy/);
  assert.ok(b.html.includes('&lt;b&gt;Eve&lt;/b&gt;'), 'submitted text is escaped');
  assert.equal(s.bookings.length, 0);
  assert.equal(inst.family.check(inst.ctx).success, false);
  // A room too small for the party cannot be booked, even by URL.
  const small = s.hotels.flatMap((h) => h.rooms.filter((r) => r.sleeps === 2).map((r) => ({ h, r })))[0];
  await b.goto(`${inst.ctx.baseUrl}/book?${new URLSearchParams({ hotel: String(small.h.id), room: small.r.id, checkin: g.checkin, checkout: g.checkout, guests: '4' })}`);
  assert.ok(!b.has('button', 'Confirm booking'));
});

test('hotels: the star filter, breakfast filter and price sort narrow and order the results', async () => {
  const { inst, s, b } = open(10002, 2);
  await b.goto(inst.spec.startUrl);
  await b.select('Minimum stars', '4 stars or more');
  await b.click('checkbox', 'Free breakfast');
  await b.select('Sort by', 'Price (lowest first)');
  await b.click('button', 'Apply filters');
  const { city, guests } = s.search;
  const want = s.hotels
    .filter((h) => h.city === city && h.stars >= 4 && h.amenities.includes('Free breakfast') && cheapestFitting(h, guests))
    .sort((a, c) => cheapestFitting(a, guests)!.price - cheapestFitting(c, guests)!.price)
    .slice(0, 8)
    .map((h) => h.name);
  const shown = b.observe().elements.filter((e) => e.role === 'link' && s.hotels.some((h) => h.name === e.name)).map((e) => e.name);
  assert.deepEqual(shown, want);
  assert.equal(b.find('combobox', 'Sort by').value, 'Price (lowest first)', 'the form keeps its choices');
  assert.equal(b.find('checkbox', 'Free breakfast').checked, true);
});

test('hotels: questions are answered by message; format-insensitive, wrong answers fail', async () => {
  const { inst, s, b } = open(10003, 1, 'room_price');
  const g = s.goal as Extract<HotelsGoal, { kind: 'room_price' }>;
  const h = s.hotels.find((x) => x.id === g.hotel)!;
  await b.goto(inst.spec.startUrl);
  await b.click('link', h.name);
  assert.ok(b.text().includes(`${g.answer} per night`), 'the hotel page shows the price');
  await b.step(`send_msg_to_user('It is ${g.answer.replace('$', '').replace('.00', '')} dollars a night')`);
  assert.ok(inst.family.check(inst.ctx).success);
  const wrong = open(10003, 1, 'cheapest');
  await wrong.b.goto(wrong.inst.spec.startUrl);
  const other = wrong.s.hotels.find((x) => x.city === wrong.s.search.city && x.name !== (wrong.s.goal as { answer: string }).answer)!;
  await wrong.b.step(`send_msg_to_user('${other.name}')`);
  const r = wrong.inst.family.check(wrong.inst.ctx);
  assert.equal(r.success, false);
  assert.deepEqual(r.keyPoints.map((k) => k.met), [true, false]);
});

test('hotels: the oracle solves every tier over real HTTP', async () => {
  for (const tier of [1, 2, 3] as const) {
    for (const seed of [10010, 10011, 10012, 10013, 10014]) {
      const r = await runAgent(server, 'hotels', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints)}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
    }
  }
});
