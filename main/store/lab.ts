/**
 * The lab folder, the workbench's source of truth:
 *   episodes/<id>.jsonl   one append-only event stream per episode
 *   blobs/<ab>/<sha256>.png  screenshots, stored once
 * Everything is readable without the app.
 */
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { stampedId } from './stamped-id.ts';
import { BlobStore } from './blobs.ts';
import { JsonlAppender, readJsonl } from './jsonl.ts';
import { JudgmentStore } from './judgments.ts';
import { assertLabDirUsable } from './lab-dir.ts';
import { provenanceOf, type Provenance } from './provenance.ts';
import {
  FORMAT_VERSION,
  episodeLineSchema,
  type EndRecord,
  type EpisodeHeader,
  type StepRecord,
} from './schema.ts';
import { labPaths } from './layout.ts';
import { readJsonFile, writeFileAtomic } from './json-file.ts';
import { z } from 'zod';

export interface EpisodeData {
  header: EpisodeHeader;
  steps: StepRecord[];
  /** Absent when the run stopped before the episode ended. */
  end?: EndRecord;
  warnings: string[];
  path: string;
}

/**
 * An episode's outcome: the checker's verdict, 'incomplete' when the run stopped before its end
 * record, 'cancelled' when someone stopped it (Ctrl-C, a demonstration left): neither a success
 * nor a failure, and kept out of datasets unless asked for.
 */
export const EPISODE_STATUSES = ['success', 'failure', 'incomplete', 'cancelled'] as const;
export type EpisodeStatus = (typeof EPISODE_STATUSES)[number];

/** The status an episode's end record gives it (absent: incomplete). */
export function statusOf(end: Pick<EndRecord, 'success' | 'reason'> | undefined): EpisodeStatus {
  if (!end) return 'incomplete';
  if (end.success) return 'success';
  return end.reason === 'cancelled' ? 'cancelled' : 'failure';
}

export interface EpisodeSummary {
  id: string;
  path: string;
  family: string;
  seed: number;
  tier: number;
  agent: string;
  instruction: string;
  split: string;
  createdAt: string;
  steps: number;
  durationMs: number | null;
  /**
   * For tasks with a site or page checker, its outcome. For judged tasks (imported from public
   * benchmarks) the latest readable judge verdict; 'failure' until judged (see `judge`).
   */
  status: EpisodeStatus;
  /** Run, attempt, arm, evaluation, experiment and policy it came from; null where unknown. */
  provenance: Provenance;
  /** Judged tasks only: the verdict in lab/judgments/, or 'unjudged'. */
  judge?: 'success' | 'failure' | 'unjudged';
  warnings: string[];
}

export class LabStore {
  readonly blobs: BlobStore;
  readonly judgments: JudgmentStore;
  readonly episodesDir: string;

  constructor(readonly dir: string) {
    assertLabDirUsable(dir);
    this.episodesDir = labPaths.episodes(dir);
    this.blobs = new BlobStore(labPaths.blobs(dir));
    this.judgments = new JudgmentStore(dir);
    mkdirSync(this.episodesDir, { recursive: true });
  }

  /** Start a new episode file; returns a writer that appends steps as they happen. */
  createEpisode(header: Omit<EpisodeHeader, 'type' | 'version' | 'id' | 'createdAt'> & { id?: string }): EpisodeWriter {
    const id = header.id ?? newEpisodeId();
    const full: EpisodeHeader = { type: 'episode', version: FORMAT_VERSION, createdAt: new Date().toISOString(), ...header, id };
    const path = this.episodePath(id);
    return new EpisodeWriter(id, path, full);
  }

  episodePath(id: string): string {
    return labPaths.episodeFile(this.dir, id);
  }

  readEpisode(id: string): EpisodeData {
    const path = this.episodePath(id);
    if (!existsSync(path)) throw new Error(`no episode ${id} in ${this.episodesDir} (\`lab episodes list\` shows the ids)`);
    return readEpisodeFile(path);
  }

