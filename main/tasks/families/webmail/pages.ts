/**
 * Webmail pages: folder and search listings (rows, a table or cards, with the distractor boxes in
 * the variant's order), a message with its toolbar, and the compose form. Every label comes from
 * the instance's words (variant.ts).
 */
import type { SiteRequest } from '../../types.ts';
import { html, raw, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { MOVE_TARGETS, type Message } from './data.ts';
import { PAGE_SIZE } from './task.ts';
import { listDate, longDate, mailPage, type Ctx } from './chrome.ts';
import { appBox, storageBox } from './distractors.ts';
import { fill, folderName, messageLinkName, starToggleName, type ComposeField, type HeaderKey, type ListSection, type ToolKey } from './variant.ts';

export type { Ctx } from './chrome.ts';

function snippet(m: Message): string {
  const text = m.body.replace(/\s+/g, ' ').replace(/^Hi [^,]+, /, '');
  return text.length > 70 ? text.slice(0, 70) + '…' : text;
}

/** What a listing shows of one message, whichever way it is laid out. */
interface RowParts {
  star: Raw;
  link: Raw;
  snippet: string;
  folder: string;
  date: string;
  unread: boolean;
}

function rowParts(ctx: Ctx, m: Message, back: string, showFolder: boolean): RowParts {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  const who = m.folder === 'sent' ? `To: ${m.to.map((t) => t.name).join(', ')}` : m.from.name;
  return {
    star: html`<form method="post" action="${href(`/message/${m.id}/star`)}" class="inline">
<input type="hidden" name="return" value="${back}">
<button type="submit" class="star" aria-pressed="${m.starred ? 'true' : 'false'}" aria-label="${starToggleName(v, m.starred, m.subject)}">${m.starred ? '★' : '☆'}</button>
</form>`,
    link: html`<a href="${href(`/message/${m.id}`)}">${messageLinkName(v, who, m.subject)}</a>`,
    snippet: snippet(m),
    folder: showFolder ? folderName(v, m.folder) : '',
    date: listDate(v, m.date),
    unread: !m.read,
  };
}

/** The messages in the variant's layout: the original rows, a table, or cards. */
function messageList(ctx: Ctx, rows: RowParts[]): Raw {
  const v = ctx.state.variant;
  const tag = (r: RowParts) => (r.folder ? html`<span class="tag">${r.folder}</span>` : '');
  if (v.listView === 'table') {
    return html`<table class="mail-table"><thead><tr><th scope="col"><span class="sr-only">${v.mark.starred}</span></th><th scope="col">${v.words.headerFrom} / ${v.words.subject}</th><th scope="col">Preview</th><th scope="col">${v.words.headerDate}</th></tr></thead>
<tbody>${rows.map((r) => html`<tr${r.unread ? raw(' class="unread"') : ''}><td>${r.star}</td><td>${r.link}${tag(r)}</td><td class="snippet">${r.snippet}</td><td class="date">${r.date}</td></tr>`)}</tbody></table>`;
  }
  if (v.listView === 'cards') {
    return html`<ul class="mail-cards">${rows.map((r) => html`<li class="${r.unread ? 'mail-card unread' : 'mail-card'}">${r.link}<p class="snippet">${r.snippet}</p><p class="meta">${r.star} ${r.date} ${tag(r)}</p></li>`)}</ul>`;
  }
  return html`<ul class="messages">${rows.map(
    (r) => html`<li class="${r.unread ? 'msg unread' : 'msg'}">
${r.star}
${r.link}
<span class="snippet">${r.snippet}</span>
${tag(r)}
<span class="date">${r.date}</span>
</li>`,
  )}</ul>`;
}

export function listPage(ctx: Ctx, req: SiteRequest, title: string, items: Message[], opts: { current?: string; q?: string; notice?: string; basePath: string }): string {
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  const pages = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
  const page = Math.min(pages, Math.max(1, Math.floor(Number(req.query.get('page') ?? '1')) || 1));
  const shown = items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const back = opts.basePath + (req.query.toString() ? `?${req.query}` : '');
  const q = opts.q ? { q: opts.q } : {};
  const range = fill(w.range, { from: (page - 1) * PAGE_SIZE + 1, to: (page - 1) * PAGE_SIZE + shown.length, total: items.length });
  const messages = items.length
    ? html`<p class="range">${range}</p>
${messageList(ctx, shown.map((m) => rowParts(ctx, m, back, !opts.current)))}
<nav class="pager" aria-label="Pages">${page > 1 ? html`<a href="${href(opts.basePath, { ...q, page: page - 1 })}">${w.newer}</a>` : ''} ${page < pages ? html`<a href="${href(opts.basePath, { ...q, page: page + 1 })}">${w.older}</a>` : ''}</nav>`
    : html`<p>${opts.q ? w.noMatch : w.empty}</p>`;
  const sections: Record<ListSection, () => Raw> = { messages: () => messages, storage: () => storageBox(ctx), app: () => appBox(ctx) };
  return mailPage(
    ctx,
    title,
    html`<h1>${title}</h1>
${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ''}
${ctx.state.variant.listSections.map((k) => sections[k]())}`,
    { q: opts.q, current: opts.current },
  );
}

/** The message's header lines, in the variant's order. */
function headerLines(ctx: Ctx, m: Message): Raw {
  const v = ctx.state.variant;
  const w = v.words;
  const line: Record<HeaderKey, [string, string]> = {
    from: [w.headerFrom, `${m.from.name} <${m.from.email}>`],
    to: [w.headerTo, m.to.map((t) => `${t.name} <${t.email}>`).join(', ')],
    date: [w.headerDate, longDate(m.date)],
    folder: [w.headerFolder, folderName(v, m.folder)],
  };
  return html`<dl class="headers">${v.headers.map((k) => html`<dt>${line[k][0]}</dt><dd>${line[k][1]}</dd>`)}</dl>`;
}

/** Star, reply and move, in the variant's order. */
function toolbar(ctx: Ctx, m: Message): Raw {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  const w = v.words;
  const tools: Record<ToolKey, () => Raw> = {
    star: () => html`<form method="post" action="${href(`/message/${m.id}/star`)}" class="inline">
<input type="hidden" name="return" value="/message/${m.id}">
<button type="submit" aria-pressed="${m.starred ? 'true' : 'false'}">${m.starred ? v.mark.unstar : v.mark.star}</button>
</form>`,
    reply: () => html`<a class="button" href="${href('/compose', { reply: m.id })}">${w.reply}</a>`,
    move: () => html`<form method="post" action="${href(`/message/${m.id}/move`)}" class="inline">
<label for="move-to">${w.moveTo}</label>
<select id="move-to" name="folder">${MOVE_TARGETS.filter((f) => f !== m.folder).map((f) => html`<option value="${f}">${folderName(v, f)}</option>`)}</select>
<button type="submit">${w.move}</button>
</form>`,
  };
  return html`<div class="toolbar">${v.tools.map((k) => tools[k]())}</div>`;
}

export function messagePage(ctx: Ctx, m: Message, notice?: string): string {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  const paras = m.body.split(/\n\n+/).map((p) => html`<p>${p.split('\n').map((line, i) => html`${i ? raw('<br>') : ''}${line}`)}</p>`);
  return mailPage(
    ctx,
    m.subject,
    html`<p><a href="${href(`/folder/${m.folder}`)}">${fill(v.words.backTo, { folder: folderName(v, m.folder) })}</a></p>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<article class="message">
<h1>${m.subject}</h1>
${headerLines(ctx, m)}
${toolbar(ctx, m)}
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
  const w = ctx.state.variant.words;
  const errs = Object.values(f.errors);
  const inv = (k: keyof ComposeForm['errors']) => (f.errors[k] ? html` aria-invalid="true" aria-describedby="c-${k}-err"` : '');
  const err = (k: keyof ComposeForm['errors']) => (f.errors[k] ? html`<p class="field-error" id="c-${k}-err">${f.errors[k]}</p>` : '');
  const fields: Record<ComposeField, () => Raw> = {
    to: () => html`<div class="field"><label for="c-to">${w.to}</label><input id="c-to" name="to" type="text" value="${f.to}"${inv('to')}>${err('to')}</div>`,
    subject: () => html`<div class="field"><label for="c-subject">${w.subject}</label><input id="c-subject" name="subject" type="text" value="${f.subject}"${inv('subject')}>${err('subject')}</div>`,
    body: () => html`<div class="field"><label for="c-body">${w.body}</label><textarea id="c-body" name="body" rows="10"${inv('body')}>${f.body}</textarea>${err('body')}</div>`,
  };
  const title = f.replyTo ? w.replyTitle : w.composeTitle;
  return mailPage(
    ctx,
    title,
    html`<h1>${title}</h1>
${errs.length ? html`<div class="errors" role="alert"><p>${w.notSent}</p><ul>${errs.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
<form class="compose" method="post" action="${href('/compose')}" novalidate>
<input type="hidden" name="reply_to" value="${f.replyTo}">
${ctx.state.variant.composeFields.map((k) => fields[k]())}
<button type="submit" class="primary">${w.send}</button>
<a href="${href('/folder/inbox')}">${w.discard}</a>
</form>`,
  );
}
