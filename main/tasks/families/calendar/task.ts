/** Picks the calendar task for a seed and tier, phrases its instruction, and judges the result. */
import type { CheckResult, GoalKind, KeyPoint, Tier } from '../../types.ts';
import { sameText } from '../../../common/normalize.ts';
import { Rng, mixSeed } from '../../../common/rng.ts';
import { addDays, dayMonthYear, longDate, weekday } from '../common/dates.ts';
import { NEW_TITLES, firstFreeHour, fromMinutes, generateCalendar, minutes, timeLabel, type CalEvent, type CalGoal, type CalendarState } from './data.ts';
import type { Ctx } from './chrome.ts';
import { drawVariant } from './variant.ts';

const OWNERS = ['Dana Whitfield', 'Luis Garcia', 'Priya Patel', 'Marcus Okafor', 'Elena Novak', 'Kenji Tanaka'];

/** Times of day in a message, in minutes: "2:30 PM", "2 pm", "14:30" (bare hours need AM/PM). */
export function timesIn(message: string): number[] {
  const out: number[] = [];
  for (const m of message.matchAll(/\b(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?(?![\d])/gi)) {
    const h = Number(m[1]);
    const min = m[2] ? Number(m[2]) : 0;
    const ap = m[3]?.toLowerCase().replace(/\./g, '');
    if (!ap && !m[2]) continue;
    if (min > 59 || h > 23) continue;
    if (ap) {
      if (h < 1 || h > 12) continue;
      out.push(((h % 12) + (ap === 'pm' ? 12 : 0)) * 60 + min);
    } else out.push(h * 60 + min);
  }
  return out;
}

function q(title: string): string {
  return `"${title}"`;
}

export function generateCalendarTask(seed: number, tier: Tier): { state: CalendarState; instruction: string; goalKind: GoalKind } {
  const { today, events } = generateCalendar(seed);
  const rng = new Rng(mixSeed(seed, 'calendar-task', tier));
  const ym = today.slice(0, 7);
  const thisMonth = events.filter((e) => e.date.startsWith(ym));
  const nextMonth = events.filter((e) => !e.date.startsWith(ym));
  const weekdaysNext = Array.from({ length: 62 }, (_, i) => addDays(today.slice(0, 8) + '01', i)).filter((d) => !d.startsWith(ym) && weekday(d) > 0 && weekday(d) < 6 && d.slice(0, 7) === addDays(today.slice(0, 8) + '01', 40).slice(0, 7));
  const goals: CalGoal[] = [];
  let instruction: string;
  const durationOf = (e: CalEvent) => minutes(e.end) - minutes(e.start);
  if (tier === 1) {
    const kind = rng.pick(['start_time', 'free_slot', 'delete'] as const);
    if (kind === 'start_time') {
      const e = rng.pick(nextMonth.length ? nextMonth : events);
      goals.push({ kind: 'start_time', event: e.id, answer: e.start });
      instruction = `What time does ${q(e.title)} on ${dayMonthYear(e.date)} start? Tell me in a message.`;
    } else if (kind === 'free_slot') {
      const days = [...new Set(thisMonth.map((e) => e.date))].filter((d) => weekday(d) > 0 && weekday(d) < 6 && firstFreeHour(events, d));
      const d = rng.pick(days.length ? days : weekdaysNext.filter((x) => firstFreeHour(events, x)));
      goals.push({ kind: 'free_slot', date: d, answer: firstFreeHour(events, d)! });
      instruction = `On ${longDate(d)}, when does my first free hour between 9 AM and 5 PM start? Tell me the time in a message.`;
    } else {
      const e = rng.pick(thisMonth);
      goals.push({ kind: 'delete', event: e.id });
      instruction = `Delete ${q(e.title)} on ${dayMonthYear(e.date)} from my calendar.`;
    }
  } else if (tier === 2) {
    if (rng.chance(0.5)) {
      const date = rng.pick(weekdaysNext);
      const start = fromMinutes(rng.int(18, 32) * 30);
      const end = fromMinutes(minutes(start) + rng.pick([30, 60, 90]));
      const title = rng.pick(NEW_TITLES);
      const location = rng.pick(['Room 4B', 'Video call', 'Cafe Verde', 'Conference room A']);
      goals.push({ kind: 'create', title, date, start, end, location });
      instruction = `Add an event ${q(title)} on ${dayMonthYear(date)} from ${timeLabel(start)} to ${timeLabel(end)} at ${location}.`;
    } else {
      const e = rng.pick(thisMonth);
      let date = addDays(e.date, rng.int(1, 7));
      while (weekday(date) === 0 || weekday(date) === 6) date = addDays(date, 1);
      let startMin = rng.int(18, 32) * 30;
      if (fromMinutes(startMin) === e.start) startMin += 60;
      const start = fromMinutes(startMin);
      const end = fromMinutes(startMin + durationOf(e));
      goals.push({ kind: 'reschedule', event: e.id, date, start, end });
      instruction = `Move ${q(e.title)} on ${dayMonthYear(e.date)} to ${dayMonthYear(date)}, ${timeLabel(start)} to ${timeLabel(end)}.`;
    }
  } else {
    // Three changes in one go: cancel one event, move another, then book the first free hour of a
    // day next month (free after the move): 14-20 steps.
    const a = rng.pick(thisMonth);
    const b = rng.pick(thisMonth.filter((e) => e.id !== a.id));
    let moveDate = addDays(b.date, rng.int(1, 7));
    while (weekday(moveDate) === 0 || weekday(moveDate) === 6) moveDate = addDays(moveDate, 1);
    let moveMin = rng.int(18, 32) * 30;
    if (fromMinutes(moveMin) === b.start) moveMin += 60;
    const move = { date: moveDate, start: fromMinutes(moveMin), end: fromMinutes(moveMin + durationOf(b)) };
    const after = events.filter((e) => e.id !== a.id).map((e) => (e.id === b.id ? { ...e, ...move } : e));
    const date = rng.pick(weekdaysNext.filter((d) => firstFreeHour(after, d)));
    const start = firstFreeHour(after, date)!;
    const title = rng.pick(NEW_TITLES);
    goals.push(
      { kind: 'delete', event: a.id },
      { kind: 'reschedule', event: b.id, ...move },
      { kind: 'create', title, date, start, end: fromMinutes(minutes(start) + 60), location: '' },
    );
    instruction =
      `Cancel ${q(a.title)} on ${dayMonthYear(a.date)}. Move ${q(b.title)} on ${dayMonthYear(b.date)} to ${dayMonthYear(move.date)}, ${timeLabel(move.start)} to ${timeLabel(move.end)}. ` +
      `Then schedule ${q(title)} for one hour on ${dayMonthYear(date)}, starting at the earliest time between 9 AM and 5 PM when I am free.`;
  }
  const state: CalendarState = { owner: rng.pick(OWNERS), today, events, goals, initial: events.map((e) => ({ ...e })), nextId: 9000, variant: drawVariant(seed) };
  // Questions (a start time, a free hour) are answered by message; the rest are changes to the calendar.
  const goalKind: GoalKind = goals.some((g) => g.kind === 'start_time' || g.kind === 'free_slot') ? 'answer' : 'state';
  return { state, instruction, goalKind };
}

/** The event a create goal made: new, with the asked title. */
export function created(s: CalendarState, g: Extract<CalGoal, { kind: 'create' }>): CalEvent | undefined {
  const initial = new Set(s.initial.map((e) => e.id));
  const mine = s.events.filter((e) => !initial.has(e.id) && sameText(e.title, g.title));
  return mine.find((e) => e.date === g.date && e.start === g.start && e.end === g.end) ?? mine[0];
}

export function goalMet(ctx: Ctx, g: CalGoal): boolean {
  const s = ctx.state;
  if (g.kind === 'start_time' || g.kind === 'free_slot') return ctx.agentMessages.some((m) => timesIn(m).includes(minutes(g.answer)));
  if (g.kind === 'delete') return !s.events.some((e) => e.id === g.event);
  if (g.kind === 'reschedule') {
    const e = s.events.find((x) => x.id === g.event);
    return !!e && e.date === g.date && e.start === g.start && e.end === g.end;
  }
  const e = created(s, g);
  return !!e && e.date === g.date && e.start === g.start && e.end === g.end && (!g.location || sameText(e.location, g.location));
}

const same = (a: CalEvent, b: CalEvent) => a.title === b.title && a.date === b.date && a.start === b.start && a.end === b.end && a.location === b.location;

/** Events the task did not name that are gone or changed (an identical event put back counts as present). */
export function disturbed(s: CalendarState): CalEvent[] {
  const touched = new Set(s.goals.flatMap((g) => ('event' in g ? [g.event] : [])));
  return s.initial.filter((o) => !touched.has(o.id) && !s.events.some((e) => same(e, o)));
}

/** New events that neither a create goal asked for nor put back an original. */
export function strays(s: CalendarState): CalEvent[] {
  const initial = new Set(s.initial.map((e) => e.id));
  const wanted = new Set(s.goals.flatMap((g) => (g.kind === 'create' ? [created(s, g)?.id] : [])));
  return s.events.filter((e) => !initial.has(e.id) && !wanted.has(e.id) && !s.initial.some((o) => same(o, e)));
}

export function checkCalendar(ctx: Ctx): CheckResult {
  const s = ctx.state;
  const kp: KeyPoint[] = [];
  const point = (name: string, met: boolean, detail?: string) => kp.push({ name, met, ...(detail ? { detail } : {}) });
  const initialById = new Map(s.initial.map((e) => [e.id, e]));
  const touched = new Set<number>();
  void touched;
  for (const g of s.goals) {
    if (g.kind === 'start_time' || g.kind === 'free_slot') {
      point('answer sent', ctx.agentMessages.length > 0);
      point(g.kind === 'start_time' ? 'correct start time' : 'correct free slot', goalMet(ctx, g), ctx.agentMessages.at(-1));
    } else if (g.kind === 'delete') {
      touched.add(g.event);
      point(`deleted ${q(initialById.get(g.event)!.title)}`, goalMet(ctx, g));
    } else if (g.kind === 'reschedule') {
      touched.add(g.event);
      const e = s.events.find((x) => x.id === g.event);
      const orig = initialById.get(g.event)!;
      point(`${q(orig.title)} still exists`, !!e);
      point(`moved to ${g.date}`, e?.date === g.date, e?.date);
      point(`starts ${timeLabel(g.start)}`, e?.start === g.start, e ? timeLabel(e.start) : undefined);
      point(`ends ${timeLabel(g.end)}`, e?.end === g.end, e ? timeLabel(e.end) : undefined);
      point('title unchanged', !!e && e.title === orig.title, e?.title);
    } else {
      const e = created(s, g);
      point(`event ${q(g.title)} created`, !!e);
      point(`on ${g.date}`, e?.date === g.date, e?.date);
      point(`starts ${timeLabel(g.start)}`, e?.start === g.start, e ? timeLabel(e.start) : undefined);
      point(`ends ${timeLabel(g.end)}`, e?.end === g.end, e ? timeLabel(e.end) : undefined);
      if (g.location) point(`at ${g.location}`, !!e && sameText(e.location, g.location), e?.location);
    }
  }
  const changed = disturbed(s);
  point('no other events changed or deleted', changed.length === 0, changed.map((e) => e.title).join('; ') || undefined);
  const fresh = strays(s);
  point('no stray new events', fresh.length === 0, fresh.map((e) => e.title).join('; ') || undefined);
  return { success: kp.every((k) => k.met), keyPoints: kp };
}
