/**
 * Forum data: boards in categories, members, threads and their posts, all from the seed.
 *
 * Generation has two stages so a task can shape the site before it is written out: `planForum`
 * lays out threads as plans (subject, title pattern, age, how many replies), a task may adjust
 * plans (tier 3 plants the thread it asks for and its decoys), and `writeForum` turns the plans
 * into posts.
 */
import { Rng, mixSeed } from '../../../common/rng.ts';
import type { UiState } from '../common/site.ts';
import { addDays } from '../common/dates.ts';
import { CATEGORIES, a, DETAIL_LABELS, DETAIL_SENTENCES, LOCATIONS, OPENERS, QUESTIONS, REPLY_SENTENCES, TITLE_PATTERNS, memberName, type DetailLabel } from './content.ts';
import type { Look } from './look.ts';

export interface Board {
  slug: string;
  name: string;
  category: string;
  blurb: string;
  subjects: readonly string[];
}

export interface Member {
  name: string;
  joined: string;
  location: string;
}

export interface Thread {
  id: number;
  board: string;
  title: string;
  /** The subject and title pattern it was made from ('' and -1 for a thread started during the episode). */
  subject: string;
  pattern: number;
  author: string;
  /** ISO date the thread was started. */
  started: string;
  /** Upvotes from other members; the logged-in member's own vote is in `upvoted`. */
  votes: number;
  /** The fact the opening post states; absent on threads members start during the episode. */
  detail?: { label: DetailLabel; value: string };
}

export interface Post {
  id: number;
  thread: number;
  author: string;
  date: string;
  /** "HH:MM"; posts of a thread are in id order, which is also time order. */
  time: string;
  body: string;
  edited: boolean;
}

/** A thread before its posts are written: the knobs a task may turn. */
export interface ThreadPlan {
  id: number;
  board: string;
  subject: string;
  pattern: number;
  author: string;
  daysAgo: number;
  replies: number;
  votes: number;
  detail: { label: DetailLabel; value: string };
}

export type ForumGoal =
  | { kind: 'starter'; thread: number; answer: string }
  | { kind: 'replies'; thread: number; answer: string }
  | { kind: 'follow'; thread: number }
  | { kind: 'upvote'; thread: number }
  | { kind: 'reply'; thread: number; text: string }
  | { kind: 'new-thread'; board: string; title: string; text: string }
  | { kind: 'edit'; thread: number; post: number; text: string }
  /** Tier 3: find the thread by a ranking, reply quoting its fact, follow it (and upvote it when `upvote`). */
  | { kind: 'ranked'; thread: number; board: string; keyword?: string; quote: string; label: DetailLabel; upvote: boolean };

export interface ForumState {
  siteName: string;
  today: string;
  /** The logged-in member. */
  me: string;
  look: Look;
  boards: Board[];
  members: Member[];
  threads: Thread[];
  posts: Post[];
  followed: number[];
  upvoted: number[];
  /** Signed up for the weekly digest in the dialog: a side effect. */
  digest: boolean;
  ui: UiState;
  /** The site as generated, for the checker's side-effect points. */
  initial: { followed: number[]; upvoted: number[]; bodies: Record<number, string>; lastPost: number; lastThread: number };
  goal: ForumGoal;
}

/** Days before today a thread may start; 7 is left out so "the last 7 days" has no edge case. */
export const RECENT_DAYS = 7;

export function slugOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

export function titleOf(p: { subject: string; pattern: number }): string {
  const t = TITLE_PATTERNS[p.pattern].make(p.subject);
  return t[0].toUpperCase() + t.slice(1);
}

function modelNumber(rng: Rng): string {
  const L = 'ABCDEFGHJKLMNPRSTUVWXZ';
  return `${L[rng.below(L.length)]}${L[rng.below(L.length)]}-${rng.int(1000, 9899)}`;
}

const money = (rng: Rng) => `$${rng.int(4, 60) * 10}`;

export function newDetail(rng: Rng): { label: DetailLabel; value: string } {
  const label = rng.pick(DETAIL_LABELS);
  return { label, value: label === 'budget' ? money(rng) : modelNumber(rng) };
}

/** A thread age in days, never RECENT_DAYS itself. */
export function ageDays(rng: Rng, recent: boolean): number {
  return recent ? rng.int(0, RECENT_DAYS - 1) : rng.int(RECENT_DAYS + 1, 45);
}

export interface ForumPlan {
  today: string;
  /** The logged-in member; never the author of a generated thread. */
  me: string;
  boards: Board[];
  members: Member[];
  plans: ThreadPlan[];
}

