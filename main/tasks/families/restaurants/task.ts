/** Picks the restaurant task for a seed and tier, phrases its instruction, and judges the result. */
import type { CheckResult, GoalKind, KeyPoint, Tier } from '../../types.ts';
import { money } from '../common/html.ts';
import { answerMatches, sameText } from '../../../common/normalize.ts';
import { Rng, mixSeed } from '../../../common/rng.ts';
import { addDays, dayMonthYear, iso } from '../common/dates.ts';
import { TIMES, generateRestaurants, slotOpen, timeLabel, type Reservation, type Restaurant, type RestaurantGoal, type RestaurantsState } from './data.ts';
import { partyLabel, type Ctx } from './pages.ts';

const FIRST = ['Jane', 'Omar', 'Lucia', 'Kwame', 'Sara', 'Ben', 'Yuki', 'Nadia', 'Pedro', 'Ingrid', 'Ravi', 'Chloe', 'Felix', 'Amara', 'Leo'];
const LAST = ['Doe', 'Haddad', 'Fernandez', 'Mensah', 'Lund', "O'Brien", 'Sato', 'Karimi', 'Alves', 'Berg', 'Iyer', 'Dubois', 'Wagner', 'Obi', 'Marsh'];
const SITES = ['TableTime', 'DineNow', 'ForkFinder', 'SeatMe'];

/** The highest-rated restaurant of a cuisine in a neighborhood (ratings are distinct there). */
export function bestIn(rs: Restaurant[], cuisine: string, area: string): Restaurant {
  return rs.filter((r) => r.cuisine === cuisine && r.area === area).sort((a, b) => b.rating - a.rating)[0];
}

/** First day from `from` with an open table at or after `after`, and that time. */
function firstOpen(seed: number, r: Restaurant, from: string, party: number, after: string): { date: string; time: string } {
  for (let d = 0; d < 366; d++) {
    const date = addDays(from, d);
    const time = TIMES.find((t) => t >= after && slotOpen(seed, r, date, t, party));
    if (time) return { date, time };
  }
  return { date: from, time: TIMES.find((t) => slotOpen(seed, r, from, t, 1)) ?? after };
}

export function generateRestaurantsTask(seed: number, tier: Tier): { state: RestaurantsState; instruction: string; startPath: string; goalKind: GoalKind } {
  const { city, restaurants } = generateRestaurants(seed);
  const rng = new Rng(mixSeed(seed, 'restaurants-task', tier));
  const today = iso(2026 + rng.int(0, 1), rng.int(1, 12), rng.int(1, 28));
  const name = `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
  const phone = `(${rng.int(201, 989)}) 555-${String(rng.int(100, 9999)).padStart(4, '0')}`;
  const r0 = rng.pick(restaurants);
  let goal: RestaurantGoal;
  let instruction: string;
  let startPath = '/';
  if (tier === 1) {
    if (rng.chance(0.5)) {
      goal = { kind: 'phone', restaurant: r0.id, answer: r0.phone };
      instruction = `What is the phone number of ${r0.name}? Tell me in a message.`;
    } else {
      const d = rng.pick(r0.menu);
      goal = { kind: 'dish_price', restaurant: r0.id, dish: d.name, answer: money(d.price) };
      instruction = `How much does the ${d.name} cost at ${r0.name}? Tell me in a message.`;
    }
  } else if (tier === 2) {
    const party = rng.int(2, 6);
    const { date, time } = firstOpen(seed, r0, addDays(today, rng.int(3, 30)), party, rng.pick(TIMES));
    goal = { kind: 'reserve', restaurant: r0.id, date, time, party, name, phone };
    startPath = `/restaurant/${r0.id}`;
    instruction = `Reserve a table at ${r0.name} for ${partyLabel(party)} on ${dayMonthYear(date)} at ${timeLabel(time)}. The reservation is for ${name}, phone ${phone}.`;
  } else {
    const party = rng.int(2, 6);
    const best = bestIn(restaurants, r0.cuisine, r0.area);
    const after = rng.pick(['18:00', '18:30', '19:00', '19:30']);
    const { date, time } = firstOpen(seed, best, addDays(today, rng.int(3, 30)), party, after);
    goal = { kind: 'reserve', restaurant: best.id, date, time, party, name, phone, cuisine: best.cuisine, area: best.area, after };
    instruction = `Book a table for ${partyLabel(party)} on ${dayMonthYear(date)} at the highest-rated ${best.cuisine} restaurant in ${best.area}, at the earliest time available from ${timeLabel(after)} on. The reservation is for ${name}, phone ${phone}.`;
  }
  const state: RestaurantsState = { siteName: rng.pick(SITES), city, today, restaurants, goal, reservations: [], promo: { dismissed: false, joined: false }, ui: { cookiesDismissed: true } };
  return { state, instruction, startPath, goalKind: goal.kind === 'reserve' ? 'state' : 'answer' };
}

const digits = (s: string) => s.replace(/\D/g, '');

/** Phone numbers match on their digits whatever the punctuation; other answers as usual. */
export function answerOk(g: RestaurantGoal, message: string): boolean {
  if (g.kind === 'phone') return digits(message).includes(digits(g.answer));
  if (g.kind === 'dish_price') return answerMatches(g.answer, message);
  return false;
}

function reservationPoints(ctx: Ctx, b: Reservation | undefined): KeyPoint[] {
  const g = ctx.state.goal as Extract<RestaurantGoal, { kind: 'reserve' }>;
  const r = ctx.state.restaurants.find((x) => x.id === g.restaurant)!;
  const kp: KeyPoint[] = [];
  const point = (name: string, met: boolean, detail?: string) => kp.push({ name, met, ...(detail ? { detail } : {}) });
  point('reservation made', !!b, b ? b.code : 'no reservation was made');
  point(`restaurant ${r.name}`, b?.restaurant === g.restaurant, b ? ctx.state.restaurants.find((x) => x.id === b.restaurant)?.name : undefined);
  point(`date ${g.date}`, b?.date === g.date, b?.date);
  point(`time ${timeLabel(g.time)}`, b?.time === g.time, b ? timeLabel(b.time) : undefined);
  point(partyLabel(g.party), b?.party === g.party, b ? String(b.party) : undefined);
  point('name', !!b && sameText(b.name, g.name), b?.name);
  point('phone', !!b && digits(b.phone) === digits(g.phone), b?.phone);
  return kp;
}

export function checkRestaurants(ctx: Ctx): CheckResult {
  const s = ctx.state;
  const g = s.goal;
  let kp: KeyPoint[];
  if (g.kind !== 'reserve') {
    kp = [
      { name: 'answer sent', met: ctx.agentMessages.length > 0 },
      { name: g.kind === 'phone' ? 'correct phone number' : 'correct price', met: ctx.agentMessages.some((m) => answerOk(g, m)), ...(ctx.agentMessages.length ? { detail: ctx.agentMessages.at(-1) } : {}) },
    ];
  } else {
    kp = reservationPoints(ctx, s.reservations[0]);
    for (const b of s.reservations.slice(1)) {
      const k = reservationPoints(ctx, b);
      if (k.filter((x) => x.met).length >= kp.filter((x) => x.met).length) kp = k;
    }
    kp.push({ name: 'no other reservations', met: s.reservations.length <= 1, ...(s.reservations.length > 1 ? { detail: `${s.reservations.length} reservations` } : {}) });
  }
  kp.push({ name: `did not sign up for ${s.siteName}+`, met: !s.promo.joined });
  return { success: kp.every((k) => k.met), keyPoints: kp };
}
