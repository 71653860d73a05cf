/**
 * Built-in variation: every forum instance draws, from its seed alone, its own wording for labels
 * and buttons, the order of its navigation links and page sections, one to three distractor
 * boxes, a layout and a date style. A policy that memorised one forum's layout or one word for
 * "reply" meets another here; the oracle reads the instance's choices from this record, so it
 * stays exact under every one of them.
 */
import { Rng, mixSeed } from '../../../common/rng.ts';

export type Layout = 'cards' | 'table' | 'list';
export type DateStyle = 'long' | 'iso' | 'relative';
export type Overlay = 'cookie' | 'guidelines' | 'digest';
export type NavKey = 'index' | 'new' | 'following' | 'members' | 'profile' | 'rules';
export type IndexSection = 'boards' | 'latest' | 'stats' | 'extras';
export type BoardSection = 'filters' | 'threads' | 'extras';
export type Distractor = 'related' | 'ad' | 'trending' | 'pinned' | 'announcement';
export type SortKey = 'activity' | 'newest' | 'replies' | 'votes';
export type PeriodKey = '' | '7' | '30';

export interface Words {
  nav: Record<NavKey, string>;
  searchBox: string;
  searchButton: string;
  replyBox: string;
  replyButton: string;
  titleField: string;
  boardField: string;
  bodyField: string;
  createButton: string;
  follow: string;
  unfollow: string;
  upvote: string;
  unvote: string;
  /** Plural noun under a thread's count of upvotes: "upvotes", "likes", "votes". */
  votesNoun: string;
  /** Plural noun under a thread's count of replies: "replies", "comments", "answers". */
  repliesNoun: string;
  startedBy: string;
  edit: string;
  editField: string;
  saveEdit: string;
  apply: string;
  sortField: string;
  periodField: string;
  boardFilter: string;
  sorts: Record<SortKey, string>;
  periods: Record<PeriodKey, string>;
  next: string;
  previous: string;
  latestHeading: string;
  /** The button that closes the instance's dialog without a side effect. */
  dismiss: string;
  /** The digest dialog's sign-up button (a side effect). */
  join: string;
}

export interface Look {
  layout: Layout;
  dateStyle: DateStyle;
  overlay: Overlay;
  /** Threads per page of a board or search listing. */
  pageSize: number;
  navOrder: NavKey[];
  indexOrder: IndexSection[];
  boardOrder: BoardSection[];
  /** Whether a thread's follow and upvote buttons come before its posts or after them. */
  actionsFirst: boolean;
  distractors: Distractor[];
  words: Words;
}

/** One consistent set of words for voting, chosen together so "Like" never sits beside "Most upvotes". */
const VOTE_WORDS = [
  { upvote: 'Upvote', unvote: 'Remove upvote', votesNoun: 'upvotes', sort: 'Most upvotes' },
  { upvote: 'Like', unvote: 'Unlike', votesNoun: 'likes', sort: 'Most liked' },
  { upvote: 'Vote up', unvote: 'Withdraw vote', votesNoun: 'votes', sort: 'Top voted' },
];
const FOLLOW_WORDS = [
  { follow: 'Follow thread', unfollow: 'Unfollow thread', nav: 'Followed threads' },
  { follow: 'Watch thread', unfollow: 'Stop watching', nav: 'Watched threads' },
  { follow: 'Subscribe', unfollow: 'Unsubscribe', nav: 'My subscriptions' },
];
const PAGERS = [
  { next: 'Next page', previous: 'Previous page' },
  { next: 'Older threads', previous: 'Newer threads' },
  { next: 'More', previous: 'Back' },
  { next: 'Next ›', previous: '‹ Prev' },
];
const DISMISS: Record<Overlay, string[]> = {
  cookie: ['Reject non-essential'],
  guidelines: ['I understand', 'Got it', 'Continue to the forum'],
  digest: ['No thanks', 'Maybe later', 'Not now'],
};

