/**
 * Trajectory shortening: cut what a successful trajectory did not need, replay the rest on a fresh
 * instance of the same seed, and keep it only if the checker still passes.
 *
 * What is cut, by loop erasure over page states (normalised URL + elements hash, which includes
 * values, so a fill that changes a field is a change):
 *   - a detour: a span of steps after which the page is back in a state seen before the span;
 *   - an action that changed nothing: the state before the next step equals the state before it.
 * An answer (send_msg_to_user, report_infeasible) is never cut: it changes what the checker sees.
 * No cut may end just before a go_back or go_forward: their effect depends on the history.
 * Page states do not show server state (a draft, a cart line); the checker on replay guards that.
 *
 * Element ids restart at every page load and are handed out in document order, so after a cut
 * they usually match; but a cut step may have added elements to the page (a calendar, a menu),
 * shifting later ids. Each kept action is therefore re-resolved against the live page by the
 * role and accessible name (and rank among equals) of the element it hit in the recording.
 */
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Agent, AgentTurn } from '../tasks/agent.ts';
import type { BrowserEnv } from '../environment/environment.ts';
import type { Observation } from '../environment/types.ts';
import { formatAction, parseAction } from '../environment/actions.ts';
import type { TaskServer } from '../tasks/server.ts';
import type { Tier } from '../tasks/types.ts';
import { LabStore, type EpisodeData } from '../store/lab.ts';
import type { ObservationRecord } from '../store/schema.ts';
import { runEpisode } from './episode.ts';
import { stateKey } from './reflect.ts';
import { checkLabId } from '../store/layout.ts';

export interface Cut {
  /** First and last step index cut (inclusive). */
  from: number;
  to: number;
  why: 'detour' | 'no_change';
}

export interface ShorteningPlan {
  keep: number[];
  cuts: Cut[];
}

export interface ShortenResult {
  from: string;
  /** The shortened episode, or null when nothing was cut or the replay failed the checker. */
  episodeId: string | null;
  stepsBefore: number;
  stepsAfter: number;
  cuts: Cut[];
  /** Whether the shortened replay passed the checker (null when there was nothing to replay). */
  replaySuccess: boolean | null;
  /** Kept actions whose element id differed on replay and was re-resolved by role and name. */
  remappedIds: number;
}

