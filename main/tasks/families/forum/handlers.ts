/** Routes of the forum: reading pages (GET); the dialog, replies, follows, votes, new threads and edits (POST, then redirect). */
import type { SiteRequest, SiteResponse } from '../../types.ts';
import { handleCookies, safeReturn } from '../common/site.ts';
import type { Post } from './data.ts';
import { forbiddenPage, editPage, lastPage, newThreadPage, postPage, threadPage, type NewThreadForm } from './pages-thread.ts';
import { boardPage, followingPage, indexPage, membersPage, profilePage, rulesPage, searchPage } from './pages-browse.ts';
import type { Ctx } from './chrome.ts';

const page = (body: string, status?: number): SiteResponse => ({ kind: 'html', body, ...(status ? { status } : {}) });
export const MIN_POST = 10;
export const MAX_POST = 2000;
export const MIN_TITLE = 5;
export const MAX_TITLE = 100;

/** Why a post body is refused, or undefined when it is fine. */
export function postError(body: string): string | undefined {
  if (!body) return 'Write something before posting.';
  if (body.length < MIN_POST) return `Posts must be at least ${MIN_POST} characters long.`;
  if (body.length > MAX_POST) return `Posts can be at most ${MAX_POST.toLocaleString('en-US')} characters long.`;
  return undefined;
}

/** New posts are stamped this evening, one minute apart, after every generated post (which end at 21:00). */
function stamp(ctx: Ctx): { date: string; time: string } {
  const n = ctx.state.posts.filter((p) => p.id > ctx.state.initial.lastPost).length;
  const m = 21 * 60 + 1 + Math.min(n, 170);
  return { date: ctx.state.today, time: `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}` };
}

function addPost(ctx: Ctx, thread: number, body: string): Post {
  const s = ctx.state;
  const post: Post = { id: Math.max(...s.posts.map((p) => p.id)) + 1, thread, author: s.me, ...stamp(ctx), body, edited: false };
  s.posts.push(post);
  return post;
}

const NOTICES: Record<string, (ctx: Ctx) => string> = {
  posted: () => 'Your reply was posted.',
  created: () => 'Your thread was created.',
  edited: () => 'Your post was updated.',
  followed: (ctx) => `Thread added to your ${ctx.state.look.words.nav.following.toLowerCase()}.`,
  unfollowed: (ctx) => `Thread removed from your ${ctx.state.look.words.nav.following.toLowerCase()}.`,
  voted: () => 'Thanks, your vote was counted.',
  unvoted: () => 'Your vote was withdrawn.',
};

