/**
 * The compact policy's text: a prompt small enough for a context of a few hundred tokens, the
 * target it learns to write (a thought line, then the action), and the parse of what it wrote.
 *
 * The prompt is plain text, not a chat template: the model is tiny and every token costs. It keeps
 * what a decision needs (task, page path and title, visible elements with clipped names, text runs
 * that may hold an answer, the last few actions, the last error) and drops the rest (the URL's
 * origin, which changes per instance and teaches nothing; long names; old history). Training
 * (./sft-data.ts) and the agent (../agents/compact-policy.ts) build it with the same function, so
 * the model sees at inference exactly what it saw in training.
 */
import { z } from 'zod';
import type { PageElement } from '../environment/types.ts';
import { parseAction, formatAction } from '../environment/actions.ts';
import { inDefaultActionSets } from '../environment/action-sets.ts';
import { renderElementLine } from './observation-text.ts';

export const ELEMENT_ORDERS = ['page', 'task', 'task-values', 'task-layout'] as const;
export const ELEMENT_LAYOUTS = ['id-first', 'name-first'] as const;
export const THOUGHT_KINDS = ['dataset', 'element'] as const;
export const ANSWER_FORMS = ['message', 'value', 'cite'] as const;

export const PromptSettings = z.object({
  /** Character budget of the element list before tokenization (viewport first, then page order). */
  maxPageChars: z.number().int().positive(),
  /** Longest element name or text run printed. */
  maxNameChars: z.number().int().positive(),
  /** Previous actions shown (older ones are only counted). */
  maxHistory: z.number().int().min(0),
  /**
   * Which elements fill the budget first. `page`: the viewport, then page order (policies trained
   * before `task` existed, whose policy.json lacks the field). `task`: elements that share words with
   * the task, then controls, overlays and the viewport (see elementPriority). `task-values`: the
   * same, and the value beside a label the task names (the cell after a "Square feet" row header)
   * comes along with its label (see valueOfLabel). `task-layout`: `task-values`, and overlays are
   * found by layout rather than page order (see overlaysByLayout) and always kept first, a task word
   * on a fifth of the page or more counts for none of it (WORD_SHARE), and a heading or cell that a
   * link beside it repeats is left out (withoutEchoes). On the 7,466 steps of the shipped policy's
   * data the element acted on is printed at 94.9% of steps instead of 90.0%, the answer's value
   * at 81.1% of answer steps instead of 66.9% (scripts/answer-in-prompt.ts, with maxTextChars 100).
   */
  elementOrder: z.enum(ELEMENT_ORDERS).default('page'),
  /**
   * Longest text run printed (names of other elements keep maxNameChars). The answer to "what is
   * the meeting room" sits 50 characters into an email's sentence. Absent: maxNameChars.
   */
  maxTextChars: z.number().int().positive().optional(),
  /**
   * Mark what matches the task: `* ` before the element lines sharing the most task words (when
   * any), `*` before a select's options that the task names. Absent in older policies: false.
   */
  markTaskMatches: z.boolean().default(false),
  /**
   * Mark the value of a label the task names, `= ` before its line: the table cells whose row and
   * column headers share the most task words (`= cell "341,171" [42]` after `rowheader
   * "Population"`), and the line after a term or a short label line ("Built", then "1840"); see
   * labelsOfValues. The first few marked values and their labels also rank first for the page
   * budget. Reading "the population of Mogor" off a layout it never trained on is matching a word,
   * then taking its neighbour: the prompt computes the match, as it ranks elements, so the policy
   * only has to copy the marked line. Absent in older policies: false.
   */
  markValues: z.boolean().default(false),
  /**
   * How an element line is laid out. `id-first`: `[12] link "Shoes"` (policies trained before the
   * field existed). `name-first`: `link "Shoes" [12]`, so the id's position has read the name, and
   * a pointer that lands there knows which element it chose.
   */
  elementLayout: z.enum(ELEMENT_LAYOUTS).default('id-first'),
  /**
   * The thought line the policy learns to write. `dataset`: the collecting agent's own thought
   * (policies trained before the field existed). `element`: the acted-on element's line as the
   * prompt prints it, up to its id (`link "Shoes" [12]`), for actions on an element; the dataset's
   * thought for the others. The line is a span of the prompt, so the pointer copies it, and the id
   * the action needs is then a few tokens back in the model's own output.
   */
  thought: z.enum(THOUGHT_KINDS).default('dataset'),
  /**
   * How the policy learns to answer. `message`: the collecting agent's sentence (policies trained
   * before the field existed). `value`: the goal's value alone, `send_msg_to_user('$233.00')`, with
   * the line of the element that shows it as the thought when thoughts are `element`; only where
   * the sample knows the value (see ./answer-value.ts), else the sentence. Measured on the shipped
   * policy (600 steps from it): 87/180 on test against 97/180, held out unchanged at 0/60; with
   * nothing before the value the pointer started mid-number ("88.8" for $259.88). `cite`: the
   * sentence, as `message`, with the line of the element that shows the value as the thought when
   * thoughts are `element` (the pointer copies the line, then the value from its own thought).
   */
  answer: z.enum(ANSWER_FORMS).default('message'),
});
export type PromptSettings = z.infer<typeof PromptSettings>;

