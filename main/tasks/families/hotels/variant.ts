/**
 * How one hotel site looks and words itself, drawn from the seed alone. A policy trained on sites
 * with one fixed layout learns where the buttons sit and what they are called instead of reading
 * the page; here every instance draws its labels from synonyms, orders its navigation, home-page
 * sections, form fields and filters, adds one to three distractors and picks a layout. The draw
 * has its own stream of the seed (common/variant.ts), so the task's content never changes with it.
 * Pages and the oracle both read the chosen words from the instance state.
 */
import { COOKIE_WORDING, drawWords, placeDistractors, variantRng, type CookieWords, type WordsOf } from '../common/variant.ts';

/**
 * Synonyms per label; the first of each list is what the site said before it varied. Every string
 * differs from every other one (the family test checks it), so a name found on a page always
 * means one thing. Entries with {placeholders} embed data (a city, a hotel, a room, a price, a
 * page number) verbatim: fill them with `say`.
 */
export const WORDING = {
  // Navigation and home page.
  navFind: ['Find a hotel', 'Search stays', 'Home', 'Hotels'],
  navTrips: ['My bookings', 'My trips', 'Reservations', 'Your bookings'],
  navHelp: ['Help', 'Customer service', 'Support', 'FAQ'],
  homeTitle: ['Find your next stay', 'Where to next?', 'Hotels for every trip', 'Plan your stay'],
  homeTagline: ['Best price guarantee on {count} hotels.', '{count} hotels, one simple search.', 'Compare {count} hotels in one place.', 'Choose from {count} hotels.'],
  destinations: ['Popular destinations', 'Trending cities', 'Explore by city', 'Top destinations'],
  // The search form.
  destination: ['Destination', 'Where are you going?', 'City', 'Going to'],
  checkin: ['Check-in date', 'Check-in', 'Arrival date', 'Arriving on'],
  checkout: ['Check-out date', 'Check-out', 'Departure date', 'Leaving on'],
  guests: ['Guests', 'Number of guests', 'Travellers', 'People'],
  search: ['Search hotels', 'Search', 'Find hotels', 'Show hotels'],
  // Results: heading, filters, sort and pagination.
  resultsHeading: ['Hotels in {city}', 'Places to stay in {city}', 'Stays in {city}', '{city} hotels'],
  stars: ['Minimum stars', 'Star rating', 'Stars (at least)', 'Hotel class'],
  starsAny: ['Any', 'Any rating', 'All hotels', 'No minimum'],
  starsAtLeast: ['{n} stars or more', '{n}+ stars', 'At least {n} stars', '{n} stars and up'],
  starsFive: ['5 stars', '5 stars only', 'Only 5-star', 'Five stars'],
  maxPrice: ['Max price per night ($)', 'Price per night up to ($)', 'Budget per night ($)', 'Highest nightly price ($)'],
  breakfast: ['Free breakfast', 'Breakfast included', 'Only with free breakfast', 'Includes breakfast'],
  sort: ['Sort by', 'Order by', 'Sort results', 'Show first'],
  sortRecommended: ['Recommended', 'Our picks', 'Most popular', 'Top picks'],
  sortPriceAsc: ['Price (lowest first)', 'Lowest price first', 'Price: low to high', 'Cheapest first'],
  sortPriceDesc: ['Price (highest first)', 'Highest price first', 'Price: high to low', 'Most expensive first'],
  sortRating: ['Guest rating', 'Best rated', 'Rating: high to low', 'Top reviewed'],
  apply: ['Apply filters', 'Update results', 'Filter', 'Refine results'],
  prevPage: ['Previous page', 'Previous', 'Earlier results', '‹ Back'],
  nextPage: ['Next page', 'Next', 'More hotels', 'Show more results'],
  pageN: ['Page {n}', 'Go to page {n}', 'Results page {n}', 'p. {n}'],
  perNight: ['{price} per night', '{price} a night', '{price} / night', '{price} nightly'],
  // A hotel's page.
  backToResults: ['Back to results', 'Back to search results', 'Return to results', 'See all results'],
  moreInCity: ['More hotels in {city}', 'Other hotels in {city}', 'Browse {city}', 'See all of {city}'],
  amenities: ['Amenities', 'Facilities', 'What this place offers', 'Hotel features'],
  rooms: ['Rooms', 'Available rooms', 'Choose your room', 'Room types'],
  reserve: ['Reserve {room}', 'Book {room}', 'Select {room}', 'Choose {room}'],
  // The booking form and its confirmation.
  backToHotel: ['Back to {hotel}', 'Return to {hotel}', 'Other rooms at {hotel}', 'Change room at {hotel}'],
  bookHeading: ['Complete your booking', 'Your details', 'Guest details', 'Almost done'],
  first: ['First name', 'Given name', 'Forename', 'First name(s)'],
  last: ['Last name', 'Surname', 'Family name', 'Last name(s)'],
  email: ['Email', 'Email address', 'E-mail', 'Your email'],
  requests: ['Special requests (optional)', 'Requests for the hotel (optional)', 'Anything we should know? (optional)', 'Notes for the hotel (optional)'],
  agree: ['I accept the cancellation policy', 'I agree to the cancellation policy', 'I have read the cancellation policy', 'I accept the booking terms'],
  confirm: ['Confirm booking', 'Book now', 'Complete booking', 'Confirm and book'],
  confirmedHeading: ['Booking confirmed', 'Your stay is booked', 'Reservation confirmed', 'All set'],
  viewTrips: ['View my bookings', 'See my trips', 'Open my reservations', 'Show all bookings'],
  findAnother: ['Find another hotel', 'Book another stay', 'New search', 'Search again'],
} as const;

