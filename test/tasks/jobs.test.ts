/**
 * The jobs family: applying, saving and answering by hand and by its oracle over real HTTP, near
 * misses its checker refuses, form validation, and the variation between instances (and none
 * within one). Pages are driven by the names each instance gives its controls (state.variant).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import type { JobsGoal, JobsState } from '../../main/tasks/families/jobs/data.ts';
import { COOKIE_WORDING } from '../../main/tasks/families/common/variant.ts';
import { normalizeText } from '../../main/common/normalize.ts';
import { DISTRACTOR_NAV_LABELS, NAV_PATHS, navLabel } from '../../main/tasks/families/jobs/chrome.ts';
import { SAVE_TOGGLE, WORDING, YES_NO, drawVariant, jobLabel, savedNavLabel } from '../../main/tasks/families/jobs/variant.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

type Apply = Extract<JobsGoal, { kind: 'apply' }>;

function open(seed: number, tier: 1 | 2 | 3, kind?: JobsGoal['kind']): { inst: TaskInstance; s: JobsState; b: MiniBrowser } {
  for (let sd = seed; sd < seed + 100; sd++) {
    const inst = server.createInstance('jobs', sd, { tier });
    const s = inst.ctx.state as JobsState;
    if (!kind || s.goal.kind === kind) return { inst, s, b: new MiniBrowser(inst.ctx.agentMessages) };
    server.releaseInstance(inst.ctx.id);
  }
  throw new Error(`no ${kind} task`);
}

const TIERS = [1, 2, 3] as const;
const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2);

/** The postings' links on the page, in the order they show (each board names them its own way). */
function jobLinks(b: MiniBrowser, s: JobsState): string[] {
  const names = new Set(s.jobs.map((j) => jobLabel(s.variant.words, j)));
  return b.observe().elements.filter((e) => e.role === 'link' && names.has(e.name)).map((e) => e.name);
}

/** Fill the application form in this board's words. */
async function fillApplication(b: MiniBrowser, s: JobsState, g: Apply): Promise<void> {
  const w = s.variant.words;
  await b.fill('textbox', w.fullName, g.name);
  await b.fill('textbox', w.email, g.email);
  await b.fill('textbox', w.phone, g.phone);
  await b.fill('spinbutton', w.years, String(g.years));
  await b.click('radio', w.yes);
  await b.click('checkbox', w.agree);
  await b.click('button', w.submit);
}

/** Search, filter, sort by salary and apply to the first result by hand; `pickSecond` takes the runner-up. */
async function apply(seed: number, opts: { pickSecond?: boolean } = {}) {
  const { inst, s, b } = open(seed, 3);
  const g = s.goal as Apply;
  const w = s.variant.words;
  await b.goto(inst.spec.startUrl);
  if (s.variant.overlay === 'cookies') await b.click('button', s.variant.cookieWords.cookieReject);
  await b.fill('searchbox', w.keyword, g.title!);
  await b.press('searchbox', w.keyword, 'Enter');
  await b.select(w.level, g.level!);
  if (g.remote) await b.click('checkbox', w.remote);
  await b.select(w.sort, w.sortSalary);
  await b.click('button', w.applyFilters);
  const links = jobLinks(b, s);
  const target = s.jobs.find((j) => j.id === g.job)!;
  assert.equal(links[0], jobLabel(w, target), 'the best-paying job comes first');
  if (opts.pickSecond && links.length < 2) return null;
  await b.click('link', links[opts.pickSecond ? 1 : 0]);
  await b.click('link', w.applyNow);
  await fillApplication(b, s, g);
  return { inst, s, b };
}

test('jobs: applying to the best-paying matching job along the forms succeeds', async () => {
  const r = (await apply(10000))!;
  assert.match(r.b.url, /\/application\/APP-\d{5}$/);
  const c = r.inst.family.check(r.inst.ctx);
  assert.ok(c.success, JSON.stringify(c.keyPoints));
  // Applying twice is not offered.
  await r.b.goto(`${r.inst.ctx.baseUrl}/job/${r.s.goal.job}`);
  assert.ok(!r.b.has('link', r.s.variant.words.applyNow));
});

test('jobs: applying to the runner-up fails on the job key point', async () => {
  for (let seed = 10000; seed < 10060; seed++) {
    const r = await apply(seed, { pickSecond: true });
    if (!r) continue;
    const c = r.inst.family.check(r.inst.ctx);
    assert.equal(c.success, false);
    assert.equal(c.keyPoints.find((k) => k.name.startsWith('job '))!.met, false);
    assert.equal(c.keyPoints.find((k) => k.name === 'name')!.met, true);
    return;
  }
  assert.fail('no seed with two matching jobs');
});

