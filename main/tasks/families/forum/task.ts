/** Picks the forum task for a seed and tier, shapes the site it needs, and phrases its instruction. */
import type { GoalKind, Tier } from '../../types.ts';
import { Rng, mixSeed } from '../../../common/rng.ts';
import { DETAIL_SENTENCES, MEMBER_LINES, OPENERS, QUESTIONS, SITE_NAMES, TITLE_PATTERNS } from './content.ts';
import { RECENT_DAYS, ageDays, boardOf, freePattern, newDetail, planForum, titleOf, writeForum, type ForumGoal, type ForumPlan, type ForumState, type ThreadPlan } from './data.ts';
import { lookFor } from './look.ts';
import { parseThreadQuery, runThreadQuery } from './query.ts';

const quote = (t: string) => `"${t}"`;
const recent = (p: ThreadPlan) => p.daysAgo < RECENT_DAYS;

/**
 * Tier 3 with a keyword: on board `board`, the threads whose title has `keyword` are exactly the
 * planted ones: a winner started this week, one or two with fewer replies this week, and an older
 * one with more replies than the winner (so the age filter matters); another board gets a recent
 * thread with the keyword and more replies still (so the board filter matters).
 */
function plantKeyword(plan: ForumPlan, rng: Rng, board: string, pattern: number): ThreadPlan {
  const inBoard = plan.plans.filter((p) => p.board === board);
  for (const p of inBoard.filter((x) => x.pattern === pattern)) p.pattern = freePattern(plan.plans, board, p.subject, [pattern], rng)!;
  const subjects = rng.sample(plan.boards.find((b) => b.slug === board)!.subjects, 4);
  let nextId = Math.max(...plan.plans.map((p) => p.id)) + 1;
  const authors = plan.members.map((m) => m.name).filter((n) => n !== plan.me);
  const plant = (subject: string, where: string, recentOne: boolean, replies: number): ThreadPlan => {
    const p: ThreadPlan = { id: nextId++, board: where, subject, pattern, author: rng.pick(authors), daysAgo: ageDays(rng, recentOne), replies, votes: rng.int(0, 40), detail: newDetail(rng) };
    plan.plans.push(p);
    return p;
  };
  const top = rng.int(8, 16);
  const winner = plant(subjects[0], board, true, top);
  plant(subjects[1], board, true, rng.int(1, top - 2));
  if (rng.chance(0.5)) plant(subjects[2], board, true, rng.int(0, top - 2));
  plant(subjects[3], board, false, top + rng.int(2, 6));
  const other = rng.pick(plan.boards.filter((b) => b.slug !== board));
  const clash = plan.plans.find((p) => p.board === other.slug && p.pattern === pattern);
  if (clash) Object.assign(clash, { daysAgo: ageDays(rng, true), replies: top + rng.int(1, 5) });
  else plant(rng.pick(other.subjects), other.slug, true, top + rng.int(1, 5));
  return winner;
}

/** Tier 3 by board alone: the most-replied thread started this week, and an older one with more replies. */
function plantBoardWinner(plan: ForumPlan, rng: Rng, board: string): ThreadPlan {
  const inBoard = rng.shuffle(plan.plans.filter((p) => p.board === board));
  // At least two recent threads to choose between, and at least one older one as the decoy.
  while (inBoard.filter(recent).length < 2) inBoard.find((p) => !recent(p))!.daysAgo = ageDays(rng, true);
  if (inBoard.every(recent)) inBoard[0].daysAgo = ageDays(rng, false);
  const candidates = inBoard.filter(recent);
  const winner = candidates[0];
  winner.replies = Math.max(...candidates.slice(1).map((p) => p.replies)) + rng.int(1, 4);
  inBoard.find((p) => !recent(p))!.replies = winner.replies + rng.int(2, 6);
  return winner;
}

type Kind = 'starter' | 'replies' | 'follow' | 'upvote' | 'reply' | 'new-thread' | 'edit' | 'ranked-search' | 'ranked-board';
const KINDS: Record<Tier, Kind[]> = { 1: ['starter', 'replies', 'follow', 'upvote'], 2: ['reply', 'new-thread', 'edit'], 3: ['ranked-search', 'ranked-board'] };

