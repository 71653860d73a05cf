import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import type { WikiGoal, WikiState } from '../../main/tasks/families/wiki/data.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

function open(seed: number, tier: 1 | 2 | 3, kind?: WikiGoal['kind']): { inst: TaskInstance; s: WikiState; b: MiniBrowser } {
  for (let sd = seed; sd < seed + 100; sd++) {
    const inst = server.createInstance('wiki', sd, { tier });
    const s = inst.ctx.state as WikiState;
    if (!kind || s.goal.kind === kind) return { inst, s, b: new MiniBrowser(inst.ctx.agentMessages) };
    server.releaseInstance(inst.ctx.id);
  }
  throw new Error(`no ${kind} task`);
}

test('wiki: an exact title jumps to the article; other words list matching articles', async () => {
  const { inst, s, b } = open(10000, 1);
  const c = s.cities[2];
  await b.goto(inst.spec.startUrl);
  await b.fill('searchbox', 'Search the wiki', c.name.toLowerCase());
  await b.press('searchbox', 'Search the wiki', 'Enter');
  assert.match(b.url, new RegExp(`/wiki/${c.slug}$`));
  assert.ok(b.has('heading', c.name));
  assert.ok(b.text().includes(c.population.toLocaleString('en-US')), 'the infobox shows the population');
  assert.ok(b.has('link', 'Climate'), 'the contents link to the sections');
  await b.fill('searchbox', 'Search the wiki', c.mayor);
  await b.press('searchbox', 'Search the wiki', 'Enter');
  assert.ok(b.has('link', c.name), 'a search for the mayor finds the city');
  await b.goto(`${inst.ctx.baseUrl}/wiki/Nowhere_Land`);
  assert.equal(b.status, 404);
  assert.match(b.text(), /does not have an article titled "Nowhere Land"/);
  await b.goto(`${inst.ctx.baseUrl}/search?q=${encodeURIComponent('<b>x</b>')}`);
  assert.ok(b.html.includes('&lt;b&gt;x&lt;/b&gt;'));
});

test('wiki: a tier-2 question over two countries\' capitals, answered after visiting all four articles', async () => {
  const { inst, s, b } = open(10001, 2, 'hop');
  const g = s.goal;
  assert.equal(g.path.length, 4);
  await b.goto(inst.spec.startUrl);
  for (const [k, name] of g.path.entries()) {
    if (k % 2 === 1) await b.click('link', name);
    else {
      await b.fill('searchbox', 'Search the wiki', name);
      await b.press('searchbox', 'Search the wiki', 'Enter');
    }
  }
  assert.match(b.url, new RegExp(`/wiki/${encodeURIComponent(g.path[3].replace(/ /g, '_'))}$`));
  await b.step(`send_msg_to_user('It is ${g.answer}.')`);
  assert.ok(inst.family.check(inst.ctx).success);
});

test('wiki: tier 3 needs every city of the country, then the winner\'s twin town; the winner\'s own mayor fails', async () => {
  const { inst, s, b } = open(10002, 3);
  const g = s.goal;
  const country = s.countries.find((c) => c.name === g.path[0])!;
  assert.deepEqual(g.path.slice(1, 1 + country.cities.length), country.cities);
  const best = s.cities.find((c) => c.name === g.path[1 + country.cities.length])!;
  assert.ok(best.sister, 'seed 10002 asks for the twin town');
  assert.equal(g.path.at(-1), best.sister);
  await b.goto(inst.spec.startUrl);
  await b.fill('searchbox', 'Search the wiki', country.name);
  await b.press('searchbox', 'Search the wiki', 'Enter');
  for (const name of country.cities) assert.ok(b.has('link', name), `the country lists ${name}`);
  await b.click('link', best.name);
  assert.ok(b.has('link', best.sister), 'the winner links its twin town');
  assert.notEqual(best.mayor, g.answer);
  await b.step(`send_msg_to_user('${best.mayor}')`);
  const c = inst.family.check(inst.ctx);
  assert.equal(c.success, false);
  assert.deepEqual(c.keyPoints.map((k) => k.met), [true, false]);
  const ok = open(10002, 3);
  await ok.b.step(`send_msg_to_user('I think it is ${g.answer.toUpperCase()}.')`);
  assert.ok(ok.inst.family.check(ok.inst.ctx).success, 'case and surrounding words do not matter');
});

test('wiki: numbers match across formats', async () => {
  for (let seed = 10003; seed < 10100; seed++) {
    const { inst, s } = open(seed, 1);
    if (!s.goal.label.startsWith('population')) {
      server.releaseInstance(inst.ctx.id);
      continue;
    }
    inst.ctx.agentMessages.push(`About ${s.goal.answer.replace(/,/g, '')} people`);
    assert.ok(inst.family.check(inst.ctx).success);
    return;
  }
  assert.fail('no population question');
});

test('wiki: the oracle solves every tier over real HTTP', async () => {
  for (const tier of [1, 2, 3] as const) {
    for (const seed of [10010, 10011, 10012, 10013, 10014]) {
      const r = await runAgent(server, 'wiki', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints)}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
    }
  }
});
