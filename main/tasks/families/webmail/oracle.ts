/** The webmail oracle: works through the task's goals in order, each as a small state machine on the page. */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { normalizeText } from '../../../common/normalize.ts';
import { OracleAgent, act, find, instancePath, selectIfNeeded, startsWith, valueIs } from '../common/oracle.ts';
import { folderLabel, type MailGoal } from './data.ts';
import { goalMet } from './check.ts';
import type { Ctx } from './pages.ts';

export class WebmailOracle extends OracleAgent {
  readonly name = 'oracle:webmail';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  protected decide(obs: Observation): AgentTurn {
    const s = this.ctx.state;
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
        const b = find(obs, 'button', 'Star');
        if (b) return { thought: 'Star this message.', action: act.click(b) };
      }
      if (g.kind === 'move') {
        const sel = selectIfNeeded(obs, 'Move to', folderLabel(g.to), g.to);
        if (sel) return { thought: `Choose ${folderLabel(g.to)}.`, action: sel };
        const b = find(obs, 'button', 'Move');
        if (b) return { thought: 'Move it.', action: act.click(b) };
      }
      if (g.kind === 'reply') {
        const r = find(obs, 'link', 'Reply');
        if (r) return { thought: 'Open the reply form.', action: act.click(r) };
      }
    }

    if (path === '/compose' && g.kind === 'reply') {
      const to = find(obs, 'textbox', 'To');
      if (to && !valueIs(to, m.from.email)) return { thought: 'Address the reply to the sender.', action: act.fill(to, m.from.email) };
      const body = find(obs, 'textbox', 'Message');
      if (body && !normalizeText(body.value ?? '').startsWith(normalizeText(g.text))) return { thought: 'Write the reply.', action: act.fill(body, g.text) };
      const send = find(obs, 'button', 'Send');
      if (send) return { thought: 'Send the reply.', action: act.click(send) };
    }

    const subject = normalizeText(m.subject);
    const link = find(obs, 'link', (n) => normalizeText(n).includes(subject) && normalizeText(n).includes(normalizeText(m.from.name)));
    if (link) return { thought: `Open "${m.subject}".`, action: act.click(link) };
    const current = path.match(/^\/folder\/(\w+)$/)?.[1];
    if (m.folder !== 'inbox' && current !== m.folder) {
      const f = find(obs, 'link', startsWith(folderLabel(m.folder)));
      if (f) return { thought: `The message is in ${folderLabel(m.folder)}.`, action: act.click(f) };
    }
    const box = find(obs, 'searchbox', 'Search mail') ?? find(obs, 'textbox', 'Search mail');
    if (box) {
      if (!valueIs(box, m.subject)) return { thought: 'Search for the message by its subject.', action: act.fill(box, m.subject) };
      return { thought: 'Run the search.', action: act.press(box, 'Enter') };
    }
    return { thought: 'Unexpected page; go to the inbox.', action: act.goto(this.ctx.baseUrl + '/folder/inbox') };
  }
}
