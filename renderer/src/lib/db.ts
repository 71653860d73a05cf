/**
 * The renderer's Dexie database: an index and cache of the lab folder (the source of truth),
 * for fast filtering of many episodes and instant label edits.
 */
import { Dexie, type EntityTable } from 'dexie';
import type { EpisodeRow } from '../../../preload/api.ts';
import type { EpisodeLabels } from '../../../preload/label-model.ts';

export interface LabelsRow {
  id: string;
  labels: EpisodeLabels;
}

export class LabDb extends Dexie {
  episodes!: EntityTable<EpisodeRow, 'id'>;
  labels!: EntityTable<LabelsRow, 'id'>;

  constructor(name = 'agent-lab') {
    super(name);
    this.version(1).stores({
      episodes: 'id, createdAt, family, agent, outcome, steps, tier, split, *tags, labeledSteps',
      labels: 'id',
    });
  }
}

export const db = new LabDb();

/** Bring the index in line with the lab: add and update rows, drop episodes that are gone. */
export async function syncEpisodes(rows: EpisodeRow[]): Promise<void> {
  await db.transaction('rw', db.episodes, async () => {
    const keep = new Set(rows.map((r) => r.id));
    const stale = (await db.episodes.toCollection().primaryKeys()).filter((id) => !keep.has(id));
    await db.episodes.bulkDelete(stale);
    await db.episodes.bulkPut(rows);
  });
}
