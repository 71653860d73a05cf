/**
 * How one ticketing site looks and words itself, drawn from the seed alone (its own stream, see
 * ../common/variant.ts): its labels from synonyms, the order of its navigation, home page, filters,
 * event facts and checkout fields, one to three distractors (gift-card, help and resale links, a
 * presale-alerts box), and a layout (where the navigation and the filters sit, how events are
 * listed, how dates and times print, an accent). Pages and the oracle read all of it from
 * `state.variant`; the events, seats, prices and goal never depend on it.
 */
import { drawWords, fill, placeDistractors, variantRng, type WordsOf } from '../common/variant.ts';
// Filling a label's {placeholders} is the same for both families this change varied; compare has it.

export { fill };

/**
 * Synonyms per label; the first is what the site said before it varied. Lists are disjoint across
 * keys that can share a page (test/tasks/tickets.test.ts checks it page by page), so a name always
 * means one thing. `{q}`, `{price}`, `{row}`, `{num}`, `{count}` and `{cities}` stand for data.
 */
export const WORDING = {
  search: ['Search events', 'Find events', 'Search shows and games', 'Search tickets'],
  searchHint: ['Artist, team or show', 'Who do you want to see?', 'Band, team or play', 'Event name or venue'],
  searchButton: ['Search', 'Go', 'Find', 'Look up'],
  navAll: ['All events', 'Browse events', 'Everything on', "What's on"],
  navOrders: ['My tickets', 'My orders', 'Your tickets', 'Order history'],
  hero: ['Live events near you', 'Find your next night out', 'Tickets for live events', 'See it live'],
  summary: ['{count} upcoming events in {cities}.', '{count} events coming to {cities}.', 'On sale: {count} events across {cities}.', '{count} shows and games in {cities}.'],
  comingUp: ['Coming up', 'Happening soon', 'Next up', 'Soonest events'],
  category: ['Category', 'Type of event', 'Event type', 'Genre'],
  anyCategory: ['All categories', 'Any category', 'Any type', 'All kinds'],
  city: ['City', 'Location', 'Where', 'Town'],
  anyCity: ['All cities', 'Any city', 'Anywhere', 'Every city'],
  sort: ['Sort by', 'Order by', 'Sort', 'Arrange by'],
  sortDate: ['Date', 'Soonest first', 'By date', 'Earliest first'],
  sortPrice: ['Lowest price', 'Price: low to high', 'Cheapest first', 'Price (lowest first)'],
  apply: ['Apply filters', 'Update results', 'Show events', 'Filter'],
  matching: ['Events matching "{q}"', 'Results for "{q}"', 'Search results: "{q}"', 'You searched for "{q}"'],
  noEvents: ['No events match.', 'Nothing matches.', 'No results.', 'We found no events.'],
  nextPage: ['Next page', 'More events', 'Next', 'Show more'],
  prevPage: ['Previous page', 'Previous events', 'Previous', 'Back a page'],
  from: ['from {price}', 'Tickets from {price}', 'Starting at {price}', '{price} and up'],
  venue: ['Venue', 'Place', 'Held at', 'Arena or hall'],
  date: ['Date', 'On', 'When', 'Event date'],
  starts: ['Starts', 'Start time', 'Begins', 'Show time'],
  prices: ['Prices', 'Ticket prices', 'Pricing', 'Prices by section'],
  pricePer: ['Price per ticket', 'Per ticket', 'Each', 'Ticket price'],
  selectSeats: ['Select seats', 'Choose seats', 'Pick your seats', 'Find seats'],
  backToEvent: ['Back to the event', 'Event details', 'Back to event info', 'Return to the event'],
  seatsHeading: ['Choose your seats', 'Seat map', 'Where would you like to sit?', 'Seating plan'],
  stageNote: [
    'The stage is at the front (row A). Taken seats cannot be chosen.',
    'Row A is nearest the stage; seats already sold cannot be picked.',
    'Rows run from A at the stage to G at the back. Sold seats are greyed out.',
    'The front row is A. Seats someone else bought are disabled.',
  ],
  /** A seat's checkbox name. */
  seat: ['Row {row}, seat {num}, {price}', 'Seat {row}{num}, {price}', '{row}{num} ({price})', 'Row {row} seat {num}: {price}'],
  taken: ['taken', 'sold', 'unavailable', 'not available'],
  toCheckout: ['Continue to checkout', 'Continue', 'Proceed to payment', 'Next: your details'],
  changeSeats: ['Change seats', 'Choose different seats', 'Back to the seat map', 'Edit seats'],
  checkout: ['Checkout', 'Your details', 'Payment', 'Almost there'],
  total: ['Total {price}', 'You pay {price}', 'Order total: {price}', '{price} in all'],
  name: ['Full name', 'Name on tickets', 'Ticket holder', 'Your name'],
  email: ['Email', 'Email address', 'E-mail', 'Send tickets to'],
  delivery: ['Delivery', 'How to get your tickets', 'Ticket delivery', 'Delivery method'],
  mobile: ['Mobile tickets', 'Tickets on my phone', 'Mobile entry', 'E-tickets to my phone'],
  willCall: ['Will call', 'Pick up at will call', 'Box office pickup', 'Collect at the venue'],
  agree: ['I accept the terms of sale', 'I agree to the terms of sale', 'I accept the terms and conditions', 'I have read and accept the terms'],
  pay: ['Pay now', 'Buy tickets', 'Complete purchase', 'Place order'],
  confirmed: ["You're going!", 'Order confirmed', 'Enjoy the show!', 'Tickets booked'],
  noTickets: ['No tickets yet.', 'You have no orders yet.', 'Nothing booked so far.', 'No tickets bought yet.'],
} as const;

