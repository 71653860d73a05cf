/**
 * The settings checker. It reads only saved server state: the expected settings are the generated
 * ones with the task's changes applied, every task part is a key point, and any other saved key
 * that differs (a stray toggle, another session signed out, the billing email edited instead of the
 * account email), a password changed unasked or an extra export request is a side effect.
 */
import type { CheckResult, KeyPoint } from '../../types.ts';
import { answerMatches } from '../../../common/normalize.ts';
import { blockedKey, sessionKey, type SettingsGoal, type SettingsState } from './data.ts';
import { dateSpellings } from './format.ts';
import { PLANS } from './vocabulary.ts';
import type { Ctx } from './pages.ts';

/** The saved keys a goal decides, with the value each must end with. */
export function goalChanges(g: SettingsGoal): Record<string, string> {
  switch (g.kind) {
    case 'set':
      return g.changes;
    case 'signOut':
      return { [sessionKey(g.session)]: 'signed-out' };
    case 'unblock':
      return { [blockedKey(g.user)]: 'unblocked' };
    default:
      return {};
  }
}

export function expectedValues(s: SettingsState): Record<string, string> {
  return Object.assign({ ...s.initial }, ...s.goals.map(goalChanges));
}

function planAnswered(s: SettingsState, message: string): boolean {
  // Naming every plan is not an answer: the message must name the account's plan and no other.
  const others = PLANS.map((p) => p.name).filter((n) => n !== s.billing.plan);
  return answerMatches(s.billing.plan, message) && !others.some((n) => answerMatches(n, message));
}

export function answerCorrect(s: SettingsState, g: Extract<SettingsGoal, { kind: 'answer' }>, message: string): boolean {
  if (g.topic === 'plan') return planAnswered(s, message);
  if (g.topic === 'invoiceDate') return dateSpellings(g.answer).some((d) => answerMatches(d, message));
  return answerMatches(g.answer, message);
}

/** Is this part of the task done, judged from saved state (and, for a question, the messages sent)? */
export function goalMet(s: SettingsState, g: SettingsGoal, messages: readonly string[]): boolean {
  switch (g.kind) {
    case 'answer':
      return messages.some((m) => answerCorrect(s, g, m));
    case 'password':
      return s.password === g.next;
    case 'export':
      return s.exports.some((e) => e.format === g.format);
    default:
      return Object.entries(goalChanges(g)).every(([k, v]) => s.values[k] === v);
  }
}

function goalName(s: SettingsState, g: SettingsGoal): string {
  switch (g.kind) {
    case 'answer':
      return `correct ${{ plan: 'plan', invoiceDate: 'latest invoice date', invoiceAmount: 'latest invoice amount' }[g.topic]} in a message`;
    case 'set':
      return g.what;
    case 'password':
      return 'password changed to the new one';
    case 'signOut': {
      const x = s.sessions.find((v) => v.id === g.session)!;
      return `signed out of ${x.device} in ${x.city}`;
    }
    case 'unblock':
      return `unblocked ${s.blocked.find((u) => u.id === g.user)!.name}`;
    case 'export':
      return `data export requested as ${g.format.toUpperCase()}`;
  }
}

/** Saved keys that differ from what the task wants, as "key: was -> now". */
function differing(s: SettingsState, keys: Iterable<string>, expected: Record<string, string>): string[] {
  return [...keys].filter((k) => s.values[k] !== expected[k]).map((k) => `${k}: ${JSON.stringify(expected[k] ?? '')} -> ${JSON.stringify(s.values[k] ?? '')}`);
}

export function sideEffects(s: SettingsState): string[] {
  const expected = expectedValues(s);
  const decided = new Set(s.goals.flatMap((g) => Object.keys(goalChanges(g))));
  const keys = new Set([...Object.keys(s.values), ...Object.keys(expected)].filter((k) => !decided.has(k)));
  const out = differing(s, keys, expected);
  if (s.password !== s.initialPassword && !s.goals.some((g) => g.kind === 'password')) out.push('password changed');
  const exportsWanted = s.goals.filter((g) => g.kind === 'export').length;
  if (s.exports.length > exportsWanted) out.push(`${s.exports.length} data exports requested`);
  return out;
}

export function checkSettings(ctx: Ctx): CheckResult {
  const s = ctx.state;
  const kp: KeyPoint[] = [];
  const expected = expectedValues(s);
  if (s.goals.some((g) => g.kind === 'answer')) {
    kp.push({ name: 'answer sent', met: ctx.agentMessages.length > 0, ...(ctx.agentMessages.length ? { detail: ctx.agentMessages.at(-1) } : {}) });
  }
  for (const g of s.goals) {
    const met = goalMet(s, g, ctx.agentMessages);
    const wrong = differing(s, Object.keys(goalChanges(g)), expected);
    kp.push({ name: goalName(s, g), met, ...(!met && wrong.length ? { detail: wrong.join('; ') } : {}) });
  }
  const side = sideEffects(s);
  kp.push({ name: 'no other settings changed', met: side.length === 0, ...(side.length ? { detail: side.join('; ') } : {}) });
  return { success: kp.every((k) => k.met), keyPoints: kp };
}

