/**
 * The docs family: an invented library's documentation (contents, search with filters, version
 * selector, parameter lists, changelog, feedback and issue forms) whose labels, orders, layouts and
 * look-alike pages vary per seed. The oracle over HTTP on train and test seeds of every tier, near
 * misses, variation and determinism, form validation, a random agent, and the oracle in Chromium.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { TaskServer, type TaskInstance } from '../../main/tasks/server.ts';
import type { Tier } from '../../main/tasks/types.ts';
import { docsFamily } from '../../main/tasks/families/docs/index.ts';
import { generateDocsTask } from '../../main/tasks/families/docs/goals.ts';
import { paramsIn } from '../../main/tasks/families/docs/library.ts';
import { literalAnswer } from '../../main/tasks/families/docs/render.ts';
import { apiKey, pagePath, pageTitle, reportablePages } from '../../main/tasks/families/docs/site-map.ts';
import { runSearch, RESULT_CAP } from '../../main/tasks/families/docs/pages-search.ts';
import type { DocsGoal, DocsState } from '../../main/tasks/families/docs/state.ts';
import { randomAgent } from '../../main/agents/random.ts';
import { parseAction } from '../../main/environment/actions.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';
import { oracleInChromium } from './helpers/env-run.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

type Goal<K extends DocsGoal['kind']> = Extract<DocsGoal, { kind: K }>;

/** The first seed from `seed` whose instance at `tier` satisfies `want`. */
function open(seed: number, tier: Tier, want: (s: DocsState) => boolean = () => true): { inst: TaskInstance; s: DocsState; b: MiniBrowser } {
  for (let sd = seed; sd < seed + 400; sd++) {
    const inst = server.createInstance('docs', sd, { tier });
    const s = inst.ctx.state as DocsState;
    if (want(s)) return { inst, s, b: new MiniBrowser(inst.ctx.agentMessages) };
    server.releaseInstance(inst.ctx.id);
  }
  throw new Error('no such instance');
}

const check = (inst: TaskInstance) => inst.family.check(inst.ctx);
const unmet = (inst: TaskInstance) => check(inst).keyPoints.filter((k) => !k.met).map((k) => k.name);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** A page's HTML with its instance prefix taken out, to compare two instances of one seed. */
const portable = (b: MiniBrowser, inst: TaskInstance) => b.html.split(`/i/${inst.ctx.id}`).join('/i/X');

test('docs: the oracle solves 60 train and 60 test seeds of every tier over HTTP', async (t) => {
  const kinds: Record<number, Set<string>> = { 1: new Set(), 2: new Set(), 3: new Set() };
  const layouts = new Set<string>();
  const summary: string[] = [];
  for (const tier of [1, 2, 3] as const) {
    const steps: number[] = [];
    for (const seed of [...Array.from({ length: 60 }, (_, i) => i), ...Array.from({ length: 60 }, (_, i) => 10000 + i)]) {
      const r = await runAgent(server, 'docs', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = check(r.instance);
      const s = r.instance.ctx.state as DocsState;
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${r.instance.spec.instruction}\n${JSON.stringify(c.keyPoints.filter((k) => !k.met))}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, [], `seed ${seed} tier ${tier}`);
      kinds[tier].add(s.goal.kind);
      layouts.add(`${s.look.frame}/${s.look.params}`);
      steps.push(r.steps);
      server.releaseInstance(r.instance.ctx.id);
    }
    summary.push(`tier ${tier}: ${mean(steps).toFixed(2)} (${Math.min(...steps)}-${Math.max(...steps)})`);
  }
  t.diagnostic(`mean oracle steps over HTTP, 120 seeds each: ${summary.join(', ')}`);
  assert.deepEqual([...kinds[1]].sort(), ['fact', 'helpful']);
  assert.deepEqual([...kinds[2]].sort(), ['fact', 'guide-search', 'report']);
  assert.deepEqual([...kinds[3]], ['compare-report']);
  assert.equal(layouts.size, 9, `every contents position with every parameter layout: ${[...layouts].join(' ')}`);
});

