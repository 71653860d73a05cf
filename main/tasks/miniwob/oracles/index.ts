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

const ORACLES: Record<string, OracleMaker> = {
  ...CLICK_ORACLES,
  ...CHOICE_ORACLES,
  ...FORM_ORACLES,
  ...EMAIL_ORACLES,
  ...SOCIAL_ORACLES,
  ...GAME_ORACLES,
  ...FLIGHT_ORACLES,
};

/** Task names that have an oracle, sorted. */
export function miniwobOracleTasks(): string[] {
  return Object.keys(ORACLES).sort();
}

/** A fresh oracle for the task, or undefined where there is none. */
export function oracleFor(task: string): Agent | undefined {
  return ORACLES[task]?.(task);
}

/**
 * Tasks an oracle cannot solve through the observation and the actions, and why. Filled in as
 * tasks are looked at; a task in neither list has simply not been scripted yet.
 */
export const UNREPRESENTABLE: Record<string, string> = {};

/** Why a task has no oracle, in words for an error message or a report. */
export function whyNoOracle(task: string): string {
  return UNREPRESENTABLE[task] ?? 'no oracle scripted for it yet';
}