export const defaultPromptSettings: PromptSettings = { maxPageChars: 700, maxNameChars: 40, maxHistory: 3, elementOrder: 'task', markTaskMatches: false, markValues: false, elementLayout: 'name-first', thought: 'dataset', answer: 'message' };

export interface PolicyPromptInput {
  instruction: string;
  url: string;
  title: string;
  elements: readonly PageElement[];
  lastActionError?: { code: string; message: string } | null;
  /** Actions taken so far in the episode, oldest first. */
  history: readonly string[];
}

/** Path, query and fragment of a URL: the origin differs per task instance and says nothing. */
export function urlPath(url: string): string {
  try {
    const u = new URL(url);
    // Instance prefixes (/i/<id>) are per-run noise too.
    return (u.pathname.replace(/^\/i\/[^/]+/, '') || '/') + u.search + u.hash;
  } catch {
    return url;
  }
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

/** Roles a policy acts on with fill, select_option, check or press, and buttons: the page's controls. */
const CONTROL_ROLES = new Set(['button', 'textbox', 'searchbox', 'combobox', 'listbox', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton', 'option', 'tab', 'menuitem']);
/** Words too common in task wording to say which element matters. */
const STOP_WORDS = new Set(['the', 'and', 'for', 'you', 'your', 'with', 'from', 'that', 'this', 'are', 'what', 'which', 'tell', 'message', 'these', 'those', 'into', 'have', 'has']);

/** Lower-case words of three letters or more, and every number, minus stop words. */
export function taskWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(words.filter((w) => (w.length >= 3 || /\d/.test(w)) && !STOP_WORDS.has(w)));
}

/** Under markValues, the first few marked values (and their labels) are raised this much: above any task-word match. */
const MAX_BOOSTED_VALUES = 4;
const MARKED_VALUE_BOOST = 8;

/**
 * How much an element deserves a place in a tight prompt under the `task` order. A tiny model can
 * only act on the ids it is shown: on a results page in page order the element the task needs was
 * cut from half of the clicks of a 1,350-episode oracle dataset (700 characters). Ranked by: words
 * shared with the task (at most three count), controls before links before text, elements drawn
 * over the page (in the viewport but after an element below it in page order: cookie banners,
 * dialogs, sticky bars), then the viewport. That cut 51% to 14%. The rule reads only the page and the task,
 * so training and inference rank alike.
 */
export function elementPriorities(elements: readonly PageElement[], instruction: string, shared = sharedTaskWords(elements, instruction), withValues = false, overlayByLayout = false, labels: readonly number[] = labelsOfValues(elements, shared), markedValues = false): number[] {
  const firstBelow = elements.findIndex((e) => !e.inViewport);
  const drawnOver = overlayByLayout ? overlaysByLayout(elements) : [];
  const priority = elements.map((e, i) => {
    const kind = CONTROL_ROLES.has(e.role) ? 2 : e.role === 'link' ? 1 : 0;
    // An overlay found by layout is what the page shows on top: nothing else can be clicked first.
    const overlay = overlayByLayout ? (drawnOver[i] && e.role !== 'text' ? 10 : 0) : firstBelow >= 0 && i > firstBelow && e.inViewport ? 2 : 0;
    return 2 * Math.min(shared[i], 3) + kind + overlay + (e.inViewport ? 0.5 : 0);
  });
  if (withValues) {
    // Just below its label: kept whenever the label is, unless the budget ends between them.
    for (let i = 1; i < elements.length; i++) if (labels[i] >= 0) priority[i] = Math.max(priority[i], priority[labels[i]] - 0.25);
  }
  if (markedValues) {
    // A marked value and its label before anything else (the first few: a column the task names
    // marks every row). Prose that repeats the task's record name outranked them and cut the value.
    let boosted = 0;
    for (let i = 0; i < elements.length && boosted < MAX_BOOSTED_VALUES; i++) {
      if (labels[i] < 0) continue;
      boosted++;
      priority[i] += MARKED_VALUE_BOOST;
      if (labels[i] !== i && priority[labels[i]] < priority[i]) priority[labels[i]] = priority[i] + 0.25;
    }
  }
  return priority;
}

type Box = PageElement['box'];
/** Overlap by more than 2 px both ways: rows laid out edge to edge share a fraction of a pixel. */
const intersects = (a: Box, b: Box) => a.x + 2 < b.x + b.width && b.x + 2 < a.x + a.width && a.y + 2 < b.y + b.height && b.y + 2 < a.y + a.height;
const contains = (a: Box, b: Box) => a.x <= b.x + 1 && a.y <= b.y + 1 && a.x + a.width >= b.x + b.width - 1 && a.y + a.height >= b.y + b.height - 1;

/**
 * Elements drawn over the page: in the viewport, and overlapping an element before them in page
 * order that neither holds them nor sits inside them. In normal flow a later element never covers an
 * earlier one; a cookie banner, a dialog or a sticky bar does. The page-order rule (in the viewport
 * after an element below it) misfired on two-column results and scrolled pages, where it ranked a
 * card at the bottom of the viewport over the cheapest hotel at the top.
 */
export function overlaysByLayout(elements: readonly PageElement[]): boolean[] {
  return elements.map((e, i) => {
    if (!e.inViewport) return false;
    for (let j = 0; j < i; j++) {
      const o = elements[j];
      if (o.inViewport && intersects(e.box, o.box) && !contains(e.box, o.box) && !contains(o.box, e.box)) return true;
    }
    return false;
  });
}

/** Roles that label what follows them in page order (a table row's header, a term, a label). */
const LABEL_ROLES = new Set(['rowheader', 'columnheader', 'LabelText', 'term', 'DescriptionListTerm']);

/**
 * Whether element i is the value of a label the task names: it follows a label that shares task
 * words ("Square feet", or a text line ending in a colon) and shares none itself. Answer tasks
 * name the label, never the value, so under the plain task order the value was cut: in the
 * 2,250-episode oracle set the answer was in the prompt at 34% of realestate's answer steps.
 */
function valueOfLabel(elements: readonly PageElement[], i: number, shared: readonly number[]): boolean {
  const label = elements[i - 1];
  const isLabel = LABEL_ROLES.has(label.role) || (label.role === 'text' && /:\s*$/.test(label.name));
  return isLabel && shared[i - 1] > 0 && isValue(elements[i], shared[i]);
}

const isValue = (e: PageElement, shared: number) => shared === 0 && !CONTROL_ROLES.has(e.role);

/** A text line that reads as a label: at most three words, no colon or sentence punctuation ("Built", "Visitors per year"). */
const isShortLabelText = (e: PageElement) => e.role === 'text' && e.name.length <= 30 && e.name.trim().split(/\s+/).length <= 3 && !/[.!?,;:]/.test(e.name);

const CELL_ROLES = new Set(['cell', 'gridcell']);

/**
 * For each element, the index of the label the task names whose value it is, or -1. Always: the
 * element right after a label (valueOfLabel). With `extended` (prompt setting markValues), by the
 * page's structure instead:
 * - a table cell scores the task words its row header (the row header before it on the same line)
 *   and its column header (the header above whose width holds the cell's centre) share; the cells
 *   of the best score are values, so "the Deluxe King Room's price per night" marks one cell, not
 *   every room's price or the room's other cells. A cell may repeat its headers' words ("$233.00
 *   per night"), no others;
 * - a text line "Label: value" is left unmarked: it already shows both, and its label may be one
 *   the task names only to exclude ("before shipping" marked "Shipping: $9.99", and a fine-tune
 *   answered compare's prices with the shipping: 6/20 against 20/20);
 * - the element after a term or a short label line the task names (a definition list prints as
 *   bare lines: "Built", then "1840"). A text label ending in a colon ("Price:", then "$80"), which
 *   the plain rule reads, is not one here: the runs measured with marks (docs/benchmarks.md) had
 *   none, and adding it changes their prompts.
 */
export function labelsOfValues(elements: readonly PageElement[], shared: readonly number[], extended = false, instruction = ''): number[] {
  if (!extended) return elements.map((_, i) => (i > 0 && valueOfLabel(elements, i, shared) ? i - 1 : -1));
  const labelOf = elements.map(() => -1);
  const task = taskWords(instruction);
  const words = (e: PageElement) => [...taskWords(e.name)].filter((w) => task.has(w));
  const wordsOnlyFromHeaders = (i: number, headers: number[]) => {
    const allowed = new Set(headers.flatMap((h) => words(elements[h])));
    return words(elements[i]).every((w) => allowed.has(w));
  };
  const overlapsY = (a: Box, b: Box) => a.y < b.y + b.height && b.y < a.y + a.height;
  // Table cells, by their headers.
  let headerRow: number[] = [];
  let inBody = true;
  let rowHeader = -1;
  const scored: Array<{ i: number; score: number; label: number }> = [];
  elements.forEach((e, i) => {
    if (e.role === 'columnheader') {
      if (inBody) headerRow = [];
      inBody = false;
      headerRow.push(i);
      return;
    }
    inBody = true;
    if (e.role === 'rowheader') {
      rowHeader = i;
      return;
    }
    if (!CELL_ROLES.has(e.role)) return;
    const centre = e.box.x + e.box.width / 2;
    const col = headerRow.find((h) => centre >= elements[h].box.x && centre <= elements[h].box.x + elements[h].box.width && elements[h].box.y <= e.box.y);
    const row = rowHeader >= 0 && overlapsY(elements[rowHeader].box, e.box) ? rowHeader : undefined;
    const headers = [row, col].filter((h): h is number => h !== undefined);
    const score = headers.reduce((n, h) => n + shared[h], 0);
    if (score > 0 && wordsOnlyFromHeaders(i, headers)) scored.push({ i, score, label: row !== undefined && shared[row] > 0 ? row : col! });
  });
  const best = Math.max(0, ...scored.map((c) => c.score));
  for (const c of scored) if (c.score === best) labelOf[c.i] = c.label;
  // Labels in text: terms or short label lines followed by their value.
  elements.forEach((e, i) => {
    const prev = elements[i - 1];
    if (prev && (prev.role === 'term' || prev.role === 'DescriptionListTerm' || isShortLabelText(prev)) && shared[i - 1] > 0 && isValue(e, shared[i])) labelOf[i] = i - 1;
  });
  return labelOf;
}

/** How many task words each element's name, value and options contain. */
export function sharedTaskWords(elements: readonly PageElement[], instruction: string, maxShare = 1): number[] {
  const words = taskWords(instruction);
  const perElement = elements.map((e) => [...taskWords(`${e.name} ${e.value ?? ''} ${(e.options ?? []).join(' ')}`)].filter((w) => words.has(w)));
  // A task word on most of the page ("2027" on every day of a calendar, "night" on every hotel card)
  // says nothing about which element matters: with maxShare < 1 it counts only on at most
  // max(3, maxShare x elements) of them.
  const limit = Math.max(3, Math.floor(maxShare * elements.length));
  const count = new Map<string, number>();
  for (const ws of perElement) for (const w of ws) count.set(w, (count.get(w) ?? 0) + 1);
  return perElement.map((ws) => ws.filter((w) => maxShare >= 1 || count.get(w)! <= limit).length);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether the task names this text as a whole phrase (case-insensitive, not inside a longer word). */
function namedInTask(text: string, instruction: string): boolean {
  const t = text.trim();
  return t !== '' && new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(t)}($|[^\\p{L}\\p{N}])`, 'iu').test(instruction);
}

/**
 * Element lines, marked when settings ask: a tiny model learns the page's structure long before it
 * learns to match a name in the task to a name on the page (it clicks the right kind of link, on
 * the wrong product), so the match is computed, as the element ranking is, and shown.
 */
function elementLines(visible: readonly PageElement[], instruction: string, shared: readonly number[], labels: readonly number[], s: PromptSettings): string[] {
  const nameFirst = s.elementLayout === 'name-first';
  const clipAt = (e: PageElement) => (e.role === 'text' ? (s.maxTextChars ?? s.maxNameChars) : s.maxNameChars);
  const best = s.markTaskMatches ? Math.max(0, ...shared) : 0;
  return visible.map((e, i) => {
    const options = s.markTaskMatches ? e.options?.map((o) => (namedInTask(o, instruction) ? `*${o}` : o)) : undefined;
    const line = renderElementLine(options ? { ...e, options } : e, clipAt(e), nameFirst);
    if (s.markValues && labels[i] >= 0) return `= ${line}`;
    return best > 0 && shared[i] === best ? `* ${line}` : line;
  });
}

/**
 * The page's elements without echoes: a heading or cell whose name a neighbouring link or control
 * repeats (`heading "Seaside Inn"` above `link "Seaside Inn"`, a calendar cell above its day's
 * link). The actionable twin says the same at half the tokens.
 */
function withoutEchoes(elements: readonly PageElement[]): PageElement[] {
  const actionable = (e: PageElement | undefined) => e !== undefined && (e.role === 'link' || CONTROL_ROLES.has(e.role));
  return elements.filter((e, i) => actionable(e) || !(e.role !== 'text' && [elements[i - 1], elements[i + 1]].some((n) => actionable(n) && n!.name === e.name)));
}

/** Under `task-layout`, a task word counts only on at most this share of the page's elements. */
const WORD_SHARE = 0.2;

/** The element list within a character budget: the highest priority first, printed back in page order. */
function renderElements(input: PolicyPromptInput, s: PromptSettings, budget: number): string[] {
  const shown = input.elements.filter((e) => e.visible);
  const visible = s.elementOrder === 'task-layout' ? withoutEchoes(shown) : shown;
  const byTask = s.elementOrder !== 'page';
  const byLayout = s.elementOrder === 'task-layout';
  const shared = byTask || s.markTaskMatches || s.markValues ? sharedTaskWords(visible, input.instruction, byLayout ? WORD_SHARE : 1) : [];
  const labels = shared.length ? labelsOfValues(visible, shared, s.markValues, input.instruction) : [];
  const lines = elementLines(visible, input.instruction, shared, labels, s);
  const priority = byTask ? elementPriorities(visible, input.instruction, shared, s.elementOrder !== 'task', byLayout, labels, s.markValues) : visible.map((e) => Number(e.inViewport));
  const order = visible.map((_, i) => i).sort((a, b) => priority[b] - priority[a] || a - b);
  const kept = new Set<number>();
  let used = 0;
  for (const i of order) {
    if (used + lines[i].length + 1 > budget) continue;
    kept.add(i);
    used += lines[i].length + 1;
  }
  const out = lines.filter((_, i) => kept.has(i));
  if (kept.size < visible.length) out.push(`(${visible.length - kept.size} more)`);
  return out;
}

/**
 * The prompt text. `pageBudget` overrides settings.maxPageChars (the encoder shrinks it when the
 * tokens would not fit the context).
 */
export function renderPolicyPrompt(input: PolicyPromptInput, s: PromptSettings, pageBudget = s.maxPageChars): string {
  const lines = [`Task: ${clip(input.instruction, 300)}`, `Page: ${clip(urlPath(input.url), 80)} | ${clip(input.title, 60)}`];
  lines.push(...renderElements(input, s, pageBudget));
  const shown = s.maxHistory > 0 ? input.history.slice(-s.maxHistory) : [];
  const skipped = input.history.length - shown.length;
  lines.push(`History:${skipped ? ` (${skipped} earlier)` : ''} ${shown.length ? shown.map((a) => clip(a, 60)).join(' ; ') : 'none'}`);
  if (input.lastActionError) lines.push(`Error: ${input.lastActionError.code}`);
  lines.push('Next:', '');
  return lines.join('\n');
}

/** Longest thought a policy is trained to write. */
export const MAX_THOUGHT_CHARS = 120;

/** The text the policy writes: its thought on one line (possibly empty), then the action. */
export function renderPolicyTarget(target: { thought?: string; action: string }): { thought: string; action: string } {
  return { thought: clip(target.thought ?? '', MAX_THOUGHT_CHARS), action: target.action.trim() };
}

/**
 * The element line a thought of kind `element` names: role, name and id in the prompt's layout,
 * without value, state or options (those vary step to step; the prefix is what identifies it).
 */
export function elementThought(e: PageElement, s: PromptSettings): string {
  // A text run (no id, not acted on: the thought of a value answer) is clipped as the prompt clips it.
  const clipAt = e.role === 'text' ? (s.maxTextChars ?? s.maxNameChars) : s.maxNameChars;
  const line = renderElementLine({ id: e.id, role: e.role, name: e.name } as PageElement, clipAt, s.elementLayout === 'name-first');
  return clip(line, MAX_THOUGHT_CHARS);
}

/**
 * The target a policy with these settings is trained on for a stored sample (whose thought is the
 * dataset's): with `thought: 'element'`, an action on an element listed in the input gets that
 * element's line as its thought; with `answer: 'value'`, a message whose goal value the sample
 * knows becomes that value alone (thought: the line of an element showing it, if one does).
 */
export function policyTarget(input: PolicyPromptInput, target: { thought: string; action: string; answer?: string }, s: PromptSettings): { thought: string; action: string } {
  if (s.answer === 'cite' && s.thought === 'element' && target.answer && target.action.startsWith('send_msg_to_user(')) {
    const cited = citedLine(input, target.answer, s);
    return { thought: cited ?? target.thought, action: target.action };
  }
  if (s.answer === 'value' && target.answer && target.action.startsWith('send_msg_to_user(')) {
    const value = target.answer;
    const holder = s.thought === 'element' ? input.elements.find((e) => e.name.includes(value)) : undefined;
    return { thought: holder ? elementThought(holder, s) : target.thought, action: formatAction({ type: 'send_msg_to_user', text: value }) };
  }
  if (s.thought !== 'element') return { thought: target.thought, action: target.action };
  let id: string | undefined;
  try {
    const a = parseAction(target.action);
    if ('id' in a) id = a.id;
  } catch {
    return { thought: target.thought, action: target.action };
  }
  const e = id === undefined ? undefined : input.elements.find((x) => x.id === id);
  return { thought: e ? elementThought(e, s) : target.thought, action: target.action };
}

/**
 * The thought of an answer under `answer: 'cite'`: the line of the element that shows the value
 * (the shortest name holding it: "341,171" over a paragraph that mentions it), when the prompt
 * prints that line; a line the model cannot see would teach it to invent one. A line the prompt
 * marks as a value (`= 341,171`, under markValues) is cited with its mark: the thought's first token
 * is then the mark itself on every site, so "a marked value stands on the page" becomes the cue to
 * answer. (Runs before 2026-12-05's late evening cited it without the mark.)
 */
function citedLine(input: PolicyPromptInput, value: string, s: PromptSettings): string | undefined {
  const holders = input.elements.filter((e) => e.visible && e.name.includes(value)).sort((a, b) => a.name.length - b.name.length);
  if (!holders.length) return undefined;
  const printed = renderPolicyPrompt(input, s).split('\n');
  for (const line of holders.map((e) => elementThought(e, s))) {
    if (printed.some((l) => l.startsWith(`= ${line}`))) return `= ${line}`;
    if (printed.some((l) => l.includes(line))) return line;
  }
  return undefined;
}

export interface ParsedPolicyOutput {
  thought: string;
  /** The action text to execute: canonical when it parsed, else the raw last line. */
  action: string;
  /** False when no line of the output is a well-formed action. */
  valid: boolean;
}

/**
 * Read a generated text: the first line is the thought, the action the last line that parses.
 * Nothing that parses: the last non-empty line (or the whole text) goes to the environment as is,
 * which records it as a malformed action; the episode goes on. The policy's action space is the
 * default action sets: a coordinate action, which no policy prompt lists, is not one of its
 * actions, as it was not before they existed (and is not to the verl reward module).
 */
export function parsePolicyOutput(text: string): ParsedPolicyOutput {
  const lines = text.split('\n').map((l) => l.trim());
  const thought = lines.length > 1 ? lines[0] : '';
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!lines[i]) continue;
    try {
      const action = parseAction(lines[i]);
      if (inDefaultActionSets(action.type)) return { thought, action: formatAction(action), valid: true };
    } catch {
      // Not an action: try the line before.
    }
  }
  const last = [...lines].reverse().find((l) => l) ?? '';
  return { thought, action: last || text.trim() || '(empty output)', valid: false };
}