test('docs: generation is deterministic, tiers come from the seed, and the goal kind agrees with the instruction', () => {
  const asksForMessage = /\btell me\b[^.?]*\bin a message\b/i;
  for (const seed of [0, 1, 77, 9999, 10000, 10999]) {
    assert.equal(JSON.stringify(docsFamily.generate(seed)), JSON.stringify(docsFamily.generate(seed)));
    for (const tier of [1, 2, 3] as const) assert.equal(JSON.stringify(docsFamily.generate(seed, tier)), JSON.stringify(docsFamily.generate(seed, tier)));
  }
  assert.deepEqual([...new Set(Array.from({ length: 60 }, (_, seed) => docsFamily.generate(seed).tier))].sort(), [1, 2, 3]);
  for (let seed = 10000; seed < 10090; seed++) {
    const g = docsFamily.generate(seed);
    assert.equal(asksForMessage.test(g.instruction), g.goalKind === 'answer', `seed ${seed}: ${g.instruction}`);
    assert.ok(g.startPath.startsWith('/v'));
    if (g.goalKind === 'state') {
      const ctx = (messages: string[]) => ({ id: 'x', family: 'docs', seed, tier: g.tier, baseUrl: 'http://127.0.0.1/i/x', state: structuredClone(g.state), agentMessages: messages });
      assert.deepEqual(docsFamily.check(ctx(['Done. 42, 10, v1.x, True'])), docsFamily.check(ctx([])), `a message cannot meet a state goal (seed ${seed})`);
    }
  }
  const { train, test: held } = docsFamily.seeds;
  assert.ok(train.from < train.to && held.from < held.to && train.to <= held.from);
});

