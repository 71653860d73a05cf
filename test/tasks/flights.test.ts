import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import { airportLabel, flightsFor, hhmm, priceFor, type FareClass, type Flight, type FlightsState } from '../../main/tasks/families/flights/data.ts';
import { sortFlights } from '../../main/tasks/families/flights/pages-search.ts';
import { navLabel } from '../../main/tasks/families/flights/chrome.ts';
import { PAGE_KEYS, WORDING, drawVariant, nameLabel, selectFlightLabel, sortLabel, type Words } from '../../main/tasks/families/flights/variant.ts';
import { addDays, longDate } from '../../main/tasks/families/common/dates.ts';
import { normalizeText } from '../../main/common/normalize.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2);

function open(seed: number, tier: 1 | 2 | 3): { inst: TaskInstance; s: FlightsState; w: Words; b: MiniBrowser } {
  const inst = server.createInstance('flights', seed, { tier });
  const s = inst.ctx.state as FlightsState;
  return { inst, s, w: s.variant.words, b: new MiniBrowser(inst.ctx.agentMessages) };
}

/** A result's select button, named as this instance names it. */
function selectName(w: Words, f: Flight, fare: FareClass): string {
  return selectFlightLabel(w, f.number, hhmm(f.depart), priceFor(f, fare));
}

