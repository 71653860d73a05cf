/**
 * What every MiniWoB++ oracle is made of: a decision from the observation in front of it (the
 * instruction, the numbered elements, the page's text lines) and a small memory of its own moves
 * in this episode, acted out only through the workbench's action strings. An oracle never reads
 * the page's script state: what it knows of the task is what the instruction and the page say,
 * as a person would know it.
 */
import type { Agent, AgentTurn } from '../../agent.ts';
import type { Observation, PageElement } from '../../../environment/types.ts';
import { act } from '../../families/common/oracle.ts';

/** One decision: why, and the action string. */
export interface Step {
  thought: string;
  action: string;
}

/** The next step from the page in view and what the oracle remembers of its earlier steps. */
export type Decide<M> = (obs: Observation, memory: M) => Step;

/** MiniWoB++ tasks take a handful of steps; an oracle still going after this many is lost. */
const MAX_STEPS = 40;

class ScriptedOracle<M> implements Agent {
  private memory: M;
  private steps = 0;
  /** The element the last step clicked, to press it from the keyboard if something covered it. */
  private clicked?: string;
  constructor(
    readonly name: string,
    private readonly decide: Decide<M>,
    private readonly fresh: () => M,
  ) {
    this.memory = fresh();
  }
  reset(): void {
    this.memory = this.fresh();
    this.steps = 0;
    this.clicked = undefined;
  }
  async act(obs: Observation): Promise<AgentTurn> {
    if (++this.steps > MAX_STEPS) return { thought: 'Too many steps: the page is not what this oracle expects.', action: act.infeasible('oracle lost its way') };
    // A button another one overlaps (click-test-2 places them at random) cannot take a click at
    // its centre; a person would press it from the keyboard, and so does the oracle. The
    // decision is not asked again, so its memory still counts that press as its click.
    const covered = obs.lastActionError?.code === 'element_not_interactable' && /covered by/.test(obs.lastActionError.message);
    const target = covered ? obs.elements.find((e) => e.id === this.clicked) : undefined;
    this.clicked = undefined;
    if (target && ['button', 'link'].includes(target.role)) return { thought: 'Something covers it: press it from the keyboard instead.', action: act.press(target, 'Enter') };
    const step = this.decide(obs, this.memory);
    this.clicked = /^click\('([^']+)'\)$/.exec(step.action)?.[1];
    return step;
  }
}

/** A task's oracle: its decision, and a fresh memory per episode (none by default). */
export interface OracleMaker {
  (task: string): Agent;
}

export function oracle<M = Record<string, never>>(decide: Decide<M>, memory: () => M = () => ({}) as M): OracleMaker {
  return (task) => new ScriptedOracle(`oracle:miniwob.${task}`, decide, memory);
}

/** Nothing the oracle looks for is on the page: say so rather than act at random. */
export function stuck(why: string): Step {
  return { thought: why, action: act.infeasible(why) };
}

export const click = (el: PageElement, thought: string): Step => ({ thought, action: act.click(el) });
export const fill = (el: PageElement, text: string, thought: string): Step => ({ thought, action: act.fill(el, text) });
export const select = (el: PageElement, label: string, thought: string): Step => ({ thought, action: act.select(el, label) });
export const press = (el: PageElement, key: string, thought: string): Step => ({ thought, action: act.press(el, key) });
/** A wait of `ms`: for pages that show their next part after a delay (the -nodelay variants do not). */
export const wait = (ms: number, thought: string): Step => ({ thought, action: `noop(${ms})` });

/** The elements a person could see (the list also holds hidden ones, such as a closed tab's links). */
export function visible(obs: Observation): PageElement[] {
  return obs.elements.filter((e) => e.visible);
}

export function byRole(obs: Observation, ...roles: string[]): PageElement[] {
  return visible(obs).filter((e) => roles.includes(e.role));
}

/** Names compare as a person reads them: case, surrounding space and end punctuation aside. */
export function sameText(a: string, b: string): boolean {
  return clean(a) === clean(b);
}

export function clean(s: string): string {
  return s.replace(/\s+/g, ' ').trim().replace(/[.,;:!?]+$/, '').toLowerCase();
}

/** The first visible element of one of the roles whose name reads `name`. */
export function named(obs: Observation, roles: string[], name: string): PageElement | undefined {
  return byRole(obs, ...roles).find((e) => sameText(e.name, name));
}

/** Strings in double quotes in an instruction, in order: `Click on the "Okay" button.` -> ['Okay']. */
export function quoted(instruction: string): string[] {
  return [...instruction.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
}

/** The element's centre, for tasks whose answer is where something is (a grid, a board). */
export function centre(el: PageElement): { x: number; y: number } {
  return { x: el.box.x + el.box.width / 2, y: el.box.y + el.box.height / 2 };
}

/** Submit-like buttons by their label (MiniWoB++ pages name it Submit, sometimes a div). */
export function submitButton(obs: Observation, label = 'Submit'): PageElement | undefined {
  return named(obs, ['button', 'generic', 'link'], label);
}
