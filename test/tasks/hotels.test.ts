/**
 * The hotels family: booking by hand and near misses, form validation, filters, answers by
 * message, its oracle over real HTTP on many seeds of every tier, and the variation between
 * instances (and none within one). Every control is found by the instance's own words.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import { cheapestFitting, type HotelsGoal, type HotelsState } from '../../main/tasks/families/hotels/data.ts';
import { WORDING, drawVariant, say, sortLabel, starsLabel } from '../../main/tasks/families/hotels/variant.ts';
import { NAV_PATHS, navLabel } from '../../main/tasks/families/hotels/chrome.ts';
import { searchPath } from '../../main/tasks/families/hotels/task.ts';
import { COOKIE_BUTTONS, COOKIE_WORDING } from '../../main/tasks/families/common/variant.ts';
import { normalizeText } from '../../main/common/normalize.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

type Book = Extract<HotelsGoal, { kind: 'book' }>;
const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2);

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
  const w = s.variant.words;
  await b.goto(inst.spec.startUrl);
  await b.click('button', s.variant.cookie.cookieAccept);
  await b.fill('textbox', w.destination, h.city.toUpperCase());
  await b.fill('textbox', w.checkin, g.checkin);
  await b.fill('textbox', w.checkout, g.checkout);
  await b.fill('spinbutton', w.guests, String(g.guests));
  await b.click('button', w.search);
  assert.match(b.url, /\/search\?/);
  while (!b.has('link', h.name)) await b.click('link', w.nextPage);
  await b.click('link', h.name);
  const room = h.rooms.find((r) => r.id === (opts.room ?? g.room))!;
  await b.click('button', say(w.reserve, { room: room.name }));
  await b.fill('textbox', w.first, g.first);
  await b.fill('textbox', w.last, g.last);
  await b.fill('textbox', w.email, opts.email ?? g.email);
  await b.click('checkbox', w.agree);
  await b.click('button', w.confirm);
  return { inst, s, b, g, h };
}

test('hotels: booking the right room along the forms succeeds', async () => {
  const { inst, s, b, g } = await book(10000);
  assert.match(b.url, /\/confirmation\/H[A-Z0-9]{7}$/);
  assert.ok(b.text().includes(s.variant.words.confirmedHeading));
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
  const w = s.variant.words;
  await b.goto(inst.spec.startUrl);
  await b.fill('textbox', w.destination, 'Atlantis');
  await b.fill('textbox', w.checkin, '2020-01-01');
  await b.fill('textbox', w.checkout, 'someday');
  await b.fill('spinbutton', w.guests, '9');
  await b.click('button', w.search);
  const t = b.text();
  assert.match(t, /We have no hotels in "Atlantis"/);
  assert.match(t, /Check-in cannot be in the past/);
  assert.match(t, /check-out date as YYYY-MM-DD/);
  assert.match(t, /Guests must be a number from 1 to 6/);
  assert.equal(b.find('textbox', w.destination).invalid, true);
  // Check-out before check-in.
  const g = s.goal as Book;
  await b.fill('textbox', w.destination, s.search.city);
  await b.fill('textbox', w.checkin, g.checkout);
  await b.fill('textbox', w.checkout, g.checkin);
  await b.fill('spinbutton', w.guests, '2');
  await b.click('button', w.search);
  assert.match(b.text(), /Check-out must be after check-in/);
  // The booking form: empty fields, a bad email, the policy unchecked.
  await b.goto(`${inst.ctx.baseUrl}/book?${new URLSearchParams({ hotel: String(g.hotel), room: g.room, checkin: g.checkin, checkout: g.checkout, guests: String(g.guests) })}`);
  await b.fill('textbox', w.first, '<b>Eve</b>');
  await b.fill('textbox', w.email, 'not-an-email');
  await b.click('button', w.confirm);
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
  assert.ok(!b.has('button', w.confirm));
});

test('hotels: the star filter, breakfast filter and price sort narrow and order the results', async () => {
  const { inst, s, b } = open(10002, 2);
  const w = s.variant.words;
  await b.goto(inst.spec.startUrl);
  await b.select(w.stars, starsLabel(w, '4'));
  await b.click('checkbox', w.breakfast);
  await b.select(w.sort, sortLabel(w, 'price_asc'));
  await b.click('button', w.apply);
  const { city, guests } = s.search;
  const want = s.hotels
    .filter((h) => h.city === city && h.stars >= 4 && h.amenities.includes('Free breakfast') && cheapestFitting(h, guests))
    .sort((a, c) => cheapestFitting(a, guests)!.price - cheapestFitting(c, guests)!.price)
    .slice(0, 8)
    .map((h) => h.name);
  const shown = b.observe().elements.filter((e) => e.role === 'link' && s.hotels.some((h) => h.name === e.name)).map((e) => e.name);
  assert.deepEqual(shown, want);
  assert.equal(b.find('combobox', w.sort).value, sortLabel(w, 'price_asc'), 'the form keeps its choices');
  assert.equal(b.find('checkbox', w.breakfast).checked, true);
});

test('hotels: questions are answered by message; format-insensitive, wrong answers fail', async () => {
  const { inst, s, b } = open(10003, 1, 'room_price');
  const g = s.goal as Extract<HotelsGoal, { kind: 'room_price' }>;
  const h = s.hotels.find((x) => x.id === g.hotel)!;
  await b.goto(inst.spec.startUrl);
  await b.click('link', h.name);
  assert.ok(b.text().includes(say(s.variant.words.perNight, { price: g.answer })), 'the hotel page shows the price');
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

test('hotels: the oracle solves 60 train and 60 test seeds of every tier over real HTTP', async (t) => {
  for (const tier of [1, 2, 3] as const) {
    const steps: number[] = [];
    for (const seed of [...Array.from({ length: 60 }, (_, i) => i * 13), ...Array.from({ length: 60 }, (_, i) => 10000 + i)]) {
      const r = await runAgent(server, 'hotels', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints.filter((k) => !k.met))}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
      steps.push(r.steps);
      server.releaseInstance(r.instance.ctx.id);
    }
    t.diagnostic(`tier ${tier}: mean oracle steps ${mean(steps)} (min ${Math.min(...steps)}, max ${Math.max(...steps)}) over ${steps.length} seeds`);
  }
});

test('hotels: every label has three or four synonyms and no two labels share a name', () => {
  for (const [key, list] of Object.entries(WORDING)) assert.ok(list.length >= 3 && list.length <= 4, key);
  const all = Object.values(WORDING).flat().map(normalizeText);
  assert.equal(new Set(all).size, all.length, 'a name always means one thing');
  // Nor do they share a name with the cookie banner, the overlay buttons oracles close, or a distractor.
  const others = [...COOKIE_BUTTONS, ...COOKIE_WORDING.cookieText, 'Got it', 'Dismiss', 'Deals', 'Gift cards', 'Careers', 'Travel guides', 'About the rewards club', 'Get the app'].map(normalizeText);
  assert.deepEqual(all.filter((x) => others.includes(x)), []);
});

test('hotels: instances differ in wording, order, distractors and layout; one seed renders the same twice', async () => {
  const variants = Array.from({ length: 40 }, (_, i) => drawVariant(10000 + i));
  for (const knob of ['navPlacement', 'resultsView', 'filtersPlacement', 'roomsView', 'accent'] as const) {
    assert.ok(new Set(variants.map((v) => v[knob])).size >= 2, `${knob} never varies`);
  }
  for (const key of ['search', 'apply', 'confirm', 'reserve', 'nextPage'] as const) {
    assert.equal(new Set(variants.map((v) => v.words[key])).size, WORDING[key].length, `every synonym of "${WORDING[key][0]}" is drawn`);
  }
  assert.equal(new Set(variants.map((v) => v.cookie.cookieAccept)).size, COOKIE_WORDING.cookieAccept.length, 'the cookie banner words vary');
  assert.ok(new Set(variants.map((v) => v.nav.join())).size >= 30, 'navigation orders vary');
  assert.ok(new Set(variants.map((v) => v.sections.join())).size >= 15, 'home-page orders vary');
  assert.ok(new Set(variants.map((v) => v.filters.join())).size >= 15, 'filter orders vary');
  assert.equal(new Set(variants.map((v) => v.searchFields.join())).size, 4, 'search form orders vary');
  assert.equal(new Set(variants.map((v) => v.bookFields.join())).size, 4, 'booking form orders vary');
  const distractors = variants.map((v) => v.nav.length - 3 + v.sections.length - 2);
  assert.ok(distractors.every((n) => n >= 1 && n <= 3), 'one to three distractors each');
  assert.equal(new Set(distractors).size, 3);

  // Two seeds, the same pages: different navigation names or order, a different search form.
  const homeOf = async (seed: number) => {
    const { inst, s, b } = open(seed, 3);
    await b.goto(`${inst.ctx.baseUrl}/`);
    const names = s.variant.nav.map((k) => navLabel(s.variant.words, k));
    const nav = b.observe().elements.filter((e) => e.role === 'link' && names.includes(e.name)).map((e) => e.name);
    const form = b.observe().elements.filter((e) => ['textbox', 'spinbutton', 'button'].includes(e.role)).map((e) => e.name);
    return { nav, form };
  };
  const a = await homeOf(10000);
  const c = await homeOf(10001);
  assert.notDeepEqual(a.nav, c.nav);
  assert.notDeepEqual(a.form, c.form);

  // The same seed twice: byte for byte the same pages, but for the instance's own prefix.
  const render = async (seed: number) => {
    const { inst, s, b } = open(seed, 3);
    const g = s.goal as Book;
    const stay = new URLSearchParams({ checkin: g.checkin, checkout: g.checkout, guests: String(g.guests) });
    const search = searchPath(s.search.city, g.checkin, g.checkout, g.guests);
    const pages = [
      '/',
      search,
      `${search}&page=2&sort=price_asc&stars=3&breakfast=1`,
      `/hotel/${g.hotel}?${stay}`,
      `/hotel/${g.hotel}`,
      `/book?hotel=${g.hotel}&room=${g.room}&${stay}`,
      `/city/${encodeURIComponent(s.search.city)}`,
      ...Object.values(NAV_PATHS),
      '/members',
      '/app',
    ];
    const out = await b.instancePages(inst.ctx.baseUrl, pages);
    server.releaseInstance(inst.ctx.id);
    return out;
  };
  assert.deepEqual(await render(10007), await render(10007));
});

test('hotels: distractor links lead to plain pages that name no hotel or price and change nothing', async () => {
  let seen = 0;
  for (let seed = 10000; seed < 10020; seed++) {
    const { inst, s, b } = open(seed, 3);
    const w = s.variant.words;
    const links = [...s.variant.nav.filter((k) => !['find', 'trips', 'help'].includes(k)).map((k) => navLabel(w, k)), ...(s.variant.sections.includes('members') ? ['About the rewards club'] : []), ...(s.variant.sections.includes('app') ? ['Get the app'] : [])];
    for (const name of links) {
      await b.goto(`${inst.ctx.baseUrl}/`);
      await b.click('link', name);
      assert.equal(b.status, 200, name);
      const text = b.text();
      assert.ok(!text.includes('$') && !s.hotels.some((h) => text.includes(h.name)), `${name}: ${text}`);
      const controls = b.observe().elements.filter((e) => ['textbox', 'spinbutton', 'combobox', 'checkbox'].includes(e.role) || (e.role === 'button' && !COOKIE_BUTTONS.includes(e.name)));
      assert.deepEqual(controls, [], name);
      seen++;
    }
    assert.deepEqual(s.bookings, []);
    assert.equal(inst.family.check(inst.ctx).success, false);
    server.releaseInstance(inst.ctx.id);
  }
  assert.ok(seen >= 20, `${seen} distractor links followed`);
});
