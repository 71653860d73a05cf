/**
 * Label edits with undo: each edit is saved at once to Dexie and written through to the lab
 * folder; undo writes the inverse edit (the lab keeps the whole history).
 */
import type { Api } from './api.ts';
import type { LabDb } from './db.ts';
import { applyLabelEdit, emptyLabels, type EpisodeLabels, type LabelEdit } from '../../../preload/label-model.ts';

export function inverseOf(edit: LabelEdit, before: EpisodeLabels): LabelEdit {
  switch (edit.type) {
    case 'step':
      return { type: 'step', step: edit.step, label: before.steps[edit.step] ?? null };
    case 'correction':
      return { type: 'correction', step: edit.step, action: before.corrections[edit.step] ?? null };
    case 'comment':
      return { type: 'comment', step: edit.step, text: before.comments[edit.step] ?? null };
    case 'episode':
      return {
        type: 'episode',
        ...(edit.outcome !== undefined ? { outcome: before.outcome } : {}),
        ...(edit.tags !== undefined ? { tags: before.tags } : {}),
        ...(edit.note !== undefined ? { note: before.note } : {}),
      };
  }
}

export class Labeler {
  labels: EpisodeLabels = emptyLabels();
  private undoStack: LabelEdit[] = [];

  constructor(
    private api: Api,
    private db: LabDb,
    readonly episodeId: string,
    private onChange: (labels: EpisodeLabels) => void,
  ) {}

  async load(): Promise<void> {
    const cached = await this.db.labels.get(this.episodeId);
    // Labels cached before a kind of label existed lack its field: the empty value stands in.
    if (cached) this.set({ ...emptyLabels(), ...cached.labels });
    this.set(await this.api.readLabels(this.episodeId));
  }

  get canUndo(): boolean {
    return this.undoStack.length > 0;
  }

  async edit(edit: LabelEdit, recordUndo = true): Promise<void> {
    if (recordUndo) this.undoStack.push(inverseOf(edit, this.labels));
    this.set(applyLabelEdit(this.labels, edit)); // at once, as the lab will fold it, before the round trip
    await this.db.labels.put({ id: this.episodeId, labels: this.labels });
    let confirmed: EpisodeLabels;
    try {
      confirmed = await this.api.editLabels(this.episodeId, edit); // the lab's fold is the truth
    } catch (err) {
      // Refused (a correction naming an element the page did not have) or not written: show what
      // the lab holds, not the optimistic edit, and drop its undo entry.
      if (recordUndo) this.undoStack.pop();
      this.set(await this.api.readLabels(this.episodeId).catch(() => this.labels));
      await this.db.labels.put({ id: this.episodeId, labels: this.labels });
      throw err;
    }
    this.set(confirmed);
    await this.db.labels.put({ id: this.episodeId, labels: this.labels });
    const row = await this.db.episodes.get(this.episodeId);
    if (row) {
      await this.db.episodes.update(this.episodeId, {
        tags: this.labels.tags,
        labeledSteps: Object.keys(this.labels.steps).length,
        outcome: this.labels.outcome ?? row.status,
      });
    }
  }

  async undo(): Promise<void> {
    const inverse = this.undoStack.pop();
    if (inverse) await this.edit(inverse, false);
  }

  private set(labels: EpisodeLabels) {
    this.labels = labels;
    this.onChange(labels);
  }
}
