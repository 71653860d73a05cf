/**
 * Factbook data: a registry site of invented records (lighthouses, orchards, vessels...), each with
 * labelled facts and sometimes a table of items, generated from the seed.
 *
 * This is a drill, not a benchmark: it exists so that a compact policy can practise the one skill
 * the held-out families test and the nine training sites teach only with their own few labels:
 * reading the value beside a label the task names, on a page layout it has not memorised. Labels
 * come from a wide list (plus invented words, so matching the task's word beats memorising one),
 * facts are laid out four ways, and none of the held-out families' attributes (population, mayor,
 * founding year, river, elevation, capital, language, currency, area, phone, dish prices) is used.
 */
import { Rng, mixSeed } from '../../../common/rng.ts';
import type { Tier } from '../../types.ts';

export type FactLayout = 'table' | 'list' | 'lines' | 'columns';
export const FACT_LAYOUTS: readonly FactLayout[] = ['table', 'list', 'lines', 'columns'];

export interface Fact {
  label: string;
  /** As the page prints it, unit included ("1,204 m"). */
  shown: string;
  /** The answer the checker wants: the printed value without its unit ("1,204"). */
  answer: string;
  /** A numeric value, for comparisons (tier 3). */
  number?: number;
}

export interface ItemTable {
  /** Caption and the two column headers, e.g. "Fees", "Ticket", "Fee". */
  caption: string;
  itemHeader: string;
  valueHeader: string;
  rows: Array<{ item: string; value: string }>;
}

export interface FactRecord {
  name: string;
  intro: string;
  facts: Fact[];
  items?: ItemTable;
  /** The region the record is listed under (home links every region; a region page lists its records). */
  region: string;
  /** Prose sections after the facts, linked from a contents list at the top (sites with sections only). */
  sections?: Array<{ title: string; text: string }>;
}

export type FactbookGoal =
  | { kind: 'fact'; record: string; label: string; answer: string }
  | { kind: 'item'; record: string; item: string; label: string; answer: string }
  | { kind: 'compare'; records: [string, string]; label: string; answer: string };

export interface FactbookState {
  siteName: string;
  /** What the registry lists, plural ("lighthouses"). */
  kind: string;
  /** Regions the records are listed under, as home links them (a second route to a record, as a country is to a city). */
  regions: string[];
  layout: FactLayout;
  records: FactRecord[];
  /** Tier 1 lists every record on the home page; at tiers 2 and 3 a record is reached by search (or its region's page). */
  homeLinks: boolean;
  /**
   * Records the home page features and links at every tier (a sentence, "recently updated"). At
   * tiers 2 and 3 they are never the ones asked about, so a policy learns to search rather than
   * open whichever record is linked.
   */
  featured: string[];
  /** A newsletter dialog over every page until closed; signing up is a side effect the checker counts. */
  notice: { title: string; join: string; close: string; dismissed: boolean; joined: boolean } | null;
  goal: FactbookGoal;
}

const KINDS = ['lighthouses', 'orchards', 'vessels', 'observatories', 'breweries', 'bridges', 'libraries', 'stadiums', 'gardens', 'mills', 'studios', 'depots', 'archives', 'kennels', 'vineyards', 'workshops'];
const SITE_WORDS = ['Registry', 'Index', 'Directory', 'Ledger', 'Atlas', 'Catalogue', 'Almanac', 'Register'];
const SYL = ['bri', 'dal', 'ek', 'fo', 'gan', 'hel', 'im', 'jor', 'kes', 'lum', 'mab', 'nor', 'op', 'pel', 'quin', 'ras', 'sto', 'tem', 'ul', 'vor', 'wen', 'yar', 'zan', 'cor'];
const NAME_TAIL = ['', '', ' Point', ' Hall', ' House', ' Works', ' Reach', ' Court', ' Yard', ' Row'];
const FIRST = ['Ada', 'Boris', 'Celia', 'Dmitri', 'Edith', 'Felix', 'Greta', 'Henrik', 'Ilse', 'Jasper', 'Katja', 'Leon', 'Mira', 'Nils', 'Oona', 'Piet'];
const LAST = ['Aalto', 'Brandt', 'Castell', 'Dekker', 'Eriksen', 'Fontaine', 'Gallo', 'Holm', 'Iversen', 'Jansen', 'Kowal', 'Larsen', 'Meyer', 'Nord'];
const WORDS = ['amber', 'slate', 'cedar', 'granite', 'copper', 'linen', 'willow', 'basalt', 'ivory', 'cobalt', 'juniper', 'marble', 'saffron', 'tin'];

