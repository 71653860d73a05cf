/**
 * Manual labels, written through from the app: lab/labels/<episodeId>.jsonl, one event per edit
 * (append-only, so undo and history are free and a crash loses at most the last edit).
 * The current labels of an episode are the fold of its events.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { JsonlAppender, readJsonl } from './jsonl.ts';

export const STEP_LABELS = ['ok', 'detour', 'wrong', 'critical'] as const;
export type StepLabel = (typeof STEP_LABELS)[number];

export const labelEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('step'),
    step: z.number().int().min(0),
    /** null clears the label. */
    label: z.enum(STEP_LABELS).nullable(),
    at: z.string(),
  }),
  z.object({
    type: z.literal('correction'),
    step: z.number().int().min(0),
    /** The action that should have been taken; null clears it. */
    action: z.string().nullable(),
    at: z.string(),
  }),
  z.object({
    type: z.literal('episode'),
    /** Overrides the checker's verdict; null goes back to it. */
    outcome: z.enum(['success', 'failure']).nullable().optional(),
    tags: z.array(z.string().min(1)).optional(),
    note: z.string().optional(),
    at: z.string(),
  }),
]);
export type LabelEvent = z.infer<typeof labelEventSchema>;
export type LabelEdit = LabelEvent extends infer E ? (E extends { at: string } ? Omit<E, 'at'> : never) : never;

export interface EpisodeLabels {
  steps: Record<number, StepLabel>;
  corrections: Record<number, string>;
  outcome: 'success' | 'failure' | null;
  tags: string[];
  note: string;
  edits: number;
}

export function emptyLabels(): EpisodeLabels {
  return { steps: {}, corrections: {}, outcome: null, tags: [], note: '', edits: 0 };
}

export function foldLabels(events: readonly LabelEvent[]): EpisodeLabels {
  const out = emptyLabels();
  for (const e of events) {
    out.edits++;
    if (e.type === 'step') {
      if (e.label === null) delete out.steps[e.step];
      else out.steps[e.step] = e.label;
    } else if (e.type === 'correction') {
      if (e.action === null) delete out.corrections[e.step];
      else out.corrections[e.step] = e.action;
    } else {
      if (e.outcome !== undefined) out.outcome = e.outcome;
      if (e.tags !== undefined) out.tags = [...new Set(e.tags)];
      if (e.note !== undefined) out.note = e.note;
    }
  }
  return out;
}

export class LabelStore {
  readonly dir: string;

  constructor(labDir: string) {
    this.dir = join(labDir, 'labels');
    mkdirSync(this.dir, { recursive: true });
  }

  private path(episodeId: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(episodeId)) throw new Error(`invalid episode id: ${episodeId}`);
    return join(this.dir, `${episodeId}.jsonl`);
  }

  events(episodeId: string): LabelEvent[] {
    const p = this.path(episodeId);
    return existsSync(p) ? readJsonl(p, labelEventSchema).records : [];
  }

  read(episodeId: string): EpisodeLabels {
    return foldLabels(this.events(episodeId));
  }

  /** Validate and append one edit; returns the labels after it. */
  append(episodeId: string, edit: LabelEdit): EpisodeLabels {
    const event = labelEventSchema.parse({ ...edit, at: new Date().toISOString() });
    const out = new JsonlAppender(this.path(episodeId), true);
    try {
      out.append(event);
    } finally {
      out.close();
    }
    return this.read(episodeId);
  }
}
