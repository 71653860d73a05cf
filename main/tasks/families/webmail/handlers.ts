/** Routes of the webmail site: folder, search and message pages; star, move and send on POST. */
import type { SiteRequest, SiteResponse } from '../../types.ts';
import { safeReturn } from '../common/site.ts';
import { MOVE_TARGETS, type Folder, type Message, type Person } from './data.ts';
import { shortDate, type Ctx } from './chrome.ts';
import { composePage, listPage, messagePage, type ComposeForm } from './pages.ts';
import { infoPage } from './distractors.ts';
import { fill, folderName } from './variant.ts';

const page = (body: string): SiteResponse => ({ kind: 'html', body });
const EMAIL_RE = /^[^\s@<>,]+@[^\s@<>,]+\.[^\s@<>,]+$/;

export function searchMessages(messages: Message[], q: string): Message[] {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  // Like most webmail, search skips Spam.
  return messages.filter((m) => {
    if (m.folder === 'spam') return false;
    const hay = `${m.subject} ${m.body} ${m.from.name} ${m.from.email} ${m.to.map((t) => `${t.name} ${t.email}`).join(' ')}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

export function handleWebmail(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const w = s.variant.words;
  const { path } = req;
  const byId = (id: string) => s.messages.find((m) => m.id === Number(id));
  if (req.method === 'GET') {
    if (path === '/') return { kind: 'redirect', location: '/folder/inbox' };
    const fm = path.match(/^\/folder\/(\w+)$/);
    if (fm) {
      const f = fm[1];
      if (!['inbox', 'starred', 'sent', 'archive', 'spam'].includes(f)) return { kind: 'not_found' };
      const items = f === 'starred' ? s.messages.filter((m) => m.starred && m.folder !== 'spam') : s.messages.filter((m) => m.folder === f);
      const moved = req.query.get('moved');
      const notice = req.query.get('sent') === '1' ? w.sentNotice : moved && MOVE_TARGETS.includes(moved as Folder) ? fill(w.moved, { folder: folderName(s.variant, moved) }) : undefined;
      return page(listPage(ctx, req, folderName(s.variant, f), items, { current: f, notice, basePath: `/folder/${f}` }));
    }
    if (path === '/search') {
      const q = (req.query.get('q') ?? '').trim();
      return page(listPage(ctx, req, q ? fill(w.searchTitle, { q }) : w.searchBox, searchMessages(s.messages, q), { q, basePath: '/search' }));
    }
    const mm = path.match(/^\/message\/(\d+)$/);
    if (mm) {
      const m = byId(mm[1]);
      if (!m) return { kind: 'not_found' };
      m.read = true;
      return page(messagePage(ctx, m));
    }
    if (path === '/compose') {
      const r = req.query.get('reply');
      const orig = r ? byId(r) : undefined;
      const f: ComposeForm = { to: '', subject: '', body: '', replyTo: '', errors: {} };
      if (orig) {
        f.to = orig.folder === 'sent' ? orig.to.map((t) => t.email).join(', ') : orig.from.email;
        f.subject = /^re:/i.test(orig.subject) ? orig.subject : `Re: ${orig.subject}`;
        f.body = `\n\nOn ${shortDate(orig.date)}, ${orig.from.name} wrote:\n${orig.body.split('\n').map((l) => `> ${l}`).join('\n')}`;
        f.replyTo = String(orig.id);
      }
      return page(composePage(ctx, f));
    }
    const info = infoPage(ctx, path);
    return info ? page(info) : { kind: 'not_found' };
  }
  const star = path.match(/^\/message\/(\d+)\/star$/);
  if (star) {
    const m = byId(star[1]);
    if (!m) return { kind: 'not_found' };
    m.starred = !m.starred;
    return { kind: 'redirect', location: safeReturn(req.form.get('return')) };
  }
  const move = path.match(/^\/message\/(\d+)\/move$/);
  if (move) {
    const m = byId(move[1]);
    const to = req.form.get('folder') as Folder;
    if (!m) return { kind: 'not_found' };
    if (!MOVE_TARGETS.includes(to) || m.folder === 'sent') return page(messagePage(ctx, m, 'Choose a folder to move the message to.'));
    const from = m.folder;
    m.folder = to;
    return { kind: 'redirect', location: `/folder/${from}?moved=${to}` };
  }
  if (path === '/compose') return send(req, ctx);
  return { kind: 'not_found' };
}

function send(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const f: ComposeForm = { to: req.form.get('to') ?? '', subject: req.form.get('subject') ?? '', body: req.form.get('body') ?? '', replyTo: req.form.get('reply_to') ?? '', errors: {} };
  const addrs = f.to.split(/[,;]/).map((a) => a.trim()).filter(Boolean);
  if (!addrs.length) f.errors.to = 'Enter at least one recipient.';
  else if (addrs.some((a) => !EMAIL_RE.test(a))) f.errors.to = `Not a valid email address: ${addrs.find((a) => !EMAIL_RE.test(a))}.`;
  if (!f.body.trim()) f.errors.body = 'The message is empty.';
  if (Object.keys(f.errors).length) return page(composePage(ctx, f));
  const known = new Map<string, Person>(s.messages.flatMap((m) => [m.from, ...m.to]).map((p) => [p.email.toLowerCase(), p]));
  const latest = s.messages.reduce((d, m) => (m.date > d ? m.date : d), '');
  const date = new Date(new Date(latest + ':00Z').getTime() + 5 * 60000).toISOString().slice(0, 16);
  const replyTo = Number(f.replyTo);
  s.messages.unshift({
    id: s.nextId++,
    folder: 'sent',
    from: s.me,
    to: addrs.map((a) => known.get(a.toLowerCase()) ?? { name: a, email: a }),
    subject: f.subject.trim() || '(no subject)',
    body: f.body,
    date,
    starred: false,
    read: true,
    topic: 'a sent message',
    ...(Number.isInteger(replyTo) && s.messages.some((m) => m.id === replyTo) ? { inReplyTo: replyTo } : {}),
  });
  return { kind: 'redirect', location: '/folder/inbox?sent=1' };
}
