import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import { firstFreeHour, timeLabel, type CalGoal, type CalendarState } from '../../main/tasks/families/calendar/data.ts';
import { eventLabel } from '../../main/tasks/families/calendar/pages.ts';
import { timesIn } from '../../main/tasks/families/calendar/task.ts';
import { longDate } from '../../main/tasks/families/common/dates.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';

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
  const e = s.events.find((x) => x.id === del.event)!;
  await b.goto(inst.spec.startUrl);
  assert.match(b.url, /\/month\/\d{4}-\d{2}$/);
  await b.click('link', eventLabel(e));
  await b.click('link', 'Delete event');
  assert.ok(s.events.some((x) => x.id === e.id), 'nothing is deleted before the confirmation');
  await b.click('button', 'Yes, delete');
  assert.match(b.text(), new RegExp(`Deleted "${e.title}"`));
  await b.goto(`${inst.ctx.baseUrl}/event/${move.event}/edit`);
  await b.fill('textbox', 'Date', move.date);
  await b.select('Start time', timeLabel(move.start));
  await b.select('End time', timeLabel(move.end));
  await b.click('button', 'Save event');
  await b.goto(`${inst.ctx.baseUrl}/month/${s.today.slice(0, 7)}`);
  await b.click('link', 'Next month');
  await b.click('link', longDate(add.date));
  assert.equal(firstFreeHour(s.events, add.date), add.start, 'the day view shows what the free slot is computed from');
  await b.click('link', 'New event on this day');
  assert.equal(b.find('textbox', 'Date').value, add.date, 'the form starts on that day');
  await b.fill('textbox', 'Title', add.title);
  await b.select('Start time', timeLabel(add.start));
  await b.select('End time', timeLabel(add.end));
  await b.click('button', 'Save event');
  assert.match(b.text(), /Event saved/);
  const c = inst.family.check(inst.ctx);
  assert.ok(c.success, JSON.stringify(c.keyPoints));
  // Booking a later slot instead fails on the start time.
  const w = open(10000, 3);
  const wadd = w.s.goals[2] as Extract<CalGoal, { kind: 'create' }>;
  await w.b.goto(`${w.inst.ctx.baseUrl}/event/new?date=${wadd.date}`);
  await w.b.fill('textbox', 'Title', wadd.title);
  await w.b.select('Start time', '8:00 PM');
  await w.b.select('End time', '9:00 PM');
  await w.b.click('button', 'Save event');
  const wc = w.inst.family.check(w.inst.ctx);
  assert.equal(wc.success, false);
  assert.equal(wc.keyPoints.find((k) => k.name.startsWith('starts '))!.met, false);
});

test('calendar: editing moves an event; deleting another one is a reported side effect', async () => {
  const { inst, s, b } = open(10001, 2, 'reschedule');
  const g = s.goals[0] as Extract<CalGoal, { kind: 'reschedule' }>;
  const e = s.events.find((x) => x.id === g.event)!;
  await b.goto(`${inst.ctx.baseUrl}/event/${e.id}`);
  await b.click('link', 'Edit event');
  assert.equal(b.find('textbox', 'Title').value, e.title);
  await b.fill('textbox', 'Date', g.date);
  await b.select('Start time', timeLabel(g.start));
  await b.select('End time', timeLabel(g.end));
  await b.click('button', 'Save event');
  assert.ok(inst.family.check(inst.ctx).success, JSON.stringify(inst.family.check(inst.ctx).keyPoints));
  const other = s.events.find((x) => x.id !== e.id)!;
  await b.goto(`${inst.ctx.baseUrl}/event/${other.id}/delete`);
  await b.click('button', 'Yes, delete');
  const c = inst.family.check(inst.ctx);
  assert.equal(c.success, false);
  assert.equal(c.keyPoints.find((k) => k.name === 'no other events changed or deleted')!.met, false);
});

test('calendar: the event form validates title, date and times and escapes input', async () => {
  const { inst, s, b } = open(10002, 2);
  const before = s.events.length;
  await b.goto(`${inst.ctx.baseUrl}/event/new`);
  await b.fill('textbox', 'Date', 'tomorrow-ish');
  await b.select('Start time', '3:00 PM');
  await b.select('End time', '2:00 PM');
  await b.click('button', 'Save event');
  const t = b.text();
  assert.match(t, /Give the event a title/);
  assert.match(t, /Enter the date as YYYY-MM-DD/);
  assert.match(t, /must end after it starts/);
  assert.equal(b.find('combobox', 'Start time').value, '3:00 PM', 'choices survive the error');
  await b.fill('textbox', 'Title', '<img src=x>');
  await b.fill('textbox', 'Date', s.today);
  await b.select('End time', '4:00 PM');
  await b.click('button', 'Save event');
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

test('calendar: the oracle solves every tier over real HTTP', async () => {
  for (const tier of [1, 2, 3] as const) {
    for (const seed of [10010, 10011, 10012, 10013, 10014]) {
      const r = await runAgent(server, 'calendar', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints)}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
    }
  }
});
