/**
 * The forum family: a discussion forum with a board index, thread lists (filters, sort,
 * pagination), threads, search and profiles, where the signed-in member replies, starts threads,
 * follows, upvotes and edits. Every instance words, orders and lays out its pages its own way.
 */
import type { TaskFamily, Tier } from '../../types.ts';
import { SEEDS, tierFromSeed } from '../common/seeds.ts';
import type { ForumState } from './data.ts';
import { handleForum } from './handlers.ts';
import { checkForum } from './check.ts';
import { ForumOracle } from './oracle.ts';
import { generateForumTask } from './task.ts';

export const forumFamily: TaskFamily<ForumState> = {
  name: 'forum',
  description: 'A discussion forum: board index, thread lists with filters, sort and pages, threads, search and profiles; reply, start a thread, follow, upvote and edit your own post. Wording, order and layout vary per instance.',
  seeds: { train: { ...SEEDS.train }, test: { ...SEEDS.test } },
  generate(seed: number, tier?: Tier) {
    const t = tier ?? tierFromSeed(seed, 'forum');
    const { state, instruction, startPath, goalKind } = generateForumTask(seed, t);
    return { instruction, state, goalKind, startPath, tier: t };
  },
  handle: handleForum,
  check: checkForum,
  oracle: (ctx) => new ForumOracle(ctx),
};
