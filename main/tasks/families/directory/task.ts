/**
 * Picks the directory task for a seed and tier, shapes the listings it needs, chooses what the
 * home page, category pages and decoy boxes link (never the asked listing where the tier says so),
 * and words the instruction.
 *
 * Tier 1: a fact of a listing among its category page's picks, one click below home.
 * Tier 2: a fact of a listing reached through category, subcategory and listing pages (maybe page
 *   2), or its contact form or "save" with a note, reached that way or by search.
 * Tier 3: the listing that filters and sort put first, on a subcategory's listing (a town and one
 *   more condition) or on a search for a name every branch shares (two conditions); then a fact.
 */
import type { GoalKind, Tier } from '../../types.ts';
import { Rng, mixSeed } from '../../../common/rng.ts';
import { SATURDAY, SUNDAY } from './hours.ts';
import { buildSite, type SiteBase } from './site.ts';
import { distinguish, pickFact } from './facts.ts';
import { plantLookalikes, plantRanking, rankingQuery, type Condition, type Superlative } from './plant.ts';
import { matchesSearch } from './query.ts';
import { MESSAGES, NOTES } from './vocabulary.ts';
import { contactInstruction, ending, factQuestion, nameWithTown, pathHint, rankedListingInstruction, rankedSearchInstruction, saveInstruction } from './wording.ts';
import type { Category, DirectoryGoal, DirectoryState, Listing } from './data.ts';

type Kind = 'picks' | 'browse-fact' | 'contact' | 'save' | 'ranked-listing' | 'ranked-search';
const KINDS: Record<Tier, Kind[]> = { 1: ['picks'], 2: ['browse-fact', 'browse-fact', 'contact', 'save'], 3: ['ranked-listing', 'ranked-listing', 'ranked-search'] };

interface Planned {
  goal: DirectoryGoal;
  instruction: string;
  /** Listings no decoy box, feature or (tiers 2-3) pick may link: the asked one. */
  hidden: number[];
  /** Lookalikes a decoy box may show as a trap. */
  traps: Listing[];
}

const townName = (site: SiteBase) => (slug: string) => site.towns.find((t) => t.slug === slug)!.name;

/** A main category that has its similarly named twin beside it (the asked listing comes from one). */
function focusCategory(rng: Rng, site: SiteBase): { cat: Category; twin: Category } {
  const twinned = site.categories.filter((c) => !c.twinOf && site.categories.some((t) => t.twinOf === c.slug));
  const cat = rng.pick(twinned);
  return { cat, twin: site.categories.find((t) => t.twinOf === cat.slug)! };
}

const inSub = (site: SiteBase, cat: string, sub: string) => site.listings.filter((l) => l.category === cat && l.sub === sub);

/** Moves `x` to a given place of its subcategory's default (recommended) order by swapping ranks. */
function placeAt(site: SiteBase, x: Listing, index: number): void {
  const ordered = inSub(site, x.category, x.sub).sort((a, b) => a.rank - b.rank);
  const other = ordered[index];
  [x.rank, other.rank] = [other.rank, x.rank];
}

