/**
 * The real-estate family: hand-driven tours and validation in this instance's own words, the
 * oracle over real HTTP on many seeds of every tier, and the variation between instances (and
 * none within one).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import { timeLabel, type HomeGoal, type RealEstateState } from '../../main/tasks/families/realestate/data.ts';
import { WORDING, bedsLabel, drawVariant, navLabel } from '../../main/tasks/families/realestate/variant.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

type Tour = Extract<HomeGoal, { kind: 'tour' }>;
const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2);

function open(seed: number, tier: 1 | 2 | 3): { inst: TaskInstance; s: RealEstateState; b: MiniBrowser } {
  const inst = server.createInstance('realestate', seed, { tier });
  return { inst, s: inst.ctx.state as RealEstateState, b: new MiniBrowser(inst.ctx.agentMessages) };
}

/** Names of the home links a page shows, in page order. */
function homeLinks(s: RealEstateState, b: MiniBrowser): string[] {
  return b.observe().elements.filter((e) => e.role === 'link' && s.homes.some((h) => `${h.address}, ${h.city}` === e.name)).map((e) => e.name);
}

/** Search the city, filter and sort by price, and request a tour of the `pick`-th result by hand, in the instance's words. */
async function tour(seed: number, pick = 0) {
  const { inst, s, b } = open(seed, 3);
  const g = s.goal as Tour;
  const w = s.variant.words;
  await b.goto(inst.spec.startUrl);
  await b.fill('searchbox', w.searchBox, g.city!);
  await b.press('searchbox', w.searchBox, 'Enter');
  await b.select(w.filterType, g.type!);
  await b.select(w.filterBeds, bedsLabel(w, g.beds!));
  await b.select(w.filterSort, w.sortPriceAsc);
  await b.click('button', w.applyFilters);
  const links = homeLinks(s, b);
  if (pick >= links.length) return null;
  await b.click('link', links[pick]);
  await b.fill('textbox', w.tourDate, g.date);
  await b.select(w.tourTime, timeLabel(g.time));
  await b.fill('textbox', w.yourName, g.name);
  await b.fill('textbox', w.email, g.email);
  await b.fill('textbox', w.phone, g.phone);
  await b.click('button', w.requestTour);
  return { inst, s, b };
}

test('realestate: a tour of the cheapest matching home along the forms succeeds; the next one fails', async () => {
  const r = (await tour(10000))!;
  assert.match(r.b.url, /\/tour\/TR-\d{5}$/);
  const c = r.inst.family.check(r.inst.ctx);
  assert.ok(c.success, JSON.stringify(c.keyPoints));
  for (let seed = 10000; seed < 10040; seed++) {
    const w = await tour(seed, 1);
    if (!w) continue;
    const wc = w.inst.family.check(w.inst.ctx);
    assert.equal(wc.success, false);
    assert.equal(wc.keyPoints.find((k) => k.name.startsWith('home '))!.met, false);
    return;
  }
  assert.fail('no seed with two matching homes');
});

test('realestate: the tour form validates date, time and contact details', async () => {
  const { inst, s, b } = open(10001, 2);
  const w = s.variant.words;
  await b.goto(inst.spec.startUrl);
  await b.fill('textbox', w.tourDate, s.today);
  await b.fill('textbox', w.yourName, '<u>Bob</u>');
  await b.fill('textbox', w.email, 'bob');
  await b.fill('textbox', w.phone, '12');
  await b.click('button', w.requestTour);
  const t = b.text();
  for (const re of [/Tours can be booked from tomorrow on/, /Choose a tour time/, /Your name may contain only letters/, /Enter a valid email address/, /Enter a 10-digit phone number/]) assert.match(t, re);
  assert.ok(b.html.includes('&lt;u&gt;Bob&lt;/u&gt;'));
  assert.equal(b.observe().elements.find((e) => e.name === w.email)!.invalid, true);
  assert.equal(s.tours.length, 0);
});

test('realestate: saving a home is a side effect the oracle undoes; filters narrow the list', async () => {
  const { inst, s, b } = open(10002, 1);
  await b.goto(`${inst.ctx.baseUrl}/home/${s.homes[5].id}`);
  await b.click('button', s.variant.words.saveHome);
  assert.deepEqual(s.saved, [s.homes[5].id]);
  assert.ok(b.has('button', s.variant.words.unsaveHome));
  const oracle = inst.family.oracle(inst.ctx);
  oracle.reset(inst.spec);
  for (let i = 0; i < 20; i++) if ((await b.step((await oracle.act(b.observe(), [])).action)).done) break;
  assert.deepEqual(s.saved, []);
  assert.ok(inst.family.check(inst.ctx).success);
  await b.goto(`${inst.ctx.baseUrl}/homes?type=Condo&beds=2&sort=price_desc`);
  const want = s.homes.filter((h) => h.type === 'Condo' && h.beds >= 2).sort((a, c) => c.price - a.price).slice(0, 9).map((h) => `${h.address}, ${h.city}`);
  assert.deepEqual(homeLinks(s, b), want);
});

