/**
 * A noisy expert: the task's oracle with realistic mistakes injected at set rates, so collection
 * with retries has failures worth reflecting on. Mistake kinds:
 *   wrong_element     click a same-role element near the one the oracle meant
 *   detour            open an unrelated link and come back (or scroll for nothing)
 *   premature_answer  send_msg_to_user before the task is done
 *   typo              a slip of one character in filled text
 *   wrong_option      a neighbouring option in a select
 * Everything is drawn from a seeded stream, so the same seed on the same task repeats its mistakes.
 *
 * Like a model that believes its own output, the agent does not notice a typo or a wrong option
 * while it stays on the page where it made it: it shows the oracle the value it meant to enter.
 * Once the page changes it sees the truth again (and the oracle may repair the mistake).
 *
 * Reflections arrive as text, as they would in an LLM's prompt. The agent reads their structured
 * `Avoid:` line and multiplies the rate of each named kind by `reflectionFactor` per reflection,
 * the way a model asked to heed a reflection becomes more careful about what it names.
 */
import type { Observation, PageElement } from '../environment/types.ts';
import { formatAction, parseAction, type Action } from '../environment/actions.ts';
import type { TaskSpec } from '../tasks/types.ts';
import { Rng, mixSeed } from '../common/rng.ts';
import { normalizeText } from '../common/normalize.ts';
import type { Agent, AgentTurn } from '../tasks/agent.ts';

export const MISTAKE_KINDS = ['wrong_element', 'detour', 'premature_answer', 'typo', 'wrong_option'] as const;
export type MistakeKind = (typeof MISTAKE_KINDS)[number];
export type MistakeRates = Record<MistakeKind, number>;

/**
 * Defaults tuned so that about half of first attempts on the built-in suite fail: rates per step
 * (detour, premature_answer) or per action of the matching type (the others).
 */
export const DEFAULT_RATES: MistakeRates = {
  wrong_element: 0.1,
  detour: 0.12,
  premature_answer: 0.05,
  typo: 0.25,
  wrong_option: 0.25,
};
export const DEFAULT_REFLECTION_FACTOR = 0.1;

export interface NoisyExpertOptions {
  seed: number;
  rates?: Partial<MistakeRates>;
  /** Reflections from earlier failed attempts, as text (see `parseReflectionHints`). */
  reflections?: readonly string[];
  reflectionFactor?: number;
}

/** What the episode header records as the agent's config. */
export interface NoisyExpertConfig {
  kind: 'noisy-expert';
  seed: number;
  rates: MistakeRates;
  reflectionFactor: number;
  reflections: number;
  /** The rates after the reflections were applied: what this attempt actually ran with. */
  effectiveRates: MistakeRates;
}

export interface InjectedMistake {
  step: number;
  kind: MistakeKind;
  action: string;
  intended: string;
}

/** The mistake kinds a reflection's text asks to avoid: its `Avoid: a, b` lines. */
export function parseReflectionHints(text: string): MistakeKind[] {
  const out = new Set<MistakeKind>();
  for (const m of text.matchAll(/^\s*avoid\s*:\s*(.+)$/gim)) {
    for (const word of m[1].split(/[,;\s]+/)) {
      const k = word.trim().toLowerCase() as MistakeKind;
      if ((MISTAKE_KINDS as readonly string[]).includes(k)) out.add(k);
    }
  }
  return [...out];
}

export function noisyExpertConfig(opts: NoisyExpertOptions): NoisyExpertConfig {
  const rates = { ...DEFAULT_RATES, ...opts.rates };
  const factor = opts.reflectionFactor ?? DEFAULT_REFLECTION_FACTOR;
  const effective = { ...rates };
  for (const r of opts.reflections ?? []) for (const k of parseReflectionHints(r)) effective[k] *= factor;
  return { kind: 'noisy-expert', seed: opts.seed, rates, reflectionFactor: factor, reflections: opts.reflections?.length ?? 0, effectiveRates: effective };
}

interface Belief {
  url: string;
  role: string;
  name: string;
  meant: string;
}

/** Links a detour must not take: they could end the session or destroy state irreversibly. */
const UNSAFE = /sign ?out|log ?out|delete|remove|empty|cancel/i;

export class NoisyExpert implements Agent {
  readonly name = 'noisy';
  readonly config: NoisyExpertConfig;
  /** Mistakes made in the current episode (for tests and analysis; never shown to the reflector). */
  mistakes: InjectedMistake[] = [];
  private rng = new Rng(0);
  private beliefs: Belief[] = [];
  private detourFrom: string | null = null;
  private step = 0;

  constructor(
    private readonly oracle: Agent,
    opts: NoisyExpertOptions,
  ) {
    this.config = noisyExpertConfig(opts);
  }

  async reset(task: TaskSpec): Promise<void> {
    this.rng = new Rng(mixSeed(this.config.seed, task.family, task.seed, 'noisy'));
    this.beliefs = [];
    this.detourFrom = null;
    this.mistakes = [];
    this.step = 0;
    await this.oracle.reset(task);
  }