export type WordKey = keyof typeof WORDING;
export type Words = WordsOf<typeof WORDING>;

/** The navigation's entries; the last four are distractors (pages that help with nothing). */
export type NavKey = 'find' | 'trips' | 'help' | 'deals' | 'giftCards' | 'careers' | 'guides';
/** The home page's boxes under its heading; the last three are distractors. */
export type SectionKey = 'search' | 'destinations' | 'members' | 'reasons' | 'app';
export type SearchField = 'city' | 'checkin' | 'checkout' | 'guests';
export type FilterKey = 'stars' | 'maxPrice' | 'breakfast' | 'sort';
export type BookField = 'first' | 'last' | 'email' | 'requests';

export interface Variant {
  words: Words;
  cookie: CookieWords;
  nav: NavKey[];
  sections: SectionKey[];
  searchFields: SearchField[];
  filters: FilterKey[];
  bookFields: BookField[];
  /** Where the main navigation sits: a bar under the header, a sidebar, or inside the header. */
  navPlacement: 'top' | 'side' | 'header';
  /** How the search results list the hotels. */
  resultsView: 'cards' | 'list' | 'table';
  /** The filter form beside the results or in a bar above them. */
  filtersPlacement: 'side' | 'top';
  /** A hotel's rooms as a table or as cards. */
  roomsView: 'table' | 'cards';
  /** A colour scheme (a class on <body>). */
  accent: 'teal' | 'ocean' | 'plum' | 'rust';
}

const CORE_NAV: NavKey[] = ['find', 'trips', 'help'];
const DISTRACTOR_NAV: NavKey[] = ['deals', 'giftCards', 'careers', 'guides'];
const CORE_SECTIONS: SectionKey[] = ['search', 'destinations'];
const DISTRACTOR_SECTIONS: SectionKey[] = ['members', 'reasons', 'app'];
/** Search form orders a person would find natural: the stay's dates stay in their order. */
const SEARCH_ORDERS: SearchField[][] = [
  ['city', 'checkin', 'checkout', 'guests'],
  ['city', 'guests', 'checkin', 'checkout'],
  ['checkin', 'checkout', 'city', 'guests'],
  ['guests', 'city', 'checkin', 'checkout'],
];
const BOOK_ORDERS: BookField[][] = [
  ['first', 'last', 'email', 'requests'],
  ['email', 'first', 'last', 'requests'],
  ['last', 'first', 'email', 'requests'],
  ['first', 'last', 'requests', 'email'],
];

export function drawVariant(seed: number): Variant {
  const rng = variantRng(seed, 'hotels');
  const words = drawWords(rng, WORDING);
  const cookie = drawWords(rng, COOKIE_WORDING);
  const { nav, sections } = placeDistractors(rng, { core: CORE_NAV, extra: DISTRACTOR_NAV }, { core: CORE_SECTIONS, extra: DISTRACTOR_SECTIONS });
  return {
    words,
    cookie,
    nav,
    sections,
    searchFields: rng.pick(SEARCH_ORDERS),
    filters: rng.shuffle<FilterKey>(['stars', 'maxPrice', 'breakfast', 'sort']),
    bookFields: rng.pick(BOOK_ORDERS),
    navPlacement: rng.pick(['top', 'side', 'header'] as const),
    resultsView: rng.pick(['cards', 'list', 'table'] as const),
    filtersPlacement: rng.pick(['side', 'top'] as const),
    roomsView: rng.pick(['table', 'cards'] as const),
    accent: rng.pick(['teal', 'ocean', 'plum', 'rust'] as const),
  };
}

/** A wording entry with its {placeholders} filled: say(w.reserve, { room: 'Twin Room' }). */
export function say(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (all, key: string) => (key in values ? String(values[key]) : all));
}

/** The label this site gives a star filter option ('' any, '3', '4', '5'). */
export function starsLabel(w: Words, value: string): string {
  return value === '' ? w.starsAny : value === '5' ? w.starsFive : say(w.starsAtLeast, { n: value });
}

/** The label this site gives a sort option, by its value (query.ts SORTS). */
export function sortLabel(w: Words, value: string): string {
  const labels: Record<string, string> = { recommended: w.sortRecommended, price_asc: w.sortPriceAsc, price_desc: w.sortPriceDesc, rating: w.sortRating };
  return labels[value] ?? value;
}
