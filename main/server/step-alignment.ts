/**
 * Attempts at one task instance lined up by page state, not by step number: a detour in one
 * attempt (three extra steps, then back on the same page) becomes three rows where the others
 * have nothing, and the rows after it line up again. Steps on the same page are matched by a
 * longest common subsequence of page states against the first episode (the pivot); every other
 * episode's unmatched steps go between the pivot's rows, top-aligned. A row "parts" where an
 * episode has no step in it or the steps there do not mean the same action.
 */
import { normalizeText } from '../common/normalize.ts';
import { normaliseUrl } from '../collection/replay.ts';
import type { PageElement } from '../environment/types.ts';

/** What a step is for alignment: its page (URL and elements) and its action's meaning. */
export interface AlignedStepKey {
  page: string;
  action: string;
}

export interface AlignedRow {
  /** Per episode, the index of its step in this row, or null (a gap, or the episode had ended). */
  steps: Array<number | null>;
  /** Some episode has no step here, or the steps here take actions of different meanings. */
  parts: boolean;
}

/** A page as an agent reads it: the URL below its instance prefix and every element's role, name and state. */
export function pageKey(url: string, elements: readonly PageElement[]): string {
  return JSON.stringify([normaliseUrl(url), elements.map((e) => [e.role, normalizeText(e.name), e.value ?? null, e.checked ?? null, e.selected ?? null, e.disabled ?? null, e.expanded ?? null])]);
}

/** Pairs (i, j) of a longest common subsequence of a and b, in order. */
function lcsPairs(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  const n = a.length;
  const m = b.length;
  const len = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) len[i][j] = a[i] === b[j] ? len[i + 1][j + 1] + 1 : Math.max(len[i + 1][j], len[i][j + 1]);
  const pairs: Array<[number, number]> = [];
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i] === b[j]) pairs.push([i++, j++]);
    else if (len[i + 1][j] >= len[i][j + 1]) i++;
    else j++;
  }
  return pairs;
}

export function alignSteps(episodes: readonly (readonly AlignedStepKey[])[]): AlignedRow[] {
  const [pivot, ...others] = episodes;
  const P = pivot.length;
  // For each other episode: its step matched to each pivot step, and its unmatched steps per gap
  // (gap g holds the steps before pivot step g; gap P those after the last).
  const placed = others.map((steps) => {
    const matched = new Array<number | null>(P).fill(null);
    const gaps = Array.from({ length: P + 1 }, () => [] as number[]);
    const pairs = lcsPairs(pivot.map((s) => s.page), steps.map((s) => s.page));
    let next = 0;
    for (const [i, j] of pairs) {
      for (; next < j; next++) gaps[i].push(next);
      matched[i] = j;
      next = j + 1;
    }
    for (; next < steps.length; next++) gaps[P].push(next);
    return { matched, gaps };
  });
  const rows: AlignedRow[] = [];
  const row = (steps: Array<number | null>) => rows.push({ steps, parts: parts(steps) });
  const parts = (steps: Array<number | null>) => {
    if (steps.some((s) => s === null)) return true;
    return new Set(steps.map((s, e) => episodes[e][s!].action)).size > 1;
  };
  for (let g = 0; g <= P; g++) {
    const depth = Math.max(0, ...placed.map((p) => p.gaps[g].length));
    for (let r = 0; r < depth; r++) row([null, ...placed.map((p) => p.gaps[g][r] ?? null)]);
    if (g < P) row([g, ...placed.map((p) => p.matched[g])]);
  }
  return rows;
}
