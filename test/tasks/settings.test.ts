/**
 * The settings family end to end: its oracle over real HTTP on many seeds of every tier and in real
 * Chromium on a few, near misses the checker must refuse (the right field saved in the wrong
 * section, edits never saved, the wrong device signed out), forms that validate, the per-seed
 * variation (real across seeds, none within one seed), and a random agent that almost never wins.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { TaskServer, type TaskInstance } from '../../main/tasks/server.ts';
import { settingsFamily } from '../../main/tasks/families/settings/index.ts';
import type { SettingsGoal, SettingsState } from '../../main/tasks/families/settings/data.ts';
import { accessibleName, formById, invoicesPath, pagePath, pagesOf, rowName, rowNames } from '../../main/tasks/families/settings/forms.ts';
import { pickLook } from '../../main/tasks/families/settings/look.ts';
import { goalMet } from '../../main/tasks/families/settings/check.ts';
import { randomAgent } from '../../main/agents/random.ts';
import type { Tier } from '../../main/tasks/types.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';
import { oracleInChromium } from './helpers/env-run.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2);

/** An instance of the given tier whose goals include every kind asked for (searching seeds upward). */
function open(seed: number, tier: Tier, want: (goals: SettingsGoal[]) => boolean = () => true): { inst: TaskInstance; s: SettingsState; b: MiniBrowser } {
  for (let sd = seed; sd < seed + 300; sd++) {
    const inst = server.createInstance('settings', sd, { tier });
    const s = inst.ctx.state as SettingsState;
    if (want(s.goals)) return { inst, s, b: new MiniBrowser(inst.ctx.agentMessages) };
    server.releaseInstance(inst.ctx.id);
  }
  throw new Error('no such task');
}

const has = (goals: SettingsGoal[], pred: (g: SettingsGoal) => boolean) => goals.some(pred);
const setsKey = (key: string) => (g: SettingsGoal) => g.kind === 'set' && key in g.changes;

test('settings: the oracle solves 60 train and 60 test seeds of every tier over HTTP', async (t) => {
  const steps: Record<Tier, number[]> = { 1: [], 2: [], 3: [] };
  for (const tier of [1, 2, 3] as const) {
    for (const seed of [...Array.from({ length: 60 }, (_, i) => 100 + i * 37), ...Array.from({ length: 60 }, (_, i) => 10000 + i)]) {
      const r = await runAgent(server, 'settings', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${r.instance.spec.instruction}\n${JSON.stringify(c.keyPoints.filter((k) => !k.met))}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, [], `seed ${seed} tier ${tier}`);
      steps[tier].push(r.steps);
      server.releaseInstance(r.instance.ctx.id);
    }
  }
  const line = `oracle steps (mean over 120 seeds, mini browser) tier 1: ${mean(steps[1])}, tier 2: ${mean(steps[2])}, tier 3: ${mean(steps[3])}; max ${Math.max(...steps[1])} / ${Math.max(...steps[2])} / ${Math.max(...steps[3])}`;
  t.diagnostic(line);
  assert.ok(Number(mean(steps[1])) >= 3 && Number(mean(steps[1])) <= 5, line);
  assert.ok(Number(mean(steps[2])) >= 6 && Number(mean(steps[2])) <= 10, line);
  assert.ok(Number(mean(steps[3])) >= 11 && Number(mean(steps[3])) <= 17, line);
});