test('jobs: the application form validates every field and escapes what it shows back', async () => {
  const { inst, s, b } = open(10001, 2);
  const w = s.variant.words;
  await b.goto(inst.spec.startUrl);
  await b.click('link', w.applyNow);
  await b.fill('textbox', w.fullName, '<script>x</script>');
  await b.fill('textbox', w.email, 'me@');
  await b.fill('textbox', w.phone, '555');
  await b.fill('spinbutton', w.years, 'lots');
  await b.click('button', w.submit);
  const t = b.text();
  for (const re of [/Your name may contain only letters/, /Enter a valid email address/, /Enter a 10-digit phone number/, /whole number from 0 to 50/, /authorized to work in the US/, /agree to the privacy policy/]) assert.match(t, re);
  assert.ok(b.html.includes('&lt;script&gt;x&lt;/script&gt;'));
  assert.equal(b.find('textbox', w.email).invalid, true);
  assert.equal(s.applications.length, 0);
});

test('jobs: saving and unsaving; a stray saved job fails the side-effect key point', async () => {
  const { inst, s, b } = open(10002, 1, 'save');
  const w = s.variant.words;
  const j = s.jobs.find((x) => x.id === s.goal.job)!;
  await b.goto(inst.spec.startUrl);
  await b.click('link', jobLabel(w, j));
  await b.click('button', w.save);
  assert.match(b.text(), /Job saved/);
  assert.equal(b.find('button', w.unsave).checked, true);
  assert.ok(inst.family.check(inst.ctx).success);
  const other = s.jobs.find((x) => x.id !== j.id)!;
  await b.goto(`${inst.ctx.baseUrl}/job/${other.id}`);
  await b.click('button', w.save);
  const c = inst.family.check(inst.ctx);
  assert.equal(c.success, false);
  assert.equal(c.keyPoints.find((k) => k.name === 'no other jobs saved')!.met, false);
  await b.click('link', savedNavLabel(w, 2));
  assert.ok(b.has('link', jobLabel(w, other)) && b.has('link', jobLabel(w, j)));
});

test('jobs: keyword, location and filters narrow the list; salary sort orders it', async () => {
  const { inst, s, b } = open(10003, 1);
  const w = s.variant.words;
  await b.goto(`${inst.ctx.baseUrl}/jobs?location=remote&sort=salary&type=Full-time`);
  const want = s.jobs.filter((j) => j.location === 'Remote' && j.type === 'Full-time').sort((a, c) => c.salaryMax - a.salaryMax).slice(0, 10).map((j) => jobLabel(w, j));
  assert.deepEqual(jobLinks(b, s), want);
  assert.equal(b.find('combobox', w.type).value, 'Full-time');
});

test('jobs: the years question is answered by message; a wrong number fails', async () => {
  const { inst, s, b } = open(10004, 1, 'years');
  const g = s.goal as Extract<JobsGoal, { kind: 'years' }>;
  await b.goto(`${inst.ctx.baseUrl}/job/${g.job}`);
  assert.match(b.text(), new RegExp(`At least ${g.answer} year`));
  await b.step(`send_msg_to_user('${g.answer} years')`);
  assert.ok(inst.family.check(inst.ctx).success);
  const w = open(10004, 1, 'years');
  await w.b.step(`send_msg_to_user('${Number(g.answer) + 20} years')`);
  assert.equal(w.inst.family.check(w.inst.ctx).success, false);
});

