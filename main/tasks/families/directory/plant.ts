/**
 * Shapes the listings a task needs. For a named listing: a same-named branch in another town, a
 * near-named listing of the same category elsewhere, and a listing of the twin category with the
 * same stem in the same town, so that reading the town and the category matters. For a ranking
 * (tier 3): a winner that the filters and sort put first, and for every filter a decoy that would
 * lead without it, so no filter can be skipped.
 */
import type { Rng } from '../../../common/rng.ts';
import { hoursAround, openAt, type Clock } from './hours.ts';
import { typeSlug } from './query.ts';
import type { Listing, ListingQuery } from './data.ts';

export interface Lookalikes {
  branch?: Listing;
  nearName?: Listing;
  twin?: Listing;
}

/**
 * Gives the asked listing its lookalikes, reusing listings already there (counts per page stay
 * as generated). `sameSub` are the other listings of its subcategory, `sameCategory` those of its
 * category, `twinCategory` those of the twin category.
 */
export function plantLookalikes(rng: Rng, x: Listing, pools: { sameSub: Listing[]; sameCategory: Listing[]; twinCategory: Listing[] }, suffixes: { own: string[]; twin: string[] }): Lookalikes {
  const out: Lookalikes = {};
  const used = new Set<Listing>([x]);
  const elsewhere = (l: Listing) => !used.has(l) && l.town !== x.town;
  const branchPool = pools.sameSub.filter(elsewhere);
  if (branchPool.length && rng.chance(0.7)) {
    const y = rng.pick(branchPool);
    Object.assign(y, { name: x.name, stem: x.stem });
    used.add(y);
    out.branch = y;
  }
  const ownSuffix = x.name.slice(x.stem.length + 1);
  const otherSuffixes = suffixes.own.filter((s) => s !== ownSuffix);
  const nearPool = pools.sameCategory.filter(elsewhere);
  if (nearPool.length && otherSuffixes.length) {
    const z = rng.pick(nearPool);
    Object.assign(z, { name: `${x.stem} ${rng.pick(otherSuffixes)}`, stem: x.stem });
    used.add(z);
    out.nearName = z;
  }
  const twinPool = pools.twinCategory.filter((l) => !used.has(l));
  if (twinPool.length) {
    const v = rng.pick(twinPool);
    Object.assign(v, { name: `${x.stem} ${rng.pick(suffixes.twin)}`, stem: x.stem, town: x.town });
    out.twin = v;
  }
  return out;
}

/** One condition of a tier-3 ranking: a filter the visitor sets. */
export type Condition =
  | { kind: 'town'; town: string }
  | { kind: 'day'; day: number }
  | { kind: 'type'; type: string }
  | { kind: 'openNow' }
  | { kind: 'minRating'; min: number };

/** What the winner is best at: its rating, or its number of reviews. */
export type Superlative = 'rating' | 'reviews';

/** The filters and sort that make a ranking's winner come first. */
export function rankingQuery(conditions: Condition[], sup: Superlative, q = ''): ListingQuery {
  const query: ListingQuery = { q, town: '', type: '', days: [], openNow: false, minRating: 0, sort: sup, page: 1 };
  for (const c of conditions) {
    if (c.kind === 'town') query.town = c.town;
    else if (c.kind === 'day') query.days = [c.day];
    else if (c.kind === 'type') query.type = typeSlug(c.type);
    else if (c.kind === 'openNow') query.openNow = true;
    else query.minRating = c.min;
  }
  return query;
}

export interface Shaper {
  rng: Rng;
  clock: Clock;
  towns: string[];
  types: string[];
}

/** Make `l` meet condition `c`, or fail it. */
function force(sh: Shaper, l: Listing, c: Condition, meet: boolean): void {
  const { rng } = sh;
  if (c.kind === 'town') l.town = meet ? c.town : rng.pick(sh.towns.filter((t) => t !== c.town));
  else if (c.kind === 'type') l.type = meet ? c.type : rng.pick(sh.types.filter((t) => t !== c.type));
  else if (c.kind === 'day') l.hours[c.day] = meet ? [rng.pick([9, 10]) * 60, rng.pick([13, 14, 16]) * 60] : null;
  else if (c.kind === 'openNow') l.hours[sh.clock.day] = hoursAround(rng, sh.clock.minute, meet);
  else l.rating = meet ? rng.int(c.min * 10, 50) / 10 : rng.int(c.min * 10 - 8, c.min * 10 - 1) / 10;
}

function setScore(l: Listing, sup: Superlative, value: number): void {
  if (sup === 'rating') l.rating = value;
  else l.reviews = value;
}

const score = (l: Listing, sup: Superlative) => (sup === 'rating' ? l.rating : l.reviews);

/** A score above the winner's, or below it (ratings in tenths from 2.0 to 5.0). */
function scoreAround(rng: Rng, sup: Superlative, top: number, above: boolean): number {
  if (sup === 'rating') {
    const t = Math.round(top * 10);
    return (above ? rng.int(t + 1, Math.min(50, t + 5)) : rng.int(Math.max(20, t - 12), t - 1)) / 10;
  }
  return above ? top + rng.int(10, 150) : rng.int(Math.max(1, Math.floor(top / 4)), top - 1);
}

/**
 * Plants a ranking in `pool` (the listings the page shows before any filter): the first is the
 * winner, meeting every condition with the best score; then one decoy per condition, failing only
 * that one with a better score than the winner; then a runner-up meeting all with a lower score.
 * Every other listing of the pool that meets all conditions scores lower than the winner.
 */
export function plantRanking(sh: Shaper, pool: Listing[], conditions: Condition[], sup: Superlative): { winner: Listing; decoys: Listing[]; runnerUp: Listing } {
  const [winner, ...rest] = pool;
  const decoys = rest.slice(0, conditions.length);
  const runnerUp = rest[conditions.length];
  const others = rest.slice(conditions.length + 1);
  const top = sup === 'rating' ? sh.rng.int(36, 44) / 10 : sh.rng.int(80, 250);
  for (const c of conditions) force(sh, winner, c, true);
  setScore(winner, sup, top);
  decoys.forEach((d, i) => {
    conditions.forEach((c, j) => force(sh, d, c, i !== j));
    setScore(d, sup, scoreAround(sh.rng, sup, top, true));
  });
  for (const c of conditions) force(sh, runnerUp, c, true);
  setScore(runnerUp, sup, scoreAround(sh.rng, sup, top, false));
  for (const o of others) if (conditions.every((c) => meets(sh.clock, o, c)) && score(o, sup) >= top) setScore(o, sup, scoreAround(sh.rng, sup, top, false));
  // The directory's own order must not put the winner first by chance, or the sort could be skipped.
  if (winner.rank < runnerUp.rank) [winner.rank, runnerUp.rank] = [runnerUp.rank, winner.rank];
  return { winner, decoys, runnerUp };
}

export function meets(clock: Clock, l: Listing, c: Condition): boolean {
  if (c.kind === 'town') return l.town === c.town;
  if (c.kind === 'type') return l.type === c.type;
  if (c.kind === 'day') return l.hours[c.day] !== null;
  if (c.kind === 'openNow') return openAt(l.hours, clock);
  return l.rating >= c.min;
}
