/**
 * Which episodes a dataset takes: a plain filter (stored in the manifest, so a dataset says how it
 * was made) and the per-episode facts it is matched against, with the manual labels applied.
 */
import { z } from 'zod';
import { statusOf, type EpisodeStatus, type LabStore } from '../store/lab.ts';
import { LabelStore, type EpisodeLabels } from '../store/labels.ts';
import { DatasetError } from './errors.ts';

/** 'cancelled': stopped by a person or Ctrl-C, neither success nor failure (see matchesFilter). */
export const OUTCOMES = ['success', 'failure', 'incomplete', 'cancelled'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const datasetFilterSchema = z
  .object({
    families: z.array(z.string().min(1)).optional(),
    /**
     * Outcome after the label override: a person's verdict wins over the checker's. Without it,
     * every outcome but 'cancelled' matches: a stopped episode is no example of anything.
     */
    statuses: z.array(z.enum(OUTCOMES)).optional(),
    agents: z.array(z.string().min(1)).optional(),
    minSteps: z.number().int().min(0).optional(),
    maxSteps: z.number().int().min(0).optional(),
    /** Every one of these tags must be on the episode. */
    tags: z.array(z.string().min(1)).optional(),
    /** None of these tags may be on the episode (e.g. `branch`: the branching episodes of `lab mine --confirm`). */
    excludeTags: z.array(z.string().min(1)).optional(),
    /** ISO dates or times; `since` inclusive, `until` exclusive. */
    since: z.string().optional(),
    until: z.string().optional(),
    ids: z.array(z.string().min(1)).optional(),
    /** Case-insensitive substring of the task instruction. */
    search: z.string().optional(),
    /**
     * Keep orphans: episodes with no step and no end record, what a run killed right after it
     * opened an episode leaves. Left out by default; they hold nothing to train on.
     */
    includeOrphans: z.boolean().optional(),
  })
  .strict();
export type DatasetFilter = z.infer<typeof datasetFilterSchema>;

/** What curation needs to know about one episode, read once from the lab. */
export interface EpisodeInfo {
  id: string;
  family: string;
  seed: number;
  tier: number;
  /** Whether the task seed is a train or a test seed of its family (held-out families: test only). */
  taskSplit: 'train' | 'test' | 'other';
  agent: string;
  createdAt: string;
  instruction: string;
  steps: number;
  /** The checker's verdict, or the label override when a person set one. */
  outcome: Outcome;
  tags: string[];
  /** The recorded action strings, in order (dedupe compares them). */
  actions: string[];
  /** The episode has its end record (false: the run stopped mid-episode). */
  ended: boolean;
  /** Steps whose recorded screenshot is not in the blob store (deleted, or lost with a disk). */
  missingScreenshots: Array<{ step: number; sha256: string }>;
  /** Why the episode's labels could not be read (file and line), when they could not: it is listed without them. */
  labelsProblem?: string;
  /** The episode this one is a verified shortening of (trajectory shortening), if it is one. */
  shortenedFrom?: string;
}

/** No step and no end: a run killed right after it opened the episode file. */
export const isOrphan = (e: Pick<EpisodeInfo, 'steps' | 'ended'>): boolean => e.steps === 0 && !e.ended;

/**
 * Read every episode with its labels. Unreadable episodes are returned as errors, not fatal; an
 * episode whose labels file cannot be read is kept without its labels, with a warning.
 */
export function loadEpisodeInfos(lab: LabStore): { infos: EpisodeInfo[]; errors: string[]; warnings: string[] } {
  const labels = new LabelStore(lab.dir);
  const infos: EpisodeInfo[] = [];
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const id of lab.episodeIds()) {
    try {
      const e = lab.readEpisode(id);
      const { labels: l, problem } = labels.readOrReport(id);
      if (problem) warnings.push(problem);
      infos.push({
        id,
        family: e.header.task.family,
        seed: e.header.task.seed,
        tier: e.header.task.tier,
        taskSplit: e.header.task.split,
        agent: e.header.agent.name,
        createdAt: e.header.createdAt,
        instruction: e.header.task.instruction,
        steps: e.steps.length,
        outcome: effectiveOutcome(judgedStatus(lab, id, e), l),
        tags: l.tags,
        actions: e.steps.map((s) => s.action),
        ended: !!e.end,
        missingScreenshots: e.steps.flatMap((s) => (s.observation.screenshot && !lab.blobs.has(s.observation.screenshot) ? [{ step: s.index, sha256: s.observation.screenshot }] : [])),
        ...(problem ? { labelsProblem: problem } : {}),
        ...(e.header.links?.shortenedFrom ? { shortenedFrom: e.header.links.shortenedFrom } : {}),
      });
    } catch (err) {
      errors.push(`episode ${id}: ${(err as Error).message}`);
    }
  }
  return { infos, errors, warnings };
}