test('docs: variation is real: labels, orders, layouts, wordings and look-alikes differ across seeds', () => {
  const seen: Record<string, Set<string>> = {};
  const add = (k: string, v: unknown) => (seen[k] ??= new Set()).add(JSON.stringify(v));
  let decoyCounts = 0;
  for (let seed = 0; seed < 300; seed++) {
    const { state: s, instruction } = generateDocsTask(seed, ((seed % 3) + 1) as Tier);
    for (const k of ['searchButton', 'searchBox', 'parameters', 'default', 'versionSelect', 'helpfulQuestion', 'reportLink', 'changelog', 'guides', 'submitIssue', 'sectionFilter'] as const) add(k, s.ui[k]);
    for (const k of ['frame', 'params', 'columns', 'apiSections', 'tocGroups', 'homeSections', 'feedbackFirst', 'versionFirst'] as const) add(k, s.look[k]);
    add('style', s.lib.style);
    // The instruction's opening words, with the names taken out: how the question is worded.
    add(`wording:${s.goal.kind}`, instruction.replace(/`/g, '').split(/\s+/).slice(0, 3).join(' '));
    assert.ok(s.decoys.length >= 1 && s.decoys.length <= 3, `seed ${seed}: ${s.decoys.length} distractors`);
    decoyCounts += s.decoys.length;
  }
  for (const [k, values] of Object.entries(seen)) assert.ok(values.size >= 2, `${k} varies (${[...values].join(' | ')})`);
  assert.equal(seen.frame.size, 3);
  assert.equal(seen.params.size, 3);
  for (const k of ['wording:fact', 'wording:report', 'wording:compare-report', 'wording:guide-search']) assert.ok(seen[k].size >= 3, `${k} is worded several ways`);
  assert.ok(decoyCounts / 300 > 1.3, 'often more than one distractor');
});

test('docs: one seed renders identically twice; two seeds differ in wording and order', async () => {
  const pages = (s: DocsState) => ['/v' + s.lib.latest + '/', pagePath(s, 'changelog', 1), pagePath(s, apiKey(s.lib.functions[0].id), s.lib.latest), '/search?q=' + encodeURIComponent(s.lib.functions[0].id), '/report?page=changelog'];
  const render = async (seed: number) => {
    const inst = server.createInstance('docs', seed, { tier: 2 });
    const s = inst.ctx.state as DocsState;
    const b = new MiniBrowser(inst.ctx.agentMessages);
    const out: string[] = [];
    for (const p of pages(s)) {
      await b.goto(inst.ctx.baseUrl + p);
      assert.equal(b.status, 200, p);
      out.push(portable(b, inst));
    }
    server.releaseInstance(inst.ctx.id);
    return { out, s };
  };
  const a1 = await render(10007);
  const a2 = await render(10007);
  assert.deepEqual(a1.out, a2.out, 'the same seed renders the same pages');
  const b = await render(10008);
  assert.notDeepEqual(a1.out[0], b.out[0]);
  const differing = (['searchButton', 'parameters', 'default', 'helpfulQuestion', 'reportLink', 'changelog'] as const).filter((k) => a1.s.ui[k] !== b.s.ui[k]);
  assert.ok(differing.length >= 2, `labels differ between the two sites: ${differing.join(', ')}`);
  assert.ok(JSON.stringify(a1.s.look) !== JSON.stringify(b.s.look), 'orders and layouts differ');
});

test('docs: a page shows the values the task asks for, in the site\'s own labels', async () => {
  for (const layout of ['table', 'dl', 'list'] as const) {
    const { inst, s, b } = open(10020, 1, (x) => x.look.params === layout && x.goal.kind === 'fact' && x.goal.ask === 'default');
    const g = s.goal as Goal<'fact'>;
    await b.goto(inst.ctx.baseUrl + pagePath(s, apiKey(g.fn), g.version));
    assert.ok(b.has('heading', g.fn));
    assert.ok(b.has('heading', s.ui.parameters), `${layout}: the parameters heading reads "${s.ui.parameters}"`);
    assert.ok(b.text().includes(s.ui.default), `${layout}: the default label reads "${s.ui.default}"`);
    assert.ok(b.text().includes(g.answer), `${layout}: the default ${g.answer} is on the page`);
    assert.ok(b.has('button', s.ui.yes) && b.has('link', s.ui.reportLink) && b.has('combobox', s.ui.versionSelect));
    await b.step(`send_msg_to_user(${JSON.stringify(`It defaults to ${g.answer}.`)})`);
    assert.ok(check(inst).success, layout);
    server.releaseInstance(inst.ctx.id);
  }
});

test('docs: near misses fail: the latest default when an older version was asked, the wrong version\'s guide', async () => {
  const { inst, s, b } = open(10000, 2, (x) => x.goal.kind === 'fact');
  const g = s.goal as Goal<'fact'>;
  assert.ok(g.version < s.lib.latest && g.wrong && g.wrong !== g.answer);
  await b.goto(inst.spec.startUrl);
  await b.goto(inst.ctx.baseUrl + pagePath(s, apiKey(g.fn), s.lib.latest));
  assert.ok(b.text().includes(g.wrong!), 'the latest page shows the latest default');
  // The version selector keeps the reader on the same function page.
  await b.select(s.ui.versionSelect, `v${g.version}.x`);
  await b.click('button', s.ui.versionButton);
  assert.match(b.url, new RegExp(`/v${g.version}/api/`));
  assert.ok(b.text().includes(g.answer), 'the older page shows the older default');
  await b.step(`send_msg_to_user(${JSON.stringify(`The default is ${g.wrong}.`)})`);
  assert.deepEqual(unmet(inst), [`correct default of ${g.param}`]);
  await b.step(`send_msg_to_user(${JSON.stringify(`In v${g.version}.x it was ${g.answer}.`)})`);
  assert.ok(check(inst).success);
  server.releaseInstance(inst.ctx.id);

  const gs = open(10000, 2, (x) => x.goal.kind === 'guide-search' && !!x.goal.wrong);
  const gg = gs.s.goal as Goal<'guide-search'>;
  await gs.b.goto(`${gs.inst.ctx.baseUrl}/search?${new URLSearchParams({ q: gg.fn, section: 'guides', v: String(gs.s.lib.latest) })}`);
  assert.ok(gs.b.has('link', gg.wrong!), 'the latest version names another guide');
  await gs.b.step(`send_msg_to_user(${JSON.stringify(gg.wrong!)})`);
  assert.equal(check(gs.inst).success, false);
  server.releaseInstance(gs.inst.ctx.id);
});

test('docs: the search needs its section filter to reach a guide, and escapes what it echoes', async () => {
  let n = 0;
  let visible = 0;
  for (let seed = 0; seed < 600; seed++) {
    const { state: s } = generateDocsTask(seed, 2);
    if (s.goal.kind !== 'guide-search') continue;
    const g = s.goal;
    n++;
    if (runSearch(s, g.fn, 'all', g.version).slice(0, RESULT_CAP).some((e) => e.title === g.answer)) visible++;
    const filtered = runSearch(s, g.fn, 'guides', g.version);
    assert.ok(filtered.some((e) => e.title === g.answer), `seed ${seed}: the guides filter finds ${g.answer}`);
    assert.ok(filtered.length <= RESULT_CAP, `seed ${seed}: the filtered list is short enough to read`);
  }
  assert.ok(n > 50 && visible / n < 0.1, `the answer shows without the filter in ${visible} of ${n} searches`);
  const { inst, b } = open(10000, 1);
  await b.goto(`${inst.ctx.baseUrl}/search?q=${encodeURIComponent('<b>x</b>')}`);
  assert.ok(b.html.includes('&lt;b&gt;x&lt;/b&gt;') && !b.html.includes('<b>x</b>'));
  server.releaseInstance(inst.ctx.id);
});

test('docs: reporting on the wrong page fails the report task; the right one passes', async () => {
  const { inst, s, b } = open(10000, 2, (x) => x.goal.kind === 'report');
  const g = s.goal as Goal<'report'>;
  const other = reportablePages(s).find((k) => k !== g.page && k.startsWith(g.page.split(':')[0]))!;
  const file = async (page: string) => {
    await b.goto(`${inst.ctx.baseUrl}/report?page=${encodeURIComponent(page)}`);
    await b.fill('textbox', s.ui.issueTitle, g.title);
    await b.fill('textbox', s.ui.issueDescription, g.description);
    await b.click('button', s.ui.submitIssue);
  };
  await file(other);
  assert.match(b.url, /\/report\/DOC-\d{4}$/);
  assert.deepEqual(unmet(inst), [`about ${pageTitle(s, g.page)}`]);
  server.releaseInstance(inst.ctx.id);
  // The same report from the right page's own link, the page chosen already.
  const again = open(inst.ctx.seed, 2);
  await again.b.goto(again.inst.ctx.baseUrl + pagePath(again.s, g.page, again.s.lib.latest));
  await again.b.click('link', again.s.ui.reportLink);
  assert.equal(again.b.find('combobox', again.s.ui.issuePage).value, pageTitle(again.s, g.page));
  await again.b.fill('textbox', again.s.ui.issueTitle, g.title);
  await again.b.fill('textbox', again.s.ui.issueDescription, g.description);
  await again.b.click('button', again.s.ui.submitIssue);
  assert.ok(check(again.inst).success, JSON.stringify(check(again.inst).keyPoints));
  server.releaseInstance(again.inst.ctx.id);
});

test('docs: tier 3 fails on the earlier function\'s page or with a wrong parameter count', async () => {
  for (const mistake of ['page', 'count'] as const) {
    const { inst, s, b } = open(10000, 3);
    const g = s.goal as Goal<'compare-report'>;
    assert.equal(g.count, paramsIn(s.lib.functions.find((f) => f.id === g.later)!, s.lib.latest)!.length);
    const page = mistake === 'page' ? apiKey(g.earlier) : apiKey(g.later);
    const count = mistake === 'count' ? g.count + 1 : g.count;
    await b.goto(`${inst.ctx.baseUrl}/report?page=${encodeURIComponent(page)}`);
    await b.fill('textbox', s.ui.issueTitle, g.title);
    await b.fill('textbox', s.ui.issueDescription, `This page lists ${count} parameters.`);
    await b.click('button', s.ui.submitIssue);
    assert.equal(s.issues.length, 1);
    assert.deepEqual(unmet(inst), [mistake === 'page' ? `about ${g.later}` : `description gives ${g.count} parameters`], mistake);
    server.releaseInstance(inst.ctx.id);
  }
});

test('docs: the report form rejects bad input with clear errors and files nothing', async () => {
  const { inst, s, b } = open(10001, 2);
  await b.goto(`${inst.ctx.baseUrl}/report`);
  await b.fill('textbox', s.ui.issueTitle, '');
  await b.fill('textbox', s.ui.issueDescription, '<u>x</u>');
  await b.click('button', s.ui.submitIssue);
  for (const re of [/Enter a title for the issue/, /Choose the page the issue is about/, /Describe the problem in at least 10 characters/]) assert.match(b.text(), re);
  assert.ok(b.html.includes('&lt;u&gt;x&lt;/u&gt;'), 'what was typed comes back, escaped');
  assert.ok(b.find('textbox', s.ui.issueTitle).invalid, 'the title field is marked invalid');
  await b.fill('textbox', s.ui.issueTitle, 'x'.repeat(121));
  await b.select(s.ui.issuePage, pageTitle(s, 'changelog'));
  await b.fill('textbox', s.ui.issueDescription, 'A long enough description.');
  await b.click('button', s.ui.submitIssue);
  assert.match(b.text(), /Keep the title under 120 characters/);
  assert.equal(s.issues.length, 0, 'no issue was filed');
  // A vote for a page that does not exist is refused, and records nothing.
  const res = await fetch(`${inst.ctx.baseUrl}/feedback`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'page=api%3Anope&choice=yes&return=/', redirect: 'manual' });
  assert.equal(res.status, 400);
  assert.deepEqual(s.feedback, {});
  assert.equal(s.issues.length, 0);
  server.releaseInstance(inst.ctx.id);
});

test('docs: junk requests get a page or a redirect inside the instance, never a server error', async () => {
  const { inst, s } = open(10400, 3);
  const base = inst.ctx.baseUrl;
  const junk = ['', 'abc', '-1', '99999', '<b>x</b>', '../../etc', '%E0%A4%A', 'api:' + s.lib.functions[0].id, 'changelog'];
  const gets = ['/', '/v0/', '/v9/', '/v1/api/nope', '/v1/api/nope/nope', '/v1/guide/nope', '/v2/changelog/', '/switch', '/search', '/report', '/report/DOC-1', '/nope'];
  for (const j of junk) {
    for (const p of gets) {
      const res = await fetch(`${base}${p}?${new URLSearchParams({ q: j, v: j, page: j, section: j })}`, { redirect: 'manual' });
      await res.text();
      assert.ok(res.status < 500, `${p} ${j} -> ${res.status}`);
      if (res.status === 303) assert.ok(res.headers.get('location')!.startsWith(base));
    }
    for (const p of ['/feedback', '/report', '/nope']) {
      const body = new URLSearchParams({ page: j, choice: j, return: j, title: j, description: j, v: j });
      const res = await fetch(`${base}${p}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString(), redirect: 'manual' });
      await res.text();
      assert.ok(res.status < 500, `POST ${p} ${j} -> ${res.status}`);
      if (res.status === 303) assert.ok(res.headers.get('location')!.startsWith(base), res.headers.get('location')!);
    }
  }
  assert.equal(typeof check(inst).success, 'boolean');
  server.releaseInstance(inst.ctx.id);
});

