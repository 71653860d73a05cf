/**
 * Whether an action could have been taken on a recorded page: it parses, the element it names was
 * in that step's element list, and a select_option picks options the element offered. Used to
 * refuse a hand-written correction that names an element the page did not have (it would teach
 * the policy an action that cannot work, and no checker would ever notice).
 */
import { ActionParseError, parseAction, type Action } from './actions.ts';
import type { PageElement } from './types.ts';

/** What is wrong with the action on that page, or null when it fits. */
export function actionTargetProblem(actionText: string, elements: readonly PageElement[]): string | null {
  let action: Action;
  try {
    action = parseAction(actionText);
  } catch (err) {
    if (err instanceof ActionParseError) return `not an action: ${err.message}`;
    throw err;
  }
  if (!('id' in action)) return null;
  const target = elements.find((e) => e.id === action.id);
  if (!target) return `the page had no element [${action.id}] at this step`;
  if (action.type === 'select_option' && target.options) {
    const missing = action.options.filter((o) => !target.options!.includes(o));
    if (missing.length) return `element [${action.id}] offers no option ${missing.map((o) => `"${o}"`).join(', ')} (it has ${target.options.map((o) => `"${o}"`).join(', ')})`;
  }
  return null;
}

/**
 * An action as a person reads it: the element it acts on named from the step's own observation,
 * `click [23] link "Previous day"`, `fill [3] textbox "City" ← "Boston"`. Actions without an
 * element, and ones that do not parse or name an element the page lacked, read as written.
 */
export function describeAction(actionText: string, elements: readonly PageElement[]): string {
  let action: Action;
  try {
    action = parseAction(actionText);
  } catch {
    return actionText;
  }
  if (!('id' in action)) return actionText;
  const target = elements.find((e) => e.id === action.id);
  if (!target) return actionText;
  const name = target.name ? ` "${clip(target.name, 60)}"` : '';
  const head = `${action.type} [${action.id}] ${target.role}${name}`;
  switch (action.type) {
    case 'fill':
      return `${head} ← "${clip(action.text, 80)}"`;
    case 'select_option':
      return `${head} ← ${action.options.map((o) => `"${clip(o, 40)}"`).join(', ')}`;
    case 'press':
      return `${head} ⌨ ${action.key}`;
    case 'click':
      return action.button === 'left' ? head : `${head} (${action.button} button)`;
    default:
      return head;
  }
}

function clip(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
