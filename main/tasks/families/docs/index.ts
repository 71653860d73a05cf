/**
 * The docs family: the documentation site of an invented library (guides, API reference by
 * module, changelog; search with section and version filters; a version selector; feedback and
 * issue forms). Each instance draws its own labels, section orders, parameter layout, contents
 * position and look-alike pages from its seed, so a policy must read the page it is on.
 */
import type { TaskFamily, Tier } from '../../types.ts';
import { SEEDS, tierFromSeed } from '../common/seeds.ts';
import { checkDocs } from './check.ts';
import { generateDocsTask } from './goals.ts';
import { handleDocs } from './handlers.ts';
import { DocsOracle } from './oracle.ts';
import { pagePath } from './site-map.ts';
import type { DocsState } from './state.ts';

export const docsFamily: TaskFamily<DocsState> = {
  name: 'docs',
  description: 'The documentation site of an invented library: contents by guide, module and changelog, search with section and version filters, a version selector, parameter tables, feedback and issue reports; labels, layouts and look-alike pages vary per site.',
  seeds: { train: { ...SEEDS.train }, test: { ...SEEDS.test } },
  generate(seed: number, tier?: Tier) {
    const t = tier ?? tierFromSeed(seed, 'docs');
    const { state, instruction, goalKind } = generateDocsTask(seed, t);
    return { instruction, state, goalKind, startPath: pagePath(state, 'home', state.lib.latest), tier: t };
  },
  handle: handleDocs,
  check: checkDocs,
  oracle: (ctx) => new DocsOracle(ctx),
};