test('docs: a function added in a later version is missing from the older one; the version switch lands on that version\'s home', async () => {
  const { inst, s, b } = open(10000, 1, (x) => x.lib.functions.some((f) => !f.decoy && f.since.startsWith(`${x.lib.latest}.`)));
  const fn = s.lib.functions.find((f) => !f.decoy && f.since.startsWith(`${s.lib.latest}.`))!;
  await b.goto(inst.ctx.baseUrl + pagePath(s, apiKey(fn.id), 1));
  assert.equal(b.status, 404);
  assert.match(b.text(), /does not exist in v1\.x/);
  await b.goto(inst.ctx.baseUrl + pagePath(s, apiKey(fn.id), s.lib.latest));
  await b.select(s.ui.versionSelect, 'v1.x');
  await b.click('button', s.ui.versionButton);
  assert.match(b.url, /\/v1\/$/);
  server.releaseInstance(inst.ctx.id);
});

test('docs: votes are side effects; the oracle withdraws a stray vote and fixes a wrong one', async () => {
  const { inst, s, b } = open(10000, 1, (x) => x.goal.kind === 'helpful' && x.goal.helpful);
  const g = s.goal as Goal<'helpful'>;
  const stray = reportablePages(s).find((k) => k !== g.page)!;
  await b.goto(inst.ctx.baseUrl + pagePath(s, stray, s.lib.latest));
  await b.click('button', s.ui.yes);
  assert.ok(b.text().includes(s.ui.thanks));
  await b.goto(inst.ctx.baseUrl + pagePath(s, g.page, s.lib.latest));
  await b.click('button', s.ui.no);
  assert.deepEqual(unmet(inst).sort(), [`${pageTitle(s, g.page)} rated helpful`, 'no other feedback'].sort());
  const oracle = inst.family.oracle(inst.ctx);
  oracle.reset(inst.spec);
  for (let i = 0; i < 20; i++) if ((await b.step((await oracle.act(b.observe(), [])).action)).done) break;
  assert.deepEqual(s.feedback, { [g.page]: 'yes' });
  assert.ok(check(inst).success, JSON.stringify(check(inst).keyPoints));
  server.releaseInstance(inst.ctx.id);
});

