/** Judges a forum instance from the site's state (and, for questions, the agent's messages). */
import type { CheckResult, KeyPoint } from '../../types.ts';
import { answerMatches, normalizeText, sameText } from '../../../common/normalize.ts';
import { boardOf, type ForumState, type Post } from './data.ts';
import type { Ctx } from './chrome.ts';

/** Posts the member wrote during the episode (every generated post has a lower id). */
export function newPosts(s: ForumState): Post[] {
  return s.posts.filter((p) => p.id > s.initial.lastPost);
}

export function newThreads(s: ForumState) {
  return s.threads.filter((t) => t.id > s.initial.lastThread);
}

const says = (body: string, text: string) => normalizeText(body).includes(normalizeText(text));

/** The episode's reply in `thread` that best meets `ok`, if any. */
export function replyIn(s: ForumState, thread: number, ok: (p: Post) => boolean): Post | undefined {
  const mine = newPosts(s).filter((p) => p.thread === thread);
  return mine.find(ok) ?? mine[0];
}

/** Follows and votes that differ from the start, apart from those the goal asks for. */
function strayToggles(s: ForumState, goalFollow: number, goalVote: number): string[] {
  const diff = (now: number[], was: number[], goal: number) => [...now.filter((x) => !was.includes(x) && x !== goal), ...was.filter((x) => !now.includes(x))];
  const name = (id: number) => s.threads.find((t) => t.id === id)?.title ?? String(id);
  return [...diff(s.followed, s.initial.followed, goalFollow).map((id) => `follow: ${name(id)}`), ...diff(s.upvoted, s.initial.upvoted, goalVote).map((id) => `vote: ${name(id)}`)];
}

export function checkForum(ctx: Ctx): CheckResult {
  const s = ctx.state;
  const g = s.goal;
  const kp: KeyPoint[] = [];
  const point = (name: string, met: boolean, detail?: string) => kp.push({ name, met, ...(detail ? { detail } : {}) });
  const title = (id: number) => s.threads.find((t) => t.id === id)!.title;
  /** The episode's own posts that the goal accounts for; any other is a side effect. */
  const expected = new Set<number>();
  let goalFollow = -1;
  let goalVote = -1;
  let goalEdit = -1;

  if (g.kind === 'starter' || g.kind === 'replies') {
    point('answer sent', ctx.agentMessages.length > 0);
    point(g.kind === 'starter' ? 'correct starter' : 'correct reply count', ctx.agentMessages.some((m) => answerMatches(g.answer, m)), ctx.agentMessages.at(-1));
  } else if (g.kind === 'follow') {
    goalFollow = g.thread;
    point(`followed "${title(g.thread)}"`, s.followed.includes(g.thread));
  } else if (g.kind === 'upvote') {
    goalVote = g.thread;
    point(`upvoted "${title(g.thread)}"`, s.upvoted.includes(g.thread));
  } else if (g.kind === 'reply') {
    const r = replyIn(s, g.thread, (p) => says(p.body, g.text));
    if (r) expected.add(r.id);
    point(`replied in "${title(g.thread)}"`, !!r, r ? undefined : 'no reply in that thread');
    point('reply says the requested text', !!r && says(r.body, g.text), r?.body.slice(0, 80));
  } else if (g.kind === 'new-thread') {
    const made = newThreads(s);
    const t = made.find((x) => sameText(x.title, g.title) && x.board === g.board) ?? made.find((x) => sameText(x.title, g.title)) ?? made[0];
    const first = t ? s.posts.find((p) => p.thread === t.id) : undefined;
    if (first) expected.add(first.id);
    point('thread started', !!t, t ? undefined : 'no new thread');
    point(`board ${boardOf(s, g.board).name}`, t?.board === g.board, t ? boardOf(s, t.board)?.name : undefined);
    point('title', !!t && sameText(t.title, g.title), t?.title);
    point('message', !!first && says(first.body, g.text), first?.body.slice(0, 80));
    point('no other threads', made.length <= 1, made.length > 1 ? `${made.length} threads` : undefined);
  } else if (g.kind === 'edit') {
    goalEdit = g.post;
    const p = s.posts.find((x) => x.id === g.post)!;
    point(`edited the reply in "${title(g.thread)}"`, normalizeText(p.body) === normalizeText(g.text), p.body.slice(0, 80));
  } else {
    goalFollow = g.thread;
    if (g.upvote) goalVote = g.thread;
    const r = replyIn(s, g.thread, (p) => answerMatches(g.quote, p.body));
    if (r) expected.add(r.id);
    const wrong = newPosts(s).find((p) => p.thread !== g.thread);
    point(`replied in "${title(g.thread)}"`, !!r, r ? undefined : wrong ? `replied in "${title(wrong.thread)}" instead` : 'no reply');
    point(`reply quotes the ${g.label}`, !!r && answerMatches(g.quote, r.body), r?.body.slice(0, 80));
    point('followed the thread', s.followed.includes(g.thread));
    if (g.upvote) point('upvoted the thread', s.upvoted.includes(g.thread));
  }

  // Side effects: posts the goal does not account for, other follows and votes, other edits, the digest.
  const extra = newPosts(s).filter((p) => !expected.has(p.id));
  point('no other posts', extra.length === 0, extra.length ? extra.map((p) => `in "${title(p.thread)}"`).join('; ') : undefined);
  const toggles = strayToggles(s, goalFollow, goalVote);
  point('no other follows or votes changed', toggles.length === 0, toggles.join('; ') || undefined);
  const edited = s.posts.filter((p) => p.id in s.initial.bodies && p.id !== goalEdit && p.body !== s.initial.bodies[p.id]);
  point('no other posts edited', edited.length === 0, edited.map((p) => `in "${title(p.thread)}"`).join('; ') || undefined);
  if (s.look.overlay === 'digest') point('not signed up for the digest', !s.digest);
  return { success: kp.every((k) => k.met), keyPoints: kp };
}
