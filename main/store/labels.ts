/**
 * Manual labels, written through from the app: lab/labels/<episodeId>.jsonl, one event per edit
 * (append-only, so undo and history are free and a crash loses at most the last edit).
 * The current labels of an episode are the fold of its events.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { JsonlAppender, readJsonl } from './jsonl.ts';
import { withFileLock } from './file-lock.ts';
import { STEP_LABELS, emptyLabels, foldLabels, type EpisodeLabels, type LabelEdit, type LabelEvent } from '../../preload/label-model.ts';
import { checkLabId, labPaths } from './layout.ts';

export { STEP_LABELS, emptyLabels, foldLabels, type EpisodeLabels, type LabelEdit, type LabelEvent, type StepLabel } from '../../preload/label-model.ts';

/** What each kind of edit holds, with the sizes the app accepts. */
const EDIT_FIELDS = {
  step: {
    type: z.literal('step'),
    step: z.number().int().min(0),
    /** null clears the label. */
    label: z.enum(STEP_LABELS).nullable(),
  },
  correction: {
    type: z.literal('correction'),
    step: z.number().int().min(0),
    /** The action that should have been taken; null clears it. */
    action: z.string().max(10_000).nullable(),
  },
  comment: {
    type: z.literal('comment'),
    step: z.number().int().min(0),
    /** A person's comment on the step; null clears it. */
    text: z.string().max(100_000).nullable(),
  },
  episode: {
    type: z.literal('episode'),
    /** Overrides the checker's verdict; null goes back to it. */
    outcome: z.enum(['success', 'failure']).nullable().optional(),
    tags: z.array(z.string().min(1).max(200)).optional(),
    note: z.string().max(100_000).optional(),
  },
};

/** An edit as the API receives it (nothing else allowed). */
export const labelEditSchema = z.discriminatedUnion('type', [
  z.object(EDIT_FIELDS.step).strict(), z.object(EDIT_FIELDS.correction).strict(), z.object(EDIT_FIELDS.comment).strict(), z.object(EDIT_FIELDS.episode).strict(),
]);

/** An edit as stored: the same, with the time it was made. */
export const labelEventSchema = z.discriminatedUnion('type', [
  z.object({ ...EDIT_FIELDS.step, at: z.string() }), z.object({ ...EDIT_FIELDS.correction, at: z.string() }), z.object({ ...EDIT_FIELDS.comment, at: z.string() }),
  z.object({ ...EDIT_FIELDS.episode, at: z.string() }),
]);
// The schema and the model's LabelEvent type describe the same records; keep them in step.
const _sameShape: (e: z.infer<typeof labelEventSchema>) => LabelEvent = (e) => e;
void _sameShape;

export class LabelStore {
  readonly dir: string;

  constructor(labDir: string) {
    this.dir = labPaths.labels(labDir);
    mkdirSync(this.dir, { recursive: true });
  }

  private path(episodeId: string): string {
    checkLabId(episodeId, 'episode');
    return join(this.dir, `${episodeId}.jsonl`);
  }

  events(episodeId: string): LabelEvent[] {
    const p = this.path(episodeId);
    return existsSync(p) ? readJsonl(p, labelEventSchema).records : [];
  }

  read(episodeId: string): EpisodeLabels {
    return foldLabels(this.events(episodeId));
  }

  /**
   * For lists and datasets, where one damaged labels file must not hide its episode: the labels,
   * or none and the reason (naming file and line) when the file cannot be read.
   */
  readOrReport(episodeId: string): { labels: EpisodeLabels; problem: string | null } {
    try {
      return { labels: this.read(episodeId), problem: null };
    } catch (err) {
      return { labels: emptyLabels(), problem: `episode ${episodeId}: labels not applied: ${(err as Error).message}` };
    }
  }

  /** Validate and append one edit; returns the labels after it. */
  append(episodeId: string, edit: LabelEdit): EpisodeLabels {
    const event = labelEventSchema.parse({ ...edit, at: new Date().toISOString() });
    // Under the file's lock: the app and the CLI (or two web servers) may label one episode at once.
    return withFileLock(this.path(episodeId), () => {
      // An edit appended to a file that cannot be read would be written yet reported as failed, and
      // stay without effect: refuse it, naming the damage, before writing anything.
      try {
        this.events(episodeId);
      } catch (err) {
        throw new Error(`label edit not saved: ${(err as Error).message}; repair or remove that file first`);
      }
      const out = new JsonlAppender(this.path(episodeId), true);
      try {
        out.append(event);
      } finally {
        out.close();
      }
      return this.read(episodeId);
    });
  }
}
