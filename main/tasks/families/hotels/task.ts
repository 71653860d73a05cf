/** Picks the hotel task for a seed and tier, phrases its instruction, and judges the result. */
import type { CheckResult, GoalKind, KeyPoint, Tier } from '../../types.ts';
import { money } from '../common/html.ts';
import { answerMatches, sameText } from '../../../common/normalize.ts';
import { Rng, mixSeed } from '../../../common/rng.ts';
import { addDays, dayMonthYear, iso } from '../common/dates.ts';
import { cheapestFitting, generateHotels, type Hotel, type HotelBooking, type HotelsGoal, type HotelsState } from './data.ts';
import type { Ctx } from './chrome.ts';
import { drawVariant } from './variant.ts';

const FIRST = ['Jane', 'Omar', 'Lucia', 'Kwame', 'Sara', 'Ben', 'Yuki', 'Nadia', 'Pedro', 'Ingrid', 'Ravi', 'Chloe', 'Felix', 'Amara', 'Leo'];
const LAST = ['Doe', 'Haddad', 'Fernandez', 'Mensah', 'Lund', "O'Brien", 'Sato', 'Karimi', 'Alves', 'Berg', 'Iyer', 'Dubois', 'Wagner', 'Obi', 'Marsh'];
const SITES = ['StayFinder', 'RoomRover', 'NightNest', 'InnSight'];

export function searchPath(city: string, checkin: string, checkout: string, guests: number): string {
  return `/search?${new URLSearchParams({ city, checkin, checkout, guests: String(guests) })}`;
}

function guestsText(n: number): string {
  return `${n} guest${n > 1 ? 's' : ''}`;
}

/** The one hotel a "cheapest with at least N stars" question names, or undefined on a price tie. */
export function cheapestHotel(hotels: Hotel[], city: string, guests: number, minStars: number, breakfast: boolean): Hotel | undefined {
  const c = hotels
    .filter((h) => h.city === city && h.stars >= minStars && (!breakfast || h.amenities.includes('Free breakfast')))
    .map((h) => ({ h, p: cheapestFitting(h, guests)?.price }))
    .filter((x): x is { h: Hotel; p: number } => x.p !== undefined)
    .sort((a, b) => a.p - b.p);
  if (!c.length || (c.length > 1 && c[0].p === c[1].p)) return undefined;
  return c[0].h;
}

