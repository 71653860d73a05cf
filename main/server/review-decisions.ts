/**
 * Accepting or rejecting a collected trajectory into a curated dataset.
 *
 * A decision is appended to lab/runs/<run-id>/review.jsonl (what was decided and when) and goes
 * into the dataset's draft of its next version (main/datasets/draft.ts): accepting adds the
 * episode, rejecting takes it out again or, when the latest version holds it, marks it to be left
 * out. Nothing is frozen until the person freezes the draft, which makes one version of all of it
 * (frozen versions are never edited, so a version per click made a version list as long as the
 * clicks). Labels are not touched: tagging the episode would change its labels file and so
 * invalidate every frozen version that already holds it.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import type { LabStore } from '../store/lab.ts';
import { appendJsonlLine, readJsonl } from '../store/jsonl.ts';
import { RunFolder } from '../collection/collect-run.ts';
import { validateDatasetName } from '../datasets/index.ts';
import { applyDecision, freezeDraft, latestEpisodes, readDraft, withDraftLock, writeDraft, type DatasetDraft } from '../datasets/draft.ts';
import type { DecideRequest, DecideResult, FreezeReviewResult, ReviewDecision, ReviewDraft } from '../../preload/views.ts';
import { runFiles } from '../store/lab-files.ts';

export const reviewDecisionSchema = z.object({
  type: z.literal('decision'),
  task: z.string(),
  episodeId: z.string(),
  decision: z.enum(['accept', 'reject']),
  dataset: z.string(),
  /** The dataset version this decision produced; null when the dataset did not change. */
  version: z.number().int().nullable(),
  at: z.string(),
}) satisfies z.ZodType<ReviewDecision>;

export function readDecisions(runDir: string): ReviewDecision[] {
  const path = runFiles(runDir).review;
  return existsSync(path) ? readJsonl(path, reviewDecisionSchema).records : [];
}

export function decide(store: LabStore, req: DecideRequest): DecideResult {
  if (req.decision !== 'accept' && req.decision !== 'reject') throw new Error(`decision must be accept or reject, not ${JSON.stringify(req.decision)}`);
  const name = validateDatasetName(String(req.dataset));
  const run = RunFolder.read(store.dir, req.runId);
  const task = String(req.task);
  const episodeId = String(req.episodeId);
  // Only trajectories of this run's task: its attempts and their shortened versions.
  const belongs = run.events.some((e) => 'task' in e && e.task === task && ((e.type === 'attempt' && e.episodeId === episodeId) || (e.type === 'shortened' && e.episodeId === episodeId)));
  if (!belongs) throw new Error(`episode ${episodeId} is not an attempt or shortened trajectory of ${task} in run ${run.config.runId}`);
  const ep = store.readEpisode(episodeId);
  if (req.decision === 'accept' && !ep.end?.success) throw new Error(`episode ${episodeId} did not succeed; only successful trajectories can be accepted`);

  // Read, decide and write under the draft's lock: another process (a second web server, the CLI)
  // deciding on the same dataset at once would otherwise overwrite this decision or have it overwrite theirs.
  const { draft, changed, latest, decision } = withDraftLock(store.dir, name, () => {
    const latest = latestEpisodes(store.dir, name);
    const entry = { episodeId, runId: run.config.runId, task, at: new Date().toISOString() };
    const { draft, changed } = applyDecision(readDraft(store.dir, name), entry, req.decision, new Set(latest.ids));
    if (changed) writeDraft(store.dir, name, draft);
    const decision: ReviewDecision = { type: 'decision', task, episodeId, decision: req.decision, dataset: name, version: null, at: entry.at };
    appendJsonlLine(runFiles(run.dir).review, decision);
    return { draft, changed, latest, decision };
  });
  const message = decisionMessage(name, episodeId, req.decision, changed, latest);
  return { decision, draft: draftView(name, draft, latest), message: `${message} (${pending(draft)}, not frozen yet)` };
}

/** What a decision did to the draft, in words. */
function decisionMessage(name: string, episodeId: string, decision: 'accept' | 'reject', changed: boolean, latest: { version: number | null; ids: string[] }): string {
  const frozen = latest.ids.includes(episodeId);
  const version = `${name} v${latest.version}`;
  if (decision === 'accept') {
    if (!changed) return frozen ? `${episodeId} is already in ${version}` : `${episodeId} is already in the draft of ${name}`;
    return frozen ? `accepted ${episodeId}: ${version} holds it and the next version keeps it` : `accepted ${episodeId} into the draft of ${name}`;
  }
  if (!changed) return frozen ? `${episodeId} is already left out of the next version of ${name}` : `${episodeId} is in neither the draft nor ${latest.version ? version : name}; rejection recorded`;
  return frozen ? `rejected ${episodeId}: the next version of ${name} leaves it out` : `rejected ${episodeId}: out of the draft of ${name} again`;
}

/** A dataset's draft beside its latest version, as the review view shows it. */
export function readReviewDraft(store: LabStore, dataset: string): ReviewDraft {
  const name = validateDatasetName(dataset);
  return draftView(name, readDraft(store.dir, name), latestEpisodes(store.dir, name));
}

/** Freeze the draft as one new version of the dataset. */
export function freezeReview(store: LabStore, dataset: string, guard: Parameters<typeof freezeDraft>[2] = {}): FreezeReviewResult {
  const name = validateDatasetName(dataset);
  const r = freezeDraft(store, name, guard);
  const version = r.manifest.version;
  const episodes = r.manifest.episodes.length;
  const dropped = r.dropped ? `, ${r.dropped} duplicate trajectory dropped` : '';
  const changes = [r.added ? `${r.added} added` : '', r.removed ? `${r.removed} left out` : ''].filter(Boolean).join(', ');
  return {
    dataset: name, version, episodes, added: r.added, removed: r.removed,
    draft: readReviewDraft(store, name),
    message: `froze ${name} v${version}: ${episodes} episode${episodes === 1 ? '' : 's'} (${changes}${dropped})`,
  };
}

function draftView(dataset: string, draft: DatasetDraft, latest: { version: number | null; ids: string[] }): ReviewDraft {
  return { dataset, latestVersion: latest.version, inLatest: latest.ids, ...draft };
}

const pending = (d: DatasetDraft) => `draft: ${d.accepted.length} accepted${d.rejected.length ? `, ${d.rejected.length} to leave out` : ''}`;