test('settings: every tier asks for what it should, and the instruction says when a message is the answer', () => {
  const kinds: Record<Tier, Set<string>> = { 1: new Set(), 2: new Set(), 3: new Set() };
  for (let seed = 10000; seed < 10200; seed++) {
    for (const tier of [1, 2, 3] as const) {
      const g = settingsFamily.generate(seed, tier);
      assert.equal(JSON.stringify(g), JSON.stringify(settingsFamily.generate(seed, tier)), 'deterministic');
      assert.equal(/\btell me\b[^.?]*\bin a message\b/i.test(g.instruction), g.goalKind === 'answer', g.instruction);
      for (const goal of g.state.goals) kinds[tier].add(goal.kind === 'answer' ? `answer:${goal.topic}` : goal.kind);
      // Every part is a real change: none is met by the settings as generated.
      for (const goal of g.state.goals) assert.equal(goalMet(g.state, goal, []), false, `seed ${seed} tier ${tier}: ${JSON.stringify(goal)}`);
      if (tier === 3) assert.equal(g.state.goals.length, 4);
    }
  }
  assert.deepEqual([...kinds[1]].sort(), ['answer:invoiceAmount', 'answer:invoiceDate', 'answer:plan', 'set', 'unblock']);
  assert.deepEqual([...kinds[2]].sort(), ['password', 'set', 'signOut', 'unblock']);
  assert.deepEqual([...kinds[3]].sort(), ['export', 'set', 'signOut', 'unblock']);
});

test('settings: a time zone and language chosen but never saved (another section saved instead) do not count', async () => {
  const { inst, s, b } = open(10000, 2, (gs) => has(gs, setsKey('profile.timeZone')));
  const look = s.look;
  const profile = formById(s, 'profile')!;
  const tz = profile.fields.find((f) => f.key === 'profile.timeZone')!;
  const lang = profile.fields.find((f) => f.key === 'profile.language')!;
  const want = Object.assign({}, ...s.goals.map((g) => (g.kind === 'set' ? g.changes : {})));
  await b.goto(inst.ctx.baseUrl + pagePath(look, 'profile'));
  await b.select(accessibleName(tz), tz.options!.find((o) => o.value === want['profile.timeZone'])!.label);
  await b.select(accessibleName(lang), lang.options!.find((o) => o.value === want['profile.language'])!.label);
  // Away to another section, whose own form is saved: the profile edits are lost with the page.
  await b.click('link', look.nav === 'hub' ? look.homeLink : look.titles.notifications);
  if (look.nav === 'hub') await b.click('link', look.titles.notifications);
  await b.click('button', formById(s, 'notifications')!.submit);
  const c = inst.family.check(inst.ctx);
  assert.equal(c.success, false);
  assert.equal(c.keyPoints.find((k) => k.name.startsWith('time zone'))!.met, false);
  assert.equal(c.keyPoints.find((k) => k.name.startsWith('language'))!.met, false);
  assert.equal(s.values['profile.timeZone'], s.initial['profile.timeZone']);
  // Saved on its own page, the same choices pass.
  await b.goto(inst.ctx.baseUrl + pagePath(look, 'profile'));
  await b.select(accessibleName(tz), tz.options!.find((o) => o.value === want['profile.timeZone'])!.label);
  await b.select(accessibleName(lang), lang.options!.find((o) => o.value === want['profile.language'])!.label);
  await b.click('button', profile.submit);
  assert.match(b.text(), new RegExp(look.savedNotice.replace(/[.]/g, '\\.')));
  assert.ok(inst.family.check(inst.ctx).success);
});

test('settings: the new email saved as the billing email fails on the email and as a side effect', async () => {
  const { inst, s, b } = open(10000, 3, (gs) => has(gs, setsKey('profile.email')));
  const g = s.goals.find(setsKey('profile.email')) as Extract<SettingsGoal, { kind: 'set' }>;
  const billing = formById(s, 'billingEmail')!;
  await b.goto(inst.ctx.baseUrl + pagePath(s.look, 'billing'));
  await b.fill('textbox', accessibleName(billing.fields[0]), g.changes['profile.email']);
  await b.click('button', billing.submit);
  assert.equal(s.values['billing.email'], g.changes['profile.email']);
  const c = inst.family.check(inst.ctx);
  assert.equal(c.success, false);
  assert.equal(c.keyPoints.find((k) => k.name === g.what)!.met, false);
  const side = c.keyPoints.find((k) => k.name === 'no other settings changed')!;
  assert.equal(side.met, false);
  assert.match(side.detail!, /billing\.email/);
});

