/** The wiki family: an encyclopedia of invented places; information-seeking questions answered by message. */
import type { TaskFamily, Tier } from '../../types.ts';
import { HELD_OUT_SEEDS, tierFromSeed } from '../common/seeds.ts';
import type { WikiState } from './data.ts';
import { handleWiki } from './pages.ts';
import { WikiOracle } from './oracle.ts';
import { checkWiki, generateWikiTask } from './task.ts';

export const wikiFamily: TaskFamily<WikiState> = {
  name: 'wiki',
  description: 'An encyclopedia wiki: search with exact-title jump, articles with infobox, contents, sections and climate tables; questions answered by message.',
  heldOut: true,
  seeds: { train: { ...HELD_OUT_SEEDS.train }, test: { ...HELD_OUT_SEEDS.test } },
  generate(seed: number, tier?: Tier) {
    const t = tier ?? tierFromSeed(seed, 'wiki');
    const { state, instruction, goalKind } = generateWikiTask(seed, t);
    return { instruction, state, goalKind, startPath: '/', tier: t };
  },
  handle: handleWiki,
  check: checkWiki,
  oracle: (ctx) => new WikiOracle(ctx),
};