  async act(obs: Observation, history: readonly AgentTurn[]): Promise<AgentTurn> {
    const step = this.step++;
    if (this.detourFrom !== null) {
      const from = this.detourFrom;
      this.detourFrom = null;
      if (obs.url !== from) return { thought: 'Back to where I was.', action: 'go_back()' };
    }
    // Beliefs hold only on the page where the mistake was made.
    this.beliefs = this.beliefs.filter((b) => b.url === obs.url);
    const seen = this.applyBeliefs(obs);
    // A fixed number of draws per step keeps the streams of two attempts with different rates
    // aligned, so lowering a rate removes mistakes without reshuffling the others.
    const u = { premature: this.rng.next(), detour: this.rng.next(), slip: this.rng.next(), pick: this.rng.next() };
    const turn = await this.oracle.act(seen, history);
    const rates = this.config.effectiveRates;
    let action: Action;
    try {
      action = parseAction(turn.action);
    } catch {
      return turn;
    }
    if (action.type === 'send_msg_to_user' || action.type === 'report_infeasible') return turn;

    if (step > 0 && u.premature < rates.premature_answer) {
      return this.mistake(step, 'premature_answer', turn, { thought: 'That should do it.', action: formatAction({ type: 'send_msg_to_user', text: 'Done.' }) });
    }
    if (u.detour < rates.detour) {
      const target = 'id' in action ? action.id : null;
      const links = obs.elements.filter((e) => e.role === 'link' && e.visible && e.id !== target && !UNSAFE.test(e.name) && !mentioned(obs.instruction, e.name));
      if (links.length) {
        const link = links[Math.floor(u.pick * links.length)];
        this.detourFrom = obs.url;
        return this.mistake(step, 'detour', turn, { thought: `Let me look at "${link.name}" first.`, action: formatAction({ type: 'click', id: link.id, button: 'left' }) });
      }
      return this.mistake(step, 'detour', turn, { thought: 'Let me look further down the page.', action: 'scroll(0, 300)' });
    }
    const el = 'id' in action ? obs.elements.find((e) => e.id === action.id) : undefined;
    if (action.type === 'click' && el && u.slip < rates.wrong_element) {
      const near = nearestSameRole(obs, el);
      if (near) return this.mistake(step, 'wrong_element', turn, { ...turn, action: formatAction({ ...action, id: near.id }) });
    }
    if (action.type === 'fill' && el && action.text.length >= 3 && /[a-z]{2}/i.test(action.text) && u.slip < rates.typo) {
      const typo = makeTypo(action.text, u.pick);
      this.beliefs.push({ url: obs.url, role: el.role, name: el.name, meant: action.text });
      return this.mistake(step, 'typo', turn, { ...turn, action: formatAction({ ...action, text: typo }) });
    }
    if (action.type === 'select_option' && el?.options && el.options.length > 1 && u.slip < rates.wrong_option) {
      const want = el.options.findIndex((o) => normalizeText(o) === normalizeText(action.options[0]));
      const others = el.options.map((_, i) => i).filter((i) => i !== want);
      // A neighbouring option, as when a finger or a model's attention slips by one line.
      const near = others.sort((a, b) => Math.abs(a - want) - Math.abs(b - want)).slice(0, 2);
      const wrong = el.options[near[Math.floor(u.pick * near.length)]];
      this.beliefs.push({ url: obs.url, role: el.role, name: el.name, meant: action.options[0] });
      return this.mistake(step, 'wrong_option', turn, { ...turn, action: formatAction({ ...action, options: [wrong] }) });
    }
    return turn;
  }

  private mistake(step: number, kind: MistakeKind, intended: AgentTurn, done: AgentTurn): AgentTurn {
    this.mistakes.push({ step, kind, action: done.action, intended: intended.action });
    return done;
  }

  /** The page as the agent believes it to be: its slips show the values it meant. */
  private applyBeliefs(obs: Observation): Observation {
    if (!this.beliefs.length) return obs;
    const elements = obs.elements.map((e) => {
      const b = this.beliefs.find((x) => x.role === e.role && x.name === e.name);
      return b ? { ...e, value: b.meant } : e;
    });
    return { ...obs, elements };
  }
}

/** Does the instruction mention this name (so a detour through it would not be harmless)? */
function mentioned(instruction: string, name: string): boolean {
  const n = normalizeText(name);
  return n.length > 2 && normalizeText(instruction).includes(n);
}

/** The closest other visible, enabled element of the same role, by distance between box centres. */
function nearestSameRole(obs: Observation, el: PageElement): PageElement | undefined {
  const c = (e: PageElement) => [e.box.x + e.box.width / 2, e.box.y + e.box.height / 2];
  const [x, y] = c(el);
  let best: PageElement | undefined;
  let bestD = Infinity;
  for (const e of obs.elements) {
    if (e.id === el.id || e.role !== el.role || !e.visible || e.disabled || UNSAFE.test(e.name) || normalizeText(e.name) === normalizeText(el.name)) continue;
    const [ex, ey] = c(e);
    const d = Math.hypot(ex - x, ey - y);
    if (d < bestD) {
      bestD = d;
      best = e;
    }
  }
  return best;
}

/** One slip: swap two neighbouring letters, or drop one, at a drawn position inside a word. */
function makeTypo(text: string, u: number): string {
  const letters = [...text].map((ch, i) => (/[a-z]/i.test(ch) && /[a-z]/i.test(text[i + 1] ?? '') ? i : -1)).filter((i) => i >= 0);
  if (!letters.length) return text + text.slice(-1);
  const i = letters[Math.floor(u * letters.length)];
  if (text[i].toLowerCase() !== text[i + 1].toLowerCase()) return text.slice(0, i) + text[i + 1] + text[i] + text.slice(i + 2);
  return text.slice(0, i) + text.slice(i + 1);
}
