/**
 * What to tell a person before a dataset is frozen, because it is rarely what they meant and
 * nothing else would say so: a split that came out empty (its ratio is above zero but no task
 * instance hashed into it: too few instances), and training data drawn from what evaluations hold
 * out: episodes of held-out families or of test seeds in the train split, which would make a
 * later test or held-out success rate measure memory instead of skill.
 */
import type { SplitName, SplitRatios } from './split.ts';
import { SPLITS } from './split.ts';

export type FreezeCheckKind = 'empty-split' | 'held-out-family' | 'test-seed';

export interface FreezeWarning {
  kind: FreezeCheckKind;
  message: string;
  /** Episodes concerned (for held-out and test-seed warnings), to look at them. */
  ids?: string[];
}

export interface CheckedEpisode {
  id: string;
  family: string;
  seed: number;
  /** The task seed's split as recorded in the episode ('test' for every seed of a held-out family). */
  taskSplit: 'train' | 'test' | 'other';
  /** The dataset split it falls in. */
  split: SplitName;
}

export function freezeChecks(episodes: readonly CheckedEpisode[], ratios: SplitRatios, heldOutFamilies: ReadonlySet<string>): FreezeWarning[] {
  const warnings: FreezeWarning[] = [];
  if (episodes.length) {
    for (const split of SPLITS) {
      if (ratios[split] > 0 && !episodes.some((e) => e.split === split)) {
        warnings.push({ kind: 'empty-split', message: `the ${split} split is empty: its ratio is ${ratios[split]}, but none of the ${instances(episodes)} task instances fell into it (split by task instance); add episodes of more instances, or set its ratio to 0` });
      }
    }
  }
  const train = episodes.filter((e) => e.split === 'train');
  const heldOut = train.filter((e) => heldOutFamilies.has(e.family));
  if (heldOut.length) {
    const families = [...new Set(heldOut.map((e) => e.family))].sort();
    warnings.push({ kind: 'held-out-family', message: `${heldOut.length} episode(s) of held-out famil${families.length === 1 ? 'y' : 'ies'} ${families.join(', ')} would go into the train split: held-out results would then measure tasks the policy trained on`, ids: heldOut.map((e) => e.id) });
  }
  const testSeeds = train.filter((e) => e.taskSplit === 'test' && !heldOutFamilies.has(e.family));
  if (testSeeds.length) {
    const families = [...new Set(testSeeds.map((e) => e.family))].sort();
    warnings.push({ kind: 'test-seed', message: `${testSeeds.length} episode(s) recorded on test seeds (${families.join(', ')}) would go into the train split: test results would then measure task instances the policy trained on`, ids: testSeeds.map((e) => e.id) });
  }
  return warnings;
}

function instances(episodes: readonly CheckedEpisode[]): number {
  return new Set(episodes.map((e) => `${e.family}\u0000${e.seed}`)).size;
}
