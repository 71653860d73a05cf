/** Episode browser filters and sorting, over the Dexie index. */
import type { EpisodeRow } from '../../../preload/api.ts';
import type { LabDb } from './db.ts';

export interface EpisodeFilter {
  family: string;
  outcome: string;
  agent: string;
  minSteps: number | null;
  maxSteps: number | null;
  /** '' any, 'labeled', 'unlabeled', or 'tag:<name>'. */
  labels: string;
  since: string;
  search: string;
  /** Provenance: '' any, else the collection run, evaluation, experiment or arm it must have. */
  run: string;
  eval: string;
  experiment: string;
  arm: string;
  /** Leave out what evaluations and experiments made, to see collected and demonstrated episodes. */
  hideEvalExperiment: boolean;
}

export type SortKey = 'newest' | 'oldest' | 'steps-asc' | 'steps-desc' | 'family';

export const EMPTY_FILTER: EpisodeFilter = {
  family: '', outcome: '', agent: '', minSteps: null, maxSteps: null, labels: '', since: '', search: '',
  run: '', eval: '', experiment: '', arm: '', hideEvalExperiment: false,
};

/** The provenance fields a filter can pick, as the rows name them. */
export const PROVENANCE_FILTERS = ['run', 'eval', 'experiment', 'arm'] as const;

export function matches(e: EpisodeRow, f: EpisodeFilter): boolean {
  if (f.family && e.family !== f.family) return false;
  if (f.outcome && e.outcome !== f.outcome) return false;
  if (f.agent && e.agent !== f.agent) return false;
  if (f.minSteps !== null && e.steps < f.minSteps) return false;
  if (f.maxSteps !== null && e.steps > f.maxSteps) return false;
  if (f.labels === 'labeled' && e.labeledSteps === 0 && e.tags.length === 0) return false;
  if (f.labels === 'unlabeled' && (e.labeledSteps > 0 || e.tags.length > 0)) return false;
  if (f.labels.startsWith('tag:') && !e.tags.includes(f.labels.slice(4))) return false;
  if (f.since && e.createdAt < f.since) return false;
  // Rows indexed before provenance was listed have none: they match no provenance filter.
  const p = e.provenance;
  for (const k of PROVENANCE_FILTERS) if (f[k] && p?.[k] !== f[k]) return false;
  if (f.hideEvalExperiment && (p?.eval || p?.experiment)) return false;
  if (f.search) {
    const q = f.search.toLowerCase();
    if (!e.instruction.toLowerCase().includes(q) && !e.id.toLowerCase().includes(q) && !String(e.seed).includes(q)) return false;
  }
  return true;
}

/** Query the index: an indexed where/orderBy does the coarse work, a predicate the rest. */
export async function queryEpisodes(db: LabDb, f: EpisodeFilter, sort: SortKey): Promise<EpisodeRow[]> {
  const byIndex = sort === 'steps-asc' || sort === 'steps-desc' ? 'steps' : sort === 'family' ? 'family' : 'createdAt';
  let rows: EpisodeRow[];
  if (f.family && byIndex === 'createdAt') {
    rows = await db.episodes.where('family').equals(f.family).filter((e) => matches(e, f)).toArray();
    rows.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  } else {
    rows = await db.episodes.orderBy(byIndex).filter((e) => matches(e, f)).toArray();
  }
  if (sort === 'newest' || sort === 'steps-desc') rows.reverse();
  return rows;
}
