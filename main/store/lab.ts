/**
 * The lab folder, the workbench's source of truth:
 *   episodes/<id>.jsonl   one append-only event stream per episode
 *   blobs/<ab>/<sha256>.png  screenshots, stored once
 * Everything is readable without the app.
 */
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { BlobStore } from './blobs.ts';
import { JsonlAppender, readJsonl } from './jsonl.ts';
import {
  FORMAT_VERSION,
  episodeLineSchema,
  type EndRecord,
  type EpisodeHeader,
  type StepRecord,
} from './schema.ts';

export interface EpisodeData {
  header: EpisodeHeader;
  steps: StepRecord[];
  /** Absent when the run stopped before the episode ended. */
  end?: EndRecord;
  warnings: string[];
  path: string;
}

export interface EpisodeSummary {
  id: string;
  path: string;
  family: string;
  seed: number;
  tier: number;
  agent: string;
  createdAt: string;
  steps: number;
  status: 'success' | 'failure' | 'incomplete';
  warnings: string[];
}

export class LabStore {
  readonly blobs: BlobStore;
  readonly episodesDir: string;

  constructor(readonly dir: string) {
    this.episodesDir = join(dir, 'episodes');
    this.blobs = new BlobStore(join(dir, 'blobs'));
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
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`invalid episode id: ${id}`);
    return join(this.episodesDir, `${id}.jsonl`);
  }

  readEpisode(id: string): EpisodeData {
    return readEpisodeFile(this.episodePath(id));
  }

  episodeIds(): string[] {
    return readdirSync(this.episodesDir)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => f.slice(0, -'.jsonl'.length))
      .sort();
  }

  /** Every episode, newest first. Unreadable files are reported, not fatal. */
  listEpisodes(): { episodes: EpisodeSummary[]; errors: string[] } {
    const episodes: EpisodeSummary[] = [];
    const errors: string[] = [];
    for (const id of this.episodeIds()) {
      try {
        const e = this.readEpisode(id);
        episodes.push({
          id,
          path: e.path,
          family: e.header.task.family,
          seed: e.header.task.seed,
          tier: e.header.task.tier,
          agent: e.header.agent.name,
          createdAt: e.header.createdAt,
          steps: e.end?.steps ?? e.steps.length,
          status: !e.end ? 'incomplete' : e.end.success ? 'success' : 'failure',
          warnings: e.warnings,
        });
      } catch (err) {
        errors.push((err as Error).message);
      }
    }
    episodes.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
    return { episodes, errors };
  }
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
  const t = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${t}-${randomBytes(4).toString('hex')}`;
}
