/**
 * Building blocks for oracle agents: find elements in an observation by role and accessible name,
 * and write BrowserGym-style action strings. Oracles are state machines keyed on the URL path and
 * on what the page shows, so they recover when a step lands somewhere unexpected.
 */
import type { Agent, AgentTurn } from '../../agent.ts';
import type { Observation, PageElement } from '../../../environment/types.ts';
import type { TaskSpec } from '../../types.ts';
import { normalizeText } from '../../../common/normalize.ts';
import { COOKIE_BUTTONS } from './variant.ts';

/** Quote a string argument the way BrowserGym's action parser reads it. */
export function q(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export const act = {
  click: (el: PageElement): string => `click(${q(el.id)})`,
  fill: (el: PageElement, text: string): string => `fill(${q(el.id)}, ${q(text)})`,
  select: (el: PageElement, label: string): string => `select_option(${q(el.id)}, ${q(label)})`,
  press: (el: PageElement, key: string): string => `press(${q(el.id)}, ${q(key)})`,
  goto: (url: string): string => `goto(${q(url)})`,
  goBack: (): string => 'go_back()',
  say: (text: string): string => `send_msg_to_user(${q(text)})`,
  infeasible: (why: string): string => `report_infeasible(${q(why)})`,
};

export type NameMatch = string | RegExp | ((name: string) => boolean);

function nameMatches(name: string, want: NameMatch): boolean {
  if (typeof want === 'string') return normalizeText(name) === normalizeText(want);
  if (want instanceof RegExp) return want.test(name);
  return want(name);
}

/** The first visible, enabled element with one of the roles and a matching accessible name. */
export function find(obs: Observation, roles: string | string[], name: NameMatch): PageElement | undefined {
  const rs = Array.isArray(roles) ? roles : [roles];
  return obs.elements.find((e) => rs.includes(e.role) && e.visible !== false && !e.disabled && nameMatches(e.name, name));
}

export function findAll(obs: Observation, roles: string | string[], name: NameMatch): PageElement[] {
  const rs = Array.isArray(roles) ? roles : [roles];
  return obs.elements.filter((e) => rs.includes(e.role) && e.visible !== false && nameMatches(e.name, name));
}

/** Some accessibility trees append a description or required marker; match on the start. */
export function startsWith(prefix: string): (name: string) => boolean {
  const p = normalizeText(prefix);
  return (name) => normalizeText(name).startsWith(p);
}

export function pageHasText(obs: Observation, text: string | RegExp): boolean {
  return obs.elements.some((e) => (typeof text === 'string' ? normalizeText(e.name).includes(normalizeText(text)) : text.test(e.name)));
}

/** Path below the instance prefix ("/i/<id>"), plus its query, from an observation URL. */
export function instancePath(url: string): { path: string; query: URLSearchParams } {
  try {
    const u = new URL(url);
    const m = u.pathname.match(/^\/i\/[0-9a-f]+(\/.*)?$/);
    return { path: m ? m[1] || '/' : u.pathname, query: u.searchParams };
  } catch {
    return { path: '/', query: new URLSearchParams() };
  }
}

/**
 * Does a control hold the wanted value? `alternatives` lets a select match on its option value
 * too, since environments differ in whether a select reports the chosen label or value.
 */
export function valueIs(el: PageElement | undefined, want: string, ...alternatives: string[]): boolean {
  if (!el) return false;
  const v = normalizeText(el.value ?? '');
  return [want, ...alternatives].some((w) => normalizeText(w) === v);
}

/** Fill a field only when it does not already hold the wanted text; returns the action or null. */
export function fillIfNeeded(obs: Observation, roles: string | string[], name: NameMatch, want: string): string | null {
  const el = find(obs, roles, name);
  if (!el) return null;
  return valueIs(el, want) ? null : act.fill(el, want);
}

/** Choose an option only when the select does not already show it (by label). */
export function selectIfNeeded(obs: Observation, name: NameMatch, wantLabel: string, wantValue?: string): string | null {
  const el = find(obs, 'combobox', name);
  if (!el) return null;
  if (valueIs(el, wantLabel, ...(wantValue === undefined ? [] : [wantValue]))) return null;
  // Some environments report a select's value as the option's value, not its label.
  const opts = el.options ?? [];
  const label = opts.find((o) => normalizeText(o) === normalizeText(wantLabel)) ?? wantLabel;
  return act.select(el, label);
}

const OVERLAY_BUTTONS = new Set([...COOKIE_BUTTONS, 'Got it', 'Dismiss'].map(normalizeText));

/** Cookie banners (in any instance's words) and similar overlays get dismissed first, as a person would. */
export function dismissOverlay(obs: Observation): string | null {
  const b = find(obs, 'button', (name) => OVERLAY_BUTTONS.has(normalizeText(name)));
  return b ? act.click(b) : null;
}

/**
 * Base for oracles: subclasses implement `decide`, which looks at the observation and returns the
 * next action. A step cap guards against loops when the page is not what the oracle expects.
 */
export abstract class OracleAgent implements Agent {
  abstract readonly name: string;
  protected steps = 0;
  /** Sites with a cookie banner or an offer dialog set this: the oracle closes it first. */
  protected readonly overlay: string | null = null;
  reset(_task: TaskSpec): void {
    this.steps = 0;
  }
  async act(observation: Observation, _history: readonly AgentTurn[]): Promise<AgentTurn> {
    this.steps++;
    if (this.steps > 40) return { thought: 'too many steps', action: act.infeasible('oracle lost its way') };
    const dismiss = this.overlay ? dismissOverlay(observation) : null;
    if (dismiss) return { thought: `${this.overlay} covers the page; dismiss it.`, action: dismiss };
    return this.decide(observation);
  }
  protected abstract decide(obs: Observation): AgentTurn;
}
