/**
 * View state in the URL fragment: #/<view>[/<id>[/<step>]][?key=value&...]. Filters, sort, the
 * open episode and step, the selected review task live there, so a reload, Back and a link opened
 * in a new tab show the same thing. State changes inside a view replace the current history entry
 * (history.replaceState, no hashchange): Back leaves the view instead of undoing every keystroke.
 */

export type QueryValues = Record<string, string | number | boolean | null | undefined>;

/** The fragment's path part, e.g. '#/episodes'. */
export function hashPath(hash = location.hash): string {
  const i = hash.indexOf('?');
  return i < 0 ? hash : hash.slice(0, i);
}

/** The fragment's query part. */
export function hashQuery(hash = location.hash): URLSearchParams {
  const i = hash.indexOf('?');
  return new URLSearchParams(i < 0 ? '' : hash.slice(i + 1));
}

/** A fragment from a path and values; empty, null, false and undefined values are left out (the defaults). */
export function buildHash(path: string, values: QueryValues = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === null || v === '' || v === false) continue;
    q.set(k, v === true ? '1' : String(v));
  }
  const query = q.toString();
  return query ? `${path}?${query}` : path;
}

/** Put this view's state in the URL without a new history entry (and without a hashchange). */
export function replaceHash(path: string, values: QueryValues = {}): void {
  const hash = buildHash(path, values);
  if (hash === location.hash) return;
  history.replaceState(history.state, '', `${location.pathname}${location.search}${hash}`);
  if (path.startsWith('#/episodes')) sessionStorage.setItem(LAST_LIST, hash);
}

const LAST_LIST = 'lab-last-episode-list';

/**
 * The trajectory viewer at a step, from the step's index in the episode (0-based, as stored). The
 * URL counts steps from 1, as the viewer shows them: #/episode/<id>/5 is "Step 5".
 */
export function episodeStepHash(id: string, stepIndex: number): string {
  return `#/episode/${id}/${stepIndex + 1}`;
}

/** The step index (0-based) of a step number read from the URL (1-based); 0 for anything below 1. */
export function stepIndexFromUrl(step: number): number {
  return Math.max(0, step - 1);
}

/** Where "back to the list" goes: the episode list as it was last filtered in this tab. */
export function lastEpisodeList(): string {
  return sessionStorage.getItem(LAST_LIST) ?? '#/episodes';
}
