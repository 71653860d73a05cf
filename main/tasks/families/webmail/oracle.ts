/**
 * The webmail oracle: works through the task's goals in order, each as a small state machine on the
 * page. Every control is found by the name this instance gave it (the variant's words in the
 * state), never by a fixed label, so the oracle stays right under every wording, order and layout.
 */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { normalizeText } from '../../../common/normalize.ts';
import { OracleAgent, act, find, instancePath, selectIfNeeded, valueIs } from '../common/oracle.ts';
import type { MailGoal } from './data.ts';
import { goalMet } from './check.ts';
import type { Ctx } from './chrome.ts';
import { folderName } from './variant.ts';

/** A folder's link: its name, or its name and an unread count ("Inbox 3"). */
function folderLink(name: string): (n: string) => boolean {
  const want = normalizeText(name);
  return (n) => {
    const got = normalizeText(n);
    return got === want || (got.startsWith(`${want} `) && /^\d+$/.test(got.slice(want.length + 1)));
  };
}

export class WebmailOracle extends OracleAgent {
  readonly name = 'oracle:webmail';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  protected decide(obs: Observation): AgentTurn {
    const s = this.ctx.state;
    const v = s.variant;
    const w = v.words;
    const { path } = instancePath(obs.url);
    // Actions first, then put back anything moved by mistake, and answer last (answering ends the episode).
    const targets = new Set(s.goals.map((x) => x.id));
    const restore: MailGoal[] = s.messages
      .filter((m) => m.id < 5000 && !targets.has(m.id) && s.initial.folders[m.id] !== m.folder)
      .map((m) => ({ kind: 'move', id: m.id, to: s.initial.folders[m.id] }));
    const order = [...s.goals.filter((x) => x.kind !== 'answer'), ...restore, ...s.goals.filter((x) => x.kind === 'answer')];
    const g = order.find((x) => !goalMet(this.ctx, x));
    if (!g) return { thought: 'Every part of the task is done.', action: act.say('Done.') };
    const m = s.messages.find((x) => x.id === g.id)!;

    if (path === `/message/${m.id}`) {
      if (g.kind === 'answer') return { thought: `The ${g.label} is ${g.answer}.`, action: act.say(`The ${g.label} is ${g.answer}.`) };
      if (g.kind === 'star') {
        const b = find(obs, 'button', v.mark.star);
        if (b) return { thought: 'Star this message.', action: act.click(b) };
      }
      if (g.kind === 'move') {
        const sel = selectIfNeeded(obs, w.moveTo, folderName(v, g.to), g.to);
        if (sel) return { thought: `Choose ${folderName(v, g.to)}.`, action: sel };
        const b = find(obs, 'button', w.move);
        if (b) return { thought: 'Move it.', action: act.click(b) };
      }
      if (g.kind === 'reply') {
        const r = find(obs, 'link', w.reply);
        if (r) return { thought: 'Open the reply form.', action: act.click(r) };
      }
    }

    if (path === '/compose' && g.kind === 'reply') {
      const to = find(obs, 'textbox', w.to);
      if (to && !valueIs(to, m.from.email)) return { thought: 'Address the reply to the sender.', action: act.fill(to, m.from.email) };
      const body = find(obs, 'textbox', w.body);
      if (body && !normalizeText(body.value ?? '').startsWith(normalizeText(g.text))) return { thought: 'Write the reply.', action: act.fill(body, g.text) };
      const send = find(obs, 'button', w.send);
      if (send) return { thought: 'Send the reply.', action: act.click(send) };
    }

    const subject = normalizeText(m.subject);
    const link = find(obs, 'link', (n) => normalizeText(n).includes(subject) && normalizeText(n).includes(normalizeText(m.from.name)));
    if (link) return { thought: `Open "${m.subject}".`, action: act.click(link) };
    const current = path.match(/^\/folder\/(\w+)$/)?.[1];
    if (m.folder !== 'inbox' && current !== m.folder) {
      const f = find(obs, 'link', folderLink(folderName(v, m.folder)));
      if (f) return { thought: `The message is in ${folderName(v, m.folder)}.`, action: act.click(f) };
    }
    const box = find(obs, ['searchbox', 'textbox'], w.searchBox);
    if (box) {
      if (!valueIs(box, m.subject)) return { thought: 'Search for the message by its subject.', action: act.fill(box, m.subject) };
      return { thought: 'Run the search.', action: act.press(box, 'Enter') };
    }
    return { thought: 'Unexpected page; go to the inbox.', action: act.goto(this.ctx.baseUrl + '/folder/inbox') };
  }
}
