import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import { totalAt, type CompareGoal, type CompareState } from '../../main/tasks/families/compare/data.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

type Buy = Extract<CompareGoal, { kind: 'buy' }>;

function open(seed: number, tier: 1 | 2 | 3): { inst: TaskInstance; s: CompareState; b: MiniBrowser } {
  const inst = server.createInstance('compare', seed, { tier });
  return { inst, s: inst.ctx.state as CompareState, b: new MiniBrowser(inst.ctx.agentMessages) };
}

async function buyAt(seed: number, key: 'a' | 'b') {
  const { inst, s, b } = open(seed, 3);
  const g = s.goal as Buy;
  const st = s.stores.find((x) => x.key === key)!;
  const it = st.items.find((x) => x.id === g.item)!;
  await b.goto(inst.spec.startUrl);
  await b.click('link', st.name);
  await b.fill('searchbox', `Search ${st.name}`, it.name.split(' ')[0]);
  await b.press('searchbox', `Search ${st.name}`, 'Enter');
  await b.click('link', it.name);
  if (!b.has('link', 'Buy now')) return null;
  await b.click('link', 'Buy now');
  await b.fill('spinbutton', 'Quantity', String(g.qty));
  await b.fill('textbox', 'Full name', g.name);
  await b.fill('textbox', 'Street address', g.street);
  await b.fill('textbox', 'City', g.city);
  await b.fill('textbox', 'ZIP code', g.zip);
  await b.click('button', 'Place order');
  return { inst, s, b, g };
}

test('compare: buying at the cheaper store succeeds; the dearer store fails on the store key point', async () => {
  const ok = (await buyAt(10000, (open(10000, 3).s.goal as Buy).store))!;
  assert.match(ok.b.url, /\/order\/[AB]-\d{6}$/);
  assert.ok(ok.inst.family.check(ok.inst.ctx).success, JSON.stringify(ok.inst.family.check(ok.inst.ctx).keyPoints));
  for (let seed = 10000; seed < 10050; seed++) {
    const g = open(seed, 3).s.goal as Buy;
    const w = await buyAt(seed, g.store === 'a' ? 'b' : 'a');
    if (!w) continue;
    const c = w.inst.family.check(w.inst.ctx);
    assert.equal(c.success, false);
    assert.equal(c.keyPoints.find((k) => k.name.startsWith('bought at'))!.met, false);
    assert.equal(c.keyPoints.find((k) => k.name === 'address')!.met, true);
    return;
  }
  assert.fail('no seed where the dearer store has the product');
});

test('compare: the cheaper store counts shipping, and the answer is the store named first', async () => {
  const { inst, s } = open(10001, 2);
  const g = s.goal as Extract<CompareGoal, { kind: 'cheaper' }>;
  const [ta, tb] = s.stores.map((st) => totalAt(st, g.item, 1));
  assert.equal(g.answer, (ta ?? Infinity) < (tb ?? Infinity) ? s.stores[0].name : s.stores[1].name);
  const other = s.stores.find((st) => st.name !== g.answer)!.name;
  inst.ctx.agentMessages.push(`${other} is cheaper than ${g.answer}`);
  assert.equal(inst.family.check(inst.ctx).success, false);
  inst.ctx.agentMessages.push(`${g.answer} is cheaper than ${other}`);
  assert.ok(inst.family.check(inst.ctx).success);
});

test('compare: checkout validates its fields; out-of-stock products cannot be bought', async () => {
  const { inst, s, b } = open(10002, 3);
  const st = s.stores[0];
  const it = st.items.find((x) => x.inStock)!;
  await b.goto(`${inst.ctx.baseUrl}/s/a/checkout/${it.id}`);
  await b.fill('spinbutton', 'Quantity', '0');
  await b.fill('textbox', 'Full name', '<i>x</i>');
  await b.fill('textbox', 'ZIP code', '12');
  await b.click('button', 'Place order');
  for (const re of [/Quantity must be from 1 to 10/, /only letters/, /Enter a street address/, /Enter a city/, /5-digit ZIP/]) assert.match(b.text(), re);
  assert.ok(b.html.includes('&lt;i&gt;x&lt;/i&gt;'));
  const out = s.stores.flatMap((x) => x.items.filter((i) => !i.inStock).map((i) => ({ key: x.key, i })))[0];
  if (out) {
    await b.goto(`${inst.ctx.baseUrl}/s/${out.key}/p/${out.i.id}`);
    assert.ok(!b.has('link', 'Buy now'));
    await b.goto(`${inst.ctx.baseUrl}/s/${out.key}/checkout/${out.i.id}`);
    assert.ok(!b.has('button', 'Place order'));
  }
  assert.equal(s.orders.length, 0);
});

test('compare: the oracle solves every tier over real HTTP', async () => {
  for (const tier of [1, 2, 3] as const) {
    for (const seed of [10010, 10011, 10012, 10013, 10014]) {
      const r = await runAgent(server, 'compare', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints)}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
    }
  }
});
