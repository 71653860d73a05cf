/**
 * How one flight site looks and words itself, drawn from the seed alone (its own stream, see
 * ../common/variant.ts), never from the stream that picks the task: every seed keeps its goal,
 * flights and checker. A policy trained on one fixed site learned where the search button sits
 * and what it is called instead of reading the page; here every instance draws its labels from
 * synonyms, orders its navigation, home boxes, form fields and filters, adds one to three
 * distractors and picks a layout. Pages and the oracle both read the chosen words from the state.
 */
import { COOKIE_WORDING, type CookieWords, drawWords, fill, placeDistractors, variantRng, type WordsOf } from '../common/variant.ts';
export { fill };

/**
 * Synonyms per label; the first of each is what the site said before it varied. Lists are
 * disjoint across keys that share a page (PAGE_KEYS), so a name found on a page means one thing;
 * the one exception is "Search flights", today's word both for the navigation link and for the
 * search form's button, which their roles (link, button) tell apart.
 * Entries with {placeholders} are templates: the data they carry is filled in verbatim.
 */
export const WORDING = {
  // Navigation, on every page.
  navSearch: ['Search flights', 'Book a flight', 'Find a flight', 'Flights'],
  navTrips: ['My trips', 'My bookings', 'Your trips', 'Booked trips'],
  navHelp: ['Help', 'Support', 'Customer help', 'Questions and answers'],
  // The search form (the home page).
  searchHeading: ['Where to next?', 'Plan your trip', 'Where are you flying?', 'Find your next flight'],
  from: ['From', 'Flying from', 'Origin', 'Leaving from'],
  to: ['To', 'Flying to', 'Destination', 'Going to'],
  date: ['Departure date', 'Depart on', 'Travel date', 'Outbound date'],
  passengers: ['Passengers', 'Number of passengers', 'Adults', 'How many travelling'],
  fareClass: ['Fare class', 'Cabin', 'Cabin class', 'Travel class'],
  searchButton: ['Search flights', 'Search', 'Show flights', 'Find flights'],
  calendar: ['Choose departure date', 'Pick a day', 'Departure calendar', 'Select your travel day'],
  prevMonth: ['Previous month', 'Earlier month', 'Back one month', 'Month before'],
  nextMonth: ['Next month', 'Later month', 'Forward one month', 'Month after'],
  // The results page.
  changeSearch: ['Change search', 'Modify search', 'Edit search', 'New search'],
  prevDay: ['Previous day', 'Day before', 'Earlier date', 'One day earlier'],
  nextDay: ['Next day', 'Day after', 'Later date', 'One day later'],
  sortBy: ['Sort by', 'Order by', 'Sort results', 'Arrange by'],
  sortPrice: ['Price (lowest first)', 'Cheapest first', 'Lowest fare first', 'Price: low to high'],
  sortDuration: ['Duration (shortest first)', 'Shortest trip first', 'Quickest first', 'Travel time: short to long'],
  sortDeparture: ['Departure time', 'Earliest departure first', 'Leaving soonest', 'Departure: early to late'],
  nonstop: ['Nonstop only', 'Direct flights only', 'No stops', 'Hide flights with stops'],
  update: ['Update results', 'Apply', 'Refresh list', 'Show results'],
  /** {n} is the count, {flights} "flight" or "flights". */
  found: ['{n} {flights} found', '{n} {flights} available', 'Showing {n} {flights}', '{n} matching {flights}'],
  perPassenger: ['per passenger', 'per person', 'each', 'per traveller'],
  selectText: ['Select', 'Choose', 'Book this flight', 'Pick'],
  /** A result's button: {number} the flight number, {time} its departure, {price} the fare ("$212"). */
  selectFlight: ['Select flight {number} departing {time} for {price}', 'Choose flight {number}, leaving {time}, {price}', 'Book {number} at {time} for {price}', 'Pick {number}: departs {time}, {price}'],
  // The passenger form.
  passengersHeading: ['Passenger details', 'Who is flying?', 'Traveller details', 'Passenger information'],
  /** One fieldset per passenger; {n} is its number. */
  legend: ['Passenger {n} (adult)', 'Traveller {n}', 'Adult {n}', 'Passenger {n}'],
  firstName: ['Passenger {n} first name', 'Traveller {n} given name', 'Passenger {n}: first name', 'First name of passenger {n}'],
  lastName: ['Passenger {n} last name', 'Traveller {n} surname', 'Passenger {n}: last name', 'Last name of passenger {n}'],
  confirm: ['Confirm booking', 'Book now', 'Complete booking', 'Confirm and pay'],
  backToResults: ['Back to results', 'Return to flight list', 'See other flights', 'Back to the flights'],
  // The confirmation page.
  confirmedHeading: ['Booking confirmed', "You're booked", 'Trip confirmed', 'Booking complete'],
  codeIs: ['Your confirmation code is', 'Your booking reference is', 'Reference number:', 'Confirmation code:'],
  travellersHeading: ['Passengers', 'Travellers', 'On this booking', 'Names on the booking'],
  viewTrips: ['View my trips', 'See all bookings', 'Go to your trips', 'Show my bookings'],
  bookAnother: ['Book another flight', 'Plan another trip', 'Start a new search', 'Search again'],
} as const;

