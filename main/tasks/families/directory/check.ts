/**
 * Judges a directory instance from the site's state (and, for questions, the agent's messages, the
 * way factbook does: the value must appear in a message). Saving, unsaving, messages and the
 * newsletter sign-up that the goal does not ask for are side effects, each a key point.
 */
import type { CheckResult, KeyPoint } from '../../types.ts';
import { answerMatches, normalizeText, sameText } from '../../../common/normalize.ts';
import { listingById, listingLabel, type DirectoryState } from './data.ts';
import type { Ctx } from './chrome.ts';

/** Listings whose saved state differs from the start, apart from the one the goal saves. */
export function straySaves(s: DirectoryState): number[] {
  const goalSave = s.goal.kind === 'save' ? s.goal.listing : -1;
  const now = s.saved.map((e) => e.id);
  const was = s.initial.saved.map((e) => e.id);
  return [...now.filter((id) => !was.includes(id) && id !== goalSave), ...was.filter((id) => !now.includes(id))];
}

export function checkDirectory(ctx: Ctx): CheckResult {
  const s = ctx.state;
  const g = s.goal;
  const kp: KeyPoint[] = [];
  const point = (name: string, met: boolean, detail?: string) => kp.push({ name, met, ...(detail ? { detail } : {}) });
  const label = (id: number) => {
    const l = listingById(s, id);
    return l ? listingLabel(s, l) : String(id);
  };

  if (g.kind === 'fact' || g.kind === 'ranked') {
    const last = ctx.agentMessages.at(-1);
    point('answer sent', ctx.agentMessages.length > 0);
    point(`correct ${g.label}`, ctx.agentMessages.some((m) => answerMatches(g.answer, m)), last);
  } else if (g.kind === 'contact') {
    const mine = s.sent.filter((m) => m.id === g.listing);
    const best = mine.find((m) => normalizeText(m.message).includes(normalizeText(g.text))) ?? mine[0];
    const elsewhere = s.sent.find((m) => m.id !== g.listing);
    point(`message sent to ${label(g.listing)}`, !!best, best ? undefined : elsewhere ? `sent to ${label(elsewhere.id)} instead` : 'no message sent');
    point(`topic "${g.topic}"`, !!best && best.topic === g.topic, best?.topic);
    point('message says the requested text', !!best && normalizeText(best.message).includes(normalizeText(g.text)), best?.message.slice(0, 80));
  } else {
    const entry = s.saved.find((e) => e.id === g.listing);
    point(`saved ${label(g.listing)}`, !!entry);
    point(`note "${g.note}"`, !!entry && sameText(entry.note, g.note), entry?.note);
  }

  const expected = g.kind === 'contact' ? g.listing : -1;
  const others = s.sent.filter((m) => m.id !== expected);
  const extra = g.kind === 'contact' ? s.sent.filter((m) => m.id === expected).length > 1 : false;
  point(g.kind === 'contact' ? 'no other messages sent' : 'no messages sent', others.length === 0 && !extra, others.length ? others.map((m) => `to ${label(m.id)}`).join('; ') : extra ? 'the message was sent more than once' : undefined);
  const stray = straySaves(s);
  point('no other listings saved or removed', stray.length === 0, stray.map(label).join('; ') || undefined);
  if (s.look.overlay === 'newsletter') point('not signed up for the newsletter', !s.newsletter);
  return { success: kp.every((k) => k.met), keyPoints: kp };
}
