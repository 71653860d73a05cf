/**
 * Guided decoding of the compact policy's output, as vLLM's guided decoding or Outlines constrain
 * an LLM to a grammar. The thought line is free up to the length policies are trained on; no output
 * ends before an action; the action's name must be one the environment knows; an action on an
 * element must name an element id printed in the prompt (as `'ID'`, the quoting the policy was
 * trained on), and select_option one of the options the prompt prints for that element. Other
 * arguments (text to type, a key, a message) stay free, and once the action parses the output ends.
 * A tiny model otherwise spends a share of its steps on ids that are not on the page, options a
 * select does not have and half-written calls; guided, every step is an action the page can take,
 * and the choice among them is still the model's.
 *
 * The check runs on bytes (token pieces as latin-1 strings): ids, names and quotes are ASCII.
 */
import { ACTION_TYPES, formatAction, parseAction, takesElement, type ActionType } from '../environment/actions.ts';
import type { TokenConstraint } from '../decode/types.ts';
import type { Tokenizer } from '../models/tokenizer.ts';
import { MAX_THOUGHT_CHARS } from './prompt.ts';

/** An element line of a rendered prompt: its id, and the options printed for a select. */
export interface PromptElement {
  id: string;
  options: string[];
}

/** The element lines (`[ID] role "name" ... options: a | b`) of a rendered prompt: what the policy can act on. */
export function promptElements(prompt: string): PromptElement[] {
  // A line may be marked (`* [ID] ...`) and an option (`*XL`) as matching the task (see prompt.ts).
  return [...prompt.matchAll(/^(?:\* )?\[([^\]\s']+)\] (.*)$/gm)].map((m) => {
    const options = / options: (.*)$/.exec(m[2]);
    return { id: m[1], options: options ? options[1].split(' | ').map((o) => o.replace(/^\*/, '')) : [] };
  });
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

const NAMES = ACTION_TYPES.map((n) => `${n}(`);
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
  /** `'ID'` per element. */
  private readonly quotedIds: string[];
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
    this.quotedIds = elements.map((e) => `'${e.id}'`);
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
    if (this.free(action)) mask.fill(1);
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
    const id = this.quotedIds.find((q) => h.rest.startsWith(q));
    return id !== undefined && !(h.name === 'select_option' && this.withOptions.has(id.slice(1, -1)));
  }

  /** Whether `action` can still grow into a well-formed action on this page. */
  private possible(action: string): boolean {
    const h = head(action);
    if (h === 'prefix') return NAMES.some((n) => n.startsWith(action));
    if (h === null) return false;
    const { name, rest } = h;
    if (!ELEMENT_ACTIONS.has(name)) return true;
    const prefixOf = (whole: string) => (rest.length <= whole.length ? whole.startsWith(rest) : false);
    return this.quotedIds.some((q) => {
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
