/** Judges a flight instance from its bookings: one key point per requirement of the goal. */
import type { CheckResult, KeyPoint } from '../../types.ts';
import { sameText } from '../../../common/normalize.ts';
import { airportLabel, type Booking } from './data.ts';
import type { Ctx } from './chrome.ts';

const CRITERION_NAME = { cheapest: 'cheapest', cheapest_nonstop: 'cheapest nonstop', shortest: 'shortest' } as const;

function pointsFor(ctx: Ctx, b: Booking | undefined): KeyPoint[] {
  const g = ctx.state.goal;
  const kp: KeyPoint[] = [];
  const point = (name: string, met: boolean, detail?: string) => kp.push({ name, met, ...(detail ? { detail } : {}) });
  point('booking made', !!b, b ? b.code : 'no booking was made');
  point(`route ${g.from} to ${g.to}`, !!b && b.from === g.from && b.to === g.to, b ? `${airportLabel(b.from)} to ${airportLabel(b.to)}` : undefined);
  point(`date ${g.date}`, b?.date === g.date, b?.date);
  point(`right flight (${CRITERION_NAME[g.criterion]})`, !!b && b.from === g.from && b.to === g.to && b.date === g.date && b.flight === g.flight, b ? `booked ${b.flight}, wanted ${g.flight}` : undefined);
  point(`fare class ${g.fareClass}`, b?.fareClass === g.fareClass, b?.fareClass);
  point(`${g.passengers} passenger${g.passengers > 1 ? 's' : ''}`, b?.passengers === g.passengers, b ? String(b.passengers) : undefined);
  // Order of passengers does not matter; spelling (case and spacing aside) does.
  const names = b?.names.map((n) => `${n.first} ${n.last}`) ?? [];
  const want = g.names.map((n) => `${n.first} ${n.last}`);
  const namesOk = names.length === want.length && want.every((w) => names.some((n) => sameText(n, w)));
  point('passenger names', namesOk, names.join(', ') || undefined);
  return kp;
}

export function checkFlights(ctx: Ctx): CheckResult {
  const bs = ctx.state.bookings;
  if (!bs.length) return { success: false, keyPoints: pointsFor(ctx, undefined) };
  // Judge the booking closest to the goal, so key points explain the best attempt.
  let best = pointsFor(ctx, bs[0]);
  for (const b of bs.slice(1)) {
    const kp = pointsFor(ctx, b);
    if (kp.filter((k) => k.met).length >= best.filter((k) => k.met).length) best = kp;
  }
  return { success: best.every((k) => k.met), keyPoints: best };
}