test('jobs: the oracle solves 60 train and 60 test seeds of every tier over real HTTP', async (t) => {
  for (const tier of TIERS) {
    const steps: number[] = [];
    for (const seed of [...Array.from({ length: 60 }, (_, i) => i * 13), ...Array.from({ length: 60 }, (_, i) => 10000 + i)]) {
      const r = await runAgent(server, 'jobs', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${r.instance.spec.instruction}\n${JSON.stringify(c.keyPoints.filter((k) => !k.met))}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
      steps.push(r.steps);
      server.releaseInstance(r.instance.ctx.id);
    }
    t.diagnostic(`tier ${tier}: mean oracle steps ${mean(steps)} (min ${Math.min(...steps)}, max ${Math.max(...steps)}) over ${steps.length} seeds`);
  }
});

test('jobs: every label has synonyms, each name means one thing, and the first synonym is the original word', () => {
  const lists: Array<readonly string[]> = [...Object.values(WORDING), ...[0, 1].map((i) => SAVE_TOGGLE.map((p) => p[i])), ...[0, 1].map((i) => YES_NO.map((p) => p[i]))];
  for (const l of lists) assert.ok(l.length >= 3 && l.length <= 4, l.join(', '));
  // No name in two lists (nor a distractor's or a cookie button's), so a name on a page means one thing.
  const names = [...lists.flat(), ...Object.values(DISTRACTOR_NAV_LABELS), ...COOKIE_WORDING.cookieAccept, ...COOKIE_WORDING.cookieReject].map(normalizeText);
  assert.equal(new Set(names).size, names.length, names.filter((n, i) => names.indexOf(n) !== i).join(', '));
  // What the board said before it varied.
  const original = ['All jobs', 'Saved jobs', 'My applications', 'Job title or keyword', 'Location', 'Find jobs', 'Job type', 'Experience level', 'Minimum salary', 'Remote only', 'Sort by', 'Salary (highest first)', 'Apply filters', 'Next page', 'Apply now', 'Full name', 'Email', 'Phone', 'Years of experience', 'I agree to the privacy policy', 'Submit application', '{title} at {company}'];
  for (const word of original) assert.ok(Object.values(WORDING).some((l) => l[0] === word), word);
  assert.deepEqual([SAVE_TOGGLE[0], YES_NO[0]], [['Save job', 'Unsave job'], ['Yes', 'No']]);
});

test('jobs: instances differ in wording, order, distractors and layout; one seed renders the same twice', async () => {
  const variants = Array.from({ length: 40 }, (_, i) => drawVariant(10000 + i));
  for (const knob of ['navPlacement', 'listView', 'filterPlacement', 'saveFirst', 'accent', 'overlay'] as const) {
    assert.ok(new Set(variants.map((v) => v[knob])).size >= 2, `${knob} never varies`);
  }
  for (const key of ['applyNow', 'submit', 'find', 'applyFilters', 'keyword', 'jobLink'] as const) {
    assert.equal(new Set(variants.map((v) => v.words[key])).size, 4, `every synonym of ${key} is drawn`);
  }
  assert.equal(new Set(variants.map((v) => v.words.save)).size, 4, 'every wording of the save button is drawn');
  assert.ok(new Set(variants.map((v) => v.nav.join())).size >= 25, 'navigation orders vary');
  assert.ok(new Set(variants.map((v) => v.sections.join())).size >= 15, 'home-page section orders vary');
  assert.ok(new Set(variants.map((v) => v.filters.join())).size >= 30, 'filter orders vary');
  assert.ok(new Set(variants.map((v) => v.applyFields.join())).size >= 30, 'application field orders vary');
  assert.ok(new Set(variants.map((v) => v.facts.join())).size >= 30, 'job fact orders vary');
  assert.ok(variants.every((v) => v.nav.length + v.sections.length >= 6 && v.nav.length + v.sections.length <= 8), 'one to three distractors each');

  // Two seeds, the same pages: different navigation names or order, different labels on the form.
  const pagesOf = async (seed: number) => {
    const { inst, s, b } = open(seed, 2);
    await b.goto(`${inst.ctx.baseUrl}/`);
    const names = s.variant.nav.map((k) => navLabel(s, k));
    const nav = b.observe().elements.filter((e) => e.role === 'link' && names.includes(e.name)).map((e) => e.name);
    await b.goto(`${inst.ctx.baseUrl}/job/${s.goal.job}/apply`);
    const form = b.observe().elements.filter((e) => ['textbox', 'spinbutton', 'radio', 'checkbox', 'combobox', 'button'].includes(e.role)).map((e) => e.name);
    return { nav, form };
  };
  const a = await pagesOf(10000);
  const c = await pagesOf(10001);
  assert.notDeepEqual(a.nav, c.nav);
  assert.notDeepEqual(a.form, c.form);

  // The same seed twice: byte for byte the same pages, but for the instance's own prefix.
  const render = async (seed: number) => {
    const { inst, s, b } = open(seed, 3);
    const j = s.jobs[0];
    return b.instancePages(inst.ctx.baseUrl, ['/', '/jobs', `/jobs?q=${encodeURIComponent(j.title)}&sort=salary&page=1`, '/jobs?page=2', `/job/${j.id}`, `/job/${j.id}/apply`, '/saved', '/applications', ...s.variant.nav.map((k) => NAV_PATHS[k])]);
  };
  assert.deepEqual(await render(10007), await render(10007));
});

test('jobs: the distractors lead to plain pages that change nothing and hold no posting', async () => {
  for (let seed = 10000; seed < 10020; seed++) {
    const { inst, s, b } = open(seed, 3);
    const before = JSON.stringify({ saved: s.saved, applications: s.applications, goal: s.goal });
    await b.goto(`${inst.ctx.baseUrl}/`);
    const links = [...s.variant.nav.filter((k) => k in DISTRACTOR_NAV_LABELS).map((k) => DISTRACTOR_NAV_LABELS[k]!), ...['Read our career tips', 'Set up job alerts', 'Post a job'].filter((n) => b.has('link', n))];
    assert.ok(links.length >= 1 && links.length <= 3, `seed ${seed}: ${links.join(', ')}`);
    for (const name of links) {
      await b.goto(`${inst.ctx.baseUrl}/`);
      await b.click('link', name);
      assert.equal(b.status, 200, name);
      assert.deepEqual(jobLinks(b, s), [], `${name} lists no posting`);
    }
    assert.equal(JSON.stringify({ saved: s.saved, applications: s.applications, goal: s.goal }), before);
    server.releaseInstance(inst.ctx.id);
  }
});
