/**
 * Curation: filter the lab's episodes, drop duplicates, split by task instance, and freeze the
 * result as the next version of a named dataset. `previewDataset` is the same without writing,
 * for a UI that shows the composition while the filter is edited.
 */
import type { LabStore } from '../store/lab.ts';
import { DatasetError } from './errors.ts';
import { isOrphan, labelBlindEpisodes, loadEpisodeInfos, matchesFilter, parseFilter, type DatasetFilter, type EpisodeInfo } from './filter.ts';
import { fileSha256 } from './hash.ts';
import {
  MANIFEST_FORMAT,
  MANIFEST_VERSION,
  episodeFile,
  labelsFile,
  validateDatasetName,
  writeNextVersion,
  type DatasetManifest,
  type DatasetStats,
  type ManifestEpisode,
} from './manifest.ts';
import { freezeChecks, type FreezeWarning } from './freeze-checks.ts';
import { checkRatios, dedupeEpisodes, DEFAULT_RATIOS, splitOf, SPLITS, type SplitName, type SplitRatios } from './split.ts';

export interface CurateRequest {
  filter?: DatasetFilter;
  ratios?: SplitRatios;
  /** Families evaluations hold out (TaskFamily.heldOut), for the freeze checks; default none. */
  heldOutFamilies?: readonly string[];
}

export interface CurateResult {
  episodes: Array<EpisodeInfo & { split: SplitName }>;
  dropped: Array<{ id: string; duplicateOf: string }>;
  /** Episodes the filter matched before deduplication. */
  matched: number;
  /** Orphans (no step, no end record) the filter matched and left out; 0 with includeOrphans. */
  orphans: number;
  /** Episode files that could not be read (skipped). */
  errors: string[];
  /**
   * Episodes kept without their labels, whose labels file could not be read (file and line), and
   * steps of kept episodes whose screenshot file is missing (exports leave those steps out).
   */
  warnings: string[];
  /** Episodes whose unreadable labels the filter's tags depend on (./filter.ts labelBlindEpisodes), each named by its problem: a freeze refuses while there are any. */
  labelBlind: string[];
  /** What a person should confirm before freezing: empty splits, held-out families or test seeds in train. */
  checks: FreezeWarning[];
  stats: DatasetStats;
}

export function previewDataset(lab: LabStore, req: CurateRequest = {}): CurateResult {
  const filter = parseFilter(req.filter ?? {});
  const ratios = checkRatios(req.ratios ?? DEFAULT_RATIOS);
  const { infos, errors, warnings } = loadEpisodeInfos(lab);
  if (filter.ids) {
    const known = new Set(infos.map((e) => e.id));
    const unknown = filter.ids.filter((id) => !known.has(id));
    if (unknown.length) throw new DatasetError(`filter ids: no readable episode ${unknown.join(', ')} in ${lab.dir}`);
  }
  const all = infos.filter((e) => matchesFilter(e, filter));
  const matched = filter.includeOrphans ? all : all.filter((e) => !isOrphan(e));
  const { kept, dropped } = dedupeEpisodes(matched);
  const episodes = kept.map((e) => ({ ...e, split: splitOf(e.family, e.seed, ratios) }));
  const missing = episodes.flatMap((e) => e.missingScreenshots.map((m) => `episode ${e.id} step ${m.step}: screenshot ${lab.blobs.pathOf(m.sha256)} is missing (recorded in the manifest; exports leave the step out)`));
  const checks = freezeChecks(episodes, ratios, new Set(req.heldOutFamilies ?? []));
  const labelBlind = labelBlindEpisodes(infos, filter).map((e) => e.labelsProblem!);
  return { episodes, dropped, matched: matched.length, orphans: all.length - matched.length, errors, warnings: [...warnings, ...missing], checks, stats: computeStats(episodes), labelBlind };
}

export interface CreateDatasetRequest extends CurateRequest {
  name: string;
  description?: string;
  /**
   * Called with the freeze checks of exactly the selection about to be frozen, before anything is
   * written: throw to refuse (the app until a person confirms, the CLI unless a flag allows it).
   */
  confirm?: (checks: readonly FreezeWarning[]) => void;
}

export interface CreateDatasetResult {
  manifest: DatasetManifest;
  matched: number;
  dropped: number;
  /** Orphaned episodes (no step, no end record) left out. */
  orphans: number;
  errors: string[];
  warnings: string[];
  /** The freeze checks the selection raised (the caller decided to freeze anyway). */
  checks: FreezeWarning[];
}

