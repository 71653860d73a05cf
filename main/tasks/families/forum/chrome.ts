/**
 * What every forum page shares: the header with search and the signed-in member, navigation in the
 * instance's order and words, the instance's dialog or cookie banner, dates in its style, its
 * distractor boxes, and the thread list in its layout.
 */
import type { InstanceContext, SiteRequest } from '../../types.ts';
import { html, layout, type Raw } from '../common/html.ts';
import { cookieBanner, currentPath, hrefs } from '../common/site.ts';
import { addDays, dayMonthYear } from '../common/dates.ts';
import { boardOf, lastActivity, replyCount, voteCount, type ForumState, type Thread } from './data.ts';
import type { Distractor, NavKey } from './look.ts';

export type Ctx = InstanceContext<ForumState>;
export type Href = ReturnType<typeof hrefs>;

const NAV_PATHS: Record<NavKey, (s: ForumState) => string> = {
  index: () => '/',
  new: () => '/new',
  following: () => '/following',
  members: () => '/members',
  profile: (s) => userPath(s.me),
  rules: () => '/rules',
};

export function userPath(name: string): string {
  return `/user/${encodeURIComponent(name)}`;
}

export function has(s: ForumState, d: Distractor): boolean {
  return s.look.distractors.includes(d);
}

/** A date as this instance prints it: "14 March 2026", "2026-03-14" or "3 days ago". */
export function showDate(s: ForumState, iso: string): string {
  if (s.look.dateStyle === 'iso') return iso;
  if (s.look.dateStyle === 'long') return dayMonthYear(iso);
  const d = daysBefore(s.today, iso);
  return d === 0 ? 'today' : d === 1 ? 'yesterday' : `${d} days ago`;
}

/** Whole days from `iso` to `today` (both plain Y-M-D dates). */
function daysBefore(today: string, iso: string): number {
  const utc = (x: string) => Date.UTC(+x.slice(0, 4), +x.slice(5, 7) - 1, +x.slice(8, 10));
  return Math.round((utc(today) - utc(iso)) / 86_400_000);
}

export function count(n: number, noun: string): string {
  return `${n} ${n === 1 ? noun.replace(/ies$/, 'y').replace(/s$/, '') : noun}`;
}

export function forumPage(ctx: Ctx, req: SiteRequest, title: string, main: Raw, q = ''): string {
  const s = ctx.state;
  const w = s.look.words;
  const href = hrefs(ctx);
  return layout({
    title,
    siteName: s.siteName,
    theme: `theme-forum forum-${s.look.layout}`,
    homeHref: href('/'),
    header: html`<form class="search" role="search" method="get" action="${href('/search')}">
<input type="search" name="q" value="${q}" aria-label="${w.searchBox}" placeholder="${w.searchBox}">
<button type="submit">${w.searchButton}</button>
</form>
<span class="me">Signed in as <a href="${href(userPath(s.me))}">${s.me}</a></span>`,
    nav: html`<ul>${s.look.navOrder.map((k) => html`<li><a href="${href(NAV_PATHS[k](s))}">${k === 'following' ? `${w.nav.following} (${s.followed.length})` : w.nav[k]}</a></li>`)}</ul>`,
    main: html`${has(s, 'announcement') ? announcement(s, href) : ''}${main}`,
    overlay: overlay(ctx, req, href),
  });
}

function overlay(ctx: Ctx, req: SiteRequest, href: Href): Raw | undefined {
  const s = ctx.state;
  const w = s.look.words;
  if (s.look.overlay === 'cookie') return cookieBanner(s.ui, href, currentPath(req));
  if (s.ui.cookiesDismissed) return undefined;
  const body =
    s.look.overlay === 'guidelines'
      ? html`<h2 id="forum-dialog-title">Welcome to ${s.siteName}</h2>
<p>Be kind, stay on topic and search before you post. Moderators remove spam without warning.</p>
<p><a href="${href('/rules')}">Read the full rules</a></p>
<button type="submit" name="choice" value="ok" class="primary">${w.dismiss}</button>`
      : html`<h2 id="forum-dialog-title">Get the weekly digest</h2>
<p>The best threads of the week in your inbox, every Monday morning.</p>
<button type="submit" name="choice" value="join" class="primary">${w.join}</button>
<button type="submit" name="choice" value="dismiss" class="secondary">${w.dismiss}</button>`;
  const inner = html`<div class="modal" role="dialog" aria-labelledby="forum-dialog-title"><form method="post" action="${href('/dialog')}">
<input type="hidden" name="return" value="${currentPath(req)}">
${body}
</form></div>`;
  return html`<div class="modal-backdrop">${inner}</div>`;
}

function announcement(s: ForumState, href: Href): Raw {
  return html`<aside class="notice" aria-label="Announcement"><p>Announcement: the forum will be read-only for maintenance on ${showDate(s, addDays(s.today, 3))}. <a href="${href('/rules')}">What changes for posting</a></p></aside>`;
}

/** The board an advert sends people to: the next board after `current` in the index. */
function otherBoard(s: ForumState, current: string) {
  const i = s.boards.findIndex((b) => b.slug === current);
  return s.boards[(i + 1) % s.boards.length];
}