/** Search and book by hand through the forms, by the instance's own words; `date` lets a test book on the wrong day. */
async function book(seed: number, opts: { date?: string; useCalendar?: boolean } = {}) {
  const { inst, s, w, b } = open(seed, 3);
  const g = s.goal;
  const date = opts.date ?? g.date;
  await b.goto(inst.spec.startUrl);
  await b.select(w.from, airportLabel(g.from));
  await b.select(w.to, airportLabel(g.to));
  if (opts.useCalendar) {
    // The calendar opens on the current month; page forward until the day is there.
    for (let i = 0; i < 3 && !b.has('button', longDate(date)); i++) await b.click('button', w.nextMonth);
    await b.click('button', longDate(date));
    assert.equal(b.find('textbox', w.date).value, date);
    assert.equal(b.find('combobox', w.from).value, airportLabel(g.from), 'the picker keeps the other fields');
  } else await b.fill('textbox', w.date, date);
  await b.fill('spinbutton', w.passengers, String(g.passengers));
  await b.select(w.fareClass, g.fareClass);
  await b.click('button', w.searchButton);
  assert.match(b.url, /\/results\?/);
  // Sort by price and keep nonstop flights only, as the task's criterion suggests.
  await b.select(w.sortBy, sortLabel(w, 'price'));
  if (g.criterion === 'cheapest_nonstop') await b.click('checkbox', w.nonstop);
  await b.click('button', w.update);
  const flights = flightsFor(inst.ctx.seed, g.from, g.to, date);
  const wanted = flights.find((f) => f.number === (date === g.date ? g.flight : flights[0].number))!;
  if (!b.has('button', selectName(w, wanted, g.fareClass))) {
    await b.click('checkbox', w.nonstop);
    await b.click('button', w.update);
  }
  await b.click('button', selectName(w, wanted, g.fareClass));
  assert.match(b.url, /\/passengers\//);
  // A name with digits must be refused with a message, keeping what was typed.
  const first1 = nameLabel(w, 'first', 0);
  await b.fill('textbox', first1, 'R2D2');
  await b.click('button', w.confirm);
  assert.ok(b.text().includes(`${first1} may contain only letters`), b.text());
  assert.ok(b.text().includes(`${nameLabel(w, 'last', 0)} is required`), b.text());
  assert.equal(b.find('textbox', first1).invalid, true);
  assert.equal(s.bookings.length, 0);
  for (let i = 0; i < g.passengers; i++) {
    await b.fill('textbox', nameLabel(w, 'first', i), g.names[i].first);
    await b.fill('textbox', nameLabel(w, 'last', i), g.names[i].last);
  }
  await b.click('button', w.confirm);
  assert.match(b.url, /\/booking\/[A-Z0-9]{6}$/);
  assert.ok(b.text().includes(w.codeIs), b.text());
  return inst.family.check(inst.ctx);
}

test('flights: instances differ in wording, order, distractors and layout; one seed renders the same twice', async () => {
  const variants = Array.from({ length: 40 }, (_, i) => drawVariant(10000 + i));
  for (const knob of ['navPlacement', 'resultsView', 'filtersPlacement', 'accent'] as const) {
    assert.ok(new Set(variants.map((v) => v[knob])).size >= 2, `${knob} never varies`);
  }
  for (const key of ['searchButton', 'confirm', 'update', 'navSearch', 'selectFlight'] as const) {
    assert.equal(new Set(variants.map((v) => v.words[key])).size, 4, `every synonym of "${WORDING[key][0]}" is drawn`);
  }
  assert.ok(new Set(variants.map((v) => v.cookie.cookieAccept)).size >= 3, 'the cookie banner words vary too');
  assert.ok(new Set(variants.map((v) => v.nav.join())).size >= 25, 'navigation orders vary');
  assert.ok(new Set(variants.map((v) => v.sections.join())).size >= 5, 'home box orders vary');
  assert.ok(new Set(variants.map((v) => v.searchFields.join())).size >= 4, 'search form field orders vary');
  for (const knob of ['filters', 'sorts', 'nameFields'] as const) assert.ok(new Set(variants.map((v) => v[knob].join())).size >= 2, `${knob} order never varies`);
  const distractors = variants.map((v) => v.nav.length - 3 + v.sections.length - 1);
  assert.ok(distractors.every((n) => n >= 1 && n <= 3), `one to three distractors each: ${distractors.join()}`);

  // A name on a page means one thing: no synonym of one key is a synonym of another on its page
  // (but for "Search flights", a link and a button, which their roles tell apart).
  for (const [page, keys] of Object.entries(PAGE_KEYS)) {
    const owner = new Map<string, string>();
    for (const k of keys) {
      for (const word of WORDING[k]) {
        const n = normalizeText(word);
        const other = owner.get(n);
        assert.ok(!other || (n === 'search flights' && [other, k].sort().join() === 'navSearch,searchButton'), `${page}: "${word}" is both ${other} and ${k}`);
        owner.set(n, k);
      }
    }
  }

  // Two seeds, the same pages: different navigation names or order, different labels on the forms.
  const pagesOf = async (seed: number) => {
    const { inst, s, w, b } = open(seed, 2);
    await b.goto(`${inst.ctx.baseUrl}/`);
    const names = s.variant.nav.map((k) => navLabel(w, k));
    const nav = b.observe().elements.filter((e) => e.role === 'link' && names.includes(e.name)).map((e) => e.name);
    assert.equal(nav.length, names.length, 'every navigation link shows');
    const search = b.observe().elements.filter((e) => ['combobox', 'textbox', 'spinbutton', 'button'].includes(e.role) && !/^\w+day, /.test(e.name)).map((e) => e.name);
    await b.goto(`${inst.ctx.baseUrl}/results?from=${s.goal.from}&to=${s.goal.to}&date=${s.goal.date}&passengers=1&class=Economy`);
    const results = b.observe().elements.filter((e) => ['combobox', 'checkbox', 'button', 'link'].includes(e.role)).map((e) => e.name);
    return { nav, search, results };
  };
  const a = await pagesOf(10000);
  const c = await pagesOf(10001);
  assert.notDeepEqual(a.nav, c.nav);
  assert.notDeepEqual(a.search, c.search);
  assert.notDeepEqual(a.results, c.results);

  // The same seed twice: byte for byte the same pages, but for the instance's own prefix.
  const render = async (seed: number) => {
    const { inst, s, w, b } = open(seed, 3);
    const g = s.goal;
    const out: string[] = [];
    const keep = async () => {
      assert.equal(b.status, 200, b.url);
      out.push(b.html.replaceAll(new URL(inst.ctx.baseUrl).pathname, '/i/X'));
    };
    for (const p of ['/', '/trips', '/help', '/deals', '/baggage', '/status', '/gift-cards', `/results?from=${g.from}&to=${g.to}&date=${g.date}&passengers=2&class=${g.fareClass}&sort=price`]) {
      await b.goto(inst.ctx.baseUrl + p);
      await keep();
    }
    const f = flightsFor(inst.ctx.seed, g.from, g.to, g.date).find((x) => x.number === g.flight)!;
    await b.click('button', selectName(w, f, g.fareClass));
    await keep();
    for (let i = 0; i < g.passengers; i++) {
      await b.fill('textbox', nameLabel(w, 'first', i), g.names[i].first);
      await b.fill('textbox', nameLabel(w, 'last', i), g.names[i].last);
    }
    await b.click('button', w.confirm);
    await keep();
    return out;
  };
  assert.deepEqual(await render(10007), await render(10007));
});

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
  const { inst, s, w, b } = open(10004, 2);
  await b.goto(inst.spec.startUrl);
  await b.click('button', w.searchButton);
  const t = b.text();
  assert.match(t, /Choose the airport you fly from/);
  assert.match(t, /Choose your destination airport/);
  assert.match(t, /Enter a departure date/);
  await b.select(w.from, airportLabel('BOS'));
  await b.select(w.to, airportLabel('BOS'));
  await b.fill('textbox', w.date, addDays(s.today, -3));
  await b.fill('spinbutton', w.passengers, '9');
  await b.click('button', w.searchButton);
  assert.match(b.text(), /Destination must differ from the origin/);
  assert.match(b.text(), /cannot be in the past/);
  assert.match(b.text(), /Passengers must be a number from 1 to 6/);
  await b.fill('textbox', w.date, '14/14/2026');
  await b.click('button', w.searchButton);
  assert.match(b.text(), /Enter the date as YYYY-MM-DD/);
});

