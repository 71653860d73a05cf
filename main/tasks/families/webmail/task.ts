/** Picks the mail task for a seed and tier and phrases its instruction. */
import type { GoalKind, Tier } from '../../types.ts';
import { Rng, mixSeed } from '../../../common/rng.ts';
import { folderLabel, generateMailbox, type Folder, type MailGoal, type Message, type WebmailState } from './data.ts';
import { drawVariant } from './variant.ts';

export const PAGE_SIZE = 15;
const REPLIES = ['Thanks, that works for me.', 'Got it, thank you!', 'Sounds good, see you then.', 'Thanks, I will take care of it this week.', 'Perfect, thanks for letting me know.'];

function about(m: Message): string {
  return `the email from ${m.from.name} about ${m.topic}`;
}

export function generateWebmail(seed: number, tier: Tier): { state: WebmailState; instruction: string; goalKind: GoalKind } {
  const { me, messages } = generateMailbox(seed);
  const rng = new Rng(mixSeed(seed, 'webmail-task', tier));
  const inbox = messages.filter((m) => m.folder === 'inbox');
  const page1 = inbox.slice(0, PAGE_SIZE);
  const page2 = inbox.slice(PAGE_SIZE);
  const withFact = (ms: Message[]) => ms.filter((m) => m.fact);
  const goals: MailGoal[] = [];
  const parts: string[] = [];
  const used = new Set<number>();
  const take = (ms: Message[]): Message => {
    const pool = ms.filter((m) => !used.has(m.id));
    const m = rng.pick(pool.length ? pool : ms);
    used.add(m.id);
    return m;
  };
  const kind = rng.pick(tier === 1 ? ['star', 'move', 'answer'] : tier === 2 ? ['reply', 'move2', 'answer'] : ['combo']);
  if (kind === 'star') {
    const m = take(page1.filter((x) => !x.starred));
    goals.push({ kind: 'star', id: m.id });
    parts.push(`Star ${about(m)}.`);
  } else if (kind === 'move') {
    const m = take(page1);
    const to: Folder = m.fact ? 'archive' : rng.pick(['archive', 'spam'] as Folder[]);
    goals.push({ kind: 'move', id: m.id, to });
    parts.push(`Move ${about(m)} to ${folderLabel(to)}.`);
  } else if (kind === 'answer') {
    // Tier 1 asks about a message in Archive (open the folder); tier 2 about one past the first inbox page (search or page).
    const pool = tier === 1 ? withFact(messages.filter((m) => m.folder === 'archive')) : withFact(page2);
    const m = take(pool.length ? pool : withFact(page1));
    goals.push({ kind: 'answer', id: m.id, answer: m.fact!.value, label: m.fact!.label });
    parts.push(`What is the ${m.fact!.label} in ${about(m)}? Tell me in a message.`);
  } else if (kind === 'reply') {
    const m = take(withFact(page2.length ? page2 : inbox));
    const text = rng.pick(REPLIES);
    goals.push({ kind: 'reply', id: m.id, text });
    parts.push(`Reply to ${about(m)} with the message "${text}"`);
  } else if (kind === 'move2') {
    const a = take(page1);
    const b = take(inbox);
    goals.push({ kind: 'move', id: a.id, to: 'archive' }, { kind: 'move', id: b.id, to: 'archive' });
    parts.push(`Archive ${about(a)} and ${about(b)}.`);
  } else {
    const a = take(withFact(page1));
    const b = take(inbox);
    const text = rng.pick(REPLIES);
    goals.push({ kind: 'star', id: a.id }, { kind: 'reply', id: a.id, text }, { kind: 'move', id: b.id, to: 'archive' });
    parts.push(`Star ${about(a)} and reply to it with "${text}" Then move ${about(b)} to Archive.`);
  }
  // A star goal on a message that starts starred would be met before any action.
  for (const g of goals) if (g.kind === 'star') messages.find((m) => m.id === g.id)!.starred = false;
  const state: WebmailState = {
    me,
    messages,
    goals,
    initial: { folders: Object.fromEntries(messages.map((m) => [m.id, m.folder])), starred: messages.filter((m) => m.starred).map((m) => m.id) },
    nextId: 5000,
    variant: drawVariant(seed),
  };
  return { state, instruction: parts.join(' '), goalKind: goals.some((g) => g.kind === 'answer') ? 'answer' : 'state' };
}