test('docs: a random agent almost never succeeds, and its actions stay valid', async (t) => {
  let wins = 0;
  let runs = 0;
  for (const tier of [1, 2, 3] as const) {
    for (let seed = 10200; seed < 10220; seed++) {
      const r = await runAgent(server, 'docs', seed, () => randomAgent(seed), { tier });
      for (const a of r.actions) assert.doesNotThrow(() => parseAction(a), a);
      runs++;
      if (check(r.instance).success) wins++;
      server.releaseInstance(r.instance.ctx.id);
    }
  }
  t.diagnostic(`random agent: ${wins}/${runs} successes`);
  assert.ok(wins <= 1, `random agent succeeded ${wins}/${runs} times`);
});

test('docs: the oracle succeeds in real Chromium on test seeds of every tier', async (t) => {
  const seeds = [10100, 10101, 10102, 10103];
  const steps = await oracleInChromium(server, 'docs', seeds);
  t.diagnostic(`Chromium mean oracle steps over ${seeds.length} seeds: tier 1 ${steps[1].toFixed(2)}, tier 2 ${steps[2].toFixed(2)}, tier 3 ${steps[3].toFixed(2)}`);
});

test('docs: the literal an answer must give is the one the page prints, without quotes', () => {
  assert.equal(literalAnswer({ kind: 'str', value: 'utf-8' }, 'python'), 'utf-8');
  assert.equal(literalAnswer({ kind: 'bool', value: true }, 'python'), 'True');
  assert.equal(literalAnswer({ kind: 'bool', value: false }, 'typescript'), 'false');
  assert.equal(literalAnswer({ kind: 'none' }, 'typescript'), 'null');
});
