/**
 * How one real-estate site looks and words itself, drawn from the seed alone (its own stream, see
 * ../common/variant.ts, so the homes, the goal and the instruction stay what they were). Every
 * instance draws its labels from synonyms, orders its navigation, home-page sections, filters,
 * facts and tour-form fields, adds one to three distractors and picks a layout. Pages and the
 * oracle both read the chosen words from the instance state, so the oracle finds every control by
 * the name it has on this site.
 */
import { drawWords, fill, placeDistractors, variantRng, type WordsOf } from '../common/variant.ts';
export { fill };

/**
 * Synonyms per label; the first of each list is what the site said before it varied. Lists are
 * disjoint across keys that can share a page, so a name found on a page always means one thing.
 * Entries with {city} or {n} are templates: the data goes in verbatim.
 */
export const WORDING = {
  navHomes: ['Homes for sale', 'Browse homes', 'All listings', 'For sale'],
  /** The saved-homes link carries its count: "Saved homes (2)". */
  navSaved: ['Saved homes', 'Favorites', 'My saved homes', 'Saved listings'],
  navTours: ['My tours', 'Tour requests', 'Scheduled tours', 'My viewings'],
  searchBox: ['City, neighborhood or address', 'Search by city or address', 'Where do you want to live?', 'Enter a city, area or address'],
  searchButton: ['Search homes', 'Search', 'Find homes', 'Go'],
  heroHeading: ['Find your next home', 'Your new home starts here', 'Discover homes for sale', 'Start your home search'],
  citiesHeading: ['Browse by city', 'Popular cities', 'Explore by city', 'Cities we cover'],
  cityLink: ['Homes in {city}', '{city} homes', 'Browse {city}', 'For sale in {city}'],
  filterType: ['Home type', 'Property type', 'Type of home', 'Kind of property'],
  anyType: ['Any type', 'All types', 'All property types', 'No preference'],
  filterBeds: ['Bedrooms', 'Beds', 'Min. bedrooms', 'Bedrooms (at least)'],
  anyBeds: ['Any', 'Any number', 'No minimum', 'Any beds'],
  bedsOption: ['{n}+', '{n} or more', 'At least {n}', '{n}+ beds'],
  filterMaxPrice: ['Max price ($)', 'Price up to ($)', 'Maximum price ($)', 'Budget ($)'],
  filterSort: ['Sort by', 'Order by', 'Sort', 'Show first'],
  sortNewest: ['Newest listings', 'Newest first', 'Most recent', 'Just listed'],
  sortPriceAsc: ['Price (low to high)', 'Lowest price first', 'Price: low to high', 'Cheapest first'],
  sortPriceDesc: ['Price (high to low)', 'Highest price first', 'Price: high to low', 'Most expensive first'],
  sortSqft: ['Square feet', 'Largest first', 'Size (largest)', 'Most space'],
  applyFilters: ['Apply filters', 'Update results', 'Show homes', 'Refine search'],
  /** The result count's noun, singular|plural. */
  countNoun: ['home|homes', 'result|results', 'listing|listings', 'match|matches'],
  nextPage: ['Next page', 'Next', 'More homes', 'Show more'],
  prevPage: ['Previous page', 'Previous', 'Earlier results', 'Go back a page'],
  moreIn: ['More homes in {city}', 'Other homes in {city}', 'See more in {city}', 'Back to {city} listings'],
  saveHome: ['Save home', 'Save', 'Add to favorites', 'Save this home'],
  unsaveHome: ['Unsave home', 'Unsave', 'Remove from favorites', 'Remove from saved'],
  factsHeading: ['Facts and features', 'Home details', 'Property facts', 'At a glance'],
  factType: ['Home type', 'Property type', 'Type', 'Style'],
  factBeds: ['Bedrooms', 'Beds', 'Bedroom count', 'Number of bedrooms'],
  factBaths: ['Bathrooms', 'Baths', 'Bathroom count', 'Number of bathrooms'],
  factSqft: ['Square feet', 'Living area (sq ft)', 'Floor area (sq ft)', 'Interior size (sq ft)'],
  factYear: ['Year built', 'Built in', 'Construction year', 'Year of construction'],
  factHoa: ['HOA fee', 'HOA dues', 'Association fee', 'Monthly HOA'],
  factNeighborhood: ['Neighborhood', 'Area', 'Location', 'District'],
  factAgent: ['Listing agent', 'Agent', 'Listed by', 'Contact agent'],
  tourHeading: ['Request a tour', 'Schedule a visit', 'Book a viewing', 'See it in person'],
  tourDate: ['Tour date', 'Preferred date', 'Visit date', 'Date'],
  tourTime: ['Tour time', 'Preferred time', 'Visit time', 'Time'],
  chooseTime: ['Choose a time', 'Select a time', 'Pick a time', 'No time chosen'],
  yourName: ['Your name', 'Full name', 'Name', 'Contact name'],
  email: ['Email', 'Email address', 'Your email', 'E-mail'],
  phone: ['Phone', 'Phone number', 'Your phone', 'Mobile number'],
  requestTour: ['Request tour', 'Send request', 'Book tour', 'Schedule visit'],
  tourDone: ['Tour requested', 'Request received', 'Visit booked', 'Your tour is booked'],
  keepLooking: ['Keep looking', 'Back to listings', 'Continue browsing', 'See more homes'],
} as const;

