/**
 * Accepting or rejecting a collected trajectory into a curated dataset.
 *
 * A decision is appended to lab/runs/<run-id>/review.jsonl (what was decided, when, and which
 * dataset version it produced), and the dataset gets a new frozen version whose filter is the
 * explicit list of accepted episode ids: the latest version's episodes plus the accepted one (or
 * minus the rejected one). Versions are never edited (main/datasets/), so every accept or reject
 * that changes the dataset is a new version, and the history of the curation is the version list.
 * Labels are not touched: tagging the episode would change its labels file and so invalidate every
 * frozen version that already holds it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { LabStore } from '../store/lab.ts';
import { appendJsonlLine, readJsonl } from '../store/jsonl.ts';
import { RunFolder } from '../collection/collect-run.ts';
import { createDataset, listVersions, readManifest, validateDatasetName } from '../datasets/index.ts';
import type { DecideRequest, DecideResult, ReviewDecision } from '../../preload/views.ts';

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
  const path = join(runDir, 'review.jsonl');
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

  const versions = listVersions(store.dir, name);
  const current = versions.length ? readManifest(store.dir, { name, version: versions.at(-1)! }, { verify: false }).episodes.map((e) => e.id) : [];
  const ids = req.decision === 'accept' ? [...new Set([...current, episodeId])] : current.filter((id) => id !== episodeId);
  let version: number | null = null;
  let episodes = current.length;
  let message: string;
  const changed = ids.length !== current.length;
  if (!changed) message = req.decision === 'accept' ? `${episodeId} is already in ${name}` : `${episodeId} was not in ${name}; rejection recorded`;
  else if (!ids.length) message = `rejected ${episodeId}; ${name} would be empty, so no new version was frozen (v${versions.at(-1)} stays the latest)`;
  else {
    const r = createDataset(store, { name, description: `reviewed from collection run ${run.config.runId}`, filter: { ids } });
    version = r.manifest.version;
    episodes = r.manifest.episodes.length;
    const dropped = r.dropped ? `, ${r.dropped} duplicate trajectory dropped` : '';
    message = `${req.decision === 'accept' ? 'accepted' : 'rejected'} ${episodeId}: ${name} v${version} holds ${episodes} episodes${dropped}`;
  }
  const decision: ReviewDecision = { type: 'decision', task, episodeId, decision: req.decision, dataset: name, version, at: new Date().toISOString() };
  appendJsonlLine(join(run.dir, 'review.jsonl'), decision);
  return { decision, episodes, message };
}
