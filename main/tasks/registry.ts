/** The built-in task families, by name. */
import type { TaskFamily } from './types.ts';
import { flightsFamily } from './families/flights/index.ts';
import { shopFamily } from './families/shop/index.ts';
import { webmailFamily } from './families/webmail/index.ts';
import { hotelsFamily } from './families/hotels/index.ts';
import { restaurantsFamily } from './families/restaurants/index.ts';
import { jobsFamily } from './families/jobs/index.ts';
import { calendarFamily } from './families/calendar/index.ts';
import { wikiFamily } from './families/wiki/index.ts';
import { realEstateFamily } from './families/realestate/index.ts';
import { compareFamily } from './families/compare/index.ts';
import { ticketsFamily } from './families/tickets/index.ts';
import { factbookFamily } from './families/factbook/index.ts';
import { forumFamily } from './families/forum/index.ts';
import { bankFamily } from './families/bank/index.ts';
import { settingsFamily } from './families/settings/index.ts';
import { docsFamily } from './families/docs/index.ts';
import { directoryFamily } from './families/directory/index.ts';

// forum, bank, settings and docs (2026-12-06) vary their wording, order, layout and distractors
// with every seed, so a policy must read a page rather than recognise it.
const families: TaskFamily[] = [
  shopFamily, flightsFamily, webmailFamily, hotelsFamily, restaurantsFamily, jobsFamily, calendarFamily, wikiFamily, realEstateFamily, compareFamily, ticketsFamily, factbookFamily,
  forumFamily, bankFamily, settingsFamily, docsFamily,
  // A second drill: a named record behind a directory's categories, filters and same-named branches.
  directoryFamily,
];

/** The site families used for training and testing (neither held out nor a drill). */
export function trainingFamilies(): TaskFamily[] {
  return families.filter((f) => !f.heldOut && !f.drill);
}

/** Synthetic practice families: trained on when a recipe names them, never part of the default test pool. */
export function drillFamilies(): TaskFamily[] {
  return families.filter((f) => f.drill);
}

/** Held-out families: test seeds only, for generalisation results. */
export function heldOutFamilies(): TaskFamily[] {
  return families.filter((f) => f.heldOut);
}

export function builtinFamilies(): Map<string, TaskFamily> {
  return new Map(families.map((f) => [f.name, f]));
}