test('settings: signing out a session on the same device (or in the same city) as the named one fails', async () => {
  const { inst, s, b } = open(10000, 2, (gs) => has(gs, (g) => g.kind === 'signOut'));
  const g = s.goals.find((x) => x.kind === 'signOut') as Extract<SettingsGoal, { kind: 'signOut' }>;
  const target = s.sessions.find((x) => x.id === g.session)!;
  const twin = s.sessions.find((x) => x !== target && !x.current && (x.device === target.device || x.city === target.city)) ?? s.sessions.find((x) => x !== target && !x.current)!;
  await b.goto(inst.ctx.baseUrl + pagePath(s.look, 'security'));
  await b.click('button', rowName(rowNames.signOut(s.look, twin)));
  assert.ok(!b.has('button', rowName(rowNames.signOut(s.look, twin))), 'the signed-out session leaves the list');
  const c = inst.family.check(inst.ctx);
  assert.equal(c.success, false);
  assert.equal(c.keyPoints.find((k) => k.name === `signed out of ${target.device} in ${target.city}`)!.met, false);
  assert.equal(c.keyPoints.find((k) => k.name === 'no other settings changed')!.met, false);
  // The current session has no button at all.
  const current = s.sessions.find((x) => x.current)!;
  assert.ok(!b.has('button', rowName(rowNames.signOut(s.look, current))));
});

test('settings: a password that breaks the rules, or a wrong current one, is refused with a clear error and changes nothing', async () => {
  const { inst, s, b } = open(10000, 2, (gs) => has(gs, (g) => g.kind === 'password'));
  const g = s.goals.find((x) => x.kind === 'password') as Extract<SettingsGoal, { kind: 'password' }>;
  const L = s.look.labels;
  const attempt = async (current: string, next: string, confirm: string) => {
    await b.goto(inst.ctx.baseUrl + pagePath(s.look, 'security'));
    await b.fill('textbox', L.currentPassword, current);
    await b.fill('textbox', L.newPassword, next);
    await b.fill('textbox', L.confirmPassword, confirm);
    await b.click('button', s.look.passwordButton);
  };
  const cases: Array<[string, string, string, RegExp, string]> = [
    [g.current, 'short1', 'short1', /at least 10 characters/, L.newPassword],
    [g.current, 'nodigitsatallhere', 'nodigitsatallhere', /at least one letter and one number/, L.newPassword],
    [g.current, g.next, g.next + 'x', /do not match/, L.confirmPassword],
    ['wrong-password-1', g.next, g.next, /current password is not correct/, L.currentPassword],
    [g.current, g.current, g.current, /different from your current password/, L.newPassword],
  ];
  for (const [cur, next, confirm, error, field] of cases) {
    await attempt(cur, next, confirm);
    assert.match(b.text(), error);
    assert.match(b.text(), /Nothing was saved/);
    assert.equal(b.find('textbox', field).invalid, true, field);
    assert.equal(b.find('textbox', L.newPassword).value, '', 'passwords are not echoed back');
    assert.equal(s.password, s.initialPassword);
  }
  await attempt(g.current, g.next, g.next);
  assert.equal(s.password, g.next);
  assert.ok(inst.family.check(inst.ctx).success);
});

test('settings: a malformed email (with other edits in the same form) is refused and saves none of them; markup is escaped', async () => {
  const { inst, s, b } = open(10000, 2, (gs) => has(gs, setsKey('profile.timeZone')));
  const profile = formById(s, 'profile')!;
  const field = (key: string) => accessibleName(profile.fields.find((f) => f.key === key)!);
  const tz = profile.fields.find((f) => f.key === 'profile.timeZone')!;
  const before = { ...s.values };
  await b.goto(inst.ctx.baseUrl + pagePath(s.look, 'profile'));
  await b.fill('textbox', field('profile.email'), 'grace@@example');
  await b.fill('textbox', field('profile.displayName'), '<script>x</script>');
  await b.select(accessibleName(tz), tz.options!.find((o) => o.value !== s.values['profile.timeZone'])!.label);
  await b.click('button', profile.submit);
  assert.match(b.text(), /Enter a valid email address/);
  assert.match(b.text(), /may contain only letters/);
  assert.equal(b.find('textbox', field('profile.email')).invalid, true);
  assert.equal(b.find('textbox', field('profile.email')).value, 'grace@@example', 'what was typed is shown again to fix');
  assert.ok(b.html.includes('&lt;script&gt;x&lt;/script&gt;') && !b.html.includes('<script>x'));
  assert.deepEqual(s.values, before);
  // Two-factor on without a way to send codes is refused too.
  const tf = formById(s, 'twofactor')!;
  await b.goto(inst.ctx.baseUrl + pagePath(s.look, 'security'));
  const box = b.find('checkbox', accessibleName(tf.fields[0]));
  if (box.checked !== true) {
    await b.click('checkbox', accessibleName(tf.fields[0]));
    await b.click('button', tf.submit);
    assert.match(b.text(), /Choose how you want to receive sign-in codes/);
    assert.deepEqual(s.values, before);
  }
});

