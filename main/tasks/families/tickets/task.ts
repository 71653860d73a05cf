/** Picks the ticketing task for a seed and tier, phrases its instruction, and judges the result. */
import type { CheckResult, GoalKind, KeyPoint, Tier } from '../../types.ts';
import { money } from '../common/html.ts';
import { answerMatches, sameText } from '../../../common/normalize.ts';
import { Rng, mixSeed } from '../../../common/rng.ts';
import { timesIn } from '../calendar/task.ts';
import { minutes } from '../calendar/data.ts';
import { dayMonthYear } from '../common/dates.ts';
import { SECTIONS, adjacentFree, generateEvents, seatPrice, timeLabel, type TicketGoal, type TicketOrder, type TicketsState } from './data.ts';
import { eventTitle, type Ctx } from './site.ts';
import { drawVariant } from './variant.ts';

const FIRST = ['Jane', 'Omar', 'Lucia', 'Kwame', 'Sara', 'Ben', 'Yuki', 'Nadia'];
const LAST = ['Doe', 'Haddad', 'Fernandez', 'Mensah', 'Lund', 'Sato', 'Karimi', 'Berg'];
const SITES = ['TicketTrove', 'SeatSpot', 'StageDoor', 'GateKeeper'];

export function generateTicketsTask(seed: number, tier: Tier): { state: TicketsState; instruction: string; startPath: string; goalKind: GoalKind } {
  const { today, events } = generateEvents(seed);
  const rng = new Rng(mixSeed(seed, 'tickets-task', tier));
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const name = `${first} ${last}`;
  const email = `${first}.${last}@example.com`.toLowerCase();
  const delivery = rng.pick(['Mobile tickets', 'Will call'] as const);
  let goal: TicketGoal;
  let instruction: string;
  let startPath = '/';
  if (tier === 1) {
    const e = rng.pick(events);
    if (rng.chance(0.5)) {
      goal = { kind: 'fact', event: e.id, label: 'start time', answer: e.time };
      instruction = `What time does ${e.name} in ${e.city} start? Tell me in a message.`;
    } else {
      const sec = rng.pick(SECTIONS);
      goal = { kind: 'fact', event: e.id, label: `${sec.name} ticket price`, answer: money(seatPrice(e, sec.rows[0] + '1')) };
      instruction = `How much is one ${sec.name} ticket for ${e.name} in ${e.city}? Tell me in a message.`;
    }
  } else {
    const withPairs = events.flatMap((e) => SECTIONS.flatMap((s) => s.rows.filter((r) => adjacentFree(e, r, 2)).map((r) => ({ e, r }))));
    const { e, r } = rng.pick(withPairs);
    const pair = adjacentFree(e, r, 2)!;
    const how = delivery === 'Mobile tickets' ? 'as mobile tickets' : 'for pickup at will call';
    if (tier === 2) {
      goal = { kind: 'buy', event: e.id, seats: pair, name, email, delivery };
      startPath = `/event/${e.id}`;
      instruction = `Buy seats ${pair[0]} and ${pair[1]} (row ${r}, seats ${pair[0].slice(1)} and ${pair[1].slice(1)}) for this event, ${how}. Name ${name}, email ${email}.`;
    } else {
      goal = { kind: 'buy', event: e.id, seats: pair, name, email, delivery, city: e.city, section: r };
      instruction = `Get two seats next to each other in row ${r} for ${e.name} in ${e.city} on ${dayMonthYear(e.date)}, ${how}. Name ${name}, email ${email}.`;
    }
  }
  return { state: { siteName: rng.pick(SITES), today, events, holds: {}, orders: [], goal, variant: drawVariant(seed) }, instruction, startPath, goalKind: goal.kind === 'buy' ? 'state' : 'answer' };
}

function orderPoints(ctx: Ctx, o: TicketOrder | undefined): KeyPoint[] {
  const s = ctx.state;
  const g = s.goal as Extract<TicketGoal, { kind: 'buy' }>;
  const e = s.events.find((x) => x.id === g.event)!;
  const kp: KeyPoint[] = [];
  const point = (n: string, met: boolean, detail?: string) => kp.push({ name: n, met, ...(detail ? { detail } : {}) });
  point('tickets bought', !!o, o?.code ?? 'no order was placed');
  point(`event ${eventTitle(e)}`, o?.event === g.event);
  if (g.section) {
    // Any two adjacent seats in the row will do.
    const nums = (o?.seats ?? []).map((x) => Number(x.slice(1))).sort((a, b) => a - b);
    const ok = !!o && o.seats.length === 2 && o.seats.every((x) => x[0] === g.section) && nums[1] - nums[0] === 1;
    point(`two adjacent seats in row ${g.section}`, ok, o?.seats.join(', '));
  } else point(`seats ${g.seats.join(' and ')}`, !!o && o.seats.join() === g.seats.join(), o?.seats.join(', '));
  point('name', !!o && sameText(o.name, g.name), o?.name);
  point('email', !!o && sameText(o.email, g.email), o?.email);
  point(g.delivery, o?.delivery === g.delivery, o?.delivery);
  return kp;
}

export function checkTickets(ctx: Ctx): CheckResult {
  const s = ctx.state;
  const g = s.goal;
  let kp: KeyPoint[];
  if (g.kind === 'fact') {
    const ok = (m: string) => (g.label === 'start time' ? timesIn(m).includes(minutes(g.answer)) : answerMatches(g.answer, m));
    kp = [
      { name: 'answer sent', met: ctx.agentMessages.length > 0 },
      { name: `correct ${g.label}`, met: ctx.agentMessages.some(ok), ...(ctx.agentMessages.length ? { detail: ctx.agentMessages.at(-1) } : {}) },
    ];
  } else {
    kp = orderPoints(ctx, s.orders[0]);
    for (const o of s.orders.slice(1)) {
      const k = orderPoints(ctx, o);
      if (k.filter((x) => x.met).length >= kp.filter((x) => x.met).length) kp = k;
    }
    kp.push({ name: 'no other orders', met: s.orders.length <= 1, ...(s.orders.length > 1 ? { detail: `${s.orders.length} orders` } : {}) });
  }
  return { success: kp.every((k) => k.met), keyPoints: kp };
}

export { timeLabel };