/** Distractor boxes for index and board pages: an advert for another board, trending threads elsewhere. */
export function sideBoxes(s: ForumState, href: Href, current = ''): Raw {
  const ad = otherBoard(s, current);
  const trending = [...s.threads]
    .filter((t) => t.board !== current)
    .sort((a, b) => voteCount(s, b) - voteCount(s, a) || a.id - b.id)
    .slice(0, 3);
  return html`${has(s, 'ad') ? html`<aside class="summary" aria-label="Sponsored"><p>Sponsored · Our ${ad.name} regulars are swapping tips on ${ad.subjects[0]}s this week.</p><p><a href="${href(`/board/${ad.slug}`)}">Visit the ${ad.name} board</a></p></aside>` : ''}
${has(s, 'trending') ? html`<aside class="summary" aria-label="Trending"><h2>Trending elsewhere</h2><ul>${trending.map((t) => html`<li><a href="${href(`/thread/${t.id}`)}">${t.title}</a> (${count(voteCount(s, t), s.look.words.votesNoun)})</li>`)}</ul></aside>` : ''}`;
}

/** Threads like this one on other boards: same title pattern, so they look relevant and are not. */
export function relatedBox(s: ForumState, href: Href, t: Thread): Raw {
  if (!has(s, 'related')) return html``;
  const like = s.threads.filter((x) => x.id !== t.id && x.board !== t.board && x.pattern === t.pattern).slice(0, 3);
  if (!like.length) return html``;
  return html`<aside class="summary" aria-label="Related threads"><h2>Related threads</h2><ul>${like.map((x) => html`<li><a href="${href(`/thread/${x.id}`)}">${x.title}</a> in ${boardOf(s, x.board).name}</li>`)}</ul></aside>`;
}

/** A board's or a search's threads, in the instance's layout; `showBoard` adds each thread's board. */
export function threadList(s: ForumState, href: Href, threads: Thread[], opts: { showBoard: boolean; pinned?: string }): Raw {
  const w = s.look.words;
  const author = (t: Thread) => html`<a href="${href(userPath(t.author))}">${t.author}</a>`;
  const board = (t: Thread) => (opts.showBoard ? html` in ${boardOf(s, t.board).name}` : '');
  const last = (t: Thread) => showDate(s, lastActivity(s, t.id).slice(0, 10));
  const pinned = opts.pinned ? html`<a href="${href('/rules')}">${opts.pinned}</a>` : undefined;
  if (s.look.layout === 'table') {
    const cap = (x: string) => x[0].toUpperCase() + x.slice(1);
    return html`<table class="cart threads"><thead><tr><th scope="col">Thread</th><th scope="col">${w.startedBy}</th><th scope="col">${cap(w.repliesNoun)}</th><th scope="col">${cap(w.votesNoun)}</th><th scope="col">Last post</th></tr></thead><tbody>
${pinned ? html`<tr><td colspan="5">Pinned: ${pinned}</td></tr>` : ''}
${threads.map((t) => html`<tr><td><a href="${href(`/thread/${t.id}`)}">${t.title}</a>${board(t)}</td><td>${author(t)}, ${showDate(s, t.started)}</td><td>${replyCount(s, t.id)}</td><td>${voteCount(s, t)}</td><td>${last(t)}</td></tr>`)}
</tbody></table>`;
  }
  if (s.look.layout === 'cards') {
    return html`<ul class="grid threads">${pinned ? html`<li class="card"><h3>Pinned: ${pinned}</h3></li>` : ''}${threads.map(
      (t) => html`<li class="card"><h3><a href="${href(`/thread/${t.id}`)}">${t.title}</a></h3>
<p class="meta">${w.startedBy} ${author(t)}${board(t)}, ${showDate(s, t.started)}</p>
<p class="meta">${count(replyCount(s, t.id), w.repliesNoun)} · ${count(voteCount(s, t), w.votesNoun)} · last post ${last(t)}</p></li>`,
    )}</ul>`;
  }
  return html`<ul class="results threads">${pinned ? html`<li>Pinned: ${pinned}</li>` : ''}${threads.map(
    (t) => html`<li><a href="${href(`/thread/${t.id}`)}">${t.title}</a>${board(t)} <span class="meta">${w.startedBy.toLowerCase()} ${author(t)} ${showDate(s, t.started)} · ${count(replyCount(s, t.id), w.repliesNoun)} · ${count(voteCount(s, t), w.votesNoun)}</span></li>`,
  )}</ul>`;
}

/** Previous/next links in the instance's words. */
export function pager(s: ForumState, page: number, pages: number, link: (p: number) => string): Raw {
  if (pages <= 1) return html``;
  const w = s.look.words;
  return html`<nav class="pager" aria-label="Pagination">${page > 1 ? html`<a href="${link(page - 1)}">${w.previous}</a>` : ''} <span>Page ${page} of ${pages}</span> ${page < pages ? html`<a href="${link(page + 1)}">${w.next}</a>` : ''}</nav>`;
}

/** A form's error summary and a field's error, wired to the field by aria-describedby. */
export function errorSummary(errors: Record<string, string | undefined>): Raw {
  const list = Object.values(errors).filter(Boolean);
  return list.length ? html`<div class="errors" role="alert"><p>Please correct the following:</p><ul>${list.map((e) => html`<li>${e}</li>`)}</ul></div>` : html``;
}

export function fieldError(id: string, error: string | undefined): { attrs: Raw; note: Raw } {
  return error ? { attrs: html` aria-invalid="true" aria-describedby="${id}-err"`, note: html`<p class="field-error" id="${id}-err">${error}</p>` } : { attrs: html``, note: html`` };
}
