/**
 * Guided decoding of the compact policy's output, as vLLM's guided decoding or Outlines constrain
 * an LLM to a grammar. The thought line is free up to the length policies are trained on; no output
 * ends before an action; the action's name must be one the environment knows; an action on an
 * element must name an element id printed in the prompt (as `'ID'`, the quoting the policy was
 * trained on) whose role takes that action (fill and clear a text field, check and uncheck a
 * checkbox or radio, select_option a select, and one of the options the prompt prints for it).
 * Other arguments (text to type, a key, a message) stay free but stay on the action's line, and
 * once the action parses the output ends. A tiny model otherwise spends a share of its steps on ids
 * that are not on the page, text typed into a heading, options a select does not have and
 * half-written calls; guided, every step is an action the page can take, and the choice among them
 * is still the model's.
 *
 * The check runs on bytes (token pieces as latin-1 strings): ids, names and quotes are ASCII.
 */
import { ACTION_TYPES, formatAction, parseAction, takesElement, type ActionType } from '../environment/actions.ts';
import type { TokenConstraint } from '../decode/types.ts';
import type { Tokenizer } from '../models/tokenizer.ts';
import { MAX_THOUGHT_CHARS } from './prompt.ts';

/** An element line of a rendered prompt: its id, its role, and the options printed for a select. */
export interface PromptElement {
  id: string;
  role: string;
  options: string[];
}

