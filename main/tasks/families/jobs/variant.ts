/**
 * How one job board looks and words itself, drawn from the seed alone (its own stream, see
 * ../common/variant.ts): every label the tasks go through comes from synonyms, the navigation,
 * home-page sections, filters, job facts and application fields come in a drawn order, one to three
 * distractors are added, and the listing, navigation and filters take one of several layouts. The
 * goal, the postings and the checker never depend on it. Pages and the oracle read the chosen words
 * from `state.variant`, so the oracle finds every control by the name this instance gave it.
 */
import { COOKIE_WORDING, type CookieWords, drawWords, fill, placeDistractors, variantRng, type WordsOf } from '../common/variant.ts';
import type { Job } from './data.ts';

/**
 * Synonyms per label; the first of each list is what the board said before it varied. Every word
 * here is unique across all lists (the test checks it), so a name on a page means one thing.
 * Templates keep the data they embed ({title}, {company}, {q}) verbatim.
 */
export const WORDING = {
  // The header and navigation, on every page.
  navAll: ['All jobs', 'Browse jobs', 'Job listings', 'Open positions'],
  /** Shown with the count of saved jobs, "Saved jobs (2)"; alone as the saved page's heading. */
  navSaved: ['Saved jobs', 'My saved jobs', 'Shortlist', 'Bookmarked jobs'],
  navApplications: ['My applications', 'Applications', 'Applied jobs', 'Application history'],
  keyword: ['Job title or keyword', 'Keywords', 'Role, skill or company', 'What'],
  location: ['Location', 'Where', 'City or state', 'Place of work'],
  find: ['Find jobs', 'Search', 'Search jobs', 'Go'],
  // The home page.
  hero: ['Find your next job', 'Your next role starts here', 'Discover new opportunities', 'Search open roles'],
  fresh: ['New this week', 'Latest postings', 'Just posted', 'Fresh openings'],
  browseAll: ['Browse all jobs', 'See every job', 'View all openings', 'Explore all roles'],
  // The listing: its filters, sort options, heading and pager.
  type: ['Job type', 'Employment type', 'Type of role', 'Work schedule'],
  level: ['Experience level', 'Seniority', 'Career level', 'Level'],
  minSalary: ['Minimum salary', 'Salary from', 'Pay at least', 'Lowest salary'],
  remote: ['Remote only', 'Remote jobs only', 'Work from home', 'Only remote roles'],
  sort: ['Sort by', 'Order by', 'Sort results', 'Show first'],
  sortRelevance: ['Most relevant', 'Relevance', 'Best match', 'Top matches'],
  sortNewest: ['Newest', 'Most recent', 'Latest first', 'Recently posted'],
  sortSalary: ['Salary (highest first)', 'Highest salary', 'Pay: high to low', 'Best paid first'],
  applyFilters: ['Apply filters', 'Update results', 'Refine', 'Show matching jobs'],
  results: ['{q} jobs', 'Results for {q}', '{q} openings', 'Jobs matching {q}'],
  nextPage: ['Next page', 'Next', 'More results', 'Forward'],
  prevPage: ['Previous page', 'Previous', 'Back', 'Earlier results'],
  // A posting: its link in listings, its facts, buttons and sections.
  jobLink: ['{title} at {company}', '{title} – {company}', '{company}: {title}', '{title} ({company})'],
  moreLike: ['More {title} jobs', 'Similar {title} roles', 'Other {title} openings', 'See more {title} jobs'],
  salary: ['Salary', 'Pay', 'Salary range', 'Compensation'],
  required: ['Experience required', 'Minimum experience', 'Years required', 'Experience needed'],
  posted: ['Posted', 'Listed', 'Published', 'Date added'],
  applyNow: ['Apply now', 'Apply for this job', 'Start application', 'Apply to this role'],
  about: ['About the role', 'Job description', 'The role', 'What you will do'],
  requirements: ['Requirements', 'What we look for', 'Qualifications', 'Skills needed'],
  benefits: ['Benefits', 'Perks', 'What we offer', 'Why join us'],
  // The application form and what follows it.
  backToJob: ['Back to the job', 'Return to the posting', 'Job details', 'Back to posting'],
  applyHeading: ['Apply for {title}', 'Application for {title}', 'Your application: {title}', '{title}: apply'],
  fullName: ['Full name', 'Your name', 'Name', 'First and last name'],
  email: ['Email', 'Email address', 'E-mail', 'Your email'],
  phone: ['Phone', 'Phone number', 'Telephone', 'Mobile number'],
  years: ['Years of experience', 'Experience (years)', 'Years in the field', 'How many years of experience?'],
  authorized: ['Are you authorized to work in the US?', 'Work authorization', 'Can you legally work in the US?', 'US work eligibility'],
  source: ['How did you hear about us? (optional)', 'Where did you find this job? (optional)', 'Referral source (optional)', 'How did you find us? (optional)'],
  cover: ['Cover letter (optional)', 'Message to the employer (optional)', 'Why you? (optional)', 'Anything to add? (optional)'],
  agree: ['I agree to the privacy policy', 'I accept the privacy policy', 'I have read and accept the privacy policy', 'I consent to the privacy policy'],
  submit: ['Submit application', 'Send application', 'Send my application', 'Submit'],
  sent: ['Application sent', 'Application received', 'Thanks for applying', 'You have applied'],
  findMore: ['Find more jobs', 'Keep searching', 'Look for more roles', 'Back to job search'],
} as const;

