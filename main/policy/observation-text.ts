/**
 * The compact text rendering of a page that a text policy reads, and the chat messages of one
 * step built from it. Dataset exports use the same functions, so a model trained on an export
 * sees at inference exactly what it saw in training. Output is deterministic: same input, same
 * bytes.
 */
import type { PageElement } from '../environment/types.ts';

export interface PageText {
  url: string;
  title: string;
  elements: readonly PageElement[];
}

export interface RenderOptions {
  /**
   * Character budget for the whole rendering. Elements in the viewport are kept first, then the
   * rest in page order; what does not fit is counted in a final "more elements" line.
   */
  maxChars?: number;
  /** Longest name or value printed for one element; longer ones end with an ellipsis. */
  maxNameChars?: number;
}

const DEFAULT_NAME_CHARS = 120;

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

const quote = (s: string) => JSON.stringify(s);

/**
 * One element as one line: `[12] button "Add to cart" disabled`. Text runs are plain lines.
 * `idAfterName` writes `button "Add to cart" [12] disabled` instead: a causal model reading the line
 * then reaches the id having read the name, so the id's position can stand for the element (what
 * the compact policy's copy pointer lands on).
 */
export function renderElementLine(el: PageElement, maxNameChars = DEFAULT_NAME_CHARS, idAfterName = false): string {
  const name = clip(el.name, maxNameChars);
  if (el.role === 'text') return name;
  const parts = idAfterName ? [el.role] : [`[${el.id}]`, el.role];
  if (name) parts.push(quote(name));
  if (idAfterName) parts.push(`[${el.id}]`);
  if (el.value !== undefined && el.value !== '' && el.value !== el.name) parts.push(`value=${quote(clip(el.value, maxNameChars))}`);
  if (el.checked === true) parts.push('checked');
  else if (el.checked === 'mixed') parts.push('checked=mixed');
  if (el.selected) parts.push('selected');
  if (el.expanded === true) parts.push('expanded');
  else if (el.expanded === false) parts.push('collapsed');
  if (el.disabled) parts.push('disabled');
  if (el.required) parts.push('required');
  if (el.invalid) parts.push('invalid');
  if (el.options?.length) parts.push(`options: ${el.options.map((o) => clip(o, maxNameChars)).join(' | ')}`);
  return parts.join(' ');
}

/** URL, title, then one line per visible element (viewport first when the budget is tight). */
export function renderObservationText(obs: PageText, opts: RenderOptions = {}): string {
  const head = [`URL: ${obs.url}`, `Title: ${clip(obs.title, 200)}`];
  const visible = obs.elements.filter((e) => e.visible);
  const lines = visible.map((e) => renderElementLine(e, opts.maxNameChars));
  const budget = opts.maxChars;
  const full = [...head, ...lines].join('\n');
  if (budget === undefined || full.length <= budget) return full;

  // Greedy fill by priority (viewport, then page order), printed back in page order so the
  // reader still sees the page top to bottom. Room is kept for the omission line.
  const order = visible.map((e, i) => i).sort((a, b) => Number(visible[b].inViewport) - Number(visible[a].inViewport) || a - b);
  const noteRoom = `\n… (${visible.length} more elements not shown)`.length;
  let used = head.join('\n').length;
  const kept = new Set<number>();
  for (const i of order) {
    const cost = lines[i].length + 1;
    if (used + cost + noteRoom > budget) break;
    kept.add(i);
    used += cost;
  }
  const body = lines.filter((_, i) => kept.has(i));
  const omitted = visible.length - kept.size;
  const out = [...head, ...body, `… (${omitted} more elements not shown)`].join('\n');
  // A budget smaller than URL and title: cut hard rather than exceed it.
  return out.length <= budget ? out : out.slice(0, budget);
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface PromptStep {
  action: string;
  error?: { code: string; message: string } | null;
}

export interface PromptInput {
  instruction: string;
  observation: PageText & { lastActionError?: { code: string; message: string } | null };
  /** The actions already taken in this episode, oldest first, with the error each one got. */
  history?: readonly PromptStep[];
  /** The assistant's answer; absent when prompting a policy rather than building a sample. */
  target?: { thought?: string; action: string };
  /** Only the last N previous actions are listed (older ones are counted). Default 10. */
  maxHistory?: number;
  /** Character budget of the page text (see RenderOptions.maxChars). Default 6000. */
  maxPageChars?: number;
}

export const SYSTEM_PROMPT = [
  'You are a web agent. You see a web page as a numbered list of elements and complete the task by taking one action per step.',
  'Actions (element ids are the numbers in brackets):',
  "  click('12')  fill('7', 'text')  select_option('3', 'Option')  check('5')  uncheck('5')",
  "  press('7', 'Enter')  hover('12')  scroll(0, 400)  go_back()  goto('url')",
  "  noop(500)  wait for the page (a menu or result that appears a moment later)",
  "  send_msg_to_user('answer')  when the task asks for information or is done",
  "  report_infeasible('why')  when the task cannot be done",
  'Reply with at most a short thought, then the action alone on the last line.',
].join('\n');

const DEFAULT_HISTORY = 10;
const DEFAULT_PAGE_CHARS = 6000;

function renderHistory(history: readonly PromptStep[], max: number): string {
  if (!history.length) return 'Previous actions: none';
  const shown = history.slice(-max);
  const skipped = history.length - shown.length;
  const lines = shown.map((h, i) => {
    const n = skipped + i + 1;
    return `${n}. ${h.action}${h.error ? `  -> error ${h.error.code}: ${clip(h.error.message, 200)}` : ''}`;
  });
  if (skipped) lines.unshift(`(${skipped} earlier actions not shown)`);
  return ['Previous actions:', ...lines].join('\n');
}

/** The assistant message a policy writes: the thought, then the action on its own last line. */
export function renderAssistant(target: { thought?: string; action: string }): string {
  const thought = target.thought?.trim();
  return thought ? `${thought}\n${target.action}` : target.action;
}

/** The chat messages of one step: system (action space), user (task, page, history), assistant. */
export function renderPrompt(input: PromptInput): ChatMessage[] {
  const { observation } = input;
  const page = renderObservationText(observation, { maxChars: input.maxPageChars ?? DEFAULT_PAGE_CHARS });
  const user = [`Task: ${input.instruction.trim()}`, '', 'Page:', page, '', renderHistory(input.history ?? [], input.maxHistory ?? DEFAULT_HISTORY)];
  if (observation.lastActionError) {
    user.push('', `Last action failed: ${observation.lastActionError.code}: ${clip(observation.lastActionError.message, 200)}`);
  }
  user.push('', 'What is the next action?');
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: user.join('\n') },
  ];
  if (input.target) messages.push({ role: 'assistant', content: renderAssistant(input.target) });
  return messages;
}