export function generateHotelsTask(seed: number, tier: Tier): { state: HotelsState; instruction: string; startPath: string; goalKind: GoalKind } {
  const { cities, hotels } = generateHotels(seed);
  const rng = new Rng(mixSeed(seed, 'hotels-task', tier));
  const today = iso(2026 + rng.int(0, 1), rng.int(1, 12), rng.int(1, 28));
  const checkin = addDays(today, rng.int(7, 60));
  const nights = rng.int(1, 5);
  const checkout = addDays(checkin, nights);
  const stay = `from ${dayMonthYear(checkin)} to ${dayMonthYear(checkout)}`;
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const email = `${first}.${last}@example.com`.toLowerCase().replace(/'/g, '');
  let city = rng.pick(cities);
  let goal: HotelsGoal;
  let instruction: string;
  let startPath: string;
  let guests = 2;
  if (tier === 1) {
    startPath = searchPath(city, checkin, checkout, 2);
    if (rng.chance(0.5)) {
      const firstPage = hotels.filter((h) => h.city === city).sort((a, b) => a.rank - b.rank).slice(0, 8);
      const h = rng.pick(firstPage);
      const r = rng.pick(h.rooms);
      goal = { kind: 'room_price', hotel: h.id, room: r.id, answer: money(r.price) };
      instruction = `These are hotels in ${city} ${stay}. What is the price per night of the ${r.name} at ${h.name}? Tell me in a message.`;
    } else {
      const minStars = rng.pick([3, 4]);
      const h = cheapestHotel(hotels, city, 2, minStars, false)!;
      goal = { kind: 'cheapest', city, minStars, guests: 2, answer: h.name };
      instruction = `These are hotels in ${city} ${stay} for 2 guests. Which hotel with at least ${minStars} stars has the lowest price per night? Tell me its name in a message.`;
    }
  } else if (tier === 2) {
    guests = rng.int(1, 3);
    startPath = searchPath(city, checkin, checkout, guests);
    const h = rng.pick(hotels.filter((x) => x.city === city && cheapestFitting(x, guests)));
    const r = rng.pick(h.rooms.filter((x) => x.sleeps >= guests));
    goal = { kind: 'book', hotel: h.id, room: r.id, checkin, checkout, guests, first, last, email };
    instruction = `Book the ${r.name} at ${h.name} in ${city} ${stay} for ${guestsText(guests)}. The guest is ${first} ${last}, email ${email}.`;
  } else {
    startPath = '/';
    guests = rng.int(1, 4);
    let minStars = rng.pick([3, 4]);
    let breakfast = rng.chance(0.4);
    let h: Hotel | undefined;
    // Walk cities and relax the criteria until exactly one hotel is cheapest.
    for (const c of [city, ...cities]) {
      for (const [s, b] of [[minStars, breakfast], [minStars, false], [3, false], [2, false]] as Array<[number, boolean]>) {
        h = cheapestHotel(hotels, c, guests, s, b);
        if (h) {
          [city, minStars, breakfast] = [c, s, b];
          break;
        }
      }
      if (h) break;
    }
    const r = cheapestFitting(h!, guests)!;
    goal = { kind: 'book', hotel: h!.id, room: r.id, checkin, checkout, guests, first, last, email, minStars, breakfast };
    instruction = `Find the cheapest hotel in ${city} with at least ${minStars} stars${breakfast ? ' that includes free breakfast' : ''} for ${guestsText(guests)}, checking in on ${dayMonthYear(checkin)} and out on ${dayMonthYear(checkout)}. Book its cheapest room that sleeps ${guestsText(guests)} for ${first} ${last} (email ${email}).`;
  }
  const state: HotelsState = { siteName: rng.pick(SITES), today, cities, hotels, goal, search: { city, checkin, checkout, guests }, bookings: [], ui: { cookiesDismissed: false }, variant: drawVariant(seed) };
  return { state, instruction, startPath, goalKind: goal.kind === 'book' ? 'state' : 'answer' };
}

function bookingPoints(ctx: Ctx, b: HotelBooking | undefined): KeyPoint[] {
  const g = ctx.state.goal as Extract<HotelsGoal, { kind: 'book' }>;
  const h = ctx.state.hotels.find((x) => x.id === g.hotel)!;
  const room = h.rooms.find((x) => x.id === g.room)!;
  const bh = b ? ctx.state.hotels.find((x) => x.id === b.hotel) : undefined;
  const kp: KeyPoint[] = [];
  const point = (name: string, met: boolean, detail?: string) => kp.push({ name, met, ...(detail ? { detail } : {}) });
  point('booking made', !!b, b ? b.code : 'no booking was made');
  point(`hotel ${h.name}`, b?.hotel === g.hotel, bh?.name);
  point(`room ${room.name}`, b?.hotel === g.hotel && b?.room === g.room, bh?.rooms.find((x) => x.id === b?.room)?.name);
  point(`check-in ${g.checkin}`, b?.checkin === g.checkin, b?.checkin);
  point(`check-out ${g.checkout}`, b?.checkout === g.checkout, b?.checkout);
  point(guestsText(g.guests), b?.guests === g.guests, b ? String(b.guests) : undefined);
  point('guest name', !!b && sameText(b.first, g.first) && sameText(b.last, g.last), b ? `${b.first} ${b.last}` : undefined);
  point('guest email', !!b && sameText(b.email, g.email), b?.email);
  return kp;
}

export function checkHotels(ctx: Ctx): CheckResult {
  const s = ctx.state;
  const g = s.goal;
  if (g.kind !== 'book') {
    const label = g.kind === 'room_price' ? 'nightly price' : 'hotel name';
    const kp: KeyPoint[] = [
      { name: 'answer sent', met: ctx.agentMessages.length > 0 },
      { name: `correct ${label}`, met: ctx.agentMessages.some((m) => answerMatches(g.answer, m)), ...(ctx.agentMessages.length ? { detail: ctx.agentMessages.at(-1) } : {}) },
    ];
    return { success: kp.every((k) => k.met), keyPoints: kp };
  }
  let best = bookingPoints(ctx, s.bookings[0]);
  for (const b of s.bookings.slice(1)) {
    const kp = bookingPoints(ctx, b);
    if (kp.filter((k) => k.met).length >= best.filter((k) => k.met).length) best = kp;
  }
  best.push({ name: 'no other bookings', met: s.bookings.length <= 1, ...(s.bookings.length > 1 ? { detail: `${s.bookings.length} bookings` } : {}) });
  return { success: best.every((k) => k.met), keyPoints: best };
}