/** The checker's status; judged tasks (imported benchmarks) take the judge's latest verdict as their checker. */
function judgedStatus(lab: LabStore, id: string, e: ReturnType<LabStore['readEpisode']>): EpisodeStatus {
  const status = statusOf(e.end);
  if (status === 'incomplete' || status === 'cancelled' || e.header.task.checker !== 'judge') return status;
  return lab.judgments.latest(id)?.verdict === 'success' ? 'success' : 'failure';
}

export function effectiveOutcome(status: EpisodeStatus, labels: EpisodeLabels): Outcome {
  return labels.outcome ?? status;
}

function parseDate(value: string, field: string): number {
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new DatasetError(`filter ${field}: not a date: "${value}"`);
  return t;
}

/** Validate a filter (from the UI or the CLI) and turn bad values into messages naming the field. */
export function parseFilter(input: unknown): DatasetFilter {
  const r = datasetFilterSchema.safeParse(input);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new DatasetError(`filter ${issue.path.join('.') || '(filter)'}: ${issue.message}`);
  }
  const f = r.data;
  if (f.since) parseDate(f.since, 'since');
  if (f.until) parseDate(f.until, 'until');
  if (f.minSteps !== undefined && f.maxSteps !== undefined && f.minSteps > f.maxSteps) {
    throw new DatasetError(`filter: minSteps (${f.minSteps}) is above maxSteps (${f.maxSteps})`);
  }
  return f;
}

/**
 * An agent filter names an agent as recorded (`oracle:shop`, the shop oracle) or its kind before the
 * colon (`oracle`: every family's oracle), as a person asking for the oracle's episodes means.
 */
export function agentMatches(recorded: string, wanted: string): boolean {
  return recorded === wanted || recorded.startsWith(`${wanted}:`);
}

/**
 * Episodes whose unreadable labels could change what a filter selects: the filter selects by tags
 * (or excludes by them) and the episode matches everything else. Freezing with them would include
 * or leave out an episode on labels nobody could read, so a freeze refuses (fails closed).
 */
export function labelBlindEpisodes(infos: readonly EpisodeInfo[], f: DatasetFilter): EpisodeInfo[] {
  if (!f.tags?.length && !f.excludeTags?.length) return [];
  const rest = { ...f, tags: undefined, excludeTags: undefined };
  return infos.filter((e) => e.labelsProblem && matchesFilter(e, rest));
}

export function matchesFilter(e: EpisodeInfo, f: DatasetFilter): boolean {
  if (f.ids && !f.ids.includes(e.id)) return false;
  if (f.families && !f.families.includes(e.family)) return false;
  if (f.statuses ? !f.statuses.includes(e.outcome) : e.outcome === 'cancelled') return false;
  if (f.agents && !f.agents.some((a) => agentMatches(e.agent, a))) return false;
  if (f.minSteps !== undefined && e.steps < f.minSteps) return false;
  if (f.maxSteps !== undefined && e.steps > f.maxSteps) return false;
  if (f.tags && !f.tags.every((t) => e.tags.includes(t))) return false;
  if (f.excludeTags && f.excludeTags.some((t) => e.tags.includes(t))) return false;
  const created = Date.parse(e.createdAt);
  if (f.since && !(created >= parseDate(f.since, 'since'))) return false;
  if (f.until && !(created < parseDate(f.until, 'until'))) return false;
  if (f.search && !e.instruction.toLowerCase().includes(f.search.toLowerCase())) return false;
  return true;
}