  episodeIds(): string[] {
    return readdirSync(this.episodesDir)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => f.slice(0, -'.jsonl'.length))
      .sort();
  }

  /**
   * Every episode, newest first. Unreadable files are reported, not fatal. Summaries are cached
   * by file size and mtime, so listing a large lab reads only what changed.
   */
  listEpisodes(): { episodes: EpisodeSummary[]; errors: string[] } {
    const episodes: EpisodeSummary[] = [];
    const errors: string[] = [];
    const cache = this.loadSummaryCache();
    const fresh: Record<string, CachedSummary> = {};
    for (const id of this.episodeIds()) {
      const path = this.episodePath(id);
      try {
        const st = statSync(path);
        const hit = cache[id];
        let summary: EpisodeSummary;
        if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) summary = hit.summary;
        else summary = summarise(this.readEpisode(id));
        fresh[id] = { size: st.size, mtimeMs: st.mtimeMs, summary };
        // Verdicts live beside the episode file, so they are read fresh, not cached with it.
        const undecided = summary.status === 'incomplete' || summary.status === 'cancelled';
        episodes.push(summary.judge && !undecided ? withVerdict(summary, this.judgments.latest(id)?.verdict) : summary);
      } catch (err) {
        errors.push((err as Error).message);
      }
    }
    this.saveSummaryCache(fresh);
    episodes.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
    return { episodes, errors };
  }

  private get summaryCachePath(): string {
    return join(this.dir, '.cache', 'episode-summaries.json');
  }

  private loadSummaryCache(): Record<string, CachedSummary> {
    try {
      const data = readJsonFile(this.summaryCachePath, SummaryCacheFile);
      return data.version === SUMMARY_CACHE_VERSION ? (data.entries as Record<string, CachedSummary>) : {};
    } catch {
      return {}; // missing or damaged: it is only a cache
    }
  }

  private saveSummaryCache(entries: Record<string, CachedSummary>): void {
    try {
      mkdirSync(join(this.dir, '.cache'), { recursive: true });
      writeFileAtomic(this.summaryCachePath, JSON.stringify({ version: SUMMARY_CACHE_VERSION, entries }));
    } catch {
      // A read-only lab still lists; it just cannot remember.
    }
  }
}

// 2: summaries carry provenance and the 'cancelled' status.
const SUMMARY_CACHE_VERSION = 2;
/** The cache's envelope; its entries are trusted as far as the version says (it is only a cache). */
const SummaryCacheFile = z.object({ version: z.number(), entries: z.record(z.string(), z.unknown()) });
interface CachedSummary {
  size: number;
  mtimeMs: number;
  summary: EpisodeSummary;
}

function summarise(e: EpisodeData): EpisodeSummary {
  return {
    id: e.header.id,
    path: e.path,
    family: e.header.task.family,
    seed: e.header.task.seed,
    tier: e.header.task.tier,
    agent: e.header.agent.name,
    instruction: e.header.task.instruction,
    split: e.header.task.split,
    createdAt: e.header.createdAt,
    steps: e.end?.steps ?? e.steps.length,
    durationMs: e.end?.durationMs ?? null,
    status: statusOf(e.end),
    provenance: provenanceOf(e.header),
    ...(e.header.task.checker === 'judge' ? { judge: 'unjudged' as const } : {}),
    warnings: e.warnings,
  };
}

function withVerdict(summary: EpisodeSummary, verdict: 'success' | 'failure' | null | undefined): EpisodeSummary {
  if (!verdict) return { ...summary, judge: 'unjudged', status: 'failure' };
  return { ...summary, judge: verdict, status: verdict };
}

export function readEpisodeFile(path: string): EpisodeData {
  const { records, warnings } = readJsonl(path, episodeLineSchema);
  const [header, ...rest] = records;
  if (!header) throw new Error(`${path}: empty episode file`);
  if (header.type !== 'episode') throw new Error(`${path}:1: the first line must be the episode header, found a "${header.type}" record`);
  const steps: StepRecord[] = [];
  let end: EndRecord | undefined;
  rest.forEach((r, i) => {
    const line = i + 2;
    if (r.type === 'episode') throw new Error(`${path}:${line}: a second episode header`);
    if (end) throw new Error(`${path}:${line}: a record after the end of the episode`);
    if (r.type === 'step') {
      if (r.index !== steps.length) throw new Error(`${path}:${line}: field index: expected step ${steps.length}, found ${r.index}`);
      steps.push(r);
    } else end = r;
  });
  return { header, steps, end, warnings, path };
}

export class EpisodeWriter {
  private out: JsonlAppender;
  private stepCount = 0;

  constructor(
    readonly id: string,
    readonly path: string,
    readonly header: EpisodeHeader,
  ) {
    statSync(join(path, '..'));
    this.out = new JsonlAppender(path);
    this.out.append(header);
  }

  get steps(): number {
    return this.stepCount;
  }

  step(record: Omit<StepRecord, 'type' | 'index' | 'at'>): void {
    this.out.append({ type: 'step', index: this.stepCount++, ...record, at: new Date().toISOString() });
  }

  end(record: Omit<EndRecord, 'type' | 'at' | 'steps'>): void {
    this.out.append({ type: 'end', ...record, steps: this.stepCount, at: new Date().toISOString() });
    this.out.close();
  }

  /** Close without an end record (the episode stays 'incomplete'). */
  abandon(): void {
    this.out.close();
  }
}

/** Sortable, unique episode ids: time first so a directory listing is chronological. */
export function newEpisodeId(): string {
  return stampedId(4);
}
