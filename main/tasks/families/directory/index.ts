/**
 * The directory family: a directory of invented listings of one domain (clinics, libraries,
 * suppliers, clubs, venues) behind categories, subcategories, filtered and sorted listings and a
 * search box. A navigation drill (`drill: true`): it teaches reaching a named listing behind a
 * directory, past similarly named categories, same-named branches in other towns and decoy links.
 * It has train and test seeds like any family but is not one of the training families that
 * evaluations and recipes default to. Every instance words, orders and lays out its pages its own way.
 */
import type { TaskFamily, Tier } from '../../types.ts';
import { SEEDS, tierFromSeed } from '../common/seeds.ts';
import type { DirectoryState } from './data.ts';
import { handleDirectory } from './handlers.ts';
import { checkDirectory } from './check.ts';
import { DirectoryOracle } from './oracle.ts';
import { generateDirectoryTask } from './task.ts';

export const directoryFamily: TaskFamily<DirectoryState> = {
  name: 'directory',
  description: 'A directory of invented listings: categories with similarly named twins, subcategory listings with town, type, opening-day, open-now and rating filters, sort and pages, search; a fact by message, a contact form or a save with a note. A navigation drill for training.',
  drill: true,
  seeds: { train: { ...SEEDS.train }, test: { ...SEEDS.test } },
  generate(seed: number, tier?: Tier) {
    const t = tier ?? tierFromSeed(seed, 'directory');
    const { state, instruction, goalKind } = generateDirectoryTask(seed, t);
    return { instruction, state, goalKind, startPath: '/', tier: t };
  },
  handle: handleDirectory,
  check: checkDirectory,
  oracle: (ctx) => new DirectoryOracle(ctx),
};