function planNamed(rng: Rng, site: SiteBase, built: ReturnType<typeof buildSite>, kind: Kind): Planned {
  const { cat, twin } = focusCategory(rng, site);
  const sub = rng.pick(cat.subs);
  const pool = inSub(site, cat.slug, sub.slug);
  const x = rng.pick(pool);
  const looks = plantLookalikes(rng, x, {
    sameSub: pool.filter((l) => l !== x),
    sameCategory: site.listings.filter((l) => l.category === cat.slug && l.sub !== sub.slug),
    twinCategory: site.listings.filter((l) => l.category === twin.slug),
  }, { own: built.sources.get(cat.slug)!.suffixes, twin: built.sources.get(twin.slug)!.suffixes });
  const traps = [looks.branch, looks.nearName, looks.twin].filter((l): l is Listing => !!l);
  const asked = nameWithTown(rng, x.name, townName(site)(x.town), !!looks.branch);
  const route = kind === 'picks' ? 'picks' : kind === 'browse-fact' || rng.chance(0.5) ? 'browse' : 'search';
  // Browsing may have to reach the listing's second page of results.
  if (route === 'browse') {
    const size = site.look.pageSize;
    const secondPage = pool.length > size && rng.chance(0.5);
    placeAt(site, x, secondPage ? rng.int(size, Math.min(pool.length, 2 * size) - 1) : rng.int(0, Math.min(pool.length, size) - 1));
  }
  const hint = route === 'browse' ? pathHint(rng, cat.name, sub.name) : '';
  if (kind === 'picks' || kind === 'browse-fact') {
    const ask = pickFact(rng, x, cat);
    distinguish(rng, built.maker, ask, traps);
    const goal: DirectoryGoal = { kind: 'fact', listing: x.id, route: route as 'picks' | 'browse', ...ask };
    return { goal, instruction: factQuestion(rng, ask, asked) + hint + ending(rng), hidden: [x.id], traps };
  }
  if (kind === 'contact') {
    const topic = rng.pick(site.topics);
    const text = rng.pick(MESSAGES);
    return { goal: { kind: 'contact', listing: x.id, route: route as 'browse' | 'search', topic, text }, instruction: contactInstruction(rng, asked, topic, text) + hint, hidden: [x.id], traps };
  }
  const note = rng.pick(NOTES);
  return { goal: { kind: 'save', listing: x.id, route: route as 'browse' | 'search', note }, instruction: saveInstruction(rng, asked, note) + hint, hidden: [x.id], traps };
}

/** One more condition for a ranking, and the superlative it goes with ("rated 4+" only with "most reviews"). */
function drawConditions(rng: Rng, site: SiteBase, n: number): { conditions: Condition[]; sup: Superlative } {
  const sup: Superlative = rng.chance(0.35) ? 'reviews' : 'rating';
  const options: Condition[] = [{ kind: 'day', day: rng.pick([SATURDAY, SUNDAY]) }, { kind: 'type', type: rng.pick(site.types) }, { kind: 'openNow' }];
  if (sup === 'reviews') options.push({ kind: 'minRating', min: rng.pick([3.5, 4, 4.5]) });
  return { conditions: rng.sample(options, n), sup };
}

function planRanked(rng: Rng, site: SiteBase, built: ReturnType<typeof buildSite>, kind: Kind): Planned {
  const { cat } = focusCategory(rng, site);
  // The subcategory with the most listings, so there is a real choice to filter.
  const sub = [...cat.subs].sort((a, b) => inSub(site, cat.slug, b.slug).length - inSub(site, cat.slug, a.slug).length)[0];
  const shaper = { rng, clock: site.clock, towns: site.towns.map((t) => t.slug), types: site.types };
  const subListings = rng.shuffle(inSub(site, cat.slug, sub.slug));
  if (kind === 'ranked-listing') {
    const town = rng.pick(site.towns).slug;
    const { conditions: [condition], sup } = drawConditions(rng, site, 1);
    const conditions: Condition[] = [{ kind: 'town', town }, condition];
    const { winner } = plantRanking(shaper, subListings, conditions, sup);
    const ask = pickFact(rng, winner, cat, [SATURDAY, SUNDAY, site.clock.day]);
    distinguish(rng, built.maker, ask, subListings.filter((l) => l !== winner));
    const goal: DirectoryGoal = { kind: 'ranked', listing: winner.id, route: 'browse', filters: rankingQuery(conditions, sup), ...ask };
    const instruction = rankedListingInstruction(rng, { category: cat.name, sub: sub.name, town: townName(site)(town), condition, sup, ask, townName: townName(site) });
    return { goal, instruction, hidden: [winner.id], traps: [] };
  }
  // Ranked by search: four or five branches of one name, each in its own town.
  const branches = subListings.slice(0, Math.min(site.towns.length, rng.int(4, 5)));
  const [first] = branches;
  const towns = rng.sample(site.towns, branches.length);
  branches.forEach((b, i) => Object.assign(b, { name: first.name, stem: first.stem, town: towns[i].slug }));
  const { conditions, sup } = drawConditions(rng, site, 2);
  // Every listing the search finds takes part: a near-named one must not win by chance.
  const found = site.listings.filter((l) => !branches.includes(l) && matchesSearch(site, l, first.name));
  const { winner } = plantRanking(shaper, [...branches, ...found], conditions, sup);
  const ask = pickFact(rng, winner, cat, [SATURDAY, SUNDAY, site.clock.day]);
  distinguish(rng, built.maker, ask, [...branches, ...found].filter((l) => l !== winner));
  const goal: DirectoryGoal = { kind: 'ranked', listing: winner.id, route: 'search', filters: rankingQuery(conditions, sup, first.name), ...ask };
  const instruction = rankedSearchInstruction(rng, { name: first.name, conditions, sup, ask, townName: townName(site) });
  return { goal, instruction, hidden: [winner.id], traps: branches.filter((b) => b !== winner) };
}

