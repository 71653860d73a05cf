/**
 * Manual labels as plain data, shared by the lab (main/store/labels.ts) and the renderer:
 * label events, and their fold into an episode's current labels.
 */

export const STEP_LABELS = ['ok', 'detour', 'wrong', 'critical'] as const;
export type StepLabel = (typeof STEP_LABELS)[number];

export type LabelEvent =
  | { type: 'step'; step: number; label: StepLabel | null; at: string }
  | { type: 'correction'; step: number; action: string | null; at: string }
  /** A person's comment on one step (what they saw there, why it went wrong); null clears it. */
  | { type: 'comment'; step: number; text: string | null; at: string }
  | { type: 'episode'; outcome?: 'success' | 'failure' | null; tags?: string[]; note?: string; at: string };

export type LabelEdit = LabelEvent extends infer E ? (E extends { at: string } ? Omit<E, 'at'> : never) : never;

export interface EpisodeLabels {
  steps: Record<number, StepLabel>;
  corrections: Record<number, string>;
  comments: Record<number, string>;
  outcome: 'success' | 'failure' | null;
  tags: string[];
  note: string;
  edits: number;
}

export function emptyLabels(): EpisodeLabels {
  return { steps: {}, corrections: {}, comments: {}, outcome: null, tags: [], note: '', edits: 0 };
}

/** The labels after one more edit (a new object; the input is left as it was). */
export function applyLabelEdit(labels: EpisodeLabels, e: LabelEdit): EpisodeLabels {
  const out: EpisodeLabels = { ...labels, steps: { ...labels.steps }, corrections: { ...labels.corrections }, comments: { ...labels.comments }, edits: labels.edits + 1 };
  if (e.type === 'step') {
    if (e.label === null) delete out.steps[e.step];
    else out.steps[e.step] = e.label;
  } else if (e.type === 'correction') {
    if (e.action === null) delete out.corrections[e.step];
    else out.corrections[e.step] = e.action;
  } else if (e.type === 'comment') {
    if (e.text === null || !e.text.trim()) delete out.comments[e.step];
    else out.comments[e.step] = e.text;
  } else {
    if (e.outcome !== undefined) out.outcome = e.outcome;
    if (e.tags !== undefined) out.tags = [...new Set(e.tags)];
    if (e.note !== undefined) out.note = e.note;
  }
  return out;
}

export function foldLabels(events: readonly LabelEvent[]): EpisodeLabels {
  return events.reduce(applyLabelEdit, emptyLabels());
}