test('settings: one seed renders the same twice; other seeds differ in order, wording, navigation and style', async () => {
  const pagesOfInstance = async (seed: number) => {
    const inst = server.createInstance('settings', seed, { tier: 3 });
    const s = inst.ctx.state as SettingsState;
    const b = new MiniBrowser();
    const out: string[] = [];
    for (const p of ['/', ...pagesOf(s.look).map((k) => pagePath(s.look, k)), invoicesPath(s.look)]) {
      await b.goto(inst.ctx.baseUrl + p);
      assert.equal(b.status, 200, p);
      out.push(b.html.replaceAll(`/i/${inst.ctx.id}`, '/i/ID'));
    }
    server.releaseInstance(inst.ctx.id);
    return out;
  };
  assert.deepEqual(await pagesOfInstance(10007), await pagesOfInstance(10007));
  assert.notDeepEqual((await pagesOfInstance(10007))[0], (await pagesOfInstance(10008))[0]);

  const looks = Array.from({ length: 40 }, (_, i) => pickLook(10000 + i));
  const distinct = (f: (l: ReturnType<typeof pickLook>) => unknown) => new Set(looks.map((l) => JSON.stringify(f(l)))).size;
  assert.equal(distinct((l) => l.nav), 3, 'sidebar, tabs and hub');
  assert.equal(distinct((l) => l.blocks), 4, 'four block styles');
  assert.ok(distinct((l) => l.sectionOrder) >= 20, 'section order');
  assert.ok(distinct((l) => l.profileOrder) >= 20, 'field order');
  assert.ok(distinct((l) => l.saveButtons.profile) >= 4, 'save button wording');
  assert.ok(distinct((l) => l.labels.timeZone) >= 4, 'time zone label');
  assert.ok(distinct((l) => l.signOut) >= 4, 'sign-out wording');
  assert.ok(distinct((l) => l.titles.security) >= 4, 'section titles');
  assert.ok(looks.every((l) => l.distractors.length >= 1 && l.distractors.length <= 3), 'one to three look-alikes');
  assert.ok(looks.some((l) => l.distractors.some((d) => d.host !== d.key)), 'some look-alikes sit inside a real section');
  // Within one page, no two forms share a submit label, so a button name always means one form.
  for (const l of looks) {
    const byPage = new Map<string, string[]>();
    const s = { look: l, events: ['security', 'billing'] as SettingsState['events'] };
    for (const id of ['profile', 'twofactor', 'notifications', 'visibility', 'billingEmail', 'signature', 'sounds', 'marketing', 'accessibility']) {
      const f = formById(s, id);
      if (f) byPage.set(f.page, [...(byPage.get(f.page) ?? []), f.submit]);
    }
    for (const [page, labels] of byPage) assert.equal(new Set(labels).size, labels.length, `${page}: ${labels}`);
  }
});