export type Words = WordsOf<typeof WORDING>;
export type WordKey = keyof typeof WORDING;

/** Navigation entries: all events, each category, the orders, and distractor links to plain pages. */
export type NavKey = 'all' | 'category:Concert' | 'category:Theater' | 'category:Comedy' | 'category:Sports' | 'orders' | 'giftCards' | 'help' | 'sell';
/** The home page: its welcome, the events coming up, and maybe a presale-alerts box (a distractor). */
export type SectionKey = 'hero' | 'comingUp' | 'alerts';
export type FilterKey = 'category' | 'city' | 'sort';
export type FactKey = 'category' | 'venue' | 'date' | 'starts';
export type PayField = 'name' | 'email' | 'delivery';

export interface Variant {
  words: Words;
  nav: NavKey[];
  sections: SectionKey[];
  filters: FilterKey[];
  facts: FactKey[];
  payFields: PayField[];
  /** Where the main navigation sits: a bar under the header, a sidebar, or inside the header. */
  navPlacement: 'top' | 'side' | 'header';
  /** Where the listing's filters sit: a column beside the events, or a bar above them. */
  filtersPlacement: 'side' | 'top';
  /** How events are listed: cards, a plain list, or a table. */
  listing: 'grid' | 'list' | 'table';
  /** Saturday, 14 March 2026 / Sat 14 Mar 2026 / Saturday, March 14, 2026. */
  dateStyle: 'long' | 'short' | 'us';
  /** 7:30 PM or 19:30. */
  clock: '12h' | '24h';
  accent: 'plum' | 'ink' | 'ember' | 'pine';
}

const CORE_NAV: NavKey[] = ['all', 'category:Concert', 'category:Theater', 'category:Comedy', 'category:Sports', 'orders'];
const DISTRACTOR_NAV: NavKey[] = ['giftCards', 'help', 'sell'];
const PAY_ORDERS: PayField[][] = [
  ['name', 'email', 'delivery'],
  ['email', 'name', 'delivery'],
  ['delivery', 'name', 'email'],
];

export function drawVariant(seed: number): Variant {
  const rng = variantRng(seed, 'tickets');
  const words = drawWords(rng, WORDING);
  const { nav, sections } = placeDistractors<NavKey, SectionKey>(rng, { core: CORE_NAV, extra: DISTRACTOR_NAV }, { core: ['hero', 'comingUp'], extra: ['alerts'] });
  return {
    words,
    nav,
    sections,
    filters: rng.shuffle<FilterKey>(['category', 'city', 'sort']),
    facts: rng.shuffle<FactKey>(['category', 'venue', 'date', 'starts']),
    payFields: rng.pick(PAY_ORDERS),
    navPlacement: rng.pick(['top', 'side', 'header'] as const),
    filtersPlacement: rng.pick(['side', 'top'] as const),
    listing: rng.pick(['grid', 'list', 'table'] as const),
    dateStyle: rng.pick(['long', 'short', 'us'] as const),
    clock: rng.pick(['12h', '24h'] as const),
    accent: rng.pick(['plum', 'ink', 'ember', 'pine'] as const),
  };
}

/** The delivery choice's label on this site (the order keeps the canonical value). */
export function deliveryLabel(w: Words, delivery: 'Mobile tickets' | 'Will call'): string {
  return delivery === 'Mobile tickets' ? w.mobile : w.willCall;
}
