import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import { airportLabel, flightsFor, type FlightsState } from '../../main/tasks/families/flights/data.ts';
import { SORTS, sortFlights } from '../../main/tasks/families/flights/pages-search.ts';
import { addDays, longDate } from '../../main/tasks/families/common/dates.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

function open(seed: number, tier: 1 | 2 | 3): { inst: TaskInstance; s: FlightsState; b: MiniBrowser } {
  const inst = server.createInstance('flights', seed, { tier });
  return { inst, s: inst.ctx.state as FlightsState, b: new MiniBrowser(inst.ctx.agentMessages) };
}

/** Search and book by hand through the forms; `date` lets a test book on the wrong day. */
async function book(seed: number, opts: { date?: string; useCalendar?: boolean } = {}) {
  const { inst, s, b } = open(seed, 3);
  const g = s.goal;
  const date = opts.date ?? g.date;
  await b.goto(inst.spec.startUrl);
  await b.select('From', airportLabel(g.from));
  await b.select('To', airportLabel(g.to));
  if (opts.useCalendar) {
    // The calendar opens on the current month; page forward until the day is there.
    for (let i = 0; i < 3 && !b.has('button', longDate(date)); i++) await b.click('button', 'Next month');
    await b.click('button', longDate(date));
    assert.equal(b.find('textbox', 'Departure date').value, date);
    assert.equal(b.find('combobox', 'From').value, airportLabel(g.from), 'the picker keeps the other fields');
  } else await b.fill('textbox', 'Departure date', date);
  await b.fill('spinbutton', 'Passengers', String(g.passengers));
  await b.select('Fare class', g.fareClass);
  await b.click('button', 'Search flights');
  assert.match(b.url, /\/results\?/);
  // Sort by price and keep nonstop flights only, as the task's criterion suggests.
  await b.select('Sort by', 'Price (lowest first)');
  if (g.criterion === 'cheapest_nonstop') await b.click('checkbox', 'Nonstop only');
  await b.click('button', 'Update results');
  const flights = flightsFor(inst.ctx.seed, g.from, g.to, date);
  const wanted = date === g.date ? g.flight : flights[0].number;
  if (!b.has('button', new RegExp(`^Select flight ${wanted} `))) {
    await b.click('checkbox', 'Nonstop only');
    await b.click('button', 'Update results');
  }
  await b.click('button', new RegExp(`^Select flight ${wanted} `));
  assert.match(b.url, /\/passengers\//);
  // A name with digits must be refused with a message, keeping what was typed.
  await b.fill('textbox', 'Passenger 1 first name', 'R2D2');
  await b.click('button', 'Confirm booking');
  assert.match(b.text(), /Passenger 1 first name may contain only letters/);
  assert.match(b.text(), /Passenger 1 last name is required/);
  assert.equal(b.find('textbox', 'Passenger 1 first name').invalid, true);
  assert.equal(s.bookings.length, 0);
  for (let i = 0; i < g.passengers; i++) {
    await b.fill('textbox', `Passenger ${i + 1} first name`, g.names[i].first);
    await b.fill('textbox', `Passenger ${i + 1} last name`, g.names[i].last);
  }
  await b.click('button', 'Confirm booking');
  assert.match(b.url, /\/booking\/[A-Z0-9]{6}$/);
  assert.match(b.text(), /Your confirmation code is/);
  return inst.family.check(inst.ctx);
}

test('flights: booking the right flight along the forms succeeds (typed date and calendar)', async () => {
  let r = await book(10001);
  assert.ok(r.success, JSON.stringify(r.keyPoints));
  r = await book(10002, { useCalendar: true });
  assert.ok(r.success, JSON.stringify(r.keyPoints));
});

test('flights: booking on the wrong date fails on the date key point', async () => {
  const s = server.createInstance('flights', 10003, { tier: 3 }).ctx.state as FlightsState;
  const r = await book(10003, { date: addDays(s.goal.date, 1) });
  assert.equal(r.success, false);
  const kp = Object.fromEntries(r.keyPoints.map((k) => [k.name, k.met]));
  assert.equal(kp['booking made'], true);
  assert.equal(kp[`date ${s.goal.date}`], false);
  assert.equal(kp[`passenger names`], true);
});

test('flights: the search form reports missing and invalid input', async () => {
  const { inst, s, b } = open(10004, 2);
  await b.goto(inst.spec.startUrl);
  await b.click('button', 'Search flights');
  const t = b.text();
  assert.match(t, /Choose the airport you fly from/);
  assert.match(t, /Choose your destination airport/);
  assert.match(t, /Enter a departure date/);
  await b.select('From', airportLabel('BOS'));
  await b.select('To', airportLabel('BOS'));
  await b.fill('textbox', 'Departure date', addDays(s.today, -3));
  await b.fill('spinbutton', 'Passengers', '9');
  await b.click('button', 'Search flights');
  assert.match(b.text(), /Destination must differ from the origin/);
  assert.match(b.text(), /cannot be in the past/);
  assert.match(b.text(), /Passengers must be a number from 1 to 6/);
  await b.fill('textbox', 'Departure date', '14/14/2026');
  await b.click('button', 'Search flights');
  assert.match(b.text(), /Enter the date as YYYY-MM-DD/);
});

test('flights: results sort by price and duration and filter nonstop', async () => {
  const { inst, s, b } = open(10005, 1);
  const g = s.goal;
  await b.goto(`${inst.ctx.baseUrl}/results?from=${g.from}&to=${g.to}&date=${g.date}&passengers=1&class=Economy&sort=price&nonstop=1`);
  const prices = b.observe().elements.filter((e) => e.role === 'button' && e.name.startsWith('Select flight')).map((e) => Number(e.name.match(/\$(\d+)$/)![1]));
  assert.ok(prices.length >= 1);
  assert.deepEqual(prices, [...prices].sort((x, y) => x - y));
  const all = flightsFor(inst.ctx.seed, g.from, g.to, g.date);
  assert.equal(prices.length, all.filter((f) => f.stops === 0).length);
  assert.equal(b.find('checkbox', 'Nonstop only').checked, true);
});

test('flights: passenger names are escaped when shown back', async () => {
  const { inst, b } = open(10006, 1);
  await b.goto(inst.spec.startUrl);
  await b.click('button', /^Select flight /);
  await b.fill('textbox', 'Passenger 1 first name', '<script>alert(1)</script>');
  await b.click('button', 'Confirm booking');
  assert.ok(!b.html.includes('<script>alert(1)'));
  assert.ok(b.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
});

test('flights: the oracle solves every tier over real HTTP', async () => {
  for (const tier of [1, 2, 3] as const) {
    for (const seed of [10010, 10011, 10012, 10013, 10014]) {
      const r = await runAgent(server, 'flights', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints)}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
    }
  }
});

test('flights: the oracle sorts and filters as the criterion says, so the flight it books is the first one listed', async () => {
  const criteria = new Set<string>();
  for (const seed of [10020, 10021, 10022, 10023, 10024, 10025, 10026, 10027]) {
    const r = await runAgent(server, 'flights', seed, (i) => i.family.oracle(i.ctx), { tier: 1 });
    const g = (r.instance.ctx.state as FlightsState).goal;
    criteria.add(g.criterion);
    const order = g.criterion === 'shortest' ? 'duration' : 'price';
    const label = SORTS.find((s) => s.value === order)!.label;
    assert.ok(r.actions.some((a) => a.startsWith('select_option(') && a.includes(`'${label}'`)), `seed ${seed}: sorts by ${order}\n${r.actions.join('\n')}`);
    const listed = sortFlights(flightsFor(r.instance.ctx.seed, g.from, g.to, g.date), order).filter((f) => g.criterion !== 'cheapest_nonstop' || f.stops === 0);
    assert.equal(listed[0].number, g.flight, `seed ${seed}: ${g.criterion} is the first flight after sorting`);
    assert.ok(r.instance.family.check(r.instance.ctx).success);
  }
  assert.equal(criteria.size, 3, 'every criterion is covered');
});