/** The agents the lab's episodes were recorded with, to say what an agent filter could have named. */
function agentsOf(lab: LabStore): string[] {
  return [...new Set(loadEpisodeInfos(lab).infos.map((e) => e.agent))].sort();
}

/** Freeze the selection as lab/datasets/<name>/v<N>/manifest.json (N = the next version). */
export function createDataset(lab: LabStore, req: CreateDatasetRequest): CreateDatasetResult {
  const name = validateDatasetName(req.name);
  const filter = parseFilter(req.filter ?? {});
  const ratios = checkRatios(req.ratios ?? DEFAULT_RATIOS);
  const preview = previewDataset(lab, { filter, ratios, heldOutFamilies: req.heldOutFamilies });
  if (preview.labelBlind.length) {
    throw new DatasetError(`dataset ${name}: not frozen: the filter selects by tags, and the labels of ${preview.labelBlind.length} episode(s) it could select cannot be read in full, so their tags are unknown: ${preview.labelBlind.join('; ')}. Repair or remove those labels files (or leave the tags out of the filter)`);
  }
  req.confirm?.(preview.checks);
  if (!preview.episodes.length) {
    const why = preview.matched
      ? `all ${preview.matched} matching episodes were duplicates`
      : preview.orphans
        ? `the filter matches only ${preview.orphans} orphaned episodes (no step, no end record; includeOrphans keeps them)`
        : `the filter matches no episode${filter.agents ? ` (agents of this lab's episodes: ${agentsOf(lab).join(', ') || 'none'})` : ''}`;
    throw new DatasetError(`dataset ${name}: nothing to freeze: ${why} (filter ${JSON.stringify(filter)}, lab ${lab.dir})`);
  }
  // Hash now, so later edits to an episode or its labels are caught when the dataset is read.
  const episodes: ManifestEpisode[] = preview.episodes.map((e) => {
    const episodeSha256 = fileSha256(episodeFile(lab.dir, e.id));
    if (!episodeSha256) throw new DatasetError(`dataset ${name}: episode ${e.id} disappeared while the dataset was being created`);
    return {
      id: e.id,
      family: e.family,
      seed: e.seed,
      tier: e.tier,
      agent: e.agent,
      outcome: e.outcome,
      steps: e.steps,
      split: e.split,
      episodeSha256,
      labelsSha256: fileSha256(labelsFile(lab.dir, e.id)),
      ...(e.missingScreenshots.length ? { missingScreenshots: e.missingScreenshots } : {}),
    };
  });
  const manifest = writeNextVersion(lab.dir, name, (version) => ({
    format: MANIFEST_FORMAT,
    formatVersion: MANIFEST_VERSION,
    name,
    version,
    createdAt: new Date().toISOString(),
    ...(req.description ? { description: req.description } : {}),
    filter,
    split: { by: 'family+seed', ratios },
    dedupe: { dropped: preview.dropped.length, droppedIds: preview.dropped },
    episodes,
    stats: preview.stats,
  }));
  return { manifest, matched: preview.matched, dropped: preview.dropped.length, orphans: preview.orphans, errors: preview.errors, warnings: preview.warnings, checks: preview.checks };
}

function bump(counts: Record<string, number>, key: string | number, by = 1): void {
  counts[String(key)] = (counts[String(key)] ?? 0) + by;
}

export function computeStats(episodes: ReadonlyArray<Pick<EpisodeInfo, 'family' | 'seed' | 'tier' | 'outcome' | 'agent' | 'steps'> & { split: SplitName }>): DatasetStats {
  const s: DatasetStats = {
    episodes: episodes.length,
    steps: 0,
    instances: new Set(episodes.map((e) => `${e.family}\u0000${e.seed}`)).size,
    byFamily: {},
    byTier: {},
    byOutcome: {},
    byAgent: {},
    bySplit: Object.fromEntries(SPLITS.map((x) => [x, 0])),
    stepsBySplit: Object.fromEntries(SPLITS.map((x) => [x, 0])),
  };
  for (const e of episodes) {
    s.steps += e.steps;
    bump(s.byFamily, e.family);
    bump(s.byTier, e.tier);
    bump(s.byOutcome, e.outcome);
    bump(s.byAgent, e.agent);
    bump(s.bySplit, e.split);
    bump(s.stepsBySplit, e.split, e.steps);
  }
  return s;
}