export function generateForumTask(seed: number, tier: Tier): { state: ForumState; instruction: string; startPath: string; goalKind: GoalKind } {
  const plan = planForum(seed);
  const look = lookFor(seed);
  const rng = new Rng(mixSeed(seed, 'forum-task', tier));
  const kind = rng.pick(KINDS[tier]);
  const board = rng.pick(plan.boards);
  let planted: ThreadPlan | undefined;
  let keyword: string | undefined;
  if (kind === 'ranked-search') {
    const pattern = rng.below(TITLE_PATTERNS.length);
    keyword = TITLE_PATTERNS[pattern].word;
    planted = plantKeyword(plan, rng, board.slug, pattern);
  } else if (kind === 'ranked-board') planted = plantBoardWinner(plan, rng, board.slug);
  // The member's own earlier replies: a few threads with replies enough to hide one among them.
  const mine = rng.sample(plan.plans.filter((p) => p.replies >= 2 && p.id !== planted?.id), 4).map((p) => p.id);
  const { threads, posts } = writeForum(seed, plan, mine);
  const state: ForumState = {
    siteName: rng.pick(SITE_NAMES),
    today: plan.today,
    me: plan.me,
    look,
    boards: plan.boards,
    members: plan.members,
    threads,
    posts,
    followed: [],
    upvoted: [],
    digest: false,
    ui: { cookiesDismissed: false },
    initial: { followed: [], upvoted: [], bodies: {}, lastPost: Math.max(...posts.map((p) => p.id)), lastThread: Math.max(...threads.map((t) => t.id)) },
    goal: { kind: 'follow', thread: 0 },
  };
  const byActivity = runThreadQuery(state, parseThreadQuery(new URLSearchParams()));
  let goal: ForumGoal;
  let instruction: string;
  if (kind === 'starter' || kind === 'replies' || kind === 'follow' || kind === 'upvote') {
    // Tier 1: a thread the index lists among the latest discussions.
    const t = rng.pick(byActivity.slice(0, 6));
    const name = quote(t.title);
    if (kind === 'starter') {
      goal = { kind, thread: t.id, answer: t.author };
      instruction = rng.pick([`Who started the thread ${name}? Tell me their username in a message.`, `Find out which member started the discussion ${name} and tell me the username in a message.`]);
    } else if (kind === 'replies') {
      goal = { kind, thread: t.id, answer: String(posts.filter((p) => p.thread === t.id).length - 1) };
      instruction = rng.pick([`How many replies does the thread ${name} have? Tell me the number in a message.`, `Tell me in a message how many replies the thread ${name} has received.`]);
    } else {
      goal = { kind, thread: t.id };
      const verb = kind === 'follow' ? 'Follow' : 'Upvote';
      instruction = rng.pick([`${verb} the thread ${name}; it is linked from the board index.`, `On the forum, ${verb.toLowerCase()} the discussion ${name}, which you can reach from the board index.`]);
    }
  } else if (kind === 'reply') {
    const latest = new Set(byActivity.slice(0, 6).map((t) => t.id));
    const t = rng.pick(threads.filter((x) => x.board === board.slug && !latest.has(x.id)));
    const text = rng.pick(MEMBER_LINES);
    goal = { kind, thread: t.id, text };
    instruction = `In the ${board.name} board, find the thread ${quote(t.title)} and reply to it with this text: ${quote(text)}`;
  } else if (kind === 'new-thread') {
    const subject = rng.pick(board.subjects);
    const pattern = freePattern(plan.plans, board.slug, subject, [], rng)!;
    const detail = newDetail(rng);
    const text = `${rng.pick(OPENERS)(subject)} ${rng.pick(DETAIL_SENTENCES[detail.label])(detail.value)} ${rng.pick(QUESTIONS)}`;
    goal = { kind, board: board.slug, title: titleOf({ subject, pattern }), text };
    instruction = `Start a new thread in the ${board.name} board titled ${quote(goal.title)} with this message: ${quote(text)}`;
  } else if (kind === 'edit') {
    const pick = rng.pick(mine);
    const t = threads.find((x) => x.id === pick)!;
    const post = posts.find((p) => p.thread === t.id && p.author === plan.me)!;
    const text = rng.pick(MEMBER_LINES);
    goal = { kind, thread: t.id, post: post.id, text };
    instruction = `You replied earlier in the thread ${quote(t.title)} on the ${boardOf(state, t.board).name} board. Edit that reply so that it reads: ${quote(text)}`;
  } else {
    const t = threads.find((x) => x.id === planted!.id)!;
    const { label, value } = t.detail!;
    if (kind === 'ranked-search') {
      goal = { kind: 'ranked', thread: t.id, board: board.slug, keyword, quote: value, label, upvote: false };
      instruction = `Search the forum for threads with the word ${quote(keyword!)} in the title on the ${board.name} board. Of those started in the last 7 days, open the one with the most replies, reply to it quoting the ${label} its opening post gives, and follow the thread.`;
    } else {
      goal = { kind: 'ranked', thread: t.id, board: board.slug, quote: value, label, upvote: true };
      instruction = `In the ${board.name} board, find the thread with the most replies among those started in the last 7 days. Reply to it quoting the ${label} its opening post gives, then follow and upvote the thread.`;
    }
  }
  // Threads the member already followed and upvoted before the episode (never the goal's).
  const goalThread = 'thread' in goal ? goal.thread : -1;
  const others = threads.filter((t) => t.id !== goalThread).map((t) => t.id);
  state.followed = rng.sample(others, 2).sort((a, b) => a - b);
  state.upvoted = rng.sample(others, 2).sort((a, b) => a - b);
  state.initial = {
    ...state.initial,
    followed: [...state.followed],
    upvoted: [...state.upvoted],
    bodies: Object.fromEntries(posts.filter((p) => p.author === plan.me).map((p) => [p.id, p.body])),
  };
  state.goal = goal;
  const answer = goal.kind === 'starter' || goal.kind === 'replies';
  return { state, instruction, startPath: '/', goalKind: answer ? 'answer' : 'state' };
}