export function handleForum(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const { path } = req;
  const tm = path.match(/^\/thread\/(\d+)(\/reply|\/follow|\/upvote)?$/);
  const thread = tm ? s.threads.find((t) => t.id === Number(tm[1])) : undefined;
  if (tm && !thread) return { kind: 'not_found' };
  const pm = path.match(/^\/post\/(\d+)\/edit$/);
  const post = pm ? s.posts.find((p) => p.id === Number(pm[1])) : undefined;
  if (pm && !post) return { kind: 'not_found' };
  const bm = path.match(/^\/board\/([a-z0-9-]+)$/);
  const board = bm ? s.boards.find((b) => b.slug === bm[1]) : undefined;
  if (bm && !board) return { kind: 'not_found' };

  if (req.method === 'GET') {
    if (path === '/') return page(indexPage(ctx, req));
    if (board) return page(boardPage(ctx, req, board));
    if (thread && !tm![2]) {
      const notice = NOTICES[req.query.get('done') ?? '']?.(ctx);
      return page(threadPage(ctx, req, thread, { page: Number(req.query.get('page') ?? '1') || 1, notice }));
    }
    if (path === '/search') return page(searchPage(ctx, req));
    if (path === '/new') {
      const b = s.boards.some((x) => x.slug === req.query.get('board')) ? req.query.get('board')! : '';
      return page(newThreadPage(ctx, req, { title: '', board: b, body: '', errors: {} }));
    }
    if (post) return post.author === s.me ? page(editPage(ctx, req, post, { body: post.body })) : page(forbiddenPage(ctx, req), 403);
    if (path === '/members') return page(membersPage(ctx, req));
    if (path === '/following') return page(followingPage(ctx, req));
    if (path === '/rules') return page(rulesPage(ctx, req));
    const um = path.match(/^\/user\/([^/]+)$/);
    if (um) {
      let name = '';
      try {
        name = decodeURIComponent(um[1]);
      } catch {
        return { kind: 'not_found' };
      }
      const m = s.members.find((x) => x.name === name);
      return m ? page(profilePage(ctx, req, m)) : { kind: 'not_found' };
    }
    return { kind: 'not_found' };
  }

  if (path === '/cookies') return handleCookies(req, s.ui);
  if (path === '/dialog') {
    s.ui.cookiesDismissed = true;
    if (s.look.overlay === 'digest' && req.form.get('choice') === 'join') s.digest = true;
    return { kind: 'redirect', location: safeReturn(req.form.get('return')) };
  }
  if (path === '/digest') {
    s.digest = false;
    return { kind: 'redirect', location: '/user/' + encodeURIComponent(s.me) };
  }
  const back = (t: number, p: number, done: string) => ({ kind: 'redirect' as const, location: `/thread/${t}?page=${p}&done=${done}` });
  const formPage = Math.max(1, Math.floor(Number(req.form.get('page') ?? '1')) || 1);
  if (thread && tm![2] === '/follow') {
    const was = s.followed.includes(thread.id);
    s.followed = was ? s.followed.filter((x) => x !== thread.id) : [...s.followed, thread.id];
    return back(thread.id, formPage, was ? 'unfollowed' : 'followed');
  }
  if (thread && tm![2] === '/upvote') {
    const was = s.upvoted.includes(thread.id);
    s.upvoted = was ? s.upvoted.filter((x) => x !== thread.id) : [...s.upvoted, thread.id];
    return back(thread.id, formPage, was ? 'unvoted' : 'voted');
  }
  if (thread && tm![2] === '/reply') {
    const body = (req.form.get('body') ?? '').trim();
    const error = postError(body);
    if (error) return page(threadPage(ctx, req, thread, { page: formPage, form: { body, error } }));
    addPost(ctx, thread.id, body);
    return back(thread.id, lastPage(ctx, thread.id), 'posted');
  }
  if (path === '/new') {
    const g = (k: string) => (req.form.get(k) ?? '').trim();
    const f: NewThreadForm = { title: g('title'), board: g('board'), body: g('body'), errors: {} };
    if (!f.title) f.errors.title = 'Give your thread a title.';
    else if (f.title.length < MIN_TITLE) f.errors.title = `Titles must be at least ${MIN_TITLE} characters long.`;
    else if (f.title.length > MAX_TITLE) f.errors.title = `Titles can be at most ${MAX_TITLE} characters long.`;
    else if (s.threads.some((t) => t.board === f.board && t.title.toLowerCase() === f.title.toLowerCase())) f.errors.title = 'A thread with this title already exists on that board; reply there instead.';
    if (!s.boards.some((b) => b.slug === f.board)) {
      f.errors.board = 'Choose a board to post in.';
      f.board = '';
    }
    const bodyError = postError(f.body);
    if (bodyError) f.errors.body = bodyError;
    if (Object.keys(f.errors).length) return page(newThreadPage(ctx, req, f));
    const id = Math.max(...s.threads.map((t) => t.id)) + 1;
    s.threads.push({ id, board: f.board, title: f.title, subject: '', pattern: -1, author: s.me, started: s.today, votes: 0 });
    addPost(ctx, id, f.body);
    return back(id, 1, 'created');
  }
  if (post) {
    if (post.author !== s.me) return page(forbiddenPage(ctx, req), 403);
    const body = (req.form.get('body') ?? '').trim();
    const error = postError(body);
    if (error) return page(editPage(ctx, req, post, { body, error }));
    if (body !== post.body) {
      post.body = body;
      post.edited = true;
    }
    return back(post.thread, postPage(ctx, post.thread, post.id), 'edited');
  }
  return { kind: 'not_found' };
}