test('flights: results sort by price and duration and filter nonstop', async () => {
  const { inst, s, w, b } = open(10005, 1);
  const g = s.goal;
  await b.goto(`${inst.ctx.baseUrl}/results?from=${g.from}&to=${g.to}&date=${g.date}&passengers=1&class=Economy&sort=price&nonstop=1`);
  const all = flightsFor(inst.ctx.seed, g.from, g.to, g.date);
  // The flights listed, in page order, known by their select buttons' names.
  const buttons = b.observe().elements.filter((e) => e.role === 'button').map((e) => e.name);
  const listed = buttons.map((name) => all.find((f) => name === selectName(w, f, 'Economy'))).filter((f) => f !== undefined);
  const prices = listed.map((f) => priceFor(f, 'Economy'));
  assert.ok(prices.length >= 1);
  assert.deepEqual(prices, [...prices].sort((x, y) => x - y));
  assert.equal(prices.length, all.filter((f) => f.stops === 0).length);
  assert.ok(listed.every((f) => f.stops === 0));
  assert.equal(b.find('checkbox', w.nonstop).checked, true);
});

test('flights: passenger names are escaped when shown back', async () => {
  const { inst, s, w, b } = open(10006, 1);
  await b.goto(inst.spec.startUrl);
  // Tier 1 starts on results sorted by departure: the first flight of the day.
  const first = sortFlights(flightsFor(inst.ctx.seed, s.goal.from, s.goal.to, s.goal.date), 'departure')[0];
  await b.click('button', selectName(w, first, 'Economy'));
  await b.fill('textbox', nameLabel(w, 'first', 0), '<script>alert(1)</script>');
  await b.click('button', w.confirm);
  assert.ok(!b.html.includes('<script>alert(1)'));
  assert.ok(b.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
});

test('flights: the oracle solves 60 train and 60 test seeds of every tier over real HTTP', async (t) => {
  for (const tier of [1, 2, 3] as const) {
    const steps: number[] = [];
    for (const seed of [...Array.from({ length: 60 }, (_, i) => i * 13), ...Array.from({ length: 60 }, (_, i) => 10000 + i)]) {
      const r = await runAgent(server, 'flights', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints)}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
      steps.push(r.steps);
      server.releaseInstance(r.instance.ctx.id);
    }
    t.diagnostic(`tier ${tier}: mean oracle steps ${mean(steps)} (min ${Math.min(...steps)}, max ${Math.max(...steps)}) over ${steps.length} seeds`);
  }
});

test('flights: the oracle sorts and filters as the criterion says, so the flight it books is the first one listed', async () => {
  const criteria = new Set<string>();
  for (const seed of [10020, 10021, 10022, 10023, 10024, 10025, 10026, 10027]) {
    const r = await runAgent(server, 'flights', seed, (i) => i.family.oracle(i.ctx), { tier: 1 });
    const st = r.instance.ctx.state as FlightsState;
    const g = st.goal;
    criteria.add(g.criterion);
    const order = g.criterion === 'shortest' ? 'duration' : 'price';
    const label = sortLabel(st.variant.words, order);
    assert.ok(r.actions.some((a) => a.startsWith('select_option(') && a.includes(`'${label}'`)), `seed ${seed}: sorts by ${order}\n${r.actions.join('\n')}`);
    const listed = sortFlights(flightsFor(r.instance.ctx.seed, g.from, g.to, g.date), order).filter((f) => g.criterion !== 'cheapest_nonstop' || f.stops === 0);
    assert.equal(listed[0].number, g.flight, `seed ${seed}: ${g.criterion} is the first flight after sorting`);
    assert.ok(r.instance.family.check(r.instance.ctx).success);
  }
  assert.equal(criteria.size, 3, 'every criterion is covered');
});
