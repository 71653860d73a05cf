/**
 * A directory's site from its seed alone: the domain, the towns, the categories (some beside their
 * similarly named twin), and every listing with its facts. The task (task.ts) then shapes a few
 * listings for its question; everything else is the same for every tier of a seed.
 */
import { Rng, mixSeed } from '../../../common/rng.ts';
import { randomHours, type Clock } from './hours.ts';
import { lookFor } from './look.ts';
import { slugify, type Category, type DirectoryState, type Listing, type Town } from './data.ts';
import { DOMAINS, FIRST_NAMES, LISTING_BLURBS, LAST_NAMES, STEM_HEADS, STEM_TAILS, STREETS, STREET_KINDS, TOWN_HEADS, TOWN_TAILS, type CategorySpec } from './vocabulary.ts';

/** The site before a task is chosen: what the goal-specific fields (featured, picks, decoys, goal) are added to. */
export type SiteBase = Pick<DirectoryState, 'siteName' | 'domain' | 'listsWhat' | 'look' | 'towns' | 'categories' | 'types' | 'topics' | 'listings' | 'clock'>;

/** Where a listing's name and number come from: its category's spec, or the twin's. */
export interface CategorySource {
  suffixes: string[];
  numeric: { lo: number; hi: number };
}


function towns(rng: Rng): Town[] {
  const names = new Set<string>();
  const count = rng.int(5, 7);
  while (names.size < count) names.add(rng.pick(TOWN_HEADS) + rng.pick(TOWN_TAILS));
  return [...names].map((name) => ({ name, slug: slugify(name) }));
}

/** Categories in display order, with each twin's spec for naming its listings. */
function categories(rng: Rng, specs: CategorySpec[], twins: number): { list: Category[]; sources: Map<string, CategorySource> } {
  const main = rng.sample(specs, rng.int(3, 4));
  const sources = new Map<string, CategorySource>();
  const list: Category[] = [];
  main.forEach((spec, i) => {
    const slug = slugify(spec.name);
    list.push({ name: spec.name, slug, blurb: spec.blurb, subs: spec.subs.map((n) => ({ name: n, slug: slugify(n) })), numericLabel: spec.numeric.label });
    sources.set(slug, spec);
    // The first `twins` categories drawn get their similarly named twin beside them.
    if (i < twins) {
      const t = spec.twin;
      const tslug = slugify(t.name);
      list.push({ name: t.name, slug: tslug, blurb: t.blurb, subs: t.subs.map((n) => ({ name: n, slug: slugify(n) })), numericLabel: t.numeric.label, twinOf: slug });
      sources.set(tslug, t);
    }
  });
  return { list: rng.shuffle(list), sources };
}

/** Makes listings with unique stems and phone numbers; the task uses it again for the listings it adds. */
export class ListingMaker {
  private readonly stems: string[];
  private readonly phones = new Set<string>();
  private readonly ids: number[];
  private next = 0;
  constructor(
    private readonly rng: Rng,
    private readonly site: Pick<SiteBase, 'towns' | 'types'>,
  ) {
    this.stems = rng.shuffle(STEM_HEADS.flatMap((h) => STEM_TAILS.map((t) => h + t)));
    // Ids look arbitrary, so a listing's id says nothing about its place in any order.
    this.ids = rng.sample(Array.from({ length: 9000 }, (_, i) => 1000 + i), 400);
  }

  freshStem(): string {
    return this.stems[this.next++ % this.stems.length];
  }

  phone(): string {
    for (;;) {
      const p = `0${this.rng.int(100, 999)} ${this.rng.int(200, 899)} ${String(this.rng.int(0, 9999)).padStart(4, '0')}`;
      if (!this.phones.has(p)) {
        this.phones.add(p);
        return p;
      }
    }
  }

  person(): string {
    return `${this.rng.pick(FIRST_NAMES)} ${this.rng.pick(LAST_NAMES)}`;
  }

  street(): string {
    return `${this.rng.int(1, 240)} ${this.rng.pick(STREETS)} ${this.rng.pick(STREET_KINDS)}`;
  }

  make(category: string, sub: string, source: CategorySource, stem = this.freshStem(), town = this.rng.pick(this.site.towns).slug): Listing {
    const rng = this.rng;
    const name = `${stem} ${rng.pick(source.suffixes)}`;
    return {
      id: this.ids.pop()!,
      name,
      stem,
      category,
      sub,
      town,
      type: rng.pick(this.site.types),
      rating: rng.int(25, 49) / 10,
      reviews: rng.int(3, 400),
      rank: 0,
      phone: this.phone(),
      street: this.street(),
      contact: this.person(),
      numeric: rng.int(source.numeric.lo, source.numeric.hi),
      hours: randomHours(rng),
      blurbStyle: rng.below(LISTING_BLURBS.length),
    };
  }
}

const CLOCK_MINUTES = [17 * 60, 17 * 60 + 15, 17 * 60 + 30, 17 * 60 + 45, 18 * 60, 18 * 60 + 20, 18 * 60 + 40];

export function buildSite(seed: number): { site: SiteBase; maker: ListingMaker; sources: Map<string, CategorySource> } {
  const rng = new Rng(mixSeed(seed, 'directory-site'));
  const look = lookFor(seed);
  const domain = rng.pick(DOMAINS);
  const townList = towns(rng);
  const { list, sources } = categories(rng, domain.categories, look.twins);
  const clock: Clock = { day: rng.int(0, 4), minute: rng.pick(CLOCK_MINUTES) };
  const base = { towns: townList, types: domain.types };
  const maker = new ListingMaker(rng, base);
  const listings: Listing[] = [];
  for (const c of list) {
    for (const sub of c.subs) {
      const count = c.twinOf ? rng.int(3, 5) : rng.int(7, 11);
      for (let i = 0; i < count; i++) listings.push(maker.make(c.slug, sub.slug, sources.get(c.slug)!));
    }
  }
  rng.shuffle(listings.map((_, i) => i + 1)).forEach((rank, i) => (listings[i].rank = rank));
  const siteName = `${rng.pick(TOWN_HEADS)}${rng.pick(TOWN_TAILS)} ${rng.pick(domain.siteWords)}`;
  return {
    site: { siteName, domain: domain.key, listsWhat: domain.listsWhat, look, towns: townList, categories: list, types: domain.types, topics: domain.topics, listings, clock },
    maker,
    sources,
  };
}