export function lookFor(seed: number): Look {
  const rng = new Rng(mixSeed(seed, 'forum-look'));
  const vote = rng.pick(VOTE_WORDS);
  const follow = rng.pick(FOLLOW_WORDS);
  const pager = rng.pick(PAGERS);
  const overlay = rng.pick(['cookie', 'guidelines', 'digest'] as const);
  const words: Words = {
    nav: {
      index: rng.pick(['Board index', 'All boards', 'Forums', 'Home']),
      new: rng.pick(['New thread', 'Start a discussion', 'New topic', 'Create thread']),
      following: follow.nav,
      members: rng.pick(['Members', 'User list', 'People']),
      profile: rng.pick(['My profile', 'Your profile', 'My account']),
      rules: rng.pick(['Forum rules', 'Guidelines', 'Help']),
    },
    searchBox: rng.pick(['Search the forum', 'Search threads', 'Find discussions', 'Search topics']),
    searchButton: rng.pick(['Search', 'Find', 'Go']),
    replyBox: rng.pick(['Your reply', 'Write a reply', 'Comment', 'Message']),
    replyButton: rng.pick(['Reply', 'Post reply', 'Send reply', 'Add comment']),
    titleField: rng.pick(['Title', 'Thread title', 'Subject']),
    boardField: rng.pick(['Board', 'Post in', 'Forum']),
    bodyField: rng.pick(['Message', 'Body', 'Your post', 'Opening post']),
    createButton: rng.pick(['Post thread', 'Publish', 'Start thread', 'Submit thread']),
    follow: follow.follow,
    unfollow: follow.unfollow,
    upvote: vote.upvote,
    unvote: vote.unvote,
    votesNoun: vote.votesNoun,
    repliesNoun: rng.pick(['replies', 'comments', 'answers']),
    startedBy: rng.pick(['Started by', 'Posted by', 'Opened by']),
    edit: rng.pick(['Edit', 'Edit post', 'Change']),
    editField: rng.pick(['Post text', 'Edit your post', 'Content']),
    saveEdit: rng.pick(['Save changes', 'Update post', 'Save']),
    apply: rng.pick(['Apply', 'Update list', 'Show threads', 'Filter']),
    sortField: rng.pick(['Sort by', 'Order', 'Sort threads']),
    periodField: rng.pick(['Started', 'Date range', 'Time period']),
    boardFilter: rng.pick(['In board', 'Limit to', 'Which board']),
    sorts: {
      activity: rng.pick(['Latest activity', 'Recently active', 'Last post']),
      newest: rng.pick(['Newest', 'Newest first', 'Recently started']),
      replies: rng.pick(['Most replies', 'Most replied', 'Replies (most first)']),
      votes: vote.sort,
    },
    periods: {
      '': rng.pick(['Any time', 'All time', 'Whenever']),
      '7': rng.pick(['Past 7 days', 'Last 7 days', 'Past week']),
      '30': rng.pick(['Past 30 days', 'Last 30 days', 'Past month']),
    },
    next: pager.next,
    previous: pager.previous,
    latestHeading: rng.pick(['Latest discussions', 'Recently active', 'What people are talking about', 'Fresh threads']),
    dismiss: rng.pick(DISMISS[overlay]),
    join: rng.pick(['Sign me up', 'Send me the digest']),
  };
  return {
    layout: rng.pick(['cards', 'table', 'list'] as const),
    dateStyle: rng.pick(['long', 'iso', 'relative'] as const),
    overlay,
    pageSize: rng.pick([8, 10, 12]),
    navOrder: rng.shuffle(['index', 'new', 'following', 'members', 'profile', 'rules'] as NavKey[]),
    indexOrder: rng.shuffle(['boards', 'latest', 'stats', 'extras'] as IndexSection[]),
    boardOrder: rng.shuffle(['filters', 'threads', 'extras'] as BoardSection[]),
    actionsFirst: rng.chance(0.5),
    distractors: rng.sample(['related', 'ad', 'trending', 'pinned', 'announcement'] as Distractor[], rng.int(1, 3)),
    words,
  };
}
