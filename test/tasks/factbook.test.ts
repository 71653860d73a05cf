/** The factbook drill family: records reached by link (tier 1) or search, facts in four layouts, the newsletter dialog as a side effect. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import { FACT_LAYOUTS, generateFactbookTask, type FactbookState } from '../../main/tasks/families/factbook/data.ts';
import { drillFamilies, heldOutFamilies, trainingFamilies } from '../../main/tasks/registry.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

/** The first test seed from `seed` on whose instance `want` holds. */
function open(seed: number, tier: 1 | 2 | 3, want: (s: FactbookState) => boolean = () => true): { inst: TaskInstance; s: FactbookState; b: MiniBrowser } {
  for (let sd = seed; sd < seed + 200; sd++) {
    const inst = server.createInstance('factbook', sd, { tier });
    const s = inst.ctx.state as FactbookState;
    if (want(s)) return { inst, s, b: new MiniBrowser(inst.ctx.agentMessages) };
    server.releaseInstance(inst.ctx.id);
  }
  throw new Error('no such instance');
}

test('factbook: a drill, kept out of the thirteen training families and the held-out pair', () => {
  assert.deepEqual(drillFamilies().map((f) => f.name), ['factbook', 'directory']);
  assert.ok(!trainingFamilies().some((f) => f.name === 'factbook'));
  assert.ok(!heldOutFamilies().some((f) => f.name === 'factbook'));
  assert.equal(trainingFamilies().length, 13);
});

test('factbook: generation is deterministic per seed and tier, and never asks a held-out family\'s attribute', () => {
  assert.deepEqual(generateFactbookTask(42, 1), generateFactbookTask(42, 1));
  assert.notDeepEqual(generateFactbookTask(42, 1).instruction, generateFactbookTask(43, 1).instruction);
  const heldOutWords = /population|mayor|found|river|elevation|capital|language|currency|area|phone|dish|menu/i;
  const layouts = new Set<string>();
  // What follows the asked record's name varies (where a name ends is learned from the name, not its place).
  const after = new Set<string>();
  for (let seed = 0; seed < 300; seed++) {
    const { state, instruction } = generateFactbookTask(seed, 1);
    layouts.add(state.layout);
    if (state.goal.kind === 'fact') after.add(instruction.slice(instruction.indexOf(state.goal.record) + state.goal.record.length)[0]);
    assert.doesNotMatch(instruction, heldOutWords, `seed ${seed}`);
    for (const r of state.records) for (const f of r.facts) assert.doesNotMatch(f.label, heldOutWords, `seed ${seed}: ${f.label}`);
  }
  assert.deepEqual([...layouts].sort(), [...FACT_LAYOUTS].sort(), 'every layout occurs');
  for (const c of ['?', ',', ':', ' ', '.']) assert.ok(after.has(c), `a name followed by "${c}"`);
});

test('factbook: tier 1 links every record from home; the record page shows the asked value; the answer passes', async () => {
  for (const layout of FACT_LAYOUTS) {
    const { inst, s, b } = open(10000, 1, (x) => x.layout === layout && !x.notice && x.goal.kind === 'fact');
    const g = s.goal as Extract<FactbookState['goal'], { kind: 'fact' }>;
    await b.goto(inst.spec.startUrl);
    for (const r of s.records) assert.ok(b.has('link', r.name), `${layout}: home links ${r.name}`);
    await b.click('link', g.record);
    assert.ok(b.has('heading', g.record));
    assert.ok(b.text().includes(g.label), `${layout}: the label is on the page`);
    assert.ok(b.text().includes(g.answer), `${layout}: the value is on the page`);
    await b.step(`send_msg_to_user('${g.answer}')`);
    assert.ok(inst.family.check(inst.ctx).success, layout);
    server.releaseInstance(inst.ctx.id);
  }
});

