/**
 * Guided decoding of the compact policy's output, as vLLM's guided decoding or Outlines constrain
 * an LLM to a grammar: the thought line is free, but no output may end before an action, the
 * action's name must be one the environment knows, and an action on an element must name an
 * element id printed in the prompt (as `'ID'`, the quoting the policy was trained on). What comes
 * after the id (text to type, an option, a key) stays free, and the end token is allowed once the
 * action parses. A tiny model otherwise spends a share of its steps on ids that are not on the page
 * and on half-written calls; guided, every step is an action the page can take, and the choice
 * among them is still the model's.
 *
 * The check runs on bytes (token pieces as latin-1 strings): ids, names and quotes are ASCII.
 */
import { ACTION_TYPES, parseAction, takesElement, type ActionType } from '../environment/actions.ts';
import type { TokenConstraint } from '../decode/types.ts';
import type { Tokenizer } from '../models/tokenizer.ts';

/** Ids of the element lines (`[ID] role ...`) of a rendered prompt: the elements the policy can act on. */
export function promptElementIds(prompt: string): string[] {
  return [...prompt.matchAll(/^\[([^\]\s']+)\] /gm)].map((m) => m[1]);
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
const ELEMENT_ACTIONS = new Set<string>(ACTION_TYPES.filter((t) => takesElement(t as ActionType)));

export class ActionGuide implements TokenConstraint {
  private readonly pieces: string[];
  private readonly quotedIds: string[];

  /**
   * @param elementIds ids printed in the prompt
   * @param inAction true when the output starts at the action (a policy trained on actions only)
   */
  constructor(tokenizer: Tokenizer, elementIds: readonly string[], private readonly eot: number, private readonly inAction: boolean) {
    this.pieces = pieces(tokenizer);
    this.quotedIds = elementIds.map((id) => `'${id}'`);
  }

  allowed(emitted: readonly number[]): Uint8Array | null {
    const text = emitted.map((t) => this.pieces[t] ?? '').join('');
    const mask = new Uint8Array(this.pieces.length);
    const newline = this.inAction ? -1 : text.indexOf('\n');
    if (!this.inAction && newline < 0) {
      // Still in the thought: any piece, but one that ends the line must begin a possible action.
      for (let t = 0; t < mask.length; t++) {
        const nl = this.pieces[t].indexOf('\n');
        mask[t] = nl < 0 || this.possible(this.pieces[t].slice(nl + 1)) ? 1 : 0;
      }
      mask[this.eot] = 0;
      return mask;
    }
    const action = this.inAction ? text : text.slice(newline + 1);
    if (this.free(action)) mask.fill(1);
    else for (let t = 0; t < mask.length; t++) mask[t] = this.possible(action + this.pieces[t]) ? 1 : 0;
    mask[this.eot] = parses(action) ? 1 : 0;
    // Nothing possible (a model already off the grammar through an earlier free choice): no guidance.
    return mask.includes(1) ? mask : null;
  }

  /** Past the part the guide checks: any continuation keeps the action possible. */
  private free(action: string): boolean {
    const open = action.indexOf('(');
    if (open < 0) return false;
    const name = action.slice(0, open);
    if (!NAMES.includes(`${name}(`)) return false;
    if (!ELEMENT_ACTIONS.has(name)) return true;
    const rest = action.slice(open + 1);
    return this.quotedIds.some((q) => rest.startsWith(q));
  }

  /** Whether `action` can still grow into a well-formed action on this page. */
  private possible(action: string): boolean {
    const open = action.indexOf('(');
    if (open < 0) return NAMES.some((n) => n.startsWith(action));
    const name = action.slice(0, open);
    if (!NAMES.includes(`${name}(`)) return false;
    if (!ELEMENT_ACTIONS.has(name)) return true;
    const rest = action.slice(open + 1);
    return this.quotedIds.some((q) => (rest.length <= q.length ? q.startsWith(rest) : rest.startsWith(q)));
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