/** Home features, category picks and decoy boxes: links that never hold the asked listing (tier 1's picks aside). */
function decorate(rng: Rng, site: SiteBase, plan: Planned, tier: Tier): Pick<DirectoryState, 'featured' | 'picks' | 'popular' | 'recent' | 'sponsored' | 'saved'> {
  const hidden = new Set(plan.hidden);
  const shown = site.listings.filter((l) => !hidden.has(l.id));
  const main = shown.filter((l) => !site.categories.find((c) => c.slug === l.category)!.twinOf);
  const picks: Record<string, number[]> = {};
  for (const c of site.categories) picks[c.slug] = rng.sample(shown.filter((l) => l.category === c.slug), rng.int(3, 4)).map((l) => l.id);
  if (tier === 1) {
    // The asked listing sits among its category's picks, sometimes beside its same-named branch.
    const x = site.listings.find((l) => l.id === plan.goal.listing)!;
    const branch = plan.traps.find((t) => t.name === x.name && t.category === x.category);
    const extra = branch && rng.chance(0.5) && !picks[x.category].includes(branch.id) ? [branch.id] : [];
    picks[x.category] = rng.shuffle([...picks[x.category].slice(0, 3), x.id, ...extra]);
  }
  const trap = () => (plan.traps.length && rng.chance(0.6) ? [rng.pick(plan.traps).id] : []);
  const featured = [...new Set([...trap(), ...rng.sample(main, rng.int(2, 3)).map((l) => l.id)])];
  const popular = [...shown].sort((a, b) => b.rating * b.reviews - a.rating * a.reviews).slice(0, 4).map((l) => l.id);
  const recent = [...new Set([...trap(), ...rng.sample(shown, 3).map((l) => l.id)])];
  const twinListings = shown.filter((l) => site.categories.find((c) => c.slug === l.category)!.twinOf);
  const twinTrap = plan.traps.find((t) => twinListings.includes(t));
  const sponsored = (twinTrap ?? rng.pick(twinListings)).id;
  const keep = rng.pick(main.filter((l) => !plan.traps.includes(l)));
  return { featured, picks, popular, recent, sponsored, saved: [{ id: keep.id, note: rng.pick(NOTES) }] };
}

export function generateDirectoryTask(seed: number, tier: Tier): { state: DirectoryState; instruction: string; goalKind: GoalKind } {
  const built = buildSite(seed);
  const site = built.site;
  const rng = new Rng(mixSeed(seed, 'directory-task', tier));
  const kind = rng.pick(KINDS[tier]);
  const plan = kind === 'ranked-listing' || kind === 'ranked-search' ? planRanked(rng, site, built, kind) : planNamed(rng, site, built, kind);
  const extras = decorate(rng, site, plan, tier);
  const state: DirectoryState = {
    ...site,
    ...extras,
    sent: [],
    newsletter: false,
    ui: { cookiesDismissed: false },
    initial: { saved: extras.saved.map((e) => ({ ...e })) },
    goal: plan.goal,
  };
  const goalKind: GoalKind = plan.goal.kind === 'fact' || plan.goal.kind === 'ranked' ? 'answer' : 'state';
  return { state, instruction: plan.instruction, goalKind };
}