test('realestate: the oracle solves 60 train and 60 test seeds of every tier over real HTTP', async (t) => {
  for (const tier of [1, 2, 3] as const) {
    const steps: number[] = [];
    for (const seed of [...Array.from({ length: 60 }, (_, i) => i * 13), ...Array.from({ length: 60 }, (_, i) => 10000 + i)]) {
      const r = await runAgent(server, 'realestate', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${r.instance.spec.instruction}\n${JSON.stringify(c.keyPoints.filter((k) => !k.met))}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
      steps.push(r.steps);
      server.releaseInstance(r.instance.ctx.id);
    }
    t.diagnostic(`tier ${tier}: mean oracle steps ${mean(steps)} (min ${Math.min(...steps)}, max ${Math.max(...steps)}) over ${steps.length} seeds`);
  }
});

test('realestate: instances differ in wording, order, distractors and layout; one seed renders the same twice', async () => {
  const variants = Array.from({ length: 40 }, (_, i) => drawVariant(10000 + i));
  for (const knob of ['navPlacement', 'listView', 'filtersPlacement', 'factsView', 'tourFirst', 'accent'] as const) {
    assert.ok(new Set(variants.map((v) => v[knob])).size >= 2, `${knob} never varies`);
  }
  for (const key of ['requestTour', 'applyFilters', 'searchButton', 'saveHome'] as const) {
    assert.equal(new Set(variants.map((v) => v.words[key])).size, WORDING[key].length, `every synonym of "${WORDING[key][0]}" is drawn`);
  }
  assert.ok(new Set(variants.map((v) => v.nav.join())).size >= 20, 'navigation orders vary');
  assert.ok(new Set(variants.map((v) => v.sections.join())).size >= 10, 'home-page section orders vary');
  assert.ok(new Set(variants.map((v) => v.filters.join())).size >= 12, 'filter orders vary');
  assert.ok(new Set(variants.map((v) => v.facts.join())).size >= 30, 'fact orders vary');
  assert.ok(new Set(variants.map((v) => v.tourFields.join())).size >= 3, 'tour form field orders vary');
  // A name means one thing on a page: no synonym is shared by two labels of the same page.
  const chrome = ['navHomes', 'navSaved', 'navTours', 'searchBox', 'searchButton'] as const;
  const pages: Array<ReadonlyArray<keyof typeof WORDING>> = [
    ['heroHeading', 'citiesHeading', 'cityLink'],
    ['filterType', 'filterBeds', 'filterMaxPrice', 'filterSort', 'applyFilters', 'nextPage', 'prevPage'],
    ['moreIn', 'saveHome', 'unsaveHome', 'factsHeading', 'factType', 'factBeds', 'factBaths', 'factSqft', 'factYear', 'factHoa', 'factNeighborhood', 'factAgent', 'tourHeading', 'tourDate', 'tourTime', 'yourName', 'email', 'phone', 'requestTour'],
    ['tourDone', 'keepLooking'],
  ];
  for (const keys of pages) {
    const names = [...chrome, ...keys].flatMap((k) => WORDING[k].map((x) => x.toLowerCase()));
    assert.equal(new Set(names).size, names.length, `a synonym is shared on the page of ${keys[0]}`);
  }
  // Three core links and two core sections; one to three distractors among the rest.
  assert.ok(variants.every((v) => v.nav.length + v.sections.length >= 6 && v.nav.length + v.sections.length <= 8), 'one to three distractors each');
  assert.ok(new Set(variants.map((v) => v.nav.length + v.sections.length)).size === 3, 'one, two and three distractors all occur');

  // Two seeds, the same pages: different navigation names or order, different labels on the tour form.
  const pagesOf = async (seed: number) => {
    const { inst, s, b } = open(seed, 2);
    await b.goto(`${inst.ctx.baseUrl}/`);
    const names = s.variant.nav.map((k) => navLabel(s.variant.words, k, 0));
    const nav = b.observe().elements.filter((e) => e.role === 'link' && names.includes(e.name)).map((e) => e.name);
    await b.goto(inst.spec.startUrl);
    const form = b.observe().elements.filter((e) => ['combobox', 'textbox', 'button'].includes(e.role)).map((e) => e.name);
    return { nav, form };
  };
  const a = await pagesOf(10000);
  const c = await pagesOf(10001);
  assert.notDeepEqual(a.nav, c.nav);
  assert.notDeepEqual(a.form, c.form);

  // The same seed twice: byte for byte the same pages, but for the instance's own prefix.
  const render = async (seed: number) => {
    const { inst, s, b } = open(seed, 3);
    return b.instancePages(inst.ctx.baseUrl, ['/', '/homes', `/homes?q=${encodeURIComponent(s.homes[0].city)}&sort=price_asc&page=2`, `/home/${s.homes[0].id}`, '/saved', '/tours', '/sell', '/mortgage']);
  };
  assert.deepEqual(await render(10007), await render(10007));
});

test('realestate: the distractors lead to plain pages and change nothing', async () => {
  for (let seed = 10000; seed < 10010; seed++) {
    const { inst, s, b } = open(seed, 3);
    const before = JSON.stringify({ saved: s.saved, tours: s.tours, goal: s.goal });
    await b.goto(`${inst.ctx.baseUrl}/`);
    const core = new Set(['homes', 'saved', 'tours']);
    const extra = s.variant.nav.filter((k) => !core.has(k)).map((k) => navLabel(s.variant.words, k, 0));
    const promos = b.observe().elements.filter((e) => e.role === 'link' && /^(Compare mortgage rates|Get a free valuation|Read the moving guides)$/.test(e.name)).map((e) => e.name);
    assert.equal(extra.length + promos.length, s.variant.nav.length + s.variant.sections.length - 5, `seed ${seed}: every distractor shows`);
    for (const name of [...extra, ...promos]) {
      await b.goto(`${inst.ctx.baseUrl}/`);
      await b.click('link', name);
      assert.equal(b.status, 200, name);
      assert.deepEqual(homeLinks(s, b), [], `${name} lists no home`);
    }
    assert.equal(JSON.stringify({ saved: s.saved, tours: s.tours, goal: s.goal }), before);
  }
});
