/** Judges a webmail instance from the mailbox state and the agent's messages to the user. */
import type { CheckResult, KeyPoint } from '../../types.ts';
import { answerMatches, normalizeText } from '../../../common/normalize.ts';
import { folderLabel, type MailGoal, type Message } from './data.ts';
import type { Ctx } from './chrome.ts';

/** A sent message that replies to `target`: linked by the reply form, or addressed to its sender with its subject. */
export function findReply(messages: Message[], target: Message): Message | undefined {
  return messages.find(
    (m) => m.folder === 'sent' && (m.inReplyTo === target.id || (m.to.some((t) => t.email.toLowerCase() === target.from.email.toLowerCase()) && normalizeText(m.subject).includes(normalizeText(target.subject)) && m.id >= 5000)),
  );
}

export function goalMet(ctx: Ctx, g: MailGoal): boolean {
  const s = ctx.state;
  const m = s.messages.find((x) => x.id === g.id)!;
  if (g.kind === 'star') return m.starred;
  if (g.kind === 'move') return m.folder === g.to;
  if (g.kind === 'reply') return !!findReply(s.messages, m) && normalizeText(findReply(s.messages, m)!.body).includes(normalizeText(g.text));
  return ctx.agentMessages.some((x) => answerMatches(g.answer, x));
}

export function checkWebmail(ctx: Ctx): CheckResult {
  const s = ctx.state;
  const kp: KeyPoint[] = [];
  const point = (name: string, met: boolean, detail?: string) => kp.push({ name, met, ...(detail ? { detail } : {}) });
  const touched = new Set<number>();
  for (const g of s.goals) {
    const m = s.messages.find((x) => x.id === g.id)!;
    touched.add(m.id);
    if (g.kind === 'star') point(`starred "${m.subject}"`, m.starred);
    else if (g.kind === 'move') point(`"${m.subject}" in ${folderLabel(g.to)}`, m.folder === g.to, `it is in ${folderLabel(m.folder)}`);
    else if (g.kind === 'reply') {
      const r = findReply(s.messages, m);
      point(`replied to "${m.subject}"`, !!r, r ? undefined : 'no reply to that message was sent');
      point('reply says the requested text', !!r && normalizeText(r.body).includes(normalizeText(g.text)), r ? r.body.slice(0, 80) : undefined);
    } else {
      point('answer sent', ctx.agentMessages.length > 0);
      point(`correct ${g.label}`, ctx.agentMessages.some((x) => answerMatches(g.answer, x)), ctx.agentMessages.at(-1));
    }
  }
  // Side effects: messages the task did not name should stay where they were.
  const moved = s.messages.filter((m) => m.id < 5000 && !touched.has(m.id) && s.initial.folders[m.id] !== m.folder);
  point('no other messages moved', moved.length === 0, moved.map((m) => m.subject).join('; ') || undefined);
  return { success: kp.every((k) => k.met), keyPoints: kp };
}
