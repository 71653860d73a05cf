/**
 * Scripted oracles for MiniWoB++ tasks, by task name, and the tasks left without one with the
 * reason. `oracleFor(task)` is what the MiniWoB++ family's `oracle()` hands out.
 */
import type { Agent } from '../../agent.ts';
import type { OracleMaker } from './base.ts';
import { CLICK_ORACLES } from './clicks.ts';
import { CHOICE_ORACLES } from './choices.ts';
import { FORM_ORACLES } from './forms.ts';
import { EMAIL_ORACLES } from './email.ts';
import { SOCIAL_ORACLES } from './social.ts';
import { GAME_ORACLES } from './games.ts';
import { FLIGHT_ORACLES } from './book-flight.ts';
import { READING_ORACLES } from './reading.ts';

const ORACLES: Record<string, OracleMaker> = {
  ...CLICK_ORACLES,
  ...CHOICE_ORACLES,
  ...FORM_ORACLES,
  ...EMAIL_ORACLES,
  ...SOCIAL_ORACLES,
  ...GAME_ORACLES,
  ...FLIGHT_ORACLES,
  ...READING_ORACLES,
};

/** Task names that have an oracle, sorted. */
export function miniwobOracleTasks(): string[] {
  return Object.keys(ORACLES).sort();
}

export function hasMiniwobOracle(task: string): boolean {
  return task in ORACLES;
}

/** A fresh oracle for the task, or undefined where there is none. */
export function oracleFor(task: string): Agent | undefined {
  return ORACLES[task]?.(task);
}

const COLOUR = 'the answer is a colour, and colour is not in the observation (only in the page\'s style; validate takes no screenshots)';
const COORDS = 'needs the coordinate actions (mouse_down / mouse_move / mouse_drag_and_drop), which validate\'s default action sets leave out, and positions the element list does not label';
const NOT_YET = 'representable; no oracle scripted for it yet';

/**
 * Tasks without an oracle, and why: most cannot be solved through the observation and the default
 * actions (canvas drawing, dragging, colour); the rest are marked NOT_YET.
 */
export const NO_ORACLE: Record<string, string> = {
  'click-color': COLOUR,
  'click-shades': COLOUR,
  'use-colorwheel': COLOUR,
  'use-colorwheel-2': COLOUR,
  'click-shape': 'about half its instructions name a colour (`a red circle`), which is not in the observation; size and kind alone would solve the rest',
  'count-shape': 'about half its instructions name a colour (`small black As`), which is not in the observation',
  'click-checkboxes-soft': 'needs a thesaurus (`words similar to dull`); the workbench ships none and a word list copied from the task would be the page\'s own answer key',
  'count-sides': 'the shape\'s sides are only in its SVG geometry, which the element list does not carry',
  'number-checkboxes': 'the digit to draw is shown only as a picture',
  'visual-addition': 'the blocks to count carry no names or text: only their drawn layout says which group they belong to',
  'bisect-angle': COORDS,
  'circle-center': COORDS,
  'right-angle': COORDS,
  'find-midpoint': COORDS,
  'draw-circle': COORDS,
  'draw-line': COORDS,
  'chase-circle': 'keeps the mouse on a moving circle for seconds: continuous pointer tracking, not a sequence of steps',
  'hover-shape': 'keeps the mouse on a moving square: continuous pointer tracking, not a sequence of steps',
  'moving-items': 'clicks circles that move between observations: the positions read are stale by the time a click lands',
  'drag-box': COORDS,
  'drag-circle': COORDS,
  'drag-cube': COORDS,
  'drag-items': COORDS,
  'drag-items-grid': COORDS,
  'drag-shapes': COORDS,
  'drag-shapes-2': COORDS,
  'drag-single-shape': COORDS,
  'drag-sort-numbers': COORDS,
  'highlight-text': 'selecting text needs a mouse drag (coordinate actions, off in validate)',
  'highlight-text-2': 'selecting text needs a mouse drag (coordinate actions, off in validate)',
  'resize-textarea': 'resizing needs a drag of the corner handle (coordinate actions, off in validate)',
  'ascending-numbers': NOT_YET,
  'button-delay': NOT_YET,
  'buy-ticket': NOT_YET,
  'click-menu-2': NOT_YET,
  'daily-calendar': NOT_YET,
  'email-inbox-star-reply': NOT_YET,
  'find-greatest': NOT_YET,
  'form-sequence': NOT_YET,
  'form-sequence-2': NOT_YET,
  'form-sequence-3': NOT_YET,
  'generate-number': NOT_YET,
  'hot-cold': NOT_YET,
  'odd-or-even': NOT_YET,
  'order-food': NOT_YET,
  'phone-book': NOT_YET,
  'read-table-2': NOT_YET,
  'scroll-text-2': NOT_YET,
  'sign-agreement': NOT_YET,
  'simon-says': NOT_YET,
  'stock-market': NOT_YET,
  'terminal': NOT_YET,
  'text-editor': NOT_YET,
  'use-slider': NOT_YET,
  'use-slider-2': NOT_YET,
};

/**
 * Tasks that no agent can solve through the observation and the default action sets (colour,
 * pictures, geometry, dragging, continuous pointer tracking), a subset of NO_ORACLE: `lab eval
 * --miniwob` does not run them unless named, and counts them as failures in a set's mean. The
 * other tasks without an oracle (a thesaurus, colour in half the instructions, not scripted yet)
 * stay runnable: a policy may solve them where the oracle does not.
 */
const UNREPRESENTABLE_TASKS: readonly string[] = [
  'click-color', 'click-shades', 'use-colorwheel', 'use-colorwheel-2', 'count-sides', 'number-checkboxes', 'visual-addition',
  'bisect-angle', 'circle-center', 'right-angle', 'find-midpoint', 'draw-circle', 'draw-line', 'chase-circle', 'hover-shape',
  'drag-box', 'drag-circle', 'drag-cube', 'drag-items', 'drag-items-grid', 'drag-shapes', 'drag-shapes-2', 'drag-single-shape', 'drag-sort-numbers',
  'highlight-text', 'highlight-text-2', 'resize-textarea',
];

/** Why no agent can solve the task through the observation and the default actions, or undefined where one can. */
export function whyUnrepresentable(task: string): string | undefined {
  return UNREPRESENTABLE_TASKS.includes(task) ? NO_ORACLE[task] : undefined;
}

/** Why a task has no oracle, in words for an error message or a report. */
export function whyNoOracle(task: string): string {
  return NO_ORACLE[task] ?? 'not a task this workbench knows (no oracle, no reason recorded)';
}

/**
 * Tasks whose oracle acts right but cannot win every seed, and why: the outcome is not all the
 * oracle's to decide.
 */
export const CAVEATS: Record<string, string> = {
  'tic-tac-toe': 'the page\'s O plays partly at random and no strategy forces a win against every game; the oracle maximises its chance',
  'click-checkboxes-large': 'an instance may ask for more ticks than the 10-step budget allows (one step per box, then Submit)',
};

export function oracleCaveat(task: string): string | undefined {
  return CAVEATS[task];
}
