import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import type { JobsGoal, JobsState } from '../../main/tasks/families/jobs/data.ts';
import { jobName } from '../../main/tasks/families/jobs/pages.ts';
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

/** Search, filter, sort by salary and apply to the first result by hand; `pickSecond` takes the runner-up. */
async function apply(seed: number, opts: { pickSecond?: boolean } = {}) {
  const { inst, s, b } = open(seed, 3);
  const g = s.goal as Apply;
  await b.goto(inst.spec.startUrl);
  await b.click('button', 'Reject non-essential');
  await b.fill('searchbox', 'Job title or keyword', g.title!);
  await b.press('searchbox', 'Job title or keyword', 'Enter');
  await b.select('Experience level', g.level!);
  if (g.remote) await b.click('checkbox', 'Remote only');
  await b.select('Sort by', 'Salary (highest first)');
  await b.click('button', 'Apply filters');
  const links = b.observe().elements.filter((e) => e.role === 'link' && s.jobs.some((j) => jobName(j) === e.name));
  const target = s.jobs.find((j) => j.id === g.job)!;
  assert.equal(links[0].name, jobName(target), 'the best-paying job comes first');
  if (opts.pickSecond && links.length < 2) return null;
  await b.click('link', links[opts.pickSecond ? 1 : 0].name);
  await b.click('link', 'Apply now');
  await b.fill('textbox', 'Full name', g.name);
  await b.fill('textbox', 'Email', g.email);
  await b.fill('textbox', 'Phone', g.phone);
  await b.fill('spinbutton', 'Years of experience', String(g.years));
  await b.click('radio', 'Yes');
  await b.click('checkbox', 'I agree to the privacy policy');
  await b.click('button', 'Submit application');
  return { inst, s, b };
}

test('jobs: applying to the best-paying matching job along the forms succeeds', async () => {
  const r = (await apply(10000))!;
  assert.match(r.b.url, /\/application\/APP-\d{5}$/);
  const c = r.inst.family.check(r.inst.ctx);
  assert.ok(c.success, JSON.stringify(c.keyPoints));
  // Applying twice is not offered.
  await r.b.goto(`${r.inst.ctx.baseUrl}/job/${r.s.goal.job}`);
  assert.ok(!r.b.has('link', 'Apply now'));
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
  await b.goto(inst.spec.startUrl);
  await b.click('link', 'Apply now');
  await b.fill('textbox', 'Full name', '<script>x</script>');
  await b.fill('textbox', 'Email', 'me@');
  await b.fill('textbox', 'Phone', '555');
  await b.fill('spinbutton', 'Years of experience', 'lots');
  await b.click('button', 'Submit application');
  const t = b.text();
  for (const re of [/Your name may contain only letters/, /Enter a valid email address/, /Enter a 10-digit phone number/, /whole number from 0 to 50/, /authorized to work in the US/, /agree to the privacy policy/]) assert.match(t, re);
  assert.ok(b.html.includes('&lt;script&gt;x&lt;/script&gt;'));
  assert.equal(b.find('textbox', 'Email').invalid, true);
  assert.equal(s.applications.length, 0);
});

test('jobs: saving and unsaving; a stray saved job fails the side-effect key point', async () => {
  const { inst, s, b } = open(10002, 1, 'save');
  const j = s.jobs.find((x) => x.id === s.goal.job)!;
  await b.goto(inst.spec.startUrl);
  await b.click('link', jobName(j));
  await b.click('button', 'Save job');
  assert.match(b.text(), /Job saved/);
  assert.equal(b.find('button', 'Unsave job').checked, true);
  assert.ok(inst.family.check(inst.ctx).success);
  const other = s.jobs.find((x) => x.id !== j.id)!;
  await b.goto(`${inst.ctx.baseUrl}/job/${other.id}`);
  await b.click('button', 'Save job');
  const c = inst.family.check(inst.ctx);
  assert.equal(c.success, false);
  assert.equal(c.keyPoints.find((k) => k.name === 'no other jobs saved')!.met, false);
  await b.click('link', /^Saved jobs/);
  assert.ok(b.has('link', jobName(other)) && b.has('link', jobName(j)));
});

test('jobs: keyword, location and filters narrow the list; salary sort orders it', async () => {
  const { inst, s, b } = open(10003, 1);
  await b.goto(`${inst.ctx.baseUrl}/jobs?location=remote&sort=salary&type=Full-time`);
  const shown = b.observe().elements.filter((e) => e.role === 'link' && s.jobs.some((j) => jobName(j) === e.name)).map((e) => e.name);
  const want = s.jobs.filter((j) => j.location === 'Remote' && j.type === 'Full-time').sort((a, c) => c.salaryMax - a.salaryMax).slice(0, 10).map(jobName);
  assert.deepEqual(shown, want);
  assert.equal(b.find('combobox', 'Job type').value, 'Full-time');
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

test('jobs: the oracle solves every tier over real HTTP', async () => {
  for (const tier of [1, 2, 3] as const) {
    for (const seed of [10010, 10011, 10012, 10013, 10014]) {
      const r = await runAgent(server, 'jobs', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints)}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
    }
  }
});
