/** Forum pages for taking part: a thread with its posts and reply form, the new-thread form, the edit form. */
import type { SiteRequest } from '../../types.ts';
import { attr, html, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { boardOf, replyCount, threadPosts, voteCount, type Post, type Thread } from './data.ts';
import { paginate } from './query.ts';
import { count, errorSummary, fieldError, forumPage, pager, relatedBox, showDate, userPath, type Ctx, type Href } from './chrome.ts';

/** Posts per page of a thread. */
export const POSTS_PER_PAGE = 10;

export interface PostForm {
  body: string;
  error?: string;
}

export function postPage(ctx: Ctx, threadId: number, postId: number): number {
  const i = threadPosts(ctx.state, threadId).findIndex((p) => p.id === postId);
  return Math.floor(Math.max(0, i) / POSTS_PER_PAGE) + 1;
}

export function lastPage(ctx: Ctx, threadId: number): number {
  return Math.max(1, Math.ceil(threadPosts(ctx.state, threadId).length / POSTS_PER_PAGE));
}

function postView(ctx: Ctx, href: Href, p: Post, first: boolean): Raw {
  const s = ctx.state;
  const w = s.look.words;
  const who = html`<a href="${href(userPath(p.author))}">${p.author}</a>`;
  const when = html`${showDate(s, p.date)} at ${p.time}${p.edited ? ' (edited)' : ''}`;
  const edit = p.author === s.me ? html`<a href="${href(`/post/${p.id}/edit`)}">${w.edit}</a>` : '';
  const label = first ? 'Opening post' : 'Reply';
  if (s.look.layout === 'table') return html`<tr id="post-${p.id}"><th scope="row">${who}<br><span class="meta">${when}</span></th><td><p>${p.body}</p>${edit ? html`<p>${edit}</p>` : ''}</td></tr>`;
  return html`<li id="post-${p.id}"${s.look.layout === 'cards' ? html` class="card"` : ''}><article aria-label="${label} by ${p.author}"><p class="meta">${who} · ${when}</p><p>${p.body}</p>${edit ? html`<p>${edit}</p>` : ''}</article></li>`;
}

export function threadPage(ctx: Ctx, req: SiteRequest, t: Thread, opts: { page: number; form?: PostForm; notice?: string }): string {
  const s = ctx.state;
  const w = s.look.words;
  const href = hrefs(ctx);
  const b = boardOf(s, t.board);
  const all = threadPosts(s, t.id);
  const page = paginate(all, opts.page, POSTS_PER_PAGE);
  const firstId = all[0].id;
  const followed = s.followed.includes(t.id);
  const voted = s.upvoted.includes(t.id);
  const actions = html`<div class="toolbar" aria-label="Thread actions">
<form method="post" action="${href(`/thread/${t.id}/follow`)}" class="inline"><input type="hidden" name="page" value="${page.page}"><button type="submit" aria-pressed="${followed ? 'true' : 'false'}">${followed ? w.unfollow : w.follow}</button></form>
<form method="post" action="${href(`/thread/${t.id}/upvote`)}" class="inline"><input type="hidden" name="page" value="${page.page}"><button type="submit" aria-pressed="${voted ? 'true' : 'false'}">${voted ? w.unvote : w.upvote}</button></form>
</div>`;
  const posts =
    s.look.layout === 'table'
      ? html`<table class="cart posts"><tbody>${page.items.map((p) => postView(ctx, href, p, p.id === firstId))}</tbody></table>`
      : html`<ol class="${s.look.layout === 'cards' ? 'plain' : 'messages'} posts">${page.items.map((p) => postView(ctx, href, p, p.id === firstId))}</ol>`;
  const f = opts.form ?? { body: '' };
  const err = fieldError('reply-body', f.error);
  const form = html`<section class="reserve" aria-label="${w.replyButton}">
${errorSummary({ body: f.error })}
<form method="post" action="${href(`/thread/${t.id}/reply`)}" novalidate>
<input type="hidden" name="page" value="${page.page}">
<div class="field"><label for="reply-body">${w.replyBox}</label><textarea id="reply-body" name="body" rows="5"${err.attrs}>${f.body}</textarea>${err.note}</div>
<button type="submit" class="primary">${w.replyButton}</button>
</form></section>`;
  return forumPage(
    ctx,
    req,
    t.title,
    html`<p class="breadcrumb"><a href="${href('/')}">${s.siteName}</a> › <a href="${href(`/board/${b.slug}`)}">${b.name}</a></p>
<h1>${t.title}</h1>
<p class="meta">${w.startedBy} <a href="${href(userPath(t.author))}">${t.author}</a>, ${showDate(s, t.started)} · ${count(replyCount(s, t.id), w.repliesNoun)} · ${count(voteCount(s, t), w.votesNoun)}</p>
${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ''}
${s.look.actionsFirst ? actions : ''}
${posts}
${pager(s, page.page, page.pages, (p) => href(`/thread/${t.id}`, { page: p }))}
${s.look.actionsFirst ? '' : actions}
${form}
${relatedBox(s, href, t)}`,
  );
}

export interface NewThreadForm {
  title: string;
  board: string;
  body: string;
  errors: Partial<Record<'title' | 'board' | 'body', string>>;
}

export function newThreadPage(ctx: Ctx, req: SiteRequest, f: NewThreadForm): string {
  const s = ctx.state;
  const w = s.look.words;
  const href = hrefs(ctx);
  const e = { title: fieldError('nt-title', f.errors.title), board: fieldError('nt-board', f.errors.board), body: fieldError('nt-body', f.errors.body) };
  return forumPage(
    ctx,
    req,
    w.nav.new,
    html`<h1>${w.nav.new}</h1>
${errorSummary(f.errors)}
<form class="booking" method="post" action="${href('/new')}" novalidate>
<div class="field"><label for="nt-title">${w.titleField}</label><input id="nt-title" type="text" name="title" value="${f.title}"${e.title.attrs}>${e.title.note}</div>
<div class="field"><label for="nt-board">${w.boardField}</label><select id="nt-board" name="board"${e.board.attrs}><option value="">Choose a board</option>${s.boards.map((b) => html`<option value="${b.slug}"${attr('selected', b.slug === f.board)}>${b.name}</option>`)}</select>${e.board.note}</div>
<div class="field"><label for="nt-body">${w.bodyField}</label><textarea id="nt-body" name="body" rows="8"${e.body.attrs}>${f.body}</textarea>${e.body.note}</div>
<button type="submit" class="primary">${w.createButton}</button>
</form>`,
  );
}

export function editPage(ctx: Ctx, req: SiteRequest, p: Post, f: PostForm): string {
  const s = ctx.state;
  const w = s.look.words;
  const href = hrefs(ctx);
  const t = s.threads.find((x) => x.id === p.thread)!;
  const err = fieldError('edit-body', f.error);
  return forumPage(
    ctx,
    req,
    `Edit post in ${t.title}`,
    html`<p><a href="${href(`/thread/${t.id}`, { page: postPage(ctx, t.id, p.id) })}">Back to “${t.title}”</a></p>
<h1>Edit your post</h1>
${errorSummary({ body: f.error })}
<form class="booking" method="post" action="${href(`/post/${p.id}/edit`)}" novalidate>
<div class="field"><label for="edit-body">${w.editField}</label><textarea id="edit-body" name="body" rows="8"${err.attrs}>${f.body}</textarea>${err.note}</div>
<button type="submit" class="primary">${w.saveEdit}</button>
</form>`,
  );
}

export function forbiddenPage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  return forumPage(ctx, req, 'Not allowed', html`<h1>Not allowed</h1><p class="errors" role="alert">You can only edit your own posts.</p><p><a href="${href('/')}">Back to the board index</a></p>`);
}