/**
 * Labels that come in pairs and are drawn together, so they match: the save button's two states,
 * and the two answers to the work-authorization question.
 */
export const SAVE_TOGGLE = [
  ['Save job', 'Unsave job'],
  ['Save', 'Unsave'],
  ['Bookmark this job', 'Remove bookmark'],
  ['Add to shortlist', 'Remove from shortlist'],
] as const;
export const YES_NO = [
  ['Yes', 'No'],
  ['Yes, I am', 'No, I am not'],
  ['I am authorized', 'I am not authorized'],
  ['Authorized', 'Not authorized'],
] as const;

export type Words = WordsOf<typeof WORDING> & { save: string; unsave: string; yes: string; no: string };

/** The board's own pages a navigation link can lead to; the last four are distractors. */
export type NavKey = 'all' | 'saved' | 'applications' | 'advice' | 'salaries' | 'employers' | 'help';
/** Home-page sections below the welcome; the last three are distractors (promo boxes). */
export type SectionKey = 'fresh' | 'browse' | 'advicePromo' | 'alertsPromo' | 'employersPromo';
/** Filters on the listing, in the order they show. */
export type FilterKey = 'type' | 'level' | 'minSalary' | 'remote' | 'sort';
/** Facts at the top of a posting. */
export type FactKey = 'type' | 'level' | 'salary' | 'required' | 'posted';
/** Fields of the application form (the privacy checkbox and the submit button always close it). */
export type ApplyField = 'name' | 'email' | 'phone' | 'years' | 'authorized' | 'source' | 'cover';

export interface Variant {
  words: Words;
  cookieWords: CookieWords;
  nav: NavKey[];
  sections: SectionKey[];
  filters: FilterKey[];
  facts: FactKey[];
  applyFields: ApplyField[];
  /** Where the main navigation sits: a bar under the header, a sidebar, or inside the header. */
  navPlacement: 'top' | 'side' | 'header';
  /** How lists of jobs show: a grid of cards, a table, or a plain list. */
  listView: 'cards' | 'table' | 'list';
  /** The listing's filters: a column beside the results, or a bar above them. */
  filterPlacement: 'side' | 'top';
  /** On a posting: the apply link before the save button, or after it. */
  saveFirst: boolean;
  /** A colour scheme (a class on <body>). */
  accent: 'blue' | 'teal' | 'plum' | 'rust';
  /** Whether a cookie banner covers the page until dismissed. */
  overlay: 'cookies' | 'none';
}

const CORE_NAV: NavKey[] = ['all', 'saved', 'applications'];
const DISTRACTOR_NAV: NavKey[] = ['advice', 'salaries', 'employers', 'help'];
const CORE_SECTIONS: SectionKey[] = ['fresh', 'browse'];
const DISTRACTOR_SECTIONS: SectionKey[] = ['advicePromo', 'alertsPromo', 'employersPromo'];
const FILTERS: FilterKey[] = ['type', 'level', 'minSalary', 'remote', 'sort'];
const FACTS: FactKey[] = ['type', 'level', 'salary', 'required', 'posted'];
/** Contact details first, in any order; then the questions, in any order. */
const CONTACT_FIELDS: ApplyField[] = ['name', 'email', 'phone'];
const QUESTION_FIELDS: ApplyField[] = ['years', 'authorized', 'source', 'cover'];

export function drawVariant(seed: number): Variant {
  const rng = variantRng(seed, 'jobs');
  const [save, unsave] = rng.pick(SAVE_TOGGLE);
  const [yes, no] = rng.pick(YES_NO);
  const words: Words = { ...drawWords(rng, WORDING), save, unsave, yes, no };
  const cookieWords = drawWords(rng, COOKIE_WORDING);
  const { nav, sections } = placeDistractors(rng, { core: CORE_NAV, extra: DISTRACTOR_NAV }, { core: CORE_SECTIONS, extra: DISTRACTOR_SECTIONS });
  return {
    words,
    cookieWords,
    nav,
    sections,
    filters: rng.shuffle(FILTERS),
    facts: rng.shuffle(FACTS),
    applyFields: [...rng.shuffle(CONTACT_FIELDS), ...rng.shuffle(QUESTION_FIELDS)],
    navPlacement: rng.pick(['top', 'side', 'header'] as const),
    listView: rng.pick(['cards', 'table', 'list'] as const),
    filterPlacement: rng.pick(['side', 'top'] as const),
    saveFirst: rng.chance(0.5),
    accent: rng.pick(['blue', 'teal', 'plum', 'rust'] as const),
    overlay: rng.chance(0.7) ? 'cookies' : 'none',
  };
}


/** A posting's link name on this board, e.g. "Data Analyst at Acme Robotics". */
export function jobLabel(w: Words, j: Job): string {
  return fill(w.jobLink, { title: j.title, company: j.company });
}

/** The link to more postings with the same title. */
export function moreLikeLabel(w: Words, title: string): string {
  return fill(w.moreLike, { title });
}

/** The application form's heading. */
export function applyHeading(w: Words, title: string): string {
  return fill(w.applyHeading, { title });
}

/** The listing's heading for a keyword search. */
export function resultsHeading(w: Words, q: string): string {
  return fill(w.results, { q });
}

/** The saved-jobs navigation link, with how many are saved: "Saved jobs (2)". */
export function savedNavLabel(w: Words, count: number): string {
  return `${w.navSaved} (${count})`;
}
