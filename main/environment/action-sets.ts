/**
 * Named subsets of the action space, as BrowserGym's HighLevelActionSet has them: an environment
 * allows some sets, and an action of another set fails the step (`action_not_allowed`) without
 * touching the page. Every action is in exactly one set. The default is every set but `coord`, so
 * environments act as they did before the coordinate actions existed.
 */
import type { ActionType } from './actions.ts';

export const ACTION_SET_NAMES = ['bid', 'coord', 'nav', 'chat', 'misc'] as const;
export type ActionSetName = (typeof ACTION_SET_NAMES)[number];

export const ACTION_SETS: Record<ActionSetName, readonly ActionType[]> = {
  /** Actions on an element of the numbered list, by its id. */
  bid: ['click', 'dblclick', 'hover', 'focus', 'fill', 'clear', 'select_option', 'check', 'uncheck', 'press'],
  /** Actions at viewport coordinates and typing into whatever has focus, for agents that read the screenshot. */
  coord: ['mouse_move', 'mouse_click', 'mouse_dblclick', 'mouse_down', 'mouse_up', 'mouse_drag_and_drop', 'keyboard_type'],
  nav: ['go_back', 'go_forward', 'goto'],
  /** The actions that end an episode with a word to the user. */
  chat: ['send_msg_to_user', 'report_infeasible'],
  misc: ['noop', 'scroll', 'keyboard_press'],
};
export const DEFAULT_ACTION_SETS: readonly ActionSetName[] = ['bid', 'nav', 'chat', 'misc'];

/** The set an action belongs to. */
export function actionSetOf(type: ActionType): ActionSetName {
  const set = ACTION_SET_NAMES.find((name) => ACTION_SETS[name].includes(type));
  // Only an action added to actions.ts but not here gets this far; the action-sets test names it.
  if (!set) throw new Error(`action ${type} is in no action set (main/environment/action-sets.ts)`);
  return set;
}

/**
 * Whether an action is in the default sets: the action space of the compact policy, whose prompt
 * and training data never had the coordinate actions.
 */
export function inDefaultActionSets(type: ActionType): boolean {
  return DEFAULT_ACTION_SETS.includes(actionSetOf(type));
}

export function isActionSetName(name: string): name is ActionSetName {
  return (ACTION_SET_NAMES as readonly string[]).includes(name);
}

/**
 * Names checked, duplicates dropped, in the order ACTION_SET_NAMES lists them (so equal choices
 * record alike). `source` names where they came from in the error (`--actions`).
 */
export function checkActionSets(names: readonly string[], source?: string): ActionSetName[] {
  const where = source ? `${source}: ` : '';
  for (const name of names) {
    if (!isActionSetName(name)) throw new Error(`${where}unknown action set "${name}" (known: ${ACTION_SET_NAMES.join(', ')})`);
  }
  if (!names.length) throw new Error(`${where}no action set given (known: ${ACTION_SET_NAMES.join(', ')})`);
  return ACTION_SET_NAMES.filter((name) => names.includes(name));
}

/** A comma list as the command line takes it: `bid,coord,nav`. */
export function parseActionSets(list: string, source?: string): ActionSetName[] {
  return checkActionSets(list.split(',').map((s) => s.trim()).filter(Boolean), source);
}
