/**
 * Episodes of one task instance side by side: for each, who ran it (agent, provenance), how it
 * ended and its steps; the steps lined up by page state (./step-alignment.ts), and every row where
 * they part. Episodes of different task instances are refused: their pages differ from the first
 * step, so no step lines up.
 */
import { describeAction } from '../environment/action-target.ts';
import { actionMeaning } from '../policy/mining.ts';
import { alignSteps, pageKey } from './step-alignment.ts';
import { statusOf, type EpisodeStatus, type LabStore } from '../store/lab.ts';
import { provenanceOf } from '../store/provenance.ts';
import type { ComparedEpisode, EpisodeComparison } from '../../preload/views.ts';

/**
 * Read and line up the episodes. `outcomeOf` gives the outcome after a person's label (the
 * episode list's), so the comparison says what the list says.
 */
export function compareEpisodes(store: LabStore, ids: readonly string[], outcomeOf: (id: string, status: EpisodeStatus) => EpisodeStatus = (_, s) => s): EpisodeComparison {
  const unique = [...new Set(ids.map(String))];
  if (unique.length < 2) throw new Error(`compare: pick two or more episodes, got ${unique.length}`);
  const read = unique.map((id) => store.readEpisode(id));
  const [first] = read;
  const key = (t: { family: string; seed: number; tier: number }) => `${t.family} #${t.seed} t${t.tier}`;
  const other = read.find((e) => key(e.header.task) !== key(first.header.task));
  if (other) throw new Error(`compare: episodes of different task instances (${first.header.id} is ${key(first.header.task)}, ${other.header.id} is ${key(other.header.task)}); only attempts at the same instance line up`);
  const episodes = read.map((e): ComparedEpisode => ({
    id: e.header.id,
    agent: e.header.agent.name,
    provenance: provenanceOf(e.header),
    outcome: outcomeOf(e.header.id, statusOf(e.end)),
    reason: e.end?.reason ?? null,
    durationMs: e.end?.durationMs ?? null,
    steps: e.steps.map((s) => ({
      index: s.index,
      action: s.action,
      described: describeAction(s.action, s.observation.elements),
      thought: s.thought ?? null,
      error: s.error ? s.error.code : null,
      url: s.observation.url,
      title: s.observation.title,
      screenshot: s.observation.screenshot ?? null,
    })),
  }));
  const rows = alignSteps(read.map((e) => e.steps.map((s) => ({
    page: pageKey(s.observation.url, s.observation.elements),
    action: JSON.stringify(actionMeaning(s.action, s.observation.elements)),
  }))));
  const parting = rows.flatMap((r, i) => (r.parts ? [i] : []));
  const { family, seed, tier, instruction } = first.header.task;
  return { task: { family, seed, tier, instruction }, episodes, rows, firstDifference: parting[0] ?? null, partingRows: parting.length };
}
