/**
 * Guided decoding of the compact policy's output, as vLLM's guided decoding or Outlines constrain
 * an LLM to a grammar. The thought line is free up to the length policies are trained on (and half
 * the output's token budget, when the caller gives it); no output
 * ends before an action; the action's name must be one the environment knows; an action on an
 * element must name an element id printed in the prompt (as `'ID'`, the quoting the policy was
 * trained on) whose role takes that action (fill and clear a text field, check and uncheck a
 * checkbox or radio, select_option a select, and one of the options the prompt prints for it).
 * Other arguments (text to type, a key, a message) stay free but stay on the action's line (text
 * typed into a search box holds none of ? , : ; !, which end or split a sentence, not a name; a
 * message after a cited value states that value, see statesValue), and once the action parses the
 * output ends. A tiny model otherwise spends a share of its steps on ids
 * that are not on the page, text typed into a heading, options a select does not have and
 * half-written calls; guided, every step is an action the page can take, and the choice among them
 * is still the model's.
 *
 * The check runs on bytes (token pieces as latin-1 strings): ids, names and quotes are ASCII.
 */
import { ACTION_TYPES, formatAction, takesElement, type ActionType } from '../environment/actions.ts';
import { inDefaultActionSets } from '../environment/action-sets.ts';
import type { TokenConstraint } from '../decode/types.ts';
import type { Tokenizer } from '../models/tokenizer.ts';
import { MAX_THOUGHT_CHARS, type PromptSettings } from './prompt.ts';
import { WORD_CHECKED_ACTIONS, allowedWords, wordsAllowed, type AllowedWords } from './message-words.ts';

/** An element line of a rendered prompt: its id, its role, and the options printed for a select. */
export interface PromptElement {
  id: string;
  role: string;
  options: string[];
  /** Name-first lines: what stands before the id (`link "Shoes"`), the line an element thought copies. */
  head?: string;
  /** The line's mark, if any: `*` shares the most words with the task, `=` is the value of a label it names. */
  mark?: '*' | '=';
}

/**
 * The element lines of a rendered prompt, in either layout (`[ID] role "name" ... options: a | b`
 * or `role "name" [ID] ...`): what the policy can act on.
 */
export function promptElements(prompt: string): PromptElement[] {
  // A line may be marked (`* [ID] ...`) and an option (`*XL`) as matching the task, or (`= ...`) as
  // the value of a label the task names (see prompt.ts).
  const idFirst = /^(?:[*=] )?\[([^\]\s']+)\] (\S*)(.*)$/;
  // Roles are lower-case words (and a few input types the environment names in capitals), which
  // keeps a text run such as `Price [EUR] 80` from reading as an element.
  const nameFirst = /^(?:[*=] )?([a-z][A-Za-z]*|Date|DateTime|InputTime|ColorWell)(?: "(?:[^"\\]|\\.)*")? \[([^\]\s']+)\](.*)$/;
  return prompt.split('\n').flatMap((line) => {
    const a = idFirst.exec(line);
    const b = a ? null : nameFirst.exec(line);
    if (!a && !b) return [];
    const [id, role, rest] = a ? [a[1], a[2], a[3]] : [b![2], b![1], b![3]];
    const options = / options: (.*)$/.exec(rest);
    const element: PromptElement = { id, role, options: options ? options[1].split(' | ').map((o) => o.replace(/^\*/, '')) : [] };
    const unmarked = line.replace(/^[*=] /, '');
    if (b) element.head = unmarked.slice(0, unmarked.indexOf(` [${id}]`));
    const mark = /^([*=]) /.exec(line)?.[1];
    if (mark) element.mark = mark as '*' | '=';
    return [element];
  });
}

/**
 * The page's text lines of a rendered prompt, as printed (`= (761) 414-5288` when marked): the
 * lines between the page line and the history that are no element line, the lines a policy
 * trained with `answer: 'cite'` may write as the thought of an answer.
 */
export function promptTextLines(prompt: string): string[] {
  const lines = prompt.split('\n');
  const start = lines.findIndex((l) => l.startsWith('Page: '));
  const end = lines.findIndex((l, i) => i > start && l.startsWith('History:'));
  if (start < 0 || end < 0) return [];
  const elementLine = new Set(lines.filter((l) => promptElements(l).length));
  return lines.slice(start + 1, end).filter((l) => l.trim() !== '' && !elementLine.has(l) && !/^\(\d+ more\)$/.test(l));
}

/** Characters a search box's text never holds under guidance (a name may hold a full stop: "St. Ives"). */
const SEARCH_STOPS = /[?,:;!]/;

/**
 * The value a thought cites as the page's answer, which the message after it must state: only a
 * line the prompt marks as a value (`= cell "1,189 m" [45]`, `= (804) 952-6600`); an unmarked
 * cited line may be a sentence holding the value among other words. A figure with a unit or a
 * word after it ("1,189 m", "18,409 seats") is stated by its figure, as the oracles answer; a line
 * clipped by the prompt ("…") or longer than a message states whole has none.
 */
export function citedValue(thought: string): string | undefined {
  if (!thought.startsWith('= ')) return undefined;
  const line = thought.slice(2).trim();
  const element = /^[a-zA-Z]+ "((?:[^"\\]|\\.)*)" \[[^\]\s']+\]$/.exec(line);
  const shown = element ? element[1].replace(/\\(.)/g, '$1') : line;
  if (!shown || shown.includes('…') || shown.length > MAX_STATED_CHARS) return undefined;
  const figure = /^[$€£(]*\d[\d,.:()\- ]*/.exec(shown)?.[0].replace(/[^\d)]+$/, '');
  return figure || shown;
}

