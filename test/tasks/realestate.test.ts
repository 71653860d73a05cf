import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import { timeLabel, type HomeGoal, type RealEstateState } from '../../main/tasks/families/realestate/data.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

type Tour = Extract<HomeGoal, { kind: 'tour' }>;

function open(seed: number, tier: 1 | 2 | 3): { inst: TaskInstance; s: RealEstateState; b: MiniBrowser } {
  const inst = server.createInstance('realestate', seed, { tier });
  return { inst, s: inst.ctx.state as RealEstateState, b: new MiniBrowser(inst.ctx.agentMessages) };
}

/** Search the city, filter and sort by price, and request a tour of the `pick`-th result by hand. */
async function tour(seed: number, pick = 0) {
  const { inst, s, b } = open(seed, 3);
  const g = s.goal as Tour;
  await b.goto(inst.spec.startUrl);
  await b.fill('searchbox', 'City, neighborhood or address', g.city!);
  await b.press('searchbox', 'City, neighborhood or address', 'Enter');
  await b.select('Home type', g.type!);
  await b.select('Bedrooms', `${g.beds}+`);
  await b.select('Sort by', 'Price (low to high)');
  await b.click('button', 'Apply filters');
  const links = b.observe().elements.filter((e) => e.role === 'link' && s.homes.some((h) => `${h.address}, ${h.city}` === e.name));
  if (pick >= links.length) return null;
  await b.click('link', links[pick].name);
  await b.fill('textbox', 'Tour date', g.date);
  await b.select('Tour time', timeLabel(g.time));
  await b.fill('textbox', 'Your name', g.name);
  await b.fill('textbox', 'Email', g.email);
  await b.fill('textbox', 'Phone', g.phone);
  await b.click('button', 'Request tour');
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
  await b.goto(inst.spec.startUrl);
  await b.fill('textbox', 'Tour date', s.today);
  await b.fill('textbox', 'Your name', '<u>Bob</u>');
  await b.fill('textbox', 'Email', 'bob');
  await b.fill('textbox', 'Phone', '12');
  await b.click('button', 'Request tour');
  const t = b.text();
  for (const re of [/Tours can be booked from tomorrow on/, /Choose a tour time/, /Your name may contain only letters/, /Enter a valid email address/, /Enter a 10-digit phone number/]) assert.match(t, re);
  assert.ok(b.html.includes('&lt;u&gt;Bob&lt;/u&gt;'));
  assert.equal(s.tours.length, 0);
});

test('realestate: saving a home is a side effect the oracle undoes; filters narrow the list', async () => {
  const { inst, s, b } = open(10002, 1);
  await b.goto(`${inst.ctx.baseUrl}/home/${s.homes[5].id}`);
  await b.click('button', 'Save home');
  assert.deepEqual(s.saved, [s.homes[5].id]);
  const oracle = inst.family.oracle(inst.ctx);
  oracle.reset(inst.spec);
  for (let i = 0; i < 20; i++) if ((await b.step((await oracle.act(b.observe(), [])).action)).done) break;
  assert.deepEqual(s.saved, []);
  assert.ok(inst.family.check(inst.ctx).success);
  await b.goto(`${inst.ctx.baseUrl}/homes?type=Condo&beds=2&sort=price_desc`);
  const shown = b.observe().elements.filter((e) => e.role === 'link' && s.homes.some((h) => `${h.address}, ${h.city}` === e.name)).map((e) => e.name);
  const want = s.homes.filter((h) => h.type === 'Condo' && h.beds >= 2).sort((a, c) => c.price - a.price).slice(0, 9).map((h) => `${h.address}, ${h.city}`);
  assert.deepEqual(shown, want);
});

test('realestate: the oracle solves every tier over real HTTP', async () => {
  for (const tier of [1, 2, 3] as const) {
    for (const seed of [10010, 10011, 10012, 10013, 10014]) {
      const r = await runAgent(server, 'realestate', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints)}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
    }
  }
});