test('factbook: tier 2 reaches a record by search only (an exact name jumps to it); a wrong value fails', async () => {
  const { inst, s, b } = open(10000, 2, (x) => !x.notice && x.goal.kind === 'fact');
  const g = s.goal as Extract<FactbookState['goal'], { kind: 'fact' }>;
  await b.goto(inst.spec.startUrl);
  assert.ok(!b.has('link', g.record), 'tier 2 does not link the asked record from home');
  assert.ok(s.featured.length > 0 && s.featured.every((n) => b.has('link', n)), 'it features other records');
  await b.fill('searchbox', `Search ${s.kind}`, g.record.toLowerCase());
  await b.press('searchbox', `Search ${s.kind}`, 'Enter');
  assert.ok(b.has('heading', g.record));
  await b.step(`send_msg_to_user('it is not there')`);
  const c = inst.family.check(inst.ctx);
  assert.equal(c.success, false);
  assert.deepEqual(c.keyPoints.map((k) => k.met), [true, false]);
  await b.goto(`${inst.ctx.baseUrl}/search?q=${encodeURIComponent('<b>x</b>')}`);
  assert.ok(b.html.includes('&lt;b&gt;x&lt;/b&gt;'));
});

test('factbook: home links every region and says nothing of searching; a region page lists its records; sections are linked from a contents list on the record page', async () => {
  const { inst, s, b } = open(10000, 2, (x) => !x.notice && x.goal.kind === 'fact' && !!x.records[0].sections);
  const g = s.goal as Extract<FactbookState['goal'], { kind: 'fact' }>;
  await b.goto(inst.spec.startUrl);
  for (const region of s.regions) assert.ok(b.has('link', region), `home links ${region}`);
  assert.doesNotMatch(b.text(), /search box|by name/i, 'no hint to search');
  const asked = s.records.find((r) => r.name === g.record)!;
  await b.click('link', asked.region);
  assert.ok(b.has('heading', asked.region));
  for (const r of s.records) assert.equal(b.has('link', r.name), r.region === asked.region, `${r.name} listed in its own region only`);
  await b.click('link', g.record);
  assert.ok(b.has('heading', g.record) && b.text().includes(g.answer));
  for (const section of asked.sections!) {
    assert.ok(b.has('link', section.title), `contents link ${section.title}`);
    assert.ok(b.has('heading', section.title), `section ${section.title}`);
  }
  server.releaseInstance(inst.ctx.id);
  // Regions and sections come from their own stream: half the sites have sections, and every record a region.
  const sites = Array.from({ length: 200 }, (_, seed) => generateFactbookTask(seed, 1).state);
  const withSections = sites.filter((x) => x.records.every((r) => r.sections && r.sections.length >= 3)).length;
  assert.ok(withSections > 60 && withSections < 140, `${withSections} of 200 sites have sections`);
  assert.ok(sites.every((x) => x.regions.length >= 3 && x.records.every((r) => x.regions.includes(r.region))));
});

test('factbook: signing up in the newsletter dialog is a side effect that fails the task; closing it does not', async () => {
  for (const choice of ['join', 'close'] as const) {
    const { inst, s, b } = open(10000, 1, (x) => !!x.notice);
    await b.goto(inst.spec.startUrl);
    assert.ok(b.has('dialog', s.notice!.title) || b.has('heading', s.notice!.title), 'the dialog is shown');
    await b.click('button', choice === 'join' ? s.notice!.join : s.notice!.close);
    assert.ok(!b.has('button', s.notice!.close), 'the dialog is gone');
    await b.step(`send_msg_to_user('${s.goal.answer}')`);
    assert.equal(inst.family.check(inst.ctx).success, choice === 'close', choice);
    server.releaseInstance(inst.ctx.id);
  }
});

test('factbook: the oracle solves every tier over HTTP, comparisons included', async () => {
  for (const tier of [1, 2, 3] as const) {
    for (let seed = 10000; seed < 10030; seed++) {
      const r = await runAgent(server, 'factbook', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints)}\n${r.actions.join('\n')}`);
      server.releaseInstance(r.instance.ctx.id);
    }
  }
});