export type Words = WordsOf<typeof WORDING>;
export type WordKey = keyof typeof WORDING;

const NAV_WORDS: WordKey[] = ['navSearch', 'navTrips', 'navHelp'];
/** The keys each page shows (navigation aside, which every page has): what must be disjoint. */
export const PAGE_KEYS: Record<'search' | 'results' | 'passengers' | 'confirmation', WordKey[]> = {
  search: [...NAV_WORDS, 'searchHeading', 'from', 'to', 'date', 'passengers', 'fareClass', 'searchButton', 'calendar', 'prevMonth', 'nextMonth'],
  results: [...NAV_WORDS, 'changeSearch', 'prevDay', 'nextDay', 'sortBy', 'sortPrice', 'sortDuration', 'sortDeparture', 'nonstop', 'update', 'found', 'perPassenger', 'selectText', 'selectFlight'],
  passengers: [...NAV_WORDS, 'passengersHeading', 'legend', 'firstName', 'lastName', 'confirm', 'backToResults'],
  confirmation: [...NAV_WORDS, 'confirmedHeading', 'codeIs', 'travellersHeading', 'viewTrips', 'bookAnother'],
};

/** The site's own pages a navigation link can lead to; the last four are distractors. */
export type NavKey = 'search' | 'trips' | 'help' | 'deals' | 'baggage' | 'status' | 'giftCards';
/** Boxes of the home page: the search form, and two distractors. */
export type SectionKey = 'search' | 'promo' | 'tips';
export type SearchField = 'from' | 'to' | 'date' | 'passengers' | 'fareClass';
export type FilterControl = 'sort' | 'nonstop';
export type SortKey = 'price' | 'duration' | 'departure';
export type NameField = 'first' | 'last';

export interface Variant {
  words: Words;
  /** The cookie banner's words, should the banner show (the flight site keeps it dismissed). */
  cookie: CookieWords;
  nav: NavKey[];
  sections: SectionKey[];
  searchFields: SearchField[];
  /** Order of the sort select and the nonstop checkbox in the results' filter form. */
  filters: FilterControl[];
  /** Order of the sort select's options. */
  sorts: SortKey[];
  /** Within each passenger's fieldset: first name first, or last name first. */
  nameFields: NameField[];
  /** Where the main navigation sits: a bar under the header, a sidebar, or inside the header. */
  navPlacement: 'top' | 'side' | 'header';
  /** How results are listed: one card per flight, a table row per flight, or one line each. */
  resultsView: 'cards' | 'table' | 'list';
  /** The results' filter form: above the list, or beside it. */
  filtersPlacement: 'above' | 'side';
  /** A colour scheme (a class on <body>). */
  accent: 'blue' | 'teal' | 'plum' | 'slate';
}

const CORE_NAV: NavKey[] = ['search', 'trips', 'help'];
const DISTRACTOR_NAV: NavKey[] = ['deals', 'baggage', 'status', 'giftCards'];
const DISTRACTOR_SECTIONS: SectionKey[] = ['promo', 'tips'];
/** Search form orders a person would still find natural: origin before destination. */
const SEARCH_ORDERS: SearchField[][] = [
  ['from', 'to', 'date', 'passengers', 'fareClass'],
  ['from', 'to', 'passengers', 'fareClass', 'date'],
  ['date', 'from', 'to', 'passengers', 'fareClass'],
  ['from', 'to', 'date', 'fareClass', 'passengers'],
  ['passengers', 'fareClass', 'from', 'to', 'date'],
];

export function drawVariant(seed: number): Variant {
  const rng = variantRng(seed, 'flights');
  const words = drawWords(rng, WORDING);
  const cookie = drawWords(rng, COOKIE_WORDING);
  const { nav, sections } = placeDistractors<NavKey, SectionKey>(rng, { core: CORE_NAV, extra: DISTRACTOR_NAV }, { core: ['search'], extra: DISTRACTOR_SECTIONS });
  return {
    words,
    cookie,
    nav,
    sections,
    searchFields: rng.pick(SEARCH_ORDERS),
    filters: rng.shuffle<FilterControl>(['sort', 'nonstop']),
    sorts: rng.shuffle<SortKey>(['price', 'duration', 'departure']),
    nameFields: rng.shuffle<NameField>(['first', 'last']),
    navPlacement: rng.pick(['top', 'side', 'header'] as const),
    resultsView: rng.pick(['cards', 'table', 'list'] as const),
    filtersPlacement: rng.pick(['above', 'side'] as const),
    accent: rng.pick(['blue', 'teal', 'plum', 'slate'] as const),
  };
}


/** A sort option's name on this site. */
export function sortLabel(w: Words, key: SortKey): string {
  return { price: w.sortPrice, duration: w.sortDuration, departure: w.sortDeparture }[key];
}

/** The name of a passenger's first or last name field ("Passenger 2 last name"). */
export function nameLabel(w: Words, part: NameField, index: number): string {
  return fill(part === 'first' ? w.firstName : w.lastName, { n: index + 1 });
}

/** A result's select button name: the flight number, departure and fare, as this site words them. */
export function selectFlightLabel(w: Words, number: string, time: string, price: number): string {
  return fill(w.selectFlight, { number, time, price: `$${price}` });
}