test('settings: a random agent almost never succeeds', async (t) => {
  let wins = 0;
  let runs = 0;
  for (const tier of [1, 2, 3] as const) {
    for (let seed = 10500; seed < 10530; seed++) {
      const r = await runAgent(server, 'settings', seed, () => randomAgent(seed), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.keyPoints.length > 0);
      runs++;
      if (c.success) wins++;
      server.releaseInstance(r.instance.ctx.id);
    }
  }
  t.diagnostic(`random agent: ${wins}/${runs} successes`);
  assert.ok(wins <= 2, `random agent succeeded ${wins}/${runs} times`);
});

test('settings: the oracle finishes the task after random detours', async () => {
  for (let seed = 10300; seed < 10330; seed++) {
    const inst = server.createInstance('settings', seed);
    const b = new MiniBrowser(inst.ctx.agentMessages);
    await b.goto(inst.spec.startUrl);
    const rnd = randomAgent(seed);
    rnd.reset(inst.spec);
    for (let i = 0; i < 8; i++) {
      const turn = await rnd.act(b.observe(inst.spec.instruction), []);
      if (/^(send_msg_to_user|report_infeasible)/.test(turn.action)) continue;
      await b.step(turn.action);
    }
    const oracle = inst.family.oracle(inst.ctx);
    oracle.reset(inst.spec);
    const actions: string[] = [];
    for (let i = 0; i < 40; i++) {
      const turn = await oracle.act(b.observe(inst.spec.instruction), []);
      actions.push(turn.action);
      if ((await b.step(turn.action)).done) break;
    }
    const c = inst.family.check(inst.ctx);
    const lost = c.keyPoints.filter((k) => !k.met);
    // Signing out a device, unblocking someone or requesting an export cannot be undone; anything else must be.
    const irreversible = (item: string) => /^(session|blocked|app)\.|exports requested|^password changed$/.test(item);
    const undoable = lost.filter((k) => !(k.name === 'no other settings changed' && (k.detail ?? '').split('; ').every(irreversible)));
    assert.deepEqual(undoable, [], `seed ${seed}: ${inst.spec.instruction}\n${actions.join(' ')}`);
    server.releaseInstance(inst.ctx.id);
  }
});

test('settings: junk requests get a page or a redirect, never a server error', async () => {
  const inst = server.createInstance('settings', 10400, { tier: 3 });
  const s = inst.ctx.state as SettingsState;
  const base = inst.ctx.baseUrl;
  const pages = ['/', ...pagesOf(s.look).map((p) => pagePath(s.look, p)), invoicesPath(s.look), '/nope', `${s.look.prefix}/`, `${s.look.prefix}/%E0%A4%A`];
  const junk = ['', 'abc', '-1', '<b>x</b>', '%', ' ', '99999999999', 's1', 'u1', 'a1'];
  for (const p of pages) {
    assert.ok((await fetch(base + p + '?saved=1&done=x')).status < 500, p);
    for (const form of ['profile', 'twofactor', 'notifications', 'visibility', 'billingEmail', 'signature', 'sounds', 'marketing', 'accessibility', 'password', 'signout', 'unblock', 'export', 'removeApp', '', 'zzz']) {
      for (const j of junk) {
        const body = new URLSearchParams({ form, session: j, user: j, app: j, format: j, current: j, new: j, confirm: j, 'profile.email': j, 'profile.timeZone': j, digest: j, 'twofactor.enabled': j, 'twofactor.method': j });
        const res = await fetch(base + p, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString(), redirect: 'manual' });
        await res.text();
        assert.ok(res.status < 500, `POST ${p} ${body} -> ${res.status}`);
        if (res.status === 303) assert.ok(res.headers.get('location')!.startsWith(base));
      }
    }
  }
  assert.equal(typeof inst.family.check(inst.ctx).success, 'boolean');
});

test('settings: the oracle succeeds in real Chromium on test seeds of every tier', async (t) => {
  const seeds = [10100, 10101, 10102, 10103];
  const steps = await oracleInChromium(server, 'settings', seeds);
  t.diagnostic(`Chromium mean oracle steps over ${seeds.length} seeds: tier 1 ${steps[1].toFixed(2)}, tier 2 ${steps[2].toFixed(2)}, tier 3 ${steps[3].toFixed(2)}`);
});
