/**
 * The episode list's filters, sort and grouping as URL query values and back, so the list
 * survives reload, Back, and opening in another tab (see url-state.ts).
 */
import { EMPTY_FILTER, type EpisodeFilter, type SortKey } from './filter.ts';
import type { QueryValues } from './url-state.ts';

const SORTS: readonly SortKey[] = ['newest', 'oldest', 'steps-asc', 'steps-desc', 'family'];
/** Filter fields held as plain strings, under their own names (search is `q`). */
const TEXT_FIELDS = ['family', 'outcome', 'agent', 'labels', 'since', 'run', 'eval', 'experiment', 'arm'] as const;

export interface ListState {
  filter: EpisodeFilter;
  sort: SortKey;
  grouped: boolean;
}

export function listStateToQuery(s: ListState): QueryValues {
  const f = s.filter;
  return {
    q: f.search,
    ...Object.fromEntries(TEXT_FIELDS.map((k) => [k, f[k]])),
    min: f.minSteps,
    max: f.maxSteps,
    hide: f.hideEvalExperiment,
    sort: s.sort === 'newest' ? null : s.sort,
    group: s.grouped,
  };
}

export function listStateFromQuery(q: URLSearchParams): ListState {
  const filter: EpisodeFilter = { ...EMPTY_FILTER, search: q.get('q') ?? '' };
  for (const k of TEXT_FIELDS) filter[k] = q.get(k) ?? '';
  const num = (v: string | null) => (v !== null && v !== '' && Number.isFinite(Number(v)) ? Number(v) : null);
  filter.minSteps = num(q.get('min'));
  filter.maxSteps = num(q.get('max'));
  filter.hideEvalExperiment = q.get('hide') === '1';
  const sort = q.get('sort') as SortKey | null;
  return { filter, sort: sort && SORTS.includes(sort) ? sort : 'newest', grouped: q.get('group') === '1' };
}