export function planForum(seed: number): ForumPlan {
  const rng = new Rng(mixSeed(seed, 'forum-data'));
  const today = addDays('2026-01-01', rng.int(0, 540));
  const boards: Board[] = [];
  for (const cat of rng.sample(CATEGORIES, 3)) {
    for (const b of rng.sample(cat.boards, Math.min(cat.boards.length, rng.int(2, 3)))) boards.push({ slug: slugOf(b.name), name: b.name, category: cat.name, blurb: b.blurb, subjects: b.subjects });
  }
  const names = new Set<string>();
  const members: Member[] = [];
  for (let n = 0; members.length < 16; n++) {
    const name = memberName((xs) => rng.pick(xs), n + rng.int(0, 2));
    if (names.has(name.toLowerCase())) continue;
    names.add(name.toLowerCase());
    members.push({ name, joined: addDays(today, -rng.int(60, 2000)), location: rng.pick(LOCATIONS) });
  }
  const me = rng.pick(members).name;
  const authors = members.filter((m) => m.name !== me);
  const plans: ThreadPlan[] = [];
  let id = 100 + rng.int(0, 800);
  for (const b of boards) {
    const used = new Set<string>();
    const n = rng.int(13, 21);
    while (plans.filter((p) => p.board === b.slug).length < n) {
      const subject = rng.pick(b.subjects);
      const pattern = rng.below(TITLE_PATTERNS.length);
      if (used.has(`${subject}|${pattern}`)) continue;
      used.add(`${subject}|${pattern}`);
      plans.push({ id, board: b.slug, subject, pattern, author: rng.pick(authors).name, daysAgo: ageDays(rng, rng.chance(0.35)), replies: rng.int(0, 16), votes: rng.int(0, 40), detail: newDetail(rng) });
      id += rng.int(1, 9);
    }
  }
  return { today, me, boards, members, plans };
}

/** A free pattern for a subject on a board: one whose title no other plan there uses. */
export function freePattern(plans: ThreadPlan[], board: string, subject: string, avoid: number[], rng: Rng): number | undefined {
  const taken = new Set(plans.filter((p) => p.board === board && p.subject === subject).map((p) => p.pattern));
  const free = TITLE_PATTERNS.map((_, i) => i).filter((i) => !taken.has(i) && !avoid.includes(i));
  return free.length ? rng.pick(free) : undefined;
}

const clock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * Write every plan out as a thread and its posts: an opening post that states the thread's detail,
 * then replies spread from the start day to today (some mentioning other model numbers and sums,
 * so the detail must be read from the opening post). `mine` lists threads where the logged-in
 * member has one earlier reply.
 */
export function writeForum(seed: number, plan: ForumPlan, mine: number[]): { threads: Thread[]; posts: Post[] } {
  const rng = new Rng(mixSeed(seed, 'forum-posts'));
  const me = plan.me;
  const others = plan.members.map((m) => m.name).filter((n) => n !== me);
  const threads: Thread[] = [];
  const posts: Post[] = [];
  let postId = 5000 + rng.int(0, 4000);
  for (const p of [...plan.plans].sort((a, b) => a.id - b.id)) {
    const started = addDays(plan.today, -p.daysAgo);
    threads.push({ id: p.id, board: p.board, title: titleOf(p), subject: p.subject, pattern: p.pattern, author: p.author, started, votes: p.votes, detail: p.detail });
    const fill = (t: string) => t.replace(/\{a s\}/g, a(p.subject)).replace(/\{s\}/g, p.subject).replace(/\{code\}/g, modelNumber(rng)).replace(/\{money\}/g, money(rng));
    const opening = `${rng.pick(OPENERS)(p.subject)} ${rng.pick(DETAIL_SENTENCES[p.detail.label])(p.detail.value)} ${rng.pick(QUESTIONS)}`;
    // Post times climb from the opening post (mid-morning of its day), at the latest to 21:00 today.
    const startMin = rng.int(420, 600);
    // Some threads are still busy today, others went quiet days after they started.
    const span = rng.chance(0.4) ? p.daysAgo * 1440 + 1260 - startMin : rng.int(60, p.daysAgo * 1440 + 1260 - startMin);
    const times = Array.from({ length: p.replies }, () => rng.int(1, span)).sort((a, b) => a - b);
    const at = (offset: number) => {
      const total = startMin + offset;
      return { date: addDays(started, Math.floor(total / 1440)), time: clock(total % 1440) };
    };
    posts.push({ id: postId++, thread: p.id, author: p.author, ...at(0), body: opening, edited: false });
    const mineAt = mine.includes(p.id) ? rng.below(Math.max(1, p.replies)) : -1;
    for (let i = 0; i < p.replies; i++) {
      const author = i === mineAt ? me : rng.pick(others.filter((o) => o !== posts.at(-1)!.author));
      const body = i === mineAt ? `I went through this too. ${fill(rng.pick(REPLY_SENTENCES))}` : [fill(rng.pick(REPLY_SENTENCES)), ...(rng.chance(0.5) ? [fill(rng.pick(REPLY_SENTENCES))] : [])].join(' ');
      posts.push({ id: postId++, thread: p.id, author, ...at(times[i]), body, edited: false });
    }
  }
  return { threads, posts };
}

export function boardOf(s: ForumState, slug: string): Board {
  return s.boards.find((b) => b.slug === slug)!;
}

export function threadPosts(s: ForumState, thread: number): Post[] {
  return s.posts.filter((p) => p.thread === thread);
}

export function replyCount(s: ForumState, thread: number): number {
  return threadPosts(s, thread).length - 1;
}

export function voteCount(s: ForumState, t: Thread): number {
  return t.votes + (s.upvoted.includes(t.id) ? 1 : 0);
}

/** "2026-03-14 09:30" of a thread's latest post, for sorting by activity. */
export function lastActivity(s: ForumState, thread: number): string {
  const last = threadPosts(s, thread).at(-1)!;
  return `${last.date} ${last.time}`;
}
