/**
 * The draft of a dataset's next version, as a person reviewing collected trajectories builds it:
 * episodes accepted into it and episodes rejected out of it, one decision at a time, frozen
 * together as one version when the person says so (a version per click made as many versions as
 * clicks, each a near copy of the one before).
 *
 *   lab/datasets/<name>/draft.json
 *
 * beside the frozen versions, which never change (manifest.ts); listVersions and listDatasetNames
 * see only vN folders, so a draft alone is no dataset yet. The draft is relative to the version
 * that is latest when it is frozen: the new version holds that version's episodes plus the
 * accepted ones, minus the rejected ones. The file is replaced whole on each decision and removed
 * once frozen. Every read-modify-write of it (a decision, a freeze) holds its lock (withDraftLock),
 * so decisions made by two processes on one lab at once are all kept.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { z } from 'zod';
import type { LabStore } from '../store/lab.ts';
import { readJsonFile, writeFileAtomic } from '../store/json-file.ts';
import { withFileLock } from '../store/file-lock.ts';
import { createDataset, type CreateDatasetRequest, type CreateDatasetResult } from './curate.ts';
import { DatasetError } from './errors.ts';
import { datasetDir, listVersions, readManifest, validateDatasetName } from './manifest.ts';
import { datasetFiles } from '../store/lab-files.ts';

/** One episode in a draft, with where the decision was made. */
export interface DraftEntry {
  episodeId: string;
  /** The collection run and task instance it was reviewed under. */
  runId: string;
  task: string;
  at: string;
}

export interface DatasetDraft {
  /** Accepted, and not in the latest version when they were. */
  accepted: DraftEntry[];
  /** Rejected, and in the latest version when they were: the next version leaves them out. */
  rejected: DraftEntry[];
}

const entrySchema = z.object({ episodeId: z.string(), runId: z.string(), task: z.string(), at: z.string() }) satisfies z.ZodType<DraftEntry>;
const draftSchema = z.object({ accepted: z.array(entrySchema), rejected: z.array(entrySchema) }) satisfies z.ZodType<DatasetDraft>;

export const draftFile = (labDir: string, name: string) => datasetFiles(datasetDir(labDir, name)).draft;

export function readDraft(labDir: string, name: string): DatasetDraft {
  const path = draftFile(labDir, name);
  return existsSync(path) ? readJsonFile(path, draftSchema, 'a dataset draft') : { accepted: [], rejected: [] };
}

/** Run `fn` holding the draft's lock: what it reads of the draft and the latest version no other process changes meanwhile. */
export function withDraftLock<T>(labDir: string, name: string, fn: () => T): T {
  mkdirSync(datasetDir(labDir, validateDatasetName(name)), { recursive: true });
  return withFileLock(draftFile(labDir, name), fn);
}

/** Replace the draft; an empty one is no file. Call under withDraftLock when it replaces what was read. */
export function writeDraft(labDir: string, name: string, draft: DatasetDraft): void {
  const path = draftFile(labDir, name);
  if (!draft.accepted.length && !draft.rejected.length) {
    rmSync(path, { force: true });
    return;
  }
  mkdirSync(datasetDir(labDir, name), { recursive: true });
  writeFileAtomic(path, JSON.stringify(draft, null, 2) + '\n');
}

/** The episode ids of the dataset's latest version, and its number (null: none frozen yet). */
export function latestEpisodes(labDir: string, name: string): { version: number | null; ids: string[] } {
  const version = listVersions(labDir, validateDatasetName(name)).at(-1) ?? null;
  if (version === null) return { version, ids: [] };
  return { version, ids: readManifest(labDir, { name, version }, { verify: false }).episodes.map((e) => e.id) };
}

/**
 * A decision applied to a draft (pure). Accepting takes the episode off the rejected list and, unless
 * the latest version holds it already, onto the accepted one; rejecting does the opposite. `changed`
 * says whether the draft is different, so a repeated click can say it changed nothing.
 */
export function applyDecision(draft: DatasetDraft, entry: DraftEntry, decision: 'accept' | 'reject', inLatest: ReadonlySet<string>): { draft: DatasetDraft; changed: boolean } {
  const other = (list: DraftEntry[]) => list.filter((e) => e.episodeId !== entry.episodeId);
  const has = (list: DraftEntry[]) => list.some((e) => e.episodeId === entry.episodeId);
  const next: DatasetDraft = decision === 'accept'
    ? { accepted: inLatest.has(entry.episodeId) || has(draft.accepted) ? draft.accepted : [...draft.accepted, entry], rejected: other(draft.rejected) }
    : { accepted: other(draft.accepted), rejected: !inLatest.has(entry.episodeId) || has(draft.rejected) ? draft.rejected : [...draft.rejected, entry] };
  const changed = next.accepted.length !== draft.accepted.length || next.rejected.length !== draft.rejected.length;
  return { draft: next, changed };
}

export interface FreezeDraftResult extends CreateDatasetResult {
  /** Episodes the new version has that the one before did not, and the ones it left out. */
  added: number;
  removed: number;
}

/** Freeze the draft as the dataset's next version and remove it. Refused when it would change nothing or leave the dataset empty. */
export function freezeDraft(lab: LabStore, name: string, guard: Pick<CreateDatasetRequest, 'confirm' | 'heldOutFamilies'> = {}): FreezeDraftResult {
  // Under the lock from reading the draft to removing it: a decision made meanwhile would be removed unfrozen.
  return withDraftLock(lab.dir, name, () => freezeDraftLocked(lab, name, guard));
}

function freezeDraftLocked(lab: LabStore, name: string, guard: Pick<CreateDatasetRequest, 'confirm' | 'heldOutFamilies'>): FreezeDraftResult {
  const draft = readDraft(lab.dir, name);
  const latest = latestEpisodes(lab.dir, name);
  const dropping = new Set(draft.rejected.map((e) => e.episodeId));
  const ids = [...new Set([...latest.ids, ...draft.accepted.map((e) => e.episodeId)])].filter((id) => !dropping.has(id));
  const before = new Set(latest.ids);
  const added = ids.filter((id) => !before.has(id)).length;
  const removed = latest.ids.length - (ids.length - added);
  if (!added && !removed) throw new DatasetError(`dataset ${name}: the draft changes nothing${latest.version ? ` (v${latest.version} holds every accepted episode)` : ''}; accept a trajectory first`);
  if (!ids.length) throw new DatasetError(`dataset ${name}: the draft rejects every episode of v${latest.version}; a version cannot be empty`);
  const runs = [...new Set([...draft.accepted, ...draft.rejected].map((e) => e.runId))].sort();
  // The same freeze checks as any dataset (held-out families, test seeds in train, empty splits), confirmed the same way.
  const result = createDataset(lab, { name, description: `reviewed from collection run${runs.length > 1 ? 's' : ''} ${runs.join(', ')}`, filter: { ids }, ...guard });
  writeDraft(lab.dir, name, { accepted: [], rejected: [] });
  return { ...result, added, removed };
}