type Make = (rng: Rng) => { shown: string; answer: string; number?: number };
const num = (lo: number, hi: number, unit = ''): Make => (rng) => {
  const v = rng.int(lo, hi);
  const s = v.toLocaleString('en-US');
  return { shown: unit ? `${s} ${unit}` : s, answer: s, number: v };
};
const person: Make = (rng) => {
  const s = `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
  return { shown: s, answer: s };
};
const capitalized = (s: string) => s[0].toUpperCase() + s.slice(1);
const word: Make = (rng) => {
  const s = capitalized(rng.pick(WORDS));
  return { shown: s, answer: s };
};
const code: Make = (rng) => {
  const s = `${String.fromCharCode(65 + rng.below(26))}${String.fromCharCode(65 + rng.below(26))}-${rng.int(100, 9999)}`;
  return { shown: s, answer: s };
};
const year: Make = (rng) => {
  const v = rng.int(1780, 2021);
  return { shown: String(v), answer: String(v), number: v };
};
const email: Make = (rng) => {
  const s = `${rng.pick(WORDS)}.${rng.pick(SYL)}${rng.int(1, 99)}@mail.test`;
  return { shown: s, answer: s };
};

/** Attribute labels and how their values look; the held-out families' attributes are left out on purpose. */
const LABELS: Array<[string, Make]> = [
  ['Keeper', person], ['Owner', person], ['Director', person], ['Curator', person], ['Architect', person], ['Head gardener', person], ['Warden', person], ['Chairperson', person],
  ['Registry number', code], ['Call sign', code], ['Reference', code], ['Serial number', code], ['Licence', code],
  ['Capacity', num(40, 60000, 'seats')], ['Length', num(5, 3000, 'm')], ['Depth', num(2, 900, 'm')], ['Height', num(3, 400, 'm')], ['Width', num(2, 800, 'm')],
  ['Weight', num(50, 90000, 'kg')], ['Members', num(10, 25000)], ['Staff', num(2, 900)], ['Visitors per year', num(500, 900000)], ['Floors', num(1, 60)], ['Rooms', num(2, 400)], ['Volume', num(100, 80000, 'L')],
  ['Opened', year], ['Built', year], ['Renovated', year], ['Last inspected', year],
  ['Colour', word], ['Material', word], ['Style', word], ['Motto word', word], ['Mascot', word],
  ['Email', email],
];

const PEOPLE = new Set(LABELS.filter(([, make]) => make === person).map(([label]) => label));
const YEARS = new Set(LABELS.filter(([, make]) => make === year).map(([label]) => label));

const ITEM_TABLES: Array<{ caption: string; itemHeader: string; valueHeader: string; items: string[]; value: Make }> = [
  { caption: 'Fees', itemHeader: 'Ticket', valueHeader: 'Fee', items: ['Day pass', 'Season pass', 'Guided tour', 'Family ticket', 'Evening entry', 'Group booking'], value: (rng) => { const c = rng.int(2, 90) * 100 + rng.pick([0, 50]); const s = `$${(c / 100).toFixed(2)}`; return { shown: s, answer: s }; } },
  { caption: 'Timetable', itemHeader: 'Service', valueHeader: 'Departs', items: ['Morning boat', 'Harbour bus', 'Night ferry', 'Shuttle', 'Express coach', 'Local train'], value: (rng) => { const s = `${String(rng.int(5, 22)).padStart(2, '0')}:${rng.pick(['05', '15', '20', '35', '40', '55'])}`; return { shown: s, answer: s }; } },
  { caption: 'Rooms', itemHeader: 'Room', valueHeader: 'Floor', items: ['Reading room', 'Map room', 'Workshop', 'Gallery', 'Store room', 'Office'], value: num(1, 30) },
  { caption: 'Season results', itemHeader: 'Team', valueHeader: 'Points', items: ['Reds', 'Blues', 'Harriers', 'Rovers', 'Wanderers', 'Falcons'], value: num(0, 99) },
];

function inventedWord(rng: Rng, syllables: number): string {
  let s = '';
  for (let i = 0; i < syllables; i++) s += rng.pick(SYL);
  return capitalized(s);
}

function recordName(rng: Rng, taken: Set<string>): string {
  for (;;) {
    const n = inventedWord(rng, rng.int(2, 3)) + rng.pick(NAME_TAIL);
    if (!taken.has(n)) {
      taken.add(n);
      return n;
    }
  }
}

const REGION_TAILS = ['', ' District', ' Valley', ' Coast', ' Quarter', ' Heights', ' Vale'];
const SECTION_TITLES = ['History', 'Access', 'Services', 'Collections', 'Events', 'Notes', 'Surroundings', 'Visiting', 'Architecture', 'Gallery'];
const SECTION_SENTENCES = [
  (name: string, kind: string) => `${name} has been part of the local ${kind} for generations.`,
  (name: string) => `Visitors to ${name} are asked to follow the signs from the main entrance.`,
  (name: string) => `Records about ${name} are kept in the reading room and may be consulted on request.`,
  (name: string) => `Seasonal events at ${name} are announced on the notice board.`,
  (name: string) => `The surroundings of ${name} are quiet outside the busy months.`,
  (name: string, kind: string) => `Like the other ${kind} of the region, ${name} is maintained by volunteers.`,
];

/**
 * Regions and prose sections, drawn from their own stream so that the records, labels and
 * questions of a seed stay as they were before these existed. Half the sites give each record a
 * contents list of 3-5 sections: links on the very page that holds the answer, which a policy must
 * learn to pass by (an encyclopedia's article has them; the first drill's record pages did not).
 */
function withRegionsAndSections(seed: number, kind: string, listed: ReadonlyArray<Omit<FactRecord, 'region' | 'sections'>>): { regions: string[]; records: FactRecord[] } {
  const rng = new Rng(mixSeed(seed, 'factbook-regions'));
  const taken = new Set(listed.map((r) => r.name));
  const regions = Array.from({ length: rng.int(3, 5) }, () => {
    for (;;) {
      const name = inventedWord(rng, 2) + rng.pick(REGION_TAILS);
      if (!taken.has(name)) {
        taken.add(name);
        return name;
      }
    }
  });
  const titles = rng.chance(0.5) ? rng.sample(SECTION_TITLES, rng.int(3, 5)) : [];
  const records = listed.map((r) => {
    const region = rng.pick(regions);
    return titles.length ? { ...r, region, sections: titles.map((title) => ({ title, text: rng.sample(SECTION_SENTENCES, 2).map((f) => f(r.name, kind)).join(' ') })) } : { ...r, region };
  });
  return { regions, records };
}

/** The site of a seed: records, layout and dialog; the same for every tier of that seed. */
function generateSite(seed: number): Omit<FactbookState, 'goal' | 'homeLinks' | 'featured'> {
  const rng = new Rng(mixSeed(seed, 'factbook'));
  const kind = rng.pick(KINDS);
  // One invented label per site, with a number or a word: only matching the task's word finds it.
  const invented: [string, Make] = [`${inventedWord(rng, 2)} ${rng.pick(['index', 'mark', 'grade', 'count'])}`, rng.chance(0.5) ? num(1, 5000) : word];
  const labels = rng.sample([...LABELS, invented], rng.int(4, 7));
  const taken = new Set<string>();
  const records: Array<Omit<FactRecord, 'region' | 'sections'>> = [];
  const count = rng.int(5, 9);
  const itemKind = rng.chance(0.4) ? rng.pick(ITEM_TABLES) : undefined;
  for (let i = 0; i < count; i++) {
    const name = recordName(rng, taken);
    const facts = labels.map(([label, make]) => ({ label, ...make(rng) }));
    const items = itemKind && {
      caption: itemKind.caption,
      itemHeader: itemKind.itemHeader,
      valueHeader: itemKind.valueHeader,
      rows: rng.sample(itemKind.items, rng.int(3, 5)).map((item) => ({ item, value: itemKind.value(rng).shown })),
    };
    records.push({ name, intro: `${name} is one of the ${kind} in the ${rng.pick(SITE_WORDS).toLowerCase()}, listed since ${rng.int(1990, 2024)}.`, facts, ...(items ? { items } : {}) });
  }
  const notice = rng.chance(0.35)
    ? { title: rng.pick(['Stay in the loop', 'Join our newsletter', 'Become a friend of the registry', 'Get weekly updates']), join: rng.pick(['Sign up', 'Subscribe', 'Join now']), close: rng.pick(['No thanks', 'Close', 'Not now', 'Maybe later', 'Dismiss']), dismissed: false, joined: false }
    : null;
  const site = { siteName: `${inventedWord(rng, 2)} ${rng.pick(SITE_WORDS)}`, kind, layout: rng.pick(FACT_LAYOUTS), notice };
  return { ...site, ...withRegionsAndSections(seed, kind, records) };
}

// Every answer task of the built-in sites asks to be told "in a message" (test/tasks/generation.test.ts).
const ENDINGS = [' Tell me in a message.', ' Tell me the answer in a message.', ' Please tell me what it is in a message.', ' Tell me the value in a message.'];

/** The question of a seed and tier: a fact (tiers 1 and 2), an item's value, or a comparison (tier 3). */
export function generateFactbookTask(seed: number, tier: Tier): { state: FactbookState; instruction: string } {
  const site = generateSite(seed);
  const rng = new Rng(mixSeed(seed, 'factbook-task', tier));
  const end = rng.pick(ENDINGS);
  const r = rng.pick(site.records);
  let goal: FactbookGoal;
  let question: string;
  if (tier === 3) {
    const numeric = r.facts.map((f, i) => ({ f, i })).filter((x) => x.f.number !== undefined);
    const [a, b] = rng.sample(site.records, 2);
    const pick = numeric.length ? rng.pick(numeric) : null;
    if (pick && a.facts[pick.i].number !== b.facts[pick.i].number) {
      const label = pick.f.label;
      const winner = a.facts[pick.i].number! > b.facts[pick.i].number! ? a : b;
      goal = { kind: 'compare', records: [a.name, b.name], label, answer: winner.name };
      question = `Which has the higher ${label.toLowerCase()}: ${a.name} or ${b.name}? Name it.`;
    } else {
      const f = rng.pick(a.facts);
      goal = { kind: 'fact', record: a.name, label: f.label, answer: f.answer };
      question = `What is the ${f.label.toLowerCase()} of ${a.name}?`;
    }
  } else if (r.items && rng.chance(0.35)) {
    const row = rng.pick(r.items.rows);
    const label = r.items.valueHeader.toLowerCase();
    goal = { kind: 'item', record: r.name, item: row.item, label, answer: row.value };
    question = rng.pick([`What is the ${label} for the ${row.item.toLowerCase()} at ${r.name}?`, `At ${r.name}, what ${label} is listed for the ${row.item.toLowerCase()}?`]);
  } else {
    const f = rng.pick(r.facts);
    const l = f.label.toLowerCase();
    goal = { kind: 'fact', record: r.name, label: f.label, answer: f.answer };
    // The name stands before a comma, a colon, a lower-case word or a question mark, so where a
    // name ends (what a search or an answer copies) is learned from its capitals, not its place.
    const wordings = [`What is the ${l} of ${r.name}?`, `Look up ${r.name} and tell me its ${l}.`, `Find the ${l} listed for ${r.name}.`, `Which ${l} does ${r.name} have?`,
      `What is the ${l} of ${r.name}, as the registry lists it?`, `For ${r.name}, what is the ${l}?`, `${r.name}: what is its ${l}?`, `What ${l} is given for ${r.name} in the registry?`];
    // Questions as people ask them: "who" for a person, "in which year was it built" for a year.
    if (PEOPLE.has(f.label)) wordings.push(`Who is the ${l} of ${r.name}?`);
    if (YEARS.has(f.label)) wordings.push(`In which year was ${r.name} ${l}?`);
    question = rng.pick(wordings);
  }
  const asked = goal.kind === 'compare' ? goal.records : [goal.record];
  const featured = rng.sample(tier === 1 ? site.records : site.records.filter((x) => !asked.includes(x.name)), rng.int(1, 3)).map((x) => x.name);
  return { state: { ...site, homeLinks: tier === 1, featured, goal }, instruction: question + end };
}