/** The longest cited value a message is held to state (longer lines are sentences, not values). */
const MAX_STATED_CHARS = 40;

/**
 * Whether a message's text (so far, when `open`) states `value` (citedValue), case aside: a whole
 * message must hold it; one still being written may hold it later, but a value once begun (see
 * below) goes on to its end. A tiny model that cited "= (804) 952-6600" wrote "(804)." and closed; one
 * that cited "= cell \"1,429,824\" [42]" wrote the name twice and no number.
 */
export function statesValue(body: string, open: boolean, value: string): boolean {
  const b = body.toLowerCase();
  const v = value.toLowerCase();
  if (b.includes(v)) return true;
  if (!open) return false;
  // Begun: a figure's first two characters; a name's first word and the next character (a lone
  // word is held only to appear: "at" in "at Summit Energy" is no beginning of "at least 1 year").
  const firstWord = /^\S*/.exec(v)![0].length;
  const begun = Math.min(v.length, /^[$€£(\d]/.test(v) ? 2 : firstWord + 2);
  for (let i = 0; i < b.length; i++) {
    if (i > 0 && !/\s/.test(b[i - 1])) continue; // values stand after a space ("is 42,412"; "41" there is no start)
    let m = 0;
    while (m < v.length && i + m < b.length && b[i + m] === v[m]) m++;
    // Begun here and then left for something else.
    if (m >= begun && i + m < b.length) return false;
  }
  return true;
}

/** The lines a policy may cite as an answer's thought: the prompt's text lines when it learned `answer: 'cite'`, else none. */
export function citeLinesFor(prompt: string, answer: PromptSettings['answer']): string[] {
  return answer === 'cite' ? promptTextLines(prompt) : [];
}

/**
 * Accessibility roles (as the environment lists them, ../environment/observe.ts) whose elements take
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

/**
 * An argument of an action as formatAction writes it, the form policies are trained on: an element
 * id from the page, a single-quoted string with backslash escapes, a number, or one of a few words.
 */
type Arg = 'id' | 'text' | 'number' | { oneOf: string[] };
/** Each action's arguments; `optional` trailing ones may be left out. Keyed by type, so a new action must be added here. */
const FORMS: Record<ActionType, { args: Arg[]; optional?: number }> = {
  // A button other than the left one is an action no collecting agent here takes, so no policy is
  // trained on it: a tiny model reached it by writing a comma after the id and then looped on it.
  click: { args: ['id'] },
  dblclick: { args: ['id'] }, hover: { args: ['id'] }, focus: { args: ['id'] }, clear: { args: ['id'] },
  check: { args: ['id'] }, uncheck: { args: ['id'] },
  fill: { args: ['id', 'text'] }, select_option: { args: ['id', 'text'] }, press: { args: ['id', 'text'] },
  keyboard_press: { args: ['text'] }, scroll: { args: ['number', 'number'] }, go_back: { args: [] }, go_forward: { args: [] },
  goto: { args: ['text'] }, noop: { args: ['number'] }, send_msg_to_user: { args: ['text'] }, report_infeasible: { args: ['text'] },
  mouse_move: { args: ['number', 'number'] }, mouse_click: { args: ['number', 'number'] }, mouse_dblclick: { args: ['number', 'number'] },
  mouse_down: { args: ['number', 'number'] }, mouse_up: { args: ['number', 'number'] },
  mouse_drag_and_drop: { args: ['number', 'number', 'number', 'number'] }, keyboard_type: { args: ['text'] },
};
/**
 * The actions a guided output may name: those of the default action sets, the ones the compact
 * policy's prompt lists. The coordinate actions came later; a policy that never saw them in its
 * prompt is not steered into one by a shared prefix (`keyboard_`), so its outputs stay as they were.
 */
const GUIDED_ACTIONS = ACTION_TYPES.filter(inDefaultActionSets);
const ELEMENT_ACTIONS = new Set<string>(ACTION_TYPES.filter((t) => takesElement(t)));
const latin1 = (s: string) => String.fromCharCode(...new TextEncoder().encode(s));

/** Tokens left to the output budget when only closing quotes and parentheses may come (`'` and `)`, or `')`, with one spare). */
const CLOSING_ROOM = 3;

/** Four tokens: with spaces as their own tokens, a repeated pair of words ("the the the") is caught at the third. */
export const NO_REPEAT_NGRAM = 4;

/** How a prefix of an action ends: it can still grow into a whole action ('open'), it is one ('whole'), or neither. */
type Scan = 'open' | 'whole' | 'dead';

/** The output so far, as the guide tests each next token against it. */
type GuideRow =
  | { kind: 'thought'; text: string; full: boolean; ids: { ids: string[]; at: number } | null }
  | { kind: 'whole' }
  | { kind: 'action'; action: string; named?: string; stated?: string; nearEnd: boolean };

export class ActionGuide implements TokenConstraint {
  private readonly pieces: string[];
  /** Per element action, `'ID'` of each element that takes it. */
  private readonly targets: Map<string, string[]>;
  /** `'ID'` of each search box: what is typed there is a name or words, never ending a sentence. */
  private readonly searchBoxes: Set<string>;
  /** `name(` of each action some element on the page takes (or that takes no element). */
  private readonly names: string[];
  /** Per element with printed options, every whole select_option argument list it allows: `'ID', 'OPTION')`. */
  private readonly selections: Map<string, string[]>;
  /** Ids per element-line head (`link "Shoes"`) of a name-first prompt. */
  private readonly heads: Map<string, string[]>;
  /**
   * With element thoughts: every printed element line up to its id (and marked `= `, as printed,
   * when it is), and any cited text lines: the thoughts that do not begin a sentence (upper case).
   */
  private readonly thoughtLines: string[];
  /** Whole actions the output may not be (banAction). */
  private readonly banned = new Set<string>();
  /** Whether a message after a cited value must state it. */
  private readonly statedValues: boolean;
  /** Words a message or typed text may hold, and their prefixes (null: any). */
  private readonly words: AllowedWords | null;

  /**
   * @param elements the prompt's element lines (promptElements)
   * @param inAction true when the output starts at the action (a policy trained on actions only)
   * @param maxTokens the output's token budget, when known: the thought then ends by half of it, so
   *   that a thought that goes on and on (a tiny model repeats itself) leaves room for the action,
   *   and its last tokens may only close the call
   * @param noRepeatNgram no token may complete an n-gram of tokens that already stands earlier on the
   *   same output line (0: off). A tiny model decoded greedily falls into loops ("the the the",
   *   "PN PN PN"), and a copy pointer feeds them: after "PN PN" the position whose previous token is
   *   "PN" holds "PN" again. Counted within a line, so the action may repeat what the thought said.
   * @param elementThoughts the policy learned element thoughts (prompt setting `thought: 'element'`):
   *   a thought that begins in lower case (a role, as element lines do) must be a printed element
   *   line up to its id, `link "Shoes" [12]`, so the thought names an element of the page; one that
   *   begins in upper case is a sentence (the thought of an action on no element) and stays free.
   * @param citeLines the prompt's text lines (promptTextLines), for a policy trained with `answer:
   *   'cite'`: a thought may also be one of them whole (`(761) 414-5288`, `= 1653`), the value an
   *   answer copies. Without them, a thought that begins with neither a role nor a capital (a
   *   number, a parenthesis, a mark) is not allowed.
   * @param words the prompt and the policy's message vocabulary (policy.json `messageWords`): every
   *   word of a message or of typed text must then stand in the prompt or in the vocabulary. A tiny
   *   model glues pieces of names into words no page holds ("Kimable", "costson") and invents
   *   numbers; the answer's names and values are on the page, and its other words are few.
   * @param statedValues with cite lines: a message written after a cited value (citedValue) must
   *   state it (statesValue), as every answer of the oracles the policy learned from does; false
   *   leaves the message free (the ablation).
   */
  constructor(tokenizer: Tokenizer, elements: readonly PromptElement[], private readonly eot: number, private readonly inAction: boolean, private readonly maxTokens?: number,
    private readonly noRepeatNgram = 0, elementThoughts = false, words?: { prompt: string; vocabulary: readonly string[] }, citeLines: readonly string[] = [], statedValues = true) {
    this.pieces = pieces(tokenizer);
    this.statedValues = statedValues && citeLines.length > 0;
    this.words = words ? allowedWords(latin1(words.prompt), words.vocabulary.map(latin1)) : null;
    this.heads = new Map();
    for (const e of elements) if (e.head) this.heads.set(latin1(e.head), [...(this.heads.get(latin1(e.head)) ?? []), latin1(e.id)]);
    this.thoughtLines = elementThoughts ? [
      ...elements.flatMap((e) => (e.head ? [`${e.head} [${e.id}]`, ...(e.mark === '=' ? [`= ${e.head} [${e.id}]`] : [])] : [])),
      ...citeLines.flatMap((l) => (l.startsWith('= ') ? [l, l.slice(2)] : [l])),
    ].map(latin1) : [];
    this.targets = new Map([...ELEMENT_ACTIONS].map((a) => [a, elements.filter((e) => takes(a, e)).map((e) => `'${e.id}'`)]));
    this.searchBoxes = new Set(elements.filter((e) => e.role === 'searchbox').map((e) => `'${e.id}'`));
    this.names = GUIDED_ACTIONS.filter((a) => !ELEMENT_ACTIONS.has(a) || this.targets.get(a)!.length).map((a) => `${a}(`);
    // Quoted as the targets are (formatAction), after the name and its parenthesis.
    this.selections = new Map(elements.filter((e) => e.options.length).map((e) => [
      `'${e.id}'`, e.options.map((o) => latin1(formatAction({ type: 'select_option', id: e.id, options: [o] }).slice('select_option('.length))),
    ]));
  }

  /**
   * Forbid one whole action (as formatAction writes it): the agent bans the action it just took when
   * the page did not change, since a tiny model otherwise repeats it until the step limit.
   */
  banAction(action: string): this {
    this.banned.add(latin1(action));
    return this;
  }

  allowed(emitted: readonly number[]): Uint8Array | null {
    const mask = this.grammar(emitted);
    if (mask && this.noRepeatNgram > 1) banRepeats(mask, emitted, this.noRepeatNgram, this.endsLine);
    return mask;
  }

  /**
   * Greedy decoding's pick without building the mask: the first of `ranked` (tokens, best first)
   * that allowed(emitted) allows, tested one token at a time with the rules allowed() applies to
   * every token. Undefined when none of them is allowed or a rule needs the whole mask (the last
   * tokens of the budget, a repeat ban that might empty the mask): the caller then builds it.
   * Scoring ~1,000 pieces costs about half a millisecond a token; the model's own first choice is
   * almost always allowed.
   */
  firstAllowed(emitted: readonly number[], ranked: Iterable<number>): number | undefined {
    const row = this.row(emitted);
    if (row.kind === 'action' && row.nearEnd) return undefined;
    const banned = this.noRepeatNgram > 1 ? repeatCompletions(emitted, this.noRepeatNgram, this.endsLine) : EMPTY;
    for (const t of ranked) {
      // A banned token is skipped: if nothing else were allowed, the ban would be lifted and the
      // whole mask decides (this returns undefined at the end of `ranked`).
      if (this.allowsToken(row, t) && !banned.has(t)) return t;
    }
    return undefined;
  }

  private readonly endsLine = (t: number) => (this.pieces[t] ?? '').includes('\n');

  private grammar(emitted: readonly number[]): Uint8Array | null {
    const row = this.row(emitted);
    const mask = new Uint8Array(this.pieces.length);
    for (let t = 0; t < mask.length; t++) mask[t] = this.allowsToken(row, t) ? 1 : 0;
    if (row.kind === 'action' && row.nearEnd) {
      const { action, stated } = row;
      // The output's last tokens close the call (quotes and parentheses only), so a message that runs
      // on is cut short, not left unterminated (which the environment refuses as malformed); a message
      // that has not stated its cited value yet writes it first.
      const unstated = stated !== undefined && action.startsWith(MESSAGE_OPEN) ? restOfStatement(action.slice(MESSAGE_OPEN.length), stated) : undefined;
      if (this.maxTokens !== undefined && unstated !== undefined && this.maxTokens - emitted.length <= CLOSING_ROOM + unstated.length) {
        const stating = mask.map((m, t) => (m && this.pieces[t] !== '' && unstated.startsWith(this.pieces[t]) ? 1 : 0));
        if (stating.includes(1)) return Uint8Array.from(stating);
      }
      if (this.maxTokens !== undefined && this.maxTokens - emitted.length <= CLOSING_ROOM) {
        const closing = mask.map((m, t) => (m && /^[')]+$/.test(this.pieces[t]) ? 1 : 0));
        if (closing.includes(1)) return Uint8Array.from(closing);
      }
    }
    // Nothing possible (an output already off the grammar): no guidance.
    return row.kind === 'whole' || mask.includes(1) ? mask : null;
  }

  /** What the output so far leaves open, computed once per row (grammar and firstAllowed test every token against it). */
  private row(emitted: readonly number[]): GuideRow {
    const text = emitted.map((t) => this.pieces[t] ?? '').join('');
    const newline = this.inAction ? -1 : text.indexOf('\n');
    if (!this.inAction && newline < 0) {
      // Still in the thought: any piece (up to the trained length), but one that ends the line must begin a possible action.
      const full = text.length >= MAX_THOUGHT_CHARS || (this.maxTokens !== undefined && emitted.length >= Math.floor(this.maxTokens / 2));
      return { kind: 'thought', text, full, ids: this.idsAfterHead(text) };
    }
    const action = this.inAction ? text : text.slice(newline + 1);
    const thought = this.inAction ? '' : text.slice(0, newline);
    const named = this.inAction ? undefined : thoughtElement(thought);
    const stated = this.statedValues ? statedValueOf(thought) : undefined;
    // A whole action: nothing may follow it.
    if (this.scan(action, named, stated) === 'whole') return { kind: 'whole' };
    // Near the end of the budget the mask narrows by what the other tokens allow (grammar): the
    // room a message needs to state its value (restOfStatement: a space, the value, `')`) and close.
    const nearEnd = this.maxTokens !== undefined && this.maxTokens - emitted.length <= CLOSING_ROOM + (stated === undefined ? 0 : stated.length + 3);
    return { kind: 'action', action, named, stated, nearEnd };
  }

  /** Whether the grammar alone (no repeat ban, no end-of-budget narrowing) allows token t after `row`. */
  private allowsToken(row: GuideRow, t: number): boolean {
    if (row.kind === 'whole') return t === this.eot;
    if (t === this.eot) return false;
    const piece = this.pieces[t];
    if (piece === undefined) return false;
    if (row.kind === 'action') return this.scan(row.action + piece, row.named, row.stated) !== 'dead';
    const { text, full, ids } = row;
    // Element thoughts: upper case starts a sentence, a newline an empty thought; anything else
    // (a role, or a cited value) a printed line.
    if (this.thoughtLines.length > 0 && !/^[A-Z\n]/.test(text || piece)) return this.continuesThoughtLine(text + piece);
    if (ids) return this.continuesElementThought(text, ids, piece);
    const nl = piece.indexOf('\n');
    return nl < 0 ? !full : this.scan(piece.slice(nl + 1)) !== 'dead';
  }

  /**
   * When the thought so far is an element line's head and the opening of its id (`link "Shoes" [`,
   * maybe part of the id), where the head is printed in the prompt: the ids printed after that head.
   * The thought then names one of those elements, as the prompt lists it, and ends there.
   */
  private idsAfterHead(thought: string): { ids: string[]; at: number } | null {
    const open = thought.lastIndexOf(' [');
    if (open < 0 || thought.indexOf(']', open) >= 0 && !thought.endsWith(']')) return null;
    const ids = this.heads.get(thought.slice(0, open));
    return ids ? { ids, at: open + 2 } : null;
  }

  /** Whether `thought` is the beginning of a thought line (a printed element line, a cited line), or one whole and ended, before a possible action. */
  private continuesThoughtLine(thought: string): boolean {
    const nl = thought.indexOf('\n');
    if (nl < 0) return this.thoughtLines.some((l) => l.startsWith(thought));
    return this.thoughtLines.includes(thought.slice(0, nl)) && this.scan(thought.slice(nl + 1)) !== 'dead';
  }

  /** Whether `piece` keeps an element thought on an id of `ids` (and, once it is whole, ends the line there, before a possible action). */
  private continuesElementThought(thought: string, { ids, at }: { ids: string[]; at: number }, piece: string): boolean {
    const next = thought.slice(at) + piece;
    return ids.some((id) => {
      const whole = `${id}]`;
      if (whole.startsWith(next)) return true;
      if (!next.startsWith(`${whole}\n`)) return false;
      return this.scan(next.slice(whole.length + 1)) !== 'dead';
    });
  }

  /**
   * Whether `action` is a whole action on this page in the trained form, the beginning of one, or
   * neither. `named`: the element id the thought ended on (a policy trained on element thoughts
   * writes the element's line, `link "Shoes" [12]`); an element action then takes that element when
   * it can, so the action carries out the choice the thought made. `stated`: the value (as latin-1
   * bytes) the thought cited, which a message must state (statesValue).
   */
  scan(action: string, named?: string, stated?: string): Scan {
    const open = action.indexOf('(');
    // A banned call without arguments (go_back()) is banned at its name, so no output walks into it.
    const names = this.banned.size ? this.names.filter((n) => !this.banned.has(`${n})`)) : this.names;
    if (open < 0) return names.some((n) => n.startsWith(action)) ? 'open' : 'dead';
    const name = action.slice(0, open);
    if (!names.includes(`${name}(`)) return 'dead';
    const form = FORMS[name as ActionType];
    const rest = action.slice(open + 1);
    const required = form.args.length - (form.optional ?? 0);
    let i = 0;
    let target: string | undefined;
    for (let a = 0; a < form.args.length; a++) {
      if (a >= required) {
        // The call may close here.
        if (i === rest.length) return 'open';
        if (rest[i] === ')') return i + 1 === rest.length ? this.unlessBanned(action) : 'dead';
      }
      if (a > 0) {
        const sep = rest.slice(i, i + 2);
        if (sep.length < 2) return ', '.startsWith(sep) ? 'open' : 'dead';
        if (sep !== ', ') return 'dead';
        i += 2;
      }
      const arg = form.args[a];
      if (arg === 'id') {
        const tail = rest.slice(i);
        // A banned call on one element alone (click('12')) is banned at its id, for the same reason.
        const takers = this.targets.get(name)!.filter((q) => form.args.length > 1 || !this.banned.has(`${name}(${q})`));
        const quoted = named !== undefined && takers.includes(`'${named}'`) ? [`'${named}'`] : takers;
        if (quoted.some((q) => q.startsWith(tail))) return 'open';
        const id = quoted.find((q) => tail.startsWith(q));
        if (id === undefined) return 'dead';
        // A select's printed options: the rest of the call is one of them.
        const choices = name === 'select_option' ? this.selections.get(id) : undefined;
        if (choices) return choices.some((c) => c === tail) ? this.unlessBanned(action) : choices.some((c) => c.startsWith(tail)) ? 'open' : 'dead';
        i += id.length;
        target = id;
      } else {
        const end = arg === 'text' ? endOfString(rest, i) : arg === 'number' ? endOfNumber(rest, i) : endOfWord(rest, i, arg.oneOf);
        if (arg === 'text' && end !== 'dead') {
          const body = rest.slice(i + 1, end === 'open' ? rest.length : end - 1);
          if (this.words && WORD_CHECKED_ACTIONS.has(name) && !wordsAllowed(body, end === 'open', this.words)) return 'dead';
          // A search is for a name or words: the question mark or comma after a name in the task
          // ("the elevation of Kapraville, in metres") is not part of it, and finds nothing.
          if (name === 'fill' && target !== undefined && this.searchBoxes.has(target) && SEARCH_STOPS.test(body)) return 'dead';
          if (name === 'send_msg_to_user' && stated !== undefined && !statesValue(body, end === 'open', stated)) return 'dead';
        }
        if (end === 'open' || end === 'dead') return end;
        i = end;
      }
    }
    if (i === rest.length) return 'open';
    return rest[i] === ')' && i + 1 === rest.length ? this.unlessBanned(action) : 'dead';
  }

  private unlessBanned(action: string): Scan {
    return this.banned.has(action) ? 'dead' : 'whole';
  }
}

const MESSAGE_OPEN = "send_msg_to_user('";

/**
 * What a message's text still needs to state `value` and close (both quoted as a message is), or undefined when it states it or has closed: the
 * rest of a value it has begun, else the value after a space.
 */
function restOfStatement(body: string, value: string): string | undefined {
  const b = body.toLowerCase();
  const v = value.toLowerCase();
  if (b.includes(v) || endOfString(`'${body}`, 0) !== 'open') return undefined;
  for (let m = Math.min(v.length - 1, b.length); m > 0; m--) {
    const at = b.length - m;
    if (b.endsWith(v.slice(0, m)) && (at === 0 || /\s/.test(b[at - 1]))) return `${value.slice(m)}')`;
  }
  return `${b === '' || /\s$/.test(b) ? '' : ' '}${value}')`;
}

/** citedValue of a thought held as latin-1 bytes (the guide's text), in the same bytes, quoted as a message quotes it ("O\\'Brien"). */
function statedValueOf(thought: string): string | undefined {
  const value = citedValue(new TextDecoder().decode(Uint8Array.from(thought, (c) => c.charCodeAt(0))));
  return value === undefined ? undefined : latin1(formatAction({ type: 'send_msg_to_user', text: value }).slice(MESSAGE_OPEN.length, -2));
}

/** The element id a thought line ends on (`link "Shoes" [12]` -> 12), if any. */
export function thoughtElement(thought: string): string | undefined {
  return /\[([^\]\s']+)\]$/.exec(thought.trim())?.[1];
}

/**
 * Clears, in place, every token that would complete an n-gram already on the current line (the
 * tokens after the last one holding a newline), unless that would leave no token allowed.
 */
export function banRepeats(mask: Uint8Array, emitted: readonly number[], n: number, endsLine: (t: number) => boolean): void {
  const banned = [...repeatCompletions(emitted, n, endsLine)].filter((t) => mask[t]);
  if (!banned.length) return;
  const before = mask.reduce((a, x) => a + x, 0);
  if (banned.length >= before) return;
  for (const t of banned) mask[t] = 0;
}

/** The tokens that would complete an n-gram already on the current line (banRepeats' candidates). */
function repeatCompletions(emitted: readonly number[], n: number, endsLine: (t: number) => boolean): Set<number> {
  let start = emitted.length;
  while (start > 0 && !endsLine(emitted[start - 1])) start--;
  const line = emitted.slice(start);
  const out = new Set<number>();
  if (line.length < n - 1) return out;
  const tail = line.slice(line.length - (n - 1));
  for (let i = 0; i + n - 1 < line.length; i++) {
    let same = true;
    for (let j = 0; j < n - 1 && same; j++) same = line[i + j] === tail[j];
    if (same) out.add(line[i + n - 1]);
  }
  return out;
}

const EMPTY: ReadonlySet<number> = new Set();

/** Index after the single-quoted string at s[i], 'open' when s ends inside it; one line only. */
function endOfString(s: string, i: number): number | 'open' | 'dead' {
  if (i >= s.length) return 'open';
  if (s[i] !== "'") return 'dead';
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === '\n') return 'dead';
    if (s[j] === '\\') j++;
    else if (s[j] === "'") return j + 1;
  }
  return 'open';
}

/** Index after the number at s[i] (an integer or decimal, maybe negative), 'open' when s ends inside it. */
function endOfNumber(s: string, i: number): number | 'open' | 'dead' {
  const m = /^-?\d*(\.\d*)?/.exec(s.slice(i))![0];
  if (i + m.length === s.length) return 'open';
  return /\d/.test(m) ? i + m.length : 'dead';
}

/** Index after one of the quoted words at s[i], 'open' when s ends inside one. */
function endOfWord(s: string, i: number, words: string[]): number | 'open' | 'dead' {
  const tail = s.slice(i);
  const quoted = words.map((w) => `'${w}'`);
  if (quoted.some((q) => q.startsWith(tail))) return 'open';
  const w = quoted.find((q) => tail.startsWith(q));
  return w === undefined ? 'dead' : i + w.length;
}