/** The element lines (`[ID] role "name" ... options: a | b`) of a rendered prompt: what the policy can act on. */
export function promptElements(prompt: string): PromptElement[] {
  // A line may be marked (`* [ID] ...`) and an option (`*XL`) as matching the task (see prompt.ts).
  return [...prompt.matchAll(/^(?:\* )?\[([^\]\s']+)\] (\S*)(.*)$/gm)].map((m) => {
    const options = / options: (.*)$/.exec(m[3]);
    return { id: m[1], role: m[2], options: options ? options[1].split(' | ').map((o) => o.replace(/^\*/, '')) : [] };
  });
}

/**
 * Accessibility roles (as the environment lists them, ./environment/observe.ts) whose elements take
 * each action the environment checks the element for; an action not named here (click, press, ...)
 * takes any element. Text: fields, and the inputs set by value (dates, times, colours, ranges).
 */
const TEXT_ROLES = new Set(['textbox', 'searchbox', 'spinbutton', 'combobox', 'textarea', 'slider', 'Date', 'DateTime', 'InputTime', 'ColorWell']);
const CHECK_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
const SELECT_ROLES = new Set(['combobox', 'listbox']);

/** Whether the environment lets `action` act on the element (a select's printed options make it a select). */
function takes(action: string, e: PromptElement): boolean {
  const isSelect = e.options.length > 0;
  if (action === 'fill' || action === 'clear') return TEXT_ROLES.has(e.role) && !isSelect;
  if (action === 'check' || action === 'uncheck') return CHECK_ROLES.has(e.role);
  if (action === 'select_option') return isSelect || SELECT_ROLES.has(e.role);
  return true;
}

/** Token pieces as latin-1 strings, once per tokenizer. */
const piecesOf = new WeakMap<Tokenizer, string[]>();
function pieces(tokenizer: Tokenizer): string[] {
  let p = piecesOf.get(tokenizer);
  if (!p) {
    p = Array.from({ length: tokenizer.vocabSize }, (_, i) => String.fromCharCode(...tokenizer.bytes([i])));
    piecesOf.set(tokenizer, p);
  }
  return p;
}

const KNOWN = new Set<string>(ACTION_TYPES);
const ELEMENT_ACTIONS = new Set<string>(ACTION_TYPES.filter((t) => takesElement(t as ActionType)));

/**
 * An action split at its parenthesis: 'prefix' when no '(' yet, null for an unknown name, else the
 * name and what follows the '('.
 */
function head(action: string): 'prefix' | null | { name: string; rest: string } {
  const open = action.indexOf('(');
  if (open < 0) return 'prefix';
  const name = action.slice(0, open);
  return KNOWN.has(name) ? { name, rest: action.slice(open + 1) } : null;
}
const latin1 = (s: string) => String.fromCharCode(...new TextEncoder().encode(s));

export class ActionGuide implements TokenConstraint {
  private readonly pieces: string[];
  /** Per element action, `'ID'` of each element that takes it. */
  private readonly targets: Map<string, string[]>;
  /** `name(` of each action some element on the page takes. */
  private readonly names: string[];
  /** Every whole select_option argument list the prompt allows: `'ID', 'OPTION')`. */
  private readonly selections: string[];
  /** Ids of elements with printed options (their select_option is checked to the end). */
  private readonly withOptions: Set<string>;

  /**
   * @param elements the prompt's element lines (promptElements)
   * @param inAction true when the output starts at the action (a policy trained on actions only)
   */
  constructor(tokenizer: Tokenizer, elements: readonly PromptElement[], private readonly eot: number, private readonly inAction: boolean) {
    this.pieces = pieces(tokenizer);
    this.targets = new Map([...ELEMENT_ACTIONS].map((a) => [a, elements.filter((e) => takes(a, e)).map((e) => `'${e.id}'`)]));
    this.names = ACTION_TYPES.filter((a) => !ELEMENT_ACTIONS.has(a) || this.targets.get(a)!.length).map((a) => `${a}(`);
    this.withOptions = new Set(elements.filter((e) => e.options.length).map((e) => e.id));
    // Quoted as the targets are (formatAction), after the name and its parenthesis.
    this.selections = elements.flatMap((e) => e.options.map((o) => latin1(formatAction({ type: 'select_option', id: e.id, options: [o] }).slice('select_option('.length))));
  }

  allowed(emitted: readonly number[]): Uint8Array | null {
    const text = emitted.map((t) => this.pieces[t] ?? '').join('');
    const mask = new Uint8Array(this.pieces.length);
    const newline = this.inAction ? -1 : text.indexOf('\n');
    if (!this.inAction && newline < 0) {
      // Still in the thought: any piece (up to the trained length), but one that ends the line must begin a possible action.
      const full = text.length >= MAX_THOUGHT_CHARS;
      for (let t = 0; t < mask.length; t++) {
        const nl = this.pieces[t].indexOf('\n');
        mask[t] = nl < 0 ? (full ? 0 : 1) : this.possible(this.pieces[t].slice(nl + 1)) ? 1 : 0;
      }
      mask[this.eot] = 0;
      return mask.includes(1) ? mask : null;
    }
    const action = this.inAction ? text : text.slice(newline + 1);
    if (parses(action)) {
      mask[this.eot] = 1; // a whole action: nothing may follow it
      return mask;
    }
    // The action is one line: a newline would end it half-written.
    if (this.free(action)) for (let t = 0; t < mask.length; t++) mask[t] = this.pieces[t].includes('\n') ? 0 : 1;
    else for (let t = 0; t < mask.length; t++) mask[t] = this.possible(action + this.pieces[t]) ? 1 : 0;
    mask[this.eot] = 0;
    // Nothing possible (an output already off the grammar): no guidance.
    return mask.includes(1) ? mask : null;
  }

  /** Past the part the guide checks: any continuation keeps the action possible. */
  private free(action: string): boolean {
    const h = head(action);
    if (h === null || h === 'prefix') return false;
    if (!ELEMENT_ACTIONS.has(h.name)) return true;
    const id = this.targets.get(h.name)!.find((q) => h.rest.startsWith(q));
    return id !== undefined && !(h.name === 'select_option' && this.withOptions.has(id.slice(1, -1)));
  }

  /** Whether `action` can still grow into a well-formed action on this page. */
  private possible(action: string): boolean {
    const h = head(action);
    if (h === 'prefix') return this.names.some((n) => n.startsWith(action));
    if (h === null) return false;
    const { name, rest } = h;
    if (!ELEMENT_ACTIONS.has(name)) return true;
    const prefixOf = (whole: string) => (rest.length <= whole.length ? whole.startsWith(rest) : false);
    return this.targets.get(name)!.some((q) => {
      if (prefixOf(q)) return true;
      if (!rest.startsWith(q)) return false;
      if (name !== 'select_option' || !this.withOptions.has(q.slice(1, -1))) return true;
      return this.selections.some((s) => s.startsWith(q) && prefixOf(s));
    });
  }
}

function parses(action: string): boolean {
  try {
    parseAction(action);
    return true;
  } catch {
    return false;
  }
}
