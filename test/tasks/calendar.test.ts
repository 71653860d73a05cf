/**
 * The calendar family: by hand along its pages, near misses its checker refuses, form validation,
 * answers by message, the variation between instances (and none within one), and its oracle over
 * real HTTP on many seeds of every tier and in real Chromium on a few.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import { firstFreeHour, timeLabel, type CalGoal, type CalendarState } from '../../main/tasks/families/calendar/data.ts';
import { eventLabel, navLabel } from '../../main/tasks/families/calendar/chrome.ts';
import { fieldLabel } from '../../main/tasks/families/calendar/pages-event.ts';
import { WORDING, drawVariant, fill } from '../../main/tasks/families/calendar/variant.ts';
import { timesIn } from '../../main/tasks/families/calendar/task.ts';
import { longDate } from '../../main/tasks/families/common/dates.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';
import { oracleInChromium } from './helpers/env-run.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

function open(seed: number, tier: 1 | 2 | 3, kind?: CalGoal['kind']): { inst: TaskInstance; s: CalendarState; b: MiniBrowser } {
  for (let sd = seed; sd < seed + 100; sd++) {
    const inst = server.createInstance('calendar', sd, { tier });
    const s = inst.ctx.state as CalendarState;
    if (!kind || s.goals[0].kind === kind) return { inst, s, b: new MiniBrowser(inst.ctx.agentMessages) };
    server.releaseInstance(inst.ctx.id);
  }
  throw new Error(`no ${kind} task`);
}

test('calendar: cancel one event, move another, and book the first free hour on another day by hand', async () => {
  const { inst, s, b } = open(10000, 3);
  const [del, move, add] = s.goals as [Extract<CalGoal, { kind: 'delete' }>, Extract<CalGoal, { kind: 'reschedule' }>, Extract<CalGoal, { kind: 'create' }>];
  assert.equal(move.kind, 'reschedule');
  const w = s.variant.words;
  const e = s.events.find((x) => x.id === del.event)!;
  await b.goto(inst.spec.startUrl);
  assert.match(b.url, /\/month\/\d{4}-\d{2}$/);
  await b.click('link', eventLabel(w, e));
  await b.click('link', w.deleteEvent);
  assert.ok(s.events.some((x) => x.id === e.id), 'nothing is deleted before the confirmation');
  await b.click('button', w.confirmDelete);
  assert.ok(b.text().includes(fill(w.deleted, { title: e.title })), b.text());
  await b.goto(`${inst.ctx.baseUrl}/event/${move.event}/edit`);
  await b.fill('textbox', fieldLabel(w, 'date'), move.date);
  await b.select(fieldLabel(w, 'start'), timeLabel(move.start));
  await b.select(fieldLabel(w, 'end'), timeLabel(move.end));
  await b.click('button', w.save);
  await b.goto(`${inst.ctx.baseUrl}/month/${s.today.slice(0, 7)}`);
  await b.click('link', w.nextMonth);
  await b.click('link', longDate(add.date));
  assert.equal(firstFreeHour(s.events, add.date), add.start, 'the day view shows what the free slot is computed from');
  await b.click('link', w.newOnDay);
  assert.equal(b.find('textbox', fieldLabel(w, 'date')).value, add.date, 'the form starts on that day');
  await b.fill('textbox', fieldLabel(w, 'title'), add.title);
  await b.select(fieldLabel(w, 'start'), timeLabel(add.start));
  await b.select(fieldLabel(w, 'end'), timeLabel(add.end));
  await b.click('button', w.save);
  assert.ok(b.text().includes(w.saved), b.text());
  const c = inst.family.check(inst.ctx);
  assert.ok(c.success, JSON.stringify(c.keyPoints));
  // Booking a later slot instead fails on the start time.
  const x = open(10000, 3);
  const wadd = x.s.goals[2] as Extract<CalGoal, { kind: 'create' }>;
  await x.b.goto(`${x.inst.ctx.baseUrl}/event/new?date=${wadd.date}`);
  await x.b.fill('textbox', fieldLabel(w, 'title'), wadd.title);
  await x.b.select(fieldLabel(w, 'start'), '8:00 PM');
  await x.b.select(fieldLabel(w, 'end'), '9:00 PM');
  await x.b.click('button', w.save);
  const wc = x.inst.family.check(x.inst.ctx);
  assert.equal(wc.success, false);
  assert.equal(wc.keyPoints.find((k) => k.name.startsWith('starts '))!.met, false);
});

test('calendar: editing moves an event; deleting another one is a reported side effect', async () => {
  const { inst, s, b } = open(10001, 2, 'reschedule');
  const g = s.goals[0] as Extract<CalGoal, { kind: 'reschedule' }>;
  const w = s.variant.words;
  const e = s.events.find((x) => x.id === g.event)!;
  await b.goto(`${inst.ctx.baseUrl}/event/${e.id}`);
  await b.click('link', w.editEvent);
  assert.equal(b.find('textbox', fieldLabel(w, 'title')).value, e.title);
  await b.fill('textbox', fieldLabel(w, 'date'), g.date);
  await b.select(fieldLabel(w, 'start'), timeLabel(g.start));
  await b.select(fieldLabel(w, 'end'), timeLabel(g.end));
  await b.click('button', w.save);
  assert.ok(inst.family.check(inst.ctx).success, JSON.stringify(inst.family.check(inst.ctx).keyPoints));
  const other = s.events.find((x) => x.id !== e.id)!;
  await b.goto(`${inst.ctx.baseUrl}/event/${other.id}/delete`);
  await b.click('button', w.confirmDelete);
  const c = inst.family.check(inst.ctx);
  assert.equal(c.success, false);
  assert.equal(c.keyPoints.find((k) => k.name === 'no other events changed or deleted')!.met, false);
});

test('calendar: the event form validates title, date and times and escapes input', async () => {
  const { inst, s, b } = open(10002, 2);
  const w = s.variant.words;
  const before = s.events.length;
  await b.goto(`${inst.ctx.baseUrl}/event/new`);
  await b.fill('textbox', fieldLabel(w, 'date'), 'tomorrow-ish');
  await b.select(fieldLabel(w, 'start'), '3:00 PM');
  await b.select(fieldLabel(w, 'end'), '2:00 PM');
  await b.click('button', w.save);
  const t = b.text();
  assert.match(t, /Give the event a title/);
  assert.match(t, /Enter the date as YYYY-MM-DD/);
  assert.match(t, /must end after it starts/);
  assert.equal(b.find('combobox', fieldLabel(w, 'start')).value, '3:00 PM', 'choices survive the error');
  await b.fill('textbox', fieldLabel(w, 'title'), '<img src=x>');
  await b.fill('textbox', fieldLabel(w, 'date'), s.today);
  await b.select(fieldLabel(w, 'end'), '4:00 PM');
  await b.click('button', w.save);
  assert.ok(b.html.includes('&lt;img src=x&gt;'));
  assert.equal(s.events.length, before + 1);
  const c = inst.family.check(inst.ctx);
  assert.equal(c.keyPoints.find((k) => k.name === 'no stray new events')!.met, false);
});

test('calendar: times in answers are read in every usual format', () => {
  assert.deepEqual(timesIn('It starts at 2:30 PM.'), [870]);
  assert.deepEqual(timesIn('2 pm'), [840]);
  assert.deepEqual(timesIn('at 14:30'), [870]);
  assert.deepEqual(timesIn('9:00 a.m. sharp'), [540]);
  assert.deepEqual(timesIn('on 3 March'), []);
});

test('calendar: questions are answered by message; a wrong time fails', async () => {
  const { inst, s, b } = open(10003, 1, 'free_slot');
  const g = s.goals[0] as Extract<CalGoal, { kind: 'free_slot' }>;
  await b.goto(`${inst.ctx.baseUrl}/day/${g.date}`);
  await b.step(`send_msg_to_user('You are free from ${timeLabel(g.answer).toLowerCase()}')`);
  assert.ok(inst.family.check(inst.ctx).success);
  const w = open(10003, 1, 'start_time');
  const wg = w.s.goals[0] as Extract<CalGoal, { kind: 'start_time' }>;
  await w.b.step(`send_msg_to_user('${wg.answer === '06:00' ? '7:00' : '6:00'} AM')`);
  assert.equal(w.inst.family.check(w.inst.ctx).success, false);
});

const TIERS = [1, 2, 3] as const;
const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2);

test('calendar: the oracle solves 60 train and 60 test seeds of every tier over real HTTP', async (t) => {
  for (const tier of TIERS) {
    const steps: number[] = [];
    for (const seed of [...Array.from({ length: 60 }, (_, i) => i * 13), ...Array.from({ length: 60 }, (_, i) => 10000 + i)]) {
      const r = await runAgent(server, 'calendar', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${r.instance.spec.instruction}\n${JSON.stringify(c.keyPoints.filter((k) => !k.met))}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
      steps.push(r.steps);
      server.releaseInstance(r.instance.ctx.id);
    }
    t.diagnostic(`tier ${tier}: mean oracle steps ${mean(steps)} (min ${Math.min(...steps)}, max ${Math.max(...steps)}) over ${steps.length} seeds`);
  }
});

test('calendar: every label has synonyms that no other label uses', () => {
  const owners = new Map<string, string[]>();
  for (const [key, options] of Object.entries(WORDING)) {
    assert.ok(options.length >= 3, `${key} has ${options.length} synonyms`);
    assert.equal(new Set(options.map((o) => o.toLowerCase())).size, options.length, `${key} repeats a synonym`);
    for (const o of options) owners.set(o.toLowerCase(), [...(owners.get(o.toLowerCase()) ?? []), key]);
  }
  // The distractor links' names stay apart from every label too.
  for (const k of ['settings', 'help', 'shared'] as const) assert.ok(!owners.has(navLabel(drawVariant(0).words, k).toLowerCase()), k);
  // "Cancel" is the original word of both cancel links, which never share a page.
  const shared = [...owners].filter(([, keys]) => keys.length > 1).map(([o, keys]) => `${o}: ${keys.join(', ')}`);
  assert.deepEqual(shared, ['cancel: cancelDelete, cancelForm']);
});

test('calendar: instances differ in wording, order, distractors and layout; one seed renders the same twice', async () => {
  const variants = Array.from({ length: 40 }, (_, i) => drawVariant(10000 + i));
  for (const knob of ['navPlacement', 'monthView', 'dayView', 'weekStart', 'weekdayStyle', 'eventText', 'newButton', 'accent'] as const) {
    assert.ok(new Set(variants.map((v) => v[knob])).size >= 2, `${knob} never varies`);
  }
  for (const key of ['navNew', 'save', 'confirmDelete', 'newOnDay', 'editEvent', 'nextMonth'] as const) {
    assert.equal(new Set(variants.map((v) => v.words[key])).size, WORDING[key].length, `every synonym of "${WORDING[key][0]}" is drawn`);
  }
  assert.ok(new Set(variants.map((v) => v.nav.join())).size >= 25, 'navigation orders vary');
  assert.ok(new Set(variants.map((v) => v.sections.join())).size >= 10, 'month-page section orders vary');
  assert.ok(new Set(variants.map((v) => v.formFields.join())).size >= 4, 'form field orders vary');
  assert.ok(new Set(variants.map((v) => v.details.join())).size >= 10, 'event detail orders vary');
  const distractors = (v: (typeof variants)[number]) => v.nav.length - 3 + v.sections.length - 1;
  assert.ok(variants.every((v) => distractors(v) >= 1 && distractors(v) <= 3), 'one to three distractors each');
  assert.deepEqual(new Set(variants.map(distractors)), new Set([1, 2, 3]));

  // Two seeds, the same pages: different navigation names or order, different labels on the form.
  const pagesOf = async (seed: number) => {
    const { inst, s, b } = open(seed, 2);
    await b.goto(`${inst.ctx.baseUrl}/`);
    const names = s.variant.nav.map((k) => navLabel(s.variant.words, k));
    const shown = b.observe().elements.filter((e) => e.role === 'link' && names.includes(e.name)).map((e) => e.name);
    assert.deepEqual(shown, names, 'the navigation shows in the variant order');
    await b.goto(`${inst.ctx.baseUrl}/event/new`);
    const form = b.observe().elements.filter((e) => ['combobox', 'textbox', 'button'].includes(e.role)).map((e) => e.name);
    return { shown, form };
  };
  const a = await pagesOf(10000);
  const c = await pagesOf(10001);
  assert.notDeepEqual(a.shown, c.shown);
  assert.notDeepEqual(a.form, c.form);

  // The same seed twice: byte for byte the same pages, but for the instance's own prefix.
  const render = async (seed: number) => {
    const { inst, s, b } = open(seed, 3);
    const e = s.events[0];
    return b.instancePages(inst.ctx.baseUrl, ['/', `/month/${s.today.slice(0, 7)}`, `/day/${e.date}`, `/event/${e.id}`, `/event/${e.id}/edit`, `/event/${e.id}/delete`, '/event/new', `/search?q=${encodeURIComponent(e.title)}`, '/settings', '/help', '/shared', '/sync']);
  };
  assert.deepEqual(await render(10007), await render(10007));
});

test('calendar: distractor pages are plain pages that change nothing', async () => {
  const seedWhere = (want: (v: ReturnType<typeof drawVariant>) => boolean) => Array.from({ length: 200 }, (_, i) => 10000 + i).find((sd) => want(drawVariant(sd)))!;
  // One instance with all three distractor links, another with the phone-sync box.
  const tour = async (seed: number, links: string[]) => {
    const { inst, s, b } = open(seed, 2);
    const before = JSON.stringify(s.events);
    for (const name of links) {
      await b.goto(`${inst.ctx.baseUrl}/`);
      await b.click('link', name);
      assert.equal(b.status, 200);
      assert.match(b.text(), /not available|managed by your organisation|rewritten|Nobody has shared/);
      // Nothing to do there but the header's search.
      assert.deepEqual(b.observe().elements.filter((e) => e.role === 'button').map((e) => e.name), [s.variant.words.searchButton]);
    }
    assert.equal(JSON.stringify(s.events), before);
    assert.equal(inst.family.check(inst.ctx).success, false, 'a tour of the distractors does no task');
  };
  const allLinks = seedWhere((v) => v.nav.length === 6);
  await tour(allLinks, (['settings', 'help', 'shared'] as const).map((k) => navLabel(drawVariant(allLinks).words, k)));
  await tour(seedWhere((v) => v.sections.includes('sync')), ['Set up phone sync']);
});

test('calendar: the oracle succeeds in real Chromium on test seeds of every tier', async (t) => {
  const seeds = [10100, 10101, 10103, 10104];
  // These four seeds put the navigation in all three places and show the month in all three ways.
  assert.deepEqual(new Set(seeds.map((x) => drawVariant(x).navPlacement)), new Set(['top', 'side', 'header']));
  assert.deepEqual(new Set(seeds.map((x) => drawVariant(x).monthView)), new Set(['grid', 'list', 'cards']));
  const steps = await oracleInChromium(server, 'calendar', seeds);
  t.diagnostic(`Chromium mean oracle steps over ${seeds.length} seeds: tier 1 ${steps[1].toFixed(2)}, tier 2 ${steps[2].toFixed(2)}, tier 3 ${steps[3].toFixed(2)}`);
});
