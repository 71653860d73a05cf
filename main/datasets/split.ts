/**
 * Deduplication and the train/validation/test split. The split is by task instance (family +
 * seed): two episodes of one instance share pages and answers, so putting them on both sides of
 * a split would leak the answer into evaluation. The hash makes it stable across runs and labs.
 */
import { DatasetError } from './errors.ts';
import { sha256 } from './hash.ts';
import type { EpisodeInfo } from './filter.ts';

export const SPLITS = ['train', 'validation', 'test'] as const;
export type SplitName = (typeof SPLITS)[number];
export type SplitRatios = Record<SplitName, number>;

export const DEFAULT_RATIOS: SplitRatios = { train: 0.8, validation: 0.1, test: 0.1 };

/** Parse "0.8,0.1,0.1" (train, validation, test); they must be >= 0 and sum to 1. */
export function parseRatios(text: string): SplitRatios {
  const parts = text.split(',').map((s) => s.trim());
  const nums = parts.map(Number);
  if (parts.length !== 3 || nums.some((n) => !Number.isFinite(n) || n < 0)) {
    throw new DatasetError(`split ratios must be three non-negative numbers "train,validation,test", got "${text}"`);
  }
  return checkRatios({ train: nums[0], validation: nums[1], test: nums[2] });
}

export function checkRatios(r: SplitRatios): SplitRatios {
  const sum = r.train + r.validation + r.test;
  if (SPLITS.some((s) => !(r[s] >= 0)) || Math.abs(sum - 1) > 1e-6) {
    throw new DatasetError(`split ratios must be >= 0 and sum to 1, got ${r.train},${r.validation},${r.test} (sum ${sum})`);
  }
  return r;
}

/** A number in [0, 1) fixed by the instance alone. */
export function instanceUnit(family: string, seed: number): number {
  return parseInt(sha256(`${family}\u0000${seed}`).slice(0, 12), 16) / 2 ** 48;
}

export function splitOf(family: string, seed: number, ratios: SplitRatios): SplitName {
  const u = instanceUnit(family, seed);
  if (u < ratios.train) return 'train';
  if (u < ratios.train + ratios.validation) return 'validation';
  // A zero test share still catches rounding at the top end in validation or train.
  return ratios.test > 0 ? 'test' : ratios.validation > 0 ? 'validation' : 'train';
}

export interface DedupeResult {
  kept: EpisodeInfo[];
  /** Dropped episode id -> the id of the earlier episode it duplicates (or of the shortening that replaces it). */
  dropped: Array<{ id: string; duplicateOf: string }>;
}

/** Identical family + seed + action sequence: keep the earliest (createdAt, then id); an original whose shortening is selected too: keep the shortening. */
export function dedupeEpisodes(episodes: readonly EpisodeInfo[]): DedupeResult {
  // A verified shortening replaces its original: the same task solved, minus the detours. Both in
  // one dataset would train on the detour and on its absence, so the original goes.
  const ids = new Set(episodes.map((e) => e.id));
  const shortenedBy = new Map(episodes.flatMap((e) => (e.shortenedFrom && ids.has(e.shortenedFrom) ? [[e.shortenedFrom, e.id] as const] : [])));
  const ordered = episodes.filter((e) => !shortenedBy.has(e.id)).sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const first = new Map<string, string>();
  const kept: EpisodeInfo[] = [];
  const dropped: DedupeResult['dropped'] = [...shortenedBy].map(([id, by]) => ({ id, duplicateOf: by }));
  for (const e of ordered) {
    const key = JSON.stringify([e.family, e.seed, e.actions]);
    const earlier = first.get(key);
    if (earlier) dropped.push({ id: e.id, duplicateOf: earlier });
    else {
      first.set(key, e.id);
      kept.push(e);
    }
  }
  return { kept, dropped };
}
