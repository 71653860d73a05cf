/**
 * Oracles for MiniWoB++'s email-inbox tasks: find a sender's email, then delete it, star it, reply
 * with a message or forward it to someone. The plain variants say so in one fixed sentence; the
 * -nl ones in one of many sentences people wrote (`Give Ann the email from Bo`, `Tell Bo "hi"`), so
 * the task is read from what any phrasing carries: a quoted message means a reply, two senders of
 * the inbox mean a forward (the one after "to" is the recipient), else words of deleting or
 * starring.
 *
 * The page's icons (trash, star, send, close) have no accessible names. A person tells them apart
 * by their pictures; the oracle by their places, which the page keeps: a row's icons are trash
 * then star, a compose bar's are close then send.
 */
import type { Observation, PageElement } from '../../../environment/types.ts';
import { byRole, click, fill, oracle, quoted, stuck, visible, type Step } from './base.ts';

export type EmailTask =
  | { action: 'delete' | 'star'; sender: string }
  | { action: 'reply'; sender: string; message: string }
  | { action: 'forward'; sender: string; to: string };

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where each sender's name stands in a text (`Anns` counts as `Ann`'s, as people write it). */
function mentions(text: string, senders: readonly string[]): Array<{ name: string; at: number }> {
  const out: Array<{ name: string; at: number }> = [];
  for (const name of new Set(senders)) {
    for (const m of text.matchAll(new RegExp(`\\b${escape(name)}(?=s\\b|[^A-Za-z]|$)`, 'g'))) out.push({ name, at: m.index });
  }
  return out.sort((a, b) => a.at - b.at);
}

/**
 * The task an instruction states, given the inbox's senders; undefined when it names no sender.
 * Some -nl sentences swap the two people (`Find the email from DEST and forward it to NAME`): they
 * are read as written, as a person would.
 */
export function parseEmailTask(instruction: string, senders: readonly string[]): EmailTask | undefined {
  // The message may hold capitalised words: look for names outside it. `""hi" "` quotes "hi".
  const text = instruction.replace(/""/g, '"');
  const message = quoted(text).map((q) => q.trim()).find((q) => q.length > 0);
  const rest = text.replace(/"[^"]*"/g, ' ');
  const found = mentions(rest, senders);
  const names = [...new Set(found.map((f) => f.name))];
  if (!names.length) return undefined;
  if (message !== undefined) return { action: 'reply', sender: names[0], message };
  if (names.length >= 2) {
    const before = (f: { at: number }) => rest.slice(0, f.at);
    const after = (f: { name: string; at: number }) => rest.slice(f.at + f.name.length);
    const isTo = (f: { at: number }) => /\bto\s+$/i.test(before(f));
    const isFrom = (f: { name: string; at: number }) => /\b(from|by)\s+$/i.test(before(f)) || /^(?:'s|s)\b/.test(after(f));
    const to = names.filter((n) => found.some((f) => f.name === n && isTo(f)));
    const from = names.filter((n) => found.some((f) => f.name === n && isFrom(f)));
    const recipient = to.length === 1 ? to[0] : from.length === 1 ? names.find((n) => n !== from[0])! : names[1];
    const sender = names.find((n) => n !== recipient)!;
    return { action: 'forward', sender, to: recipient };
  }
  // One sender named: a forward to someone who is not in the inbox (`... forward that email to Odella.`).
  const to = /\bforward\b.*\bto\s+([A-Z][\w-]*)/i.exec(rest)?.[1];
  if (to && to !== names[0]) return { action: 'forward', sender: names[0], to };
  if (/delet|trash|get rid|remove|throw away|recycl|out of my inbox|don't want/i.test(rest)) return { action: 'delete', sender: names[0] };
  if (/import|star|flag|mark/i.test(rest)) return { action: 'star', sender: names[0] };
  return undefined;
}

/** An inbox row: the sender is its first word (`Maud Nisi, in. Neque..`). */
function rows(obs: Observation): PageElement[] {
  return byRole(obs, 'generic').filter((e) => e.tag === 'div' && /^\S+\s/.test(e.name) && e.box.height > 20);
}

/** The unnamed icons right after an element in the list, in page order. */
function iconsAfter(obs: Observation, el: PageElement, n: number): PageElement[] {
  const list = obs.elements;
  const at = list.indexOf(el);
  const out: PageElement[] = [];
  for (let k = at + 1; k < list.length && out.length < n; k++) {
    const e = list[k];
    if (e.role === 'image' && !e.name) out.push(e);
    else if (e.role === 'generic' && e.name) break;
  }
  return out;
}

interface EmailMemory {
  task?: EmailTask;
  typed: boolean;
}

const emailInbox = oracle<EmailMemory>(
  (obs, mem): Step => {
    const inbox = rows(obs);
    if (!mem.task) {
      // Read the task in the inbox, where every sender shows.
      const senders = inbox.map((r) => r.name.split(/\s+/)[0]);
      mem.task = parseEmailTask(obs.instruction, senders);
      if (!mem.task) return stuck('the instruction names no sender of the inbox');
    }
    const task = mem.task;
    const textareas = byRole(obs, 'textbox').filter((e) => e.tag === 'textarea');
    const toField = byRole(obs, 'textbox').find((e) => e.tag === 'input');
    const icons = byRole(obs, 'image').filter((e) => !e.name);

    // A compose view: reply (a message box) or forward (a recipient field), send with the bar's second icon.
    if (textareas.length && task.action === 'reply') {
      if (!mem.typed) {
        mem.typed = true;
        return fill(textareas[0], task.message, `Write the reply "${task.message}".`);
      }
      return icons[1] ? click(icons[1], 'Send the reply (the second icon of the bar).') : stuck('no send icon');
    }
    if (toField && task.action === 'forward') {
      if (!mem.typed) {
        mem.typed = true;
        return fill(toField, task.to, `Forward to ${task.to}.`);
      }
      return icons[1] ? click(icons[1], 'Send the forward (the second icon of the bar).') : stuck('no send icon');
    }

    // An open email: Reply or Forward.
    const reply = visible(obs).find((e) => e.role === 'generic' && e.name === 'Reply');
    const forward = visible(obs).find((e) => e.role === 'generic' && e.name === 'Forward');
    if (reply && forward) {
      if (task.action === 'reply') return click(reply, 'Reply to this email.');
      if (task.action === 'forward') return click(forward, 'Forward this email.');
    }

    // The inbox: the sender's row.
    const row = inbox.find((r) => r.name.split(/\s+/)[0] === task.sender);
    if (!row) return stuck(`no email from ${task.sender}`);
    if (task.action === 'reply' || task.action === 'forward') return click(row, `Open ${task.sender}'s email.`);
    const [trash, star] = iconsAfter(obs, row, 2);
    const icon = task.action === 'delete' ? trash : star;
    return icon ? click(icon, `${task.action === 'delete' ? 'Trash' : 'Star'} ${task.sender}'s email (its row's ${task.action === 'delete' ? 'first' : 'second'} icon).`) : stuck('no icons on the row');
  },
  () => ({ typed: false }),
);

export const EMAIL_ORACLES = {
  'email-inbox': emailInbox,
  'email-inbox-delete': emailInbox,
  'email-inbox-forward': emailInbox,
  'email-inbox-important': emailInbox,
  'email-inbox-noscroll': emailInbox,
  'email-inbox-reply': emailInbox,
  'email-inbox-nl-turk': emailInbox,
  'email-inbox-forward-nl': emailInbox,
  'email-inbox-forward-nl-turk': emailInbox,
};
