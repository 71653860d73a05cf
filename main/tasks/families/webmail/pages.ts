/** Webmail pages: the mail chrome, folder and search listings, a message, and the compose form. */
import type { InstanceContext, SiteRequest } from '../../types.ts';
import { html, layout, raw, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { FOLDERS, MOVE_TARGETS, folderLabel, type Message, type WebmailState } from './data.ts';
import { PAGE_SIZE } from './task.ts';

export type Ctx = InstanceContext<WebmailState>;

export function mailPage(ctx: Ctx, title: string, main: Raw, opts: { q?: string; current?: string } = {}): string {
  const href = hrefs(ctx);
  const s = ctx.state;
  const unread = s.messages.filter((m) => m.folder === 'inbox' && !m.read).length;
  return layout({
    title,
    siteName: 'Mailbox',
    theme: 'theme-mail',
    homeHref: href('/'),
    header: html`<form class="search" role="search" method="get" action="${href('/search')}">
<input type="search" name="q" value="${opts.q ?? ''}" aria-label="Search mail" placeholder="Search mail">
<button type="submit">Search</button>
</form>
<span class="me">${s.me.email}</span>`,
    nav: html`<p><a class="button" href="${href('/compose')}">Compose</a></p>
<ul class="folders">${FOLDERS.map((f) => html`<li><a href="${href(`/folder/${f.id}`)}"${opts.current === f.id ? raw(' aria-current="page"') : ''}>${f.label}${f.id === 'inbox' && unread ? html` <span class="count">${unread}</span>` : ''}</a></li>`)}</ul>`,
    main,
    scripts: ['webmail.js'],
  });
}

export function shortDate(iso: string): string {
  const d = new Date(iso + ':00Z');
  return d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

function longDate(iso: string): string {
  const d = new Date(iso + ':00Z');
  return d.toLocaleString('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
}

function snippet(m: Message): string {
  const text = m.body.replace(/\s+/g, ' ').replace(/^Hi [^,]+, /, '');
  return text.length > 70 ? text.slice(0, 70) + '…' : text;
}

function row(ctx: Ctx, m: Message, back: string, showFolder: boolean): Raw {
  const href = hrefs(ctx);
  const who = m.folder === 'sent' ? `To: ${m.to.map((t) => t.name).join(', ')}` : m.from.name;
  return html`<li class="${m.read ? 'msg' : 'msg unread'}">
<form method="post" action="${href(`/message/${m.id}/star`)}" class="inline">
<input type="hidden" name="return" value="${back}">
<button type="submit" class="star" aria-pressed="${m.starred ? 'true' : 'false'}" aria-label="${m.starred ? 'Unstar' : 'Star'} ${m.subject}">${m.starred ? '★' : '☆'}</button>
</form>
<a href="${href(`/message/${m.id}`)}">${who} — ${m.subject}</a>
<span class="snippet">${snippet(m)}</span>
${showFolder ? html`<span class="tag">${folderLabel(m.folder)}</span>` : ''}
<span class="date">${shortDate(m.date)}</span>
</li>`;
}

export function listPage(ctx: Ctx, req: SiteRequest, title: string, items: Message[], opts: { current?: string; q?: string; notice?: string; basePath: string }): string {
  const href = hrefs(ctx);
  const pages = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
  const page = Math.min(pages, Math.max(1, Math.floor(Number(req.query.get('page') ?? '1')) || 1));
  const shown = items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const back = opts.basePath + (req.query.toString() ? `?${req.query}` : '');
  const q = opts.q ? { q: opts.q } : {};
  return mailPage(
    ctx,
    title,
    html`<h1>${title}</h1>
${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ''}
${items.length ? html`<p class="range">${(page - 1) * PAGE_SIZE + 1}–${(page - 1) * PAGE_SIZE + shown.length} of ${items.length}</p>
<ul class="messages">${shown.map((m) => row(ctx, m, back, !opts.current))}</ul>
<nav class="pager" aria-label="Pages">${page > 1 ? html`<a href="${href(opts.basePath, { ...q, page: page - 1 })}">Newer messages</a>` : ''} ${page < pages ? html`<a href="${href(opts.basePath, { ...q, page: page + 1 })}">Older messages</a>` : ''}</nav>` : html`<p>No messages${opts.q ? ' match your search' : ' here'}.</p>`}`,
    { q: opts.q, current: opts.current },
  );
}

export function messagePage(ctx: Ctx, m: Message, notice?: string): string {
  const href = hrefs(ctx);
  const paras = m.body.split(/\n\n+/).map((p) => html`<p>${p.split('\n').map((line, i) => html`${i ? raw('<br>') : ''}${line}`)}</p>`);
  return mailPage(
    ctx,
    m.subject,
    html`<p><a href="${href(`/folder/${m.folder}`)}">Back to ${folderLabel(m.folder)}</a></p>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<article class="message">
<h1>${m.subject}</h1>
<dl class="headers">
<dt>From</dt><dd>${m.from.name} &lt;${m.from.email}&gt;</dd>
<dt>To</dt><dd>${m.to.map((t) => `${t.name} <${t.email}>`).join(', ')}</dd>
<dt>Date</dt><dd>${longDate(m.date)}</dd>
<dt>Folder</dt><dd>${folderLabel(m.folder)}</dd>
</dl>
<div class="toolbar">
<form method="post" action="${href(`/message/${m.id}/star`)}" class="inline">
<input type="hidden" name="return" value="/message/${m.id}">
<button type="submit" aria-pressed="${m.starred ? 'true' : 'false'}">${m.starred ? 'Unstar' : 'Star'}</button>
</form>
<a class="button" href="${href('/compose', { reply: m.id })}">Reply</a>
<form method="post" action="${href(`/message/${m.id}/move`)}" class="inline">
<label for="move-to">Move to</label>
<select id="move-to" name="folder">${MOVE_TARGETS.filter((f) => f !== m.folder).map((f) => html`<option value="${f}">${folderLabel(f)}</option>`)}</select>
<button type="submit">Move</button>
</form>
</div>
<div class="body">${paras}</div>
</article>`,
    { current: m.folder },
  );
}

export interface ComposeForm {
  to: string;
  subject: string;
  body: string;
  replyTo: string;
  errors: Partial<Record<'to' | 'subject' | 'body', string>>;
}

export function composePage(ctx: Ctx, f: ComposeForm): string {
  const href = hrefs(ctx);
  const errs = Object.values(f.errors);
  const inv = (k: keyof ComposeForm['errors']) => (f.errors[k] ? html` aria-invalid="true" aria-describedby="c-${k}-err"` : '');
  const err = (k: keyof ComposeForm['errors']) => (f.errors[k] ? html`<p class="field-error" id="c-${k}-err">${f.errors[k]}</p>` : '');
  return mailPage(
    ctx,
    f.replyTo ? 'Reply' : 'New message',
    html`<h1>${f.replyTo ? 'Reply' : 'New message'}</h1>
${errs.length ? html`<div class="errors" role="alert"><p>Your message was not sent:</p><ul>${errs.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
<form class="compose" method="post" action="${href('/compose')}" novalidate>
<input type="hidden" name="reply_to" value="${f.replyTo}">
<div class="field"><label for="c-to">To</label><input id="c-to" name="to" type="text" value="${f.to}"${inv('to')}>${err('to')}</div>
<div class="field"><label for="c-subject">Subject</label><input id="c-subject" name="subject" type="text" value="${f.subject}"${inv('subject')}>${err('subject')}</div>
<div class="field"><label for="c-body">Message</label><textarea id="c-body" name="body" rows="10"${inv('body')}>${f.body}</textarea>${err('body')}</div>
<button type="submit" class="primary">Send</button>
<a href="${href('/folder/inbox')}">Discard</a>
</form>`,
  );
}

