/**
 * Built-in variation: every directory draws, from its seed alone, its words for labels and
 * buttons (Search / Find / Go; Apply / Filter / Show results; Town / Region / Area), the order of
 * its navigation and of its page sections, how it lays out listings (cards, a table, a list),
 * facts and opening hours, where its filters sit, how a listing's link names its town, its
 * decoy boxes and its overlay. The oracle finds every control by the words recorded here, so it is
 * exact under each of them; a policy that memorised one directory meets another.
 */
import { Rng, mixSeed } from '../../../common/rng.ts';

export type ListLayout = 'cards' | 'table' | 'list';
export type FactLayout = 'table' | 'dl' | 'lines';
export type Overlay = 'none' | 'cookie' | 'newsletter';
export type NavKey = 'home' | 'categories' | 'saved' | 'popular' | 'help';
export type HomeSection = 'categories' | 'featured' | 'decoys' | 'towns';
export type RecordSection = 'facts' | 'hours' | 'about' | 'actions';
/** Boxes whose links never lead to an asked record: "Popular", "Recently viewed", a sponsored listing. */
export type Decoy = 'popular' | 'recent' | 'sponsored';
export type SortKey = 'recommended' | 'rating' | 'reviews' | 'name';

export interface Words {
  nav: Record<NavKey, string>;
  searchBox: string;
  searchButton: string;
  apply: string;
  region: string;
  allRegions: string;
  type: string;
  allTypes: string;
  day: string;
  anyDay: string;
  /** A day checkbox's label, "{day}" replaced by Saturday or Sunday. */
  dayCheckbox: string;
  openNow: string;
  rating: string;
  anyRating: string;
  /** A rating option, "{n}" replaced by 3, 3.5, 4 or 4.5. */
  ratingOption: string;
  sort: string;
  sorts: Record<SortKey, string>;
  next: string;
  previous: string;
  categoriesHeading: string;
  featuredHeading: string;
  picksHeading: string;
  subsHeading: string;
  popularHeading: string;
  recentHeading: string;
  sponsored: string;
  reviewsNoun: string;
  factsHeading: string;
  hoursHeading: string;
  phone: string;
  address: string;
  contact: string;
  closed: string;
  save: string;
  remove: string;
  noteField: string;
  contactHeading: string;
  topicField: string;
  chooseTopic: string;
  messageField: string;
  contactButton: string;
  /** The overlay's button that closes it without a side effect. */
  dismiss: string;
  /** The newsletter dialog's sign-up button (a side effect). */
  join: string;
  dialogTitle: string;
}

export interface Look {
  listLayout: ListLayout;
  /** Filters in a column beside the results, or in a bar above them. */
  filtersAt: 'side' | 'top';
  /** Opening days filtered by a select of seven days, or by Saturday and Sunday checkboxes. */
  dayControl: 'select' | 'checkboxes';
  facts: FactLayout;
  hours: 'table' | 'lines';
  /** How a listing's link names its town: "Maplebrook Clinic (Ashford)", "…, Ashford", "… – Ashford". */
  labelStyle: 'paren' | 'comma' | 'dash';
  pageSize: number;
  overlay: Overlay;
  navOrder: NavKey[];
  homeOrder: HomeSection[];
  recordOrder: RecordSection[];
  decoys: Decoy[];
  /** How many categories get their similarly named twin beside them (at least the asked one's). */
  twins: number;
  theme: string;
  words: Words;
}

const PAGERS = [
  { next: 'Next page', previous: 'Previous page' },
  { next: 'Next', previous: 'Previous' },
  { next: 'More results', previous: 'Back' },
  { next: 'Next ›', previous: '‹ Prev' },
];
const DIALOGS = [
  { title: 'Get new listings by email', join: 'Sign me up', dismiss: 'No thanks' },
  { title: 'Never miss a new listing', join: 'Subscribe', dismiss: 'Not now' },
  { title: 'Join our weekly newsletter', join: 'Yes, send it', dismiss: 'Maybe later' },
];
// Accent-only themes of site.css (they set --accent and nothing else), so colours vary without rules of our own.
const ACCENTS = ['theme-flights', 'theme-hotels', 'theme-cal', 'theme-homes', 'theme-tickets', 'theme-factbook'];

