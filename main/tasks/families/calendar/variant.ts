/**
 * How one calendar site looks and words itself, drawn from the seed alone (its own stream, see
 * ../common/variant.ts, so the events, the goal and the instruction stay what they were). Every
 * instance draws its labels from synonyms, orders its navigation, form fields and event details,
 * adds one to three distractors and picks how the month and the day are laid out. Pages and the
 * oracle both read the chosen words from the instance state, so the oracle finds every control by
 * the name it has on this instance.
 */
import { drawWords, fill, placeDistractors, variantRng, type WordsOf } from '../common/variant.ts';
export { fill };

/**
 * Synonyms per label; the first of each list is what the site said before it varied. Lists are
 * disjoint across keys that can share a page, so a name found on a page always means one thing.
 * Entries with {braces} are templates: the data goes in verbatim.
 */
export const WORDING = {
  // Navigation (every page) and the search box in the header.
  navMonth: ['This month', 'Current month', 'Month view', 'Jump to this month'],
  navToday: ['Today', 'Go to today', "Today's agenda", 'Jump to today'],
  navNew: ['New event', 'Create event', 'Add event', 'New appointment'],
  searchBox: ['Search events', 'Find events', 'Search your calendar', 'Look up an event'],
  searchButton: ['Search', 'Find', 'Go', 'Look up'],
  // The month view.
  prevMonth: ['Previous month', 'Earlier month', 'Month before', 'Back one month'],
  nextMonth: ['Next month', 'Later month', 'Month after', 'Forward one month'],
  deleted: ['Deleted "{title}".', 'Removed "{title}".', '"{title}" was deleted.', '"{title}" is no longer in your calendar.'],
  // The day view.
  backToMonth: ['Back to month', 'Whole month', 'Month overview', 'Up to the month'],
  prevDay: ['Previous day', 'Day before', 'Earlier day', 'Back one day'],
  nextDay: ['Next day', 'Day after', 'Later day', 'Forward one day'],
  newOnDay: ['New event on this day', 'Add to this day', 'Schedule on this day', 'Plan something this day'],
  emptyDay: ['Nothing scheduled.', 'No events.', 'Nothing planned.', 'Your day is clear.'],
  until: ['until {time}', 'ends {time}', 'to {time}', 'finishes {time}'],
  saved: ['Event saved.', 'Saved.', 'Your event is saved.', 'All changes saved.'],
  /** The accessible name of an event's link: the date makes it unique, since titles repeat on other days. */
  eventName: ['{time} {title}, {date}', '{title} at {time}, {date}', '{title}, {date}, {time}', '{date}: {title} at {time}'],
  // The event page.
  backToDay: ['Back to {date}', 'All of {date}', 'Day view for {date}', 'Return to {date}'],
  editEvent: ['Edit event', 'Edit', 'Change event', 'Modify details'],
  deleteEvent: ['Delete event', 'Delete', 'Remove event', 'Remove from calendar'],
  time: ['Time', 'Hours', 'Time slot', 'Scheduled'],
  // The delete confirmation.
  deleteHeading: ['Delete this event?', 'Remove this event?', 'Really delete it?', 'Delete for good?'],
  confirmDelete: ['Yes, delete', 'Delete permanently', 'Confirm removal', 'Yes, remove it'],
  cancelDelete: ['Cancel', 'Keep event', 'No, keep it', 'Go back'],
  // The event form (field labels also name the event page's details).
  title: ['Title', 'Event title', 'Name', 'What'],
  date: ['Date', 'Day', 'Event date', 'Which day'],
  start: ['Start time', 'Starts', 'From', 'Begins at'],
  end: ['End time', 'Ends', 'Until', 'Finishes at'],
  location: ['Location', 'Where', 'Place', 'Venue'],
  notes: ['Notes', 'Details', 'Description', 'Comments'],
  optional: ['(optional)', '(if any)', '(not required)'],
  save: ['Save event', 'Save', 'Save to calendar', 'Store event'],
  cancelForm: ['Cancel', 'Discard changes', 'Never mind', 'Back without saving'],
} as const;

export type Words = WordsOf<typeof WORDING>;

/** Navigation entries; the last three are distractors that lead to a plain page. */
export type NavKey = 'month' | 'today' | 'new' | 'settings' | 'help' | 'shared';
/** Parts of the month page: the month itself and the distractor boxes beside it. */
export type SectionKey = 'month' | 'tip' | 'sync' | 'weather';
export type FormField = 'title' | 'date' | 'start' | 'end' | 'location' | 'notes';
export type DetailKey = 'date' | 'time' | 'location' | 'notes';

export interface Variant {
  words: Words;
  nav: NavKey[];
  /** The month page's parts in order: the month and zero to three distractor boxes. */
  sections: SectionKey[];
  /** Where the main navigation sits: a bar under the header, a sidebar, or inside the header. */
  navPlacement: 'top' | 'side' | 'header';
  /** The month as a table of weeks, a list of days, or a wall of day cards. */
  monthView: 'grid' | 'list' | 'cards';
  /** A day's events as a list, a table, or cards. */
  dayView: 'list' | 'table' | 'cards';
  weekStart: 'sun' | 'mon';
  /** Weekday names over the month grid: "Sun", "Sunday" or "Su". */
  weekdayStyle: 'short' | 'long' | 'min';
  /** An event link's visible text: "9:00 AM Standup" or "Standup · 9:00 AM". */
  eventText: 'timeFirst' | 'titleFirst';
  /** The day view's "new event" button above or below the agenda. */
  newButton: 'top' | 'bottom';
  /** A colour scheme (a class on <body>). */
  accent: 'green' | 'blue' | 'berry' | 'slate';
  formFields: FormField[];
  details: DetailKey[];
}

const CORE_NAV: NavKey[] = ['month', 'today', 'new'];
const DISTRACTOR_NAV: NavKey[] = ['settings', 'help', 'shared'];
const DISTRACTOR_SECTIONS: SectionKey[] = ['tip', 'sync', 'weather'];
/** Field orders that still read naturally (a start before its end); the checker ignores the order. */
const FORM_ORDERS: FormField[][] = [
  ['title', 'date', 'start', 'end', 'location', 'notes'],
  ['date', 'start', 'end', 'title', 'location', 'notes'],
  ['title', 'location', 'date', 'start', 'end', 'notes'],
  ['title', 'date', 'start', 'end', 'notes', 'location'],
  ['date', 'title', 'start', 'end', 'location', 'notes'],
];

export function drawVariant(seed: number): Variant {
  const rng = variantRng(seed, 'calendar');
  const words = drawWords(rng, WORDING);
  // Distractors go into the navigation and the month page.
  const { nav, sections } = placeDistractors<NavKey, SectionKey>(rng, { core: CORE_NAV, extra: DISTRACTOR_NAV }, { core: ['month'], extra: DISTRACTOR_SECTIONS });
  return {
    words,
    nav,
    sections,
    navPlacement: rng.pick(['top', 'side', 'header'] as const),
    monthView: rng.pick(['grid', 'list', 'cards'] as const),
    dayView: rng.pick(['list', 'table', 'cards'] as const),
    weekStart: rng.pick(['sun', 'mon'] as const),
    weekdayStyle: rng.pick(['short', 'long', 'min'] as const),
    eventText: rng.pick(['timeFirst', 'titleFirst'] as const),
    newButton: rng.pick(['top', 'bottom'] as const),
    accent: rng.pick(['green', 'blue', 'berry', 'slate'] as const),
    formFields: rng.pick(FORM_ORDERS),
    details: rng.shuffle(['date', 'time', 'location', 'notes'] as DetailKey[]),
  };
}

