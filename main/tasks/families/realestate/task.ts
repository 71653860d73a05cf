/** Picks the real-estate task for a seed and tier, phrases its instruction, and judges the result. */
import type { CheckResult, GoalKind, KeyPoint, Tier } from '../../types.ts';
import { answerMatches, sameText } from '../../../common/normalize.ts';
import { Rng, mixSeed } from '../../../common/rng.ts';
import { addDays, dayMonthYear, iso } from '../common/dates.ts';
import { TOUR_TIMES, generateHomes, timeLabel, type Home, type HomeGoal, type RealEstateState, type Tour } from './data.ts';
import { dollars, type Ctx } from './chrome.ts';
import { drawVariant } from './variant.ts';

const FIRST = ['Jane', 'Omar', 'Lucia', 'Kwame', 'Sara', 'Ben', 'Yuki', 'Nadia', 'Pedro', 'Ingrid', 'Ravi', 'Chloe'];
const LAST = ['Doe', 'Haddad', 'Fernandez', 'Mensah', 'Lund', "O'Brien", 'Sato', 'Karimi', 'Alves', 'Berg'];
const SITES = ['HomeHarbor', 'Nestly', 'OpenDoor Realty', 'KeyFinder'];

/** The cheapest home of a type with at least N bedrooms in a city (prices are distinct). */
export function cheapest(homes: Home[], city: string, type: string, beds: number): Home | undefined {
  return homes.filter((h) => h.city === city && h.type === type && h.beds >= beds).sort((a, b) => a.price - b.price)[0];
}

export function generateRealEstateTask(seed: number, tier: Tier): { state: RealEstateState; instruction: string; startPath: string; goalKind: GoalKind } {
  const homes = generateHomes(seed);
  const rng = new Rng(mixSeed(seed, 'realestate-task', tier));
  const today = iso(2026 + rng.int(0, 1), rng.int(1, 12), rng.int(1, 28));
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const name = `${first} ${last}`;
  const email = `${first}.${last}@example.com`.toLowerCase().replace(/'/g, '');
  const phone = `(${rng.int(201, 989)}) 555-${String(rng.int(100, 9999)).padStart(4, '0')}`;
  const date = addDays(today, rng.int(2, 20));
  const time = rng.pick(TOUR_TIMES);
  const who = `for ${name} (email ${email}, phone ${phone})`;
  const h0 = rng.pick(homes);
  let goal: HomeGoal;
  let instruction: string;
  let startPath = '/';
  if (tier === 1) {
    const facts: Array<[string, string, string]> = [
      ['year built', String(h0.yearBuilt), 'In which year was the home at'],
      ['square feet', String(h0.sqft), 'How many square feet is the home at'],
      ['bathrooms', String(h0.baths), 'How many bathrooms does the home at'],
      ['asking price', dollars(h0.price), 'What is the asking price of the home at'],
    ];
    const [label, answer, q] = rng.pick(facts);
    goal = { kind: 'fact', home: h0.id, label, answer };
    instruction = `${q} ${h0.address}, ${h0.city}${label === 'bathrooms' ? ' have' : label === 'year built' ? ' built' : ''}? Tell me in a message.`;
  } else if (tier === 2) {
    goal = { kind: 'tour', home: h0.id, date, time, name, email, phone };
    startPath = `/home/${h0.id}`;
    instruction = `Request a tour of this home on ${dayMonthYear(date)} at ${timeLabel(time)} ${who}.`;
  } else {
    const beds = Math.max(1, h0.beds - rng.int(0, 1));
    const target = cheapest(homes, h0.city, h0.type, beds)!;
    goal = { kind: 'tour', home: target.id, date, time, name, email, phone, city: h0.city, type: h0.type, beds };
    instruction = `Find the cheapest ${h0.type.toLowerCase()} in ${h0.city} with at least ${beds} bedroom${beds > 1 ? 's' : ''} and request a tour of it on ${dayMonthYear(date)} at ${timeLabel(time)} ${who}.`;
  }
  return { state: { siteName: rng.pick(SITES), today, homes, saved: [], tours: [], goal, variant: drawVariant(seed) }, instruction, startPath, goalKind: goal.kind === 'tour' ? 'state' : 'answer' };
}

const digits = (s: string) => s.replace(/\D/g, '');

function tourPoints(ctx: Ctx, t: Tour | undefined): KeyPoint[] {
  const g = ctx.state.goal as Extract<HomeGoal, { kind: 'tour' }>;
  const h = ctx.state.homes.find((x) => x.id === g.home)!;
  const kp: KeyPoint[] = [];
  const point = (name: string, met: boolean, detail?: string) => kp.push({ name, met, ...(detail ? { detail } : {}) });
  point('tour requested', !!t, t ? t.code : 'no tour was requested');
  point(`home ${h.address}`, t?.home === g.home, t ? ctx.state.homes.find((x) => x.id === t.home)?.address : undefined);
  point(`date ${g.date}`, t?.date === g.date, t?.date);
  point(`time ${timeLabel(g.time)}`, t?.time === g.time, t ? timeLabel(t.time) : undefined);
  point('name', !!t && sameText(t.name, g.name), t?.name);
  point('email', !!t && sameText(t.email, g.email), t?.email);
  point('phone', !!t && digits(t.phone) === digits(g.phone), t?.phone);
  return kp;
}

export function checkRealEstate(ctx: Ctx): CheckResult {
  const s = ctx.state;
  const g = s.goal;
  let kp: KeyPoint[];
  if (g.kind === 'fact') {
    kp = [
      { name: 'answer sent', met: ctx.agentMessages.length > 0 },
      { name: `correct ${g.label}`, met: ctx.agentMessages.some((m) => answerMatches(g.answer, m)), ...(ctx.agentMessages.length ? { detail: ctx.agentMessages.at(-1) } : {}) },
    ];
  } else {
    kp = tourPoints(ctx, s.tours[0]);
    for (const t of s.tours.slice(1)) {
      const k = tourPoints(ctx, t);
      if (k.filter((x) => x.met).length >= kp.filter((x) => x.met).length) kp = k;
    }
    kp.push({ name: 'no other tours', met: s.tours.length <= 1, ...(s.tours.length > 1 ? { detail: `${s.tours.length} tours` } : {}) });
  }
  return { success: kp.every((k) => k.met), keyPoints: kp };
}