function pickWords(rng: Rng, overlay: Overlay): Words {
  const pager = rng.pick(PAGERS);
  const dialog = rng.pick(DIALOGS);
  return {
    nav: {
      home: rng.pick(['Home', 'Directory home', 'Start']),
      categories: rng.pick(['All categories', 'Browse', 'Categories', 'Sections']),
      saved: rng.pick(['My list', 'Saved', 'Favourites', 'Bookmarks']),
      popular: rng.pick(['Popular', 'Trending', 'Most viewed']),
      help: rng.pick(['Help', 'About', 'How it works']),
    },
    searchBox: rng.pick(['Search the directory', 'Search listings', 'Find a place', 'Search by name']),
    searchButton: rng.pick(['Search', 'Find', 'Go']),
    apply: rng.pick(['Apply', 'Filter', 'Show results', 'Update list']),
    region: rng.pick(['Town', 'Region', 'Area', 'Location']),
    allRegions: rng.pick(['All towns', 'Everywhere', 'Any area']),
    type: rng.pick(['Type', 'Kind', 'Run by']),
    allTypes: rng.pick(['All types', 'Any type', 'Any']),
    day: rng.pick(['Open on', 'Opening day', 'Day']),
    anyDay: rng.pick(['Any day', 'Whenever', 'Every day']),
    dayCheckbox: rng.pick(['Open on {day}s', 'Open {day}', '{day} opening']),
    openNow: rng.pick(['Open now', 'Open at the moment', 'Currently open']),
    rating: rng.pick(['Rating', 'Minimum rating', 'Rated at least']),
    anyRating: rng.pick(['Any rating', 'All ratings', 'No minimum']),
    ratingOption: rng.pick(['{n}+ stars', '{n} stars & up', 'At least {n}']),
    sort: rng.pick(['Sort by', 'Order', 'Sort results']),
    sorts: {
      recommended: rng.pick(['Recommended', 'Featured first', 'Best match']),
      rating: rng.pick(['Highest rated', 'Rating (high to low)', 'Top rated']),
      reviews: rng.pick(['Most reviewed', 'Number of reviews', 'Most reviews']),
      name: rng.pick(['Name (A–Z)', 'Alphabetical', 'Name']),
    },
    next: pager.next,
    previous: pager.previous,
    categoriesHeading: rng.pick(['Browse by category', 'Categories', 'Explore', 'What are you looking for?']),
    featuredHeading: rng.pick(['Featured', 'Spotlight', "Editor's picks"]),
    picksHeading: rng.pick(['Top picks', 'Highlighted listings', 'Staff picks', 'In the spotlight']),
    subsHeading: rng.pick(['Subcategories', 'Narrow it down', 'Choose a section', 'Browse within']),
    popularHeading: rng.pick(['Popular right now', 'Trending', 'Most viewed this week']),
    recentHeading: rng.pick(['Recently viewed', 'Recently visited', 'You looked at']),
    sponsored: rng.pick(['Sponsored', 'Advertisement', 'Promoted']),
    reviewsNoun: rng.pick(['reviews', 'ratings', 'opinions']),
    factsHeading: rng.pick(['Details', 'At a glance', 'Key facts', 'Contact details']),
    hoursHeading: rng.pick(['Opening hours', 'Hours', "When we're open"]),
    phone: rng.pick(['Phone', 'Telephone', 'Tel.', 'Call']),
    address: rng.pick(['Address', 'Find us at', 'Street address', 'Visit']),
    contact: rng.pick(['Contact person', 'Ask for', 'Your contact', 'Manager']),
    closed: rng.pick(['Closed', 'closed', 'Not open']),
    save: rng.pick(['Save', 'Add to my list', 'Bookmark', 'Save to favourites']),
    remove: rng.pick(['Remove', 'Unsave', 'Delete']),
    noteField: rng.pick(['Note', 'Add a note', 'Your note', 'Note for yourself']),
    contactHeading: rng.pick(['Contact', 'Send a message', 'Get in touch', 'Ask a question']),
    topicField: rng.pick(['Topic', 'Subject', 'Regarding']),
    chooseTopic: rng.pick(['Choose a topic', 'Select…', 'Pick one']),
    messageField: rng.pick(['Message', 'Your enquiry', 'What would you like to ask?', 'Your message']),
    contactButton: rng.pick(['Send message', 'Contact', 'Send enquiry', 'Send']),
    dismiss: overlay === 'cookie' ? 'Reject non-essential' : dialog.dismiss,
    join: dialog.join,
    dialogTitle: dialog.title,
  };
}

export function lookFor(seed: number): Look {
  const rng = new Rng(mixSeed(seed, 'directory-look'));
  const overlay = rng.pick(['none', 'cookie', 'newsletter'] as const);
  const words = pickWords(rng, overlay);
  const decoys = rng.sample(['popular', 'recent', 'sponsored'] as Decoy[], rng.int(1, 3));
  const nav: NavKey[] = rng.shuffle(['home', 'categories', 'saved', 'popular', 'help'] as NavKey[]).filter((k) => k !== 'popular' || decoys.includes('popular'));
  const listLayout = rng.pick(['cards', 'table', 'list'] as const);
  return {
    listLayout,
    filtersAt: rng.pick(['side', 'top'] as const),
    dayControl: rng.pick(['select', 'checkboxes'] as const),
    facts: rng.pick(['table', 'dl', 'lines'] as const),
    hours: rng.pick(['table', 'lines'] as const),
    labelStyle: rng.pick(['paren', 'comma', 'dash'] as const),
    pageSize: rng.pick([5, 6, 7]),
    overlay,
    navOrder: nav,
    homeOrder: rng.shuffle(['categories', 'featured', 'decoys', 'towns'] as HomeSection[]),
    recordOrder: rng.shuffle(['facts', 'hours', 'about', 'actions'] as RecordSection[]),
    decoys,
    twins: rng.int(1, 2),
    theme: `theme-directory directory-${listLayout} ${rng.pick(ACCENTS)}`,
    words,
  };
}

/** A rating option's label: ratingLabel(w, 4) -> "4+ stars". */
export function ratingLabel(w: Words, n: number): string {
  return w.ratingOption.replace('{n}', String(n));
}

export function dayCheckboxLabel(w: Words, dayName: string): string {
  return w.dayCheckbox.replace('{day}', dayName);
}
