/**
 * The webmail family: folders, search, reading, starring, moving and replying, plus questions about
 * mail. Every instance words, orders and lays out its pages its own way (variant.ts), so a policy
 * has to read them.
 */
import type { TaskFamily, Tier } from '../../types.ts';
import { SEEDS, tierFromSeed } from '../common/seeds.ts';
import { checkWebmail } from './check.ts';
import type { WebmailState } from './data.ts';
import { handleWebmail } from './handlers.ts';
import { WebmailOracle } from './oracle.ts';
import { generateWebmail } from './task.ts';

export const webmailFamily: TaskFamily<WebmailState> = {
  name: 'webmail',
  description: 'A webmail client: folders, search, read, star, move and reply; questions answered from the mail; wording, order and layout vary by instance.',
  seeds: { train: { ...SEEDS.train }, test: { ...SEEDS.test } },
  generate(seed: number, tier?: Tier) {
    const t = tier ?? tierFromSeed(seed, 'webmail');
    const { state, instruction, goalKind } = generateWebmail(seed, t);
    return { instruction, state, goalKind, startPath: '/folder/inbox', tier: t };
  },
  handle: handleWebmail,
  check: checkWebmail,
  oracle: (ctx) => new WebmailOracle(ctx),
};
