/**
 * A corrected action with its element picked by clicking (on the screenshot or in the element
 * list) instead of typing the id. Pure text work on the draft, so a half-typed draft works too:
 * the draft need not parse for its element to be swapped. The renderer takes it from here (the
 * contract's floor); the server still checks the saved correction against the step's page.
 */
import { ACTION_TYPES, takesElement, type ActionType } from '../main/environment/actions.ts';
import type { PageElement } from '../main/environment/types.ts';

/** An action's head and its first argument when that is an element id: `fill( '12'`. */
const ELEMENT_ACTION = /^(\s*([a-z_]+)\s*\(\s*)('[^']*'|"[^"]*"|\d+)/;

function elementActionHead(text: string): RegExpMatchArray | null {
  const m = text.match(ELEMENT_ACTION);
  return m && (ACTION_TYPES as string[]).includes(m[2]) && takesElement(m[2] as ActionType) ? m : null;
}

/** The element an action (or a half-typed one) names, or null when its first argument is no element. */
export function elementIdOf(action: string): string | null {
  const id = elementActionHead(action)?.[3].replace(/^['"]|['"]$/g, '');
  return id && /^\d+$/.test(id) ? id : null;
}

/** The draft with the picked element in it, and where the caret should go (the text to type next). */
export interface PickedAction {
  action: string;
  caret: number;
}

/**
 * Put a picked element into a correction draft. An element action whose kind the element can
 * take keeps its kind and arguments and only its element changes (`fill('12', 'x')` picked onto a
 * text field stays a fill). Any other draft (a fill picked onto a button, a scroll, a goto,
 * nothing) becomes what a labeler means by pointing at that kind of element: a text field is
 * filled, a <select> has an option chosen, anything else is clicked; for the first two the text
 * is left empty with the caret between its quotes.
 */
export function pickElement(draft: string, element: Pick<PageElement, 'id' | 'role' | 'tag'>): PickedAction {
  const id = `'${element.id}'`;
  const head = elementActionHead(draft);
  if (head && fits(head[2] as ActionType, element)) {
    const action = head[1] + id + draft.slice(head[0].length);
    return { action, caret: action.length };
  }
  const verb = element.tag === 'select' ? 'select_option' : TYPED_INTO.has(element.role) ? 'fill' : null;
  if (!verb) return { action: `click(${id})`, caret: `click(${id})`.length };
  const action = `${verb}(${id}, '')`;
  return { action, caret: action.length - 2 };
}

/** Roles a person types into (a combobox that is not a <select> is a text field with suggestions). */
const TYPED_INTO = new Set(['textbox', 'searchbox', 'spinbutton', 'combobox']);
const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

/** Can this kind of element take this action? (Clicking, hovering, focusing or pressing a key on anything can.) */
function fits(type: ActionType, element: Pick<PageElement, 'role' | 'tag'>): boolean {
  if (type === 'fill' || type === 'clear') return TYPED_INTO.has(element.role) && element.tag !== 'select';
  if (type === 'select_option') return element.tag === 'select';
  if (type === 'check' || type === 'uncheck') return CHECKABLE.has(element.role);
  return true;
}