const TERMINAL = /^\s*(send_msg_to_user|report_infeasible)\s*\(/;
/** Actions whose effect depends on the browser's history, which a cut changes. */
const HISTORY = /^\s*(go_back|go_forward)\s*\(/;

export function planShortening(ep: Pick<EpisodeData, 'steps' | 'end'>): ShorteningPlan {
  const kept: Array<{ step: number; key: string }> = [];
  const cuts: Cut[] = [];
  const eraseBackTo = (key: string, before: number): void => {
    // The latest equal state: with history actions kept, a state can appear twice; cut the least.
    const p = kept.findLastIndex((k) => k.key === key);
    if (p < 0) return;
    const removed = kept.splice(p);
    const from = removed[0].step;
    cuts.push({ from, to: before - 1, why: before - 1 === from ? 'no_change' : 'detour' });
  };
  ep.steps.forEach((s, j) => {
    const key = stateKey(s.observation);
    // After a cut, go_back would return somewhere else than it did in the recording.
    if (!HISTORY.test(s.action)) eraseBackTo(key, j);
    kept.push({ step: j, key });
  });
  const last = ep.steps[ep.steps.length - 1];
  if (ep.end && last && !TERMINAL.test(last.action)) eraseBackTo(stateKey(ep.end.finalObservation), ep.steps.length);
  // Nested erasures can leave overlapping cuts; report the outermost spans only.
  const merged = cuts
    .sort((a, b) => a.from - b.from || b.to - a.to)
    .filter((c, i, all) => !all.slice(0, i).some((o) => o.from <= c.from && o.to >= c.to));
  return { keep: kept.map((k) => k.step), cuts: merged };
}

/**
 * The same element on another load of the page: same role and name, and the same rank among the
 * elements sharing them. Returns the action with the live id, or the action unchanged.
 */
export function resolveAction(action: string, recorded: Pick<ObservationRecord, 'elements'>, live: Pick<Observation, 'elements'>): string {
  let a;
  try {
    a = parseAction(action);
  } catch {
    return action;
  }
  if (!('id' in a)) return action;
  const rec = recorded.elements.find((e) => e.id === a.id);
  if (!rec) return action;
  const same = (e: { role: string; name: string }) => e.role === rec.role && e.name === rec.name;
  const rank = recorded.elements.filter(same).indexOf(rec);
  const candidates = live.elements.filter(same);
  const target = candidates[rank] ?? candidates[0];
  return target && target.id !== a.id ? formatAction({ ...a, id: target.id }) : action;
}

/** Replays recorded steps, resolving each element against the page it now sees. */
class ScriptedAgent implements Agent {
  private i = 0;
  remapped = 0;
  constructor(
    readonly name: string,
    private readonly script: Array<{ action: string; thought?: string; observation: ObservationRecord }>,
  ) {}
  reset(): void {
    this.i = 0;
  }
  async act(obs: Observation): Promise<AgentTurn> {
    const s = this.script[this.i++];
    if (!s) throw new Error('the shortened script is exhausted');
    const action = resolveAction(s.action, s.observation, obs);
    if (action !== s.action) this.remapped++;
    return { ...(s.thought ? { thought: s.thought } : {}), action };
  }
}

/**
 * Writes trial episodes outside episodes/, so a replay that fails the checker leaves nothing in
 * the lab; a passing one is moved in. Blobs (screenshots) go to the lab's store directly: they are
 * content-addressed, so an orphan costs disk and nothing else.
 */
class TrialStore extends LabStore {
  readonly trialsDir: string;
  constructor(main: LabStore) {
    super(main.dir);
    this.trialsDir = join(main.dir, '.cache', 'shorten-trials');
    mkdirSync(this.trialsDir, { recursive: true });
  }
  override episodePath(id: string): string {
    checkLabId(id, 'episode');
    return join(this.trialsDir, `${id}.jsonl`);
  }
}

export async function shortenEpisode(
  deps: { env: BrowserEnv; server: TaskServer; store: LabStore; browserKind: string; signal?: AbortSignal },
  episodeId: string,
): Promise<ShortenResult> {
  const ep = deps.store.readEpisode(episodeId);
  const stepsBefore = ep.steps.length;
  const plan = planShortening(ep);
  const base = { from: episodeId, stepsBefore, cuts: plan.cuts };
  if (!ep.end?.success) throw new Error(`episode ${episodeId} did not succeed; only successful trajectories are shortened`);
  if (!plan.cuts.length) return { ...base, episodeId: null, stepsAfter: stepsBefore, replaySuccess: null, remappedIds: 0 };

  const script = plan.keep.map((i) => ep.steps[i]);
  const agent = new ScriptedAgent(ep.header.agent.name, script);
  const trials = new TrialStore(deps.store);
  const out = await runEpisode(
    { ...deps, store: trials },
    {
      family: ep.header.task.family,
      seed: ep.header.task.seed,
      tier: ep.header.task.tier as Tier,
      agent,
      maxSteps: script.length,
      agentConfig: { ...ep.header.agent.config, shortening: { from: episodeId, keep: plan.keep, cuts: plan.cuts } },
      // Only the derivation: the source episode keeps its own retry and reflection links.
      links: { shortenedFrom: episodeId },
      // The attempt it shortens; the run (and experiment) come with the deps of the run doing it.
      ...(ep.header.provenance ? { provenance: { attempt: ep.header.provenance.attempt, arm: ep.header.provenance.arm } } : {}),
    },
  );
  if (!out.success) {
    rmSync(out.path, { force: true });
    return { ...base, episodeId: null, stepsAfter: stepsBefore, replaySuccess: false, remappedIds: agent.remapped };
  }
  renameSync(out.path, deps.store.episodePath(out.id));
  return { ...base, episodeId: out.id, stepsAfter: out.steps, replaySuccess: true, remappedIds: agent.remapped };
}