export type Words = WordsOf<typeof WORDING>;

/** Where a navigation link leads; the last three are distractors (plain pages that help with nothing). */
export type NavKey = 'homes' | 'saved' | 'tours' | 'sell' | 'mortgage' | 'agents';
/** Home-page sections; the last three are distractors (promo boxes with no home in them). */
export type SectionKey = 'hero' | 'cities' | 'rates' | 'selling' | 'guides';
export type FilterKey = 'type' | 'beds' | 'maxPrice' | 'sort';
export type FactKey = 'type' | 'beds' | 'baths' | 'sqft' | 'year' | 'hoa' | 'neighborhood' | 'agent';
export type TourField = 'date' | 'time' | 'name' | 'email' | 'phone';

export interface Variant {
  words: Words;
  nav: NavKey[];
  sections: SectionKey[];
  filters: FilterKey[];
  facts: FactKey[];
  tourFields: TourField[];
  /** Where the main navigation sits: a bar under the header, a sidebar, or inside the header. */
  navPlacement: 'top' | 'side' | 'header';
  /** The search results as cards, a table or a plain list. */
  listView: 'cards' | 'table' | 'list';
  /** The filter form beside the results or in a bar above them. */
  filtersPlacement: 'side' | 'top';
  /** A home's facts as a table or a definition list. */
  factsView: 'table' | 'list';
  /** The tour form after the facts, or before them. */
  tourFirst: boolean;
  /** A colour scheme (a class on <body>); plum is the site's original colour. */
  accent: 'plum' | 'teal' | 'brick' | 'slate';
}

const CORE_NAV: NavKey[] = ['homes', 'saved', 'tours'];
const DISTRACTOR_NAV: NavKey[] = ['sell', 'mortgage', 'agents'];
const CORE_SECTIONS: SectionKey[] = ['hero', 'cities'];
const DISTRACTOR_SECTIONS: SectionKey[] = ['rates', 'selling', 'guides'];
const FILTERS: FilterKey[] = ['type', 'beds', 'maxPrice', 'sort'];
const FACTS: FactKey[] = ['type', 'beds', 'baths', 'sqft', 'year', 'hoa', 'neighborhood', 'agent'];
/** Tour-form orders that still read naturally: when, then who (or the reverse); the checker reads no order. */
const TOUR_ORDERS: TourField[][] = [
  ['date', 'time', 'name', 'email', 'phone'],
  ['name', 'email', 'phone', 'date', 'time'],
  ['date', 'time', 'name', 'phone', 'email'],
  ['name', 'phone', 'email', 'date', 'time'],
  ['time', 'date', 'name', 'email', 'phone'],
];

export function drawVariant(seed: number): Variant {
  const rng = variantRng(seed, 'realestate');
  const words = drawWords(rng, WORDING);
  const { nav, sections } = placeDistractors(rng, { core: CORE_NAV, extra: DISTRACTOR_NAV }, { core: CORE_SECTIONS, extra: DISTRACTOR_SECTIONS });
  return {
    words,
    nav,
    sections,
    filters: rng.shuffle(FILTERS),
    facts: rng.shuffle(FACTS),
    tourFields: rng.pick(TOUR_ORDERS),
    navPlacement: rng.pick(['top', 'side', 'header'] as const),
    listView: rng.pick(['cards', 'table', 'list'] as const),
    filtersPlacement: rng.pick(['side', 'top'] as const),
    factsView: rng.pick(['table', 'list'] as const),
    tourFirst: rng.chance(0.5),
    accent: rng.pick(['plum', 'teal', 'brick', 'slate'] as const),
  };
}


/** The navigation link's name; the saved-homes link shows how many are saved. */
export function navLabel(w: Words, key: NavKey, savedCount: number): string {
  const names: Record<NavKey, string> = {
    homes: w.navHomes,
    saved: `${w.navSaved} (${savedCount})`,
    tours: w.navTours,
    sell: 'Sell your home',
    mortgage: 'Mortgages',
    agents: 'Find an agent',
  };
  return names[key];
}

/** The bedrooms filter's option for "at least n". */
export function bedsLabel(w: Words, n: number | string): string {
  return fill(w.bedsOption, { n });
}

/** "12 homes", "1 listing": the result count in this site's noun. */
export function countLabel(w: Words, n: number): string {
  const [one, many] = w.countNoun.split('|');
  return `${n} ${n === 1 ? one : many}`;
}
