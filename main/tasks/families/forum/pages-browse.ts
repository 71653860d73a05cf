/** Forum pages for finding things: the board index, a board's threads, search, members and profiles, followed threads, rules. */
import type { SiteRequest } from '../../types.ts';
import { attr, html, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { boardOf, replyCount, threadPosts, type Board, type Member } from './data.ts';
import { PERIOD_KEYS, SORT_KEYS, paginate, parseThreadQuery, runThreadQuery, type ThreadQuery } from './query.ts';
import { count, forumPage, has, pager, showDate, sideBoxes, threadList, userPath, type Ctx, type Href } from './chrome.ts';
import type { BoardSection, IndexSection } from './look.ts';

/** How many threads the index lists as the latest discussions. */
export const LATEST_COUNT = 6;

export function latestThreads(ctx: Ctx) {
  return runThreadQuery(ctx.state, parseThreadQuery(new URLSearchParams())).slice(0, LATEST_COUNT);
}

function boardRow(ctx: Ctx, href: Href, b: Board): Raw {
  const s = ctx.state;
  const threads = s.threads.filter((t) => t.board === b.slug);
  const posts = threads.reduce((n, t) => n + threadPosts(s, t.id).length, 0);
  const stats = `${count(threads.length, 'threads')} · ${count(posts, 'posts')}`;
  if (s.look.layout === 'table') return html`<tr><td><a href="${href(`/board/${b.slug}`)}">${b.name}</a><br> <span class="meta">${b.blurb}</span></td><td>${stats}</td></tr>`;
  return html`<li${s.look.layout === 'cards' ? html` class="card"` : ''}><a href="${href(`/board/${b.slug}`)}">${b.name}</a> <span class="meta">${b.blurb} ${stats}</span></li>`;
}

export function indexPage(ctx: Ctx, req: SiteRequest): string {
  const s = ctx.state;
  const href = hrefs(ctx);
  const categories = [...new Set(s.boards.map((b) => b.category))];
  const sections: Record<IndexSection, () => Raw> = {
    boards: () =>
      html`${categories.map((c) => {
        const boards = s.boards.filter((b) => b.category === c);
        return html`<section aria-label="${c}"><h2>${c}</h2>${
          s.look.layout === 'table'
            ? html`<table class="cart"><thead><tr><th scope="col">Board</th><th scope="col">Activity</th></tr></thead><tbody>${boards.map((b) => boardRow(ctx, href, b))}</tbody></table>`
            : html`<ul class="${s.look.layout === 'cards' ? 'grid' : 'plain'}">${boards.map((b) => boardRow(ctx, href, b))}</ul>`
        }</section>`;
      })}`,
    latest: () => html`<section aria-label="${s.look.words.latestHeading}"><h2>${s.look.words.latestHeading}</h2><ul class="plain">${latestThreads(ctx).map((t) => html`<li><a href="${href(`/thread/${t.id}`)}">${t.title}</a> in ${boardOf(s, t.board).name}</li>`)}</ul></section>`,
    stats: () => {
      const newest = [...s.members].sort((a, b) => b.joined.localeCompare(a.joined))[0];
      return html`<section class="summary" aria-label="Statistics"><h2>Forum statistics</h2><p>${count(s.threads.length, 'threads')}, ${count(s.posts.length, 'posts')}, ${count(s.members.length, 'members')}. Newest member: <a href="${href(userPath(newest.name))}">${newest.name}</a>.</p></section>`;
    },
    extras: () => sideBoxes(s, href),
  };
  return forumPage(ctx, req, 'Board index', html`<h1>${s.siteName}</h1>${s.look.indexOrder.map((k) => sections[k]())}`);
}

/** The sort and age filters, in the instance's words; `board` adds a board filter (search). */
function filterForm(ctx: Ctx, action: string, q: ThreadQuery, hidden: Record<string, string>, withBoard: boolean): Raw {
  const s = ctx.state;
  const w = s.look.words;
  const sel = (id: string, name: string, label: string, options: Array<{ value: string; label: string }>, cur: string) =>
    html`<label for="${id}">${label}</label><select id="${id}" name="${name}">${options.map((o) => html`<option value="${o.value}"${attr('selected', o.value === cur)}>${o.label}</option>`)}</select>`;
  return html`<form class="filters" method="get" action="${action}" aria-label="Filter threads">
${Object.entries(hidden).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
${withBoard ? sel('f-board', 'board', w.boardFilter, [{ value: '', label: 'All boards' }, ...s.boards.map((b) => ({ value: b.slug, label: b.name }))], q.board) : ''}
${sel('f-period', 'period', w.periodField, PERIOD_KEYS.map((p) => ({ value: p, label: w.periods[p] })), q.period)}
${sel('f-sort', 'sort', w.sortField, SORT_KEYS.map((k) => ({ value: k, label: w.sorts[k] })), q.sort)}
<button type="submit">${w.apply}</button>
</form>`;
}

/** The query string of a listing, without defaults, for pager links. */
function listingQuery(q: ThreadQuery, withSearch: boolean): Record<string, string | undefined> {
  return { ...(withSearch ? { q: q.q, board: q.board } : {}), period: q.period || undefined, sort: q.sort === 'activity' ? undefined : q.sort };
}

export function boardPage(ctx: Ctx, req: SiteRequest, b: Board): string {
  const s = ctx.state;
  const href = hrefs(ctx);
  const q = parseThreadQuery(req.query, b.slug);
  const page = paginate(runThreadQuery(s, q), q.page, s.look.pageSize);
  const sections: Record<BoardSection, () => Raw> = {
    filters: () => filterForm(ctx, href(`/board/${b.slug}`), q, {}, false),
    threads: () =>
      html`<section aria-label="Threads"><p class="count" role="status">${count(page.total, 'threads')}</p>
${page.items.length ? threadList(s, href, page.items, { showBoard: false, pinned: has(s, 'pinned') && page.page === 1 ? `Read this before posting in ${b.name}` : undefined }) : html`<p>No threads match. Try a longer time period.</p>`}
${pager(s, page.page, page.pages, (p) => href(`/board/${b.slug}`, { ...listingQuery(q, false), page: p }))}</section>`,
    extras: () => sideBoxes(s, href, b.slug),
  };
  return forumPage(
    ctx,
    req,
    b.name,
    html`<p class="breadcrumb"><a href="${href('/')}">${s.siteName}</a> › ${b.category} › ${b.name}</p>
<h1>${b.name}</h1>
<p>${b.blurb} <a class="button" href="${href('/new', { board: b.slug })}">${s.look.words.nav.new}</a></p>
${s.look.boardOrder.map((k) => sections[k]())}`,
  );
}

export function searchPage(ctx: Ctx, req: SiteRequest): string {
  const s = ctx.state;
  const href = hrefs(ctx);
  const q = parseThreadQuery(req.query);
  if (q.board && !s.boards.some((b) => b.slug === q.board)) q.board = '';
  const page = paginate(runThreadQuery(s, q), q.page, s.look.pageSize);
  const heading = q.q ? `Search results for “${q.q}”` : 'Search';
  return forumPage(
    ctx,
    req,
    heading,
    html`<h1>${heading}</h1>
${filterForm(ctx, href('/search'), q, { q: q.q }, true)}
<section aria-label="Results"><p class="count" role="status">${count(page.total, 'threads')} found</p>
${page.items.length ? threadList(s, href, page.items, { showBoard: true }) : html`<p>No threads match your search. Try other words or fewer filters.</p>`}
${pager(s, page.page, page.pages, (p) => href('/search', { ...listingQuery(q, true), page: p }))}</section>`,
    q.q,
  );
}

export function membersPage(ctx: Ctx, req: SiteRequest): string {
  const s = ctx.state;
  const href = hrefs(ctx);
  const members = [...s.members].sort((a, b) => a.name.localeCompare(b.name));
  return forumPage(ctx, req, s.look.words.nav.members, html`<h1>${s.look.words.nav.members}</h1><ul class="plain">${members.map((m) => html`<li><a href="${href(userPath(m.name))}">${m.name}</a> <span class="meta">joined ${showDate(s, m.joined)}</span></li>`)}</ul>`);
}

export function profilePage(ctx: Ctx, req: SiteRequest, m: Member): string {
  const s = ctx.state;
  const href = hrefs(ctx);
  const started = s.threads.filter((t) => t.author === m.name).sort((a, b) => b.started.localeCompare(a.started) || b.id - a.id);
  const posts = s.posts.filter((p) => p.author === m.name).reverse();
  const mine = m.name === s.me;
  return forumPage(
    ctx,
    req,
    m.name,
    html`<h1>${m.name}</h1>
<dl class="headers"><dt>Joined</dt><dd>${showDate(s, m.joined)}</dd><dt>Location</dt><dd>${m.location}</dd><dt>Posts</dt><dd>${posts.length}</dd></dl>
${mine && s.digest ? html`<form method="post" action="${href('/digest')}" class="inline"><p>You get the weekly digest by email. <button type="submit">Stop the weekly digest</button></p></form>` : ''}
<h2>Threads started</h2>
${started.length ? html`<ul class="plain">${started.map((t) => html`<li><a href="${href(`/thread/${t.id}`)}">${t.title}</a> in ${boardOf(s, t.board).name}, ${showDate(s, t.started)}</li>`)}</ul>` : html`<p>No threads yet.</p>`}
<h2>Recent posts</h2>
${posts.length ? html`<ul class="plain">${posts.slice(0, 10).map((p) => {
      const t = s.threads.find((x) => x.id === p.thread)!;
      return html`<li>In <a href="${href(`/thread/${t.id}`)}">${t.title}</a>, ${showDate(s, p.date)}: ${p.body.length > 60 ? `${p.body.slice(0, 60)}…` : p.body}</li>`;
    })}</ul>` : html`<p>No posts yet.</p>`}`,
  );
}

export function followingPage(ctx: Ctx, req: SiteRequest): string {
  const s = ctx.state;
  const href = hrefs(ctx);
  const threads = s.threads.filter((t) => s.followed.includes(t.id));
  const title = s.look.words.nav.following;
  return forumPage(ctx, req, title, html`<h1>${title}</h1>${threads.length ? html`<ul class="plain">${threads.map((t) => html`<li><a href="${href(`/thread/${t.id}`)}">${t.title}</a> in ${boardOf(s, t.board).name} · ${count(replyCount(s, t.id), s.look.words.repliesNoun)}</li>`)}</ul>` : html`<p>You do not follow any threads yet.</p>`}`);
}

export function rulesPage(ctx: Ctx, req: SiteRequest): string {
  const title = ctx.state.look.words.nav.rules;
  return forumPage(
    ctx,
    req,
    title,
    html`<h1>${title}</h1>
<ol><li>Be kind. Disagree with ideas, not with people.</li><li>Search before you start a thread; a reply in an old thread beats a duplicate.</li><li>Post in the board that fits the subject.</li><li>No advertising outside the sponsored boxes.</li><li>You can edit your own posts at any time; moderators may edit anyone's.</li></ol>`,
  );
}
