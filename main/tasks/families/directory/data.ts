/** The shape of a directory instance: its towns, categories, listings, goal and what the visitor changed. */
import type { UiState } from '../common/site.ts';
import type { Clock, Hours } from './hours.ts';
import type { Look, SortKey } from './look.ts';

export interface Town {
  name: string;
  slug: string;
}

export interface Subcategory {
  name: string;
  slug: string;
}

export interface Category {
  name: string;
  slug: string;
  blurb: string;
  subs: Subcategory[];
  /** The label of the number its listings state ("Practitioners"). */
  numericLabel: string;
  /** Set on a distractor category: the slug of the category whose name it imitates. */
  twinOf?: string;
}

export interface Listing {
  id: number;
  name: string;
  /** The invented first part of the name ("Maplebrook"), shared by near-named listings. */
  stem: string;
  category: string;
  sub: string;
  town: string;
  type: string;
  rating: number;
  reviews: number;
  /** Position in the "recommended" order (lower first). */
  rank: number;
  phone: string;
  street: string;
  contact: string;
  numeric: number;
  hours: Hours;
  /** Which of the description sentences the page shows (written with the listing's current town). */
  blurbStyle: number;
}

/** What a fact question asks of a listing. */
export type FactKey = 'phone' | 'address' | 'contact' | 'opens' | 'closes' | 'numeric';

export interface FactAsk {
  fact: FactKey;
  /** The day an opening or closing time is asked for (0 = Monday). */
  day?: number;
  /** How the question and the checker name the fact ("phone number"). */
  label: string;
  answer: string;
}

/** The filters, sort and page of a listing or search page, as its query string says. */
export interface ListingQuery {
  q: string;
  town: string;
  type: string;
  /** Days the listing must be open on (0 = Monday). */
  days: number[];
  openNow: boolean;
  /** Minimum rating, 0 for any. */
  minRating: number;
  sort: SortKey;
  page: number;
}

export type DirectoryGoal =
  /** Tier 1 (from the category page's picks) and tier 2 (category, subcategory, listing pages). */
  | ({ kind: 'fact'; listing: number; route: 'picks' | 'browse' } & FactAsk)
  /** Tier 3: the listing the filters and sort put first, on its subcategory's listing or on a search for its name. */
  | ({ kind: 'ranked'; listing: number; route: 'browse' | 'search'; filters: ListingQuery } & FactAsk)
  /** Tier 2: send a message through the listing's contact form. */
  | { kind: 'contact'; listing: number; route: 'browse' | 'search'; topic: string; text: string }
  /** Tier 2: save the listing to the visitor's list with a note. */
  | { kind: 'save'; listing: number; route: 'browse' | 'search'; note: string };

export interface SavedEntry {
  id: number;
  note: string;
}

export interface SentMessage {
  id: number;
  topic: string;
  message: string;
}

export interface DirectoryState {
  siteName: string;
  domain: string;
  listsWhat: string;
  look: Look;
  towns: Town[];
  categories: Category[];
  types: string[];
  topics: string[];
  listings: Listing[];
  clock: Clock;
  /** Listings the home page features (never an asked one at tiers 2 and 3). */
  featured: number[];
  /** Each category page's picks, by category slug (the asked listing's at tier 1 only). */
  picks: Record<string, number[]>;
  /** Decoy boxes' listings: never an asked one. */
  popular: number[];
  recent: number[];
  sponsored: number;
  saved: SavedEntry[];
  sent: SentMessage[];
  newsletter: boolean;
  ui: UiState;
  initial: { saved: SavedEntry[] };
  goal: DirectoryGoal;
}

export function listingById(s: DirectoryState, id: number): Listing | undefined {
  return s.listings.find((l) => l.id === id);
}

export function categoryOf(s: DirectoryState, slug: string): Category | undefined {
  return s.categories.find((c) => c.slug === slug);
}

export function subOf(s: DirectoryState, category: string, sub: string): Subcategory | undefined {
  return categoryOf(s, category)?.subs.find((x) => x.slug === sub);
}

export function townOf(s: DirectoryState, slug: string): Town | undefined {
  return s.towns.find((t) => t.slug === slug);
}

/** A listing's link text everywhere: its name and its town, in the instance's style. */
export function listingLabel(s: DirectoryState, l: Listing): string {
  const town = townOf(s, l.town)?.name ?? l.town;
  if (s.look.labelStyle === 'paren') return `${l.name} (${town})`;
  if (s.look.labelStyle === 'comma') return `${l.name}, ${town}`;
  return `${l.name} – ${town}`;
}

/** "ashford", "dental-care": slugs for paths and query values. */
export function slugify(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
