/**
 * One-click replay: re-execute a recorded episode's actions on a fresh instance of the same task
 * and seed, and compare, step by step, whether the page reached the same state.
 */
import { createHash } from 'node:crypto';
import type { BrowserEnv, EnvOptions } from '../environment/environment.ts';
import { checkActionSets } from '../environment/action-sets.ts';
import type { Observation, PageElement } from '../environment/types.ts';
import type { TaskServer } from '../tasks/server.ts';
import type { LabStore } from '../store/lab.ts';
import type { EpisodeHeader, ObservationRecord } from '../store/schema.ts';
import { recordAnswer } from './episode.ts';

export interface ReplayStep {
  index: number;
  action: string;
  /** The recorded and the replayed page before this action. */
  urlMatch: boolean;
  elementsMatch: boolean;
  recordedUrl: string;
  replayedUrl: string;
  recordedHash: string;
  replayedHash: string;
  recordedScreenshot: string | null;
  replayedScreenshot: string | null;
  recordedError: string | null;
  replayedError: string | null;
}

export interface ReplayReport {
  episodeId: string;
  family: string;
  seed: number;
  steps: ReplayStep[];
  /** Share of compared states (every step's start, plus the final page) that matched. */
  fidelity: number;
  finalMatch: boolean;
  recordedSuccess: boolean | null;
  replayedSuccess: boolean;
  cancelled: boolean;
}

export interface ReplayOptions {
  /** Pause before each step until this resolves (step-by-step replay in the UI). */
  beforeStep?: (index: number) => Promise<void>;
  onStep?: (step: ReplayStep) => void;
  signal?: AbortSignal;
}

/** Hash of what an agent can tell apart on a page: ids, roles, names, values and states. */
export function elementsHash(elements: readonly PageElement[]): string {
  const h = createHash('sha256');
  for (const e of elements) {
    h.update(JSON.stringify([e.id, e.role, e.name, e.value ?? null, e.checked ?? null, e.selected ?? null, e.disabled ?? null, e.expanded ?? null]));
    h.update('\n');
  }
  return h.digest('hex').slice(0, 16);
}

/** URLs of two instances differ only in their instance prefix; compare them without it. */
export function normaliseUrl(url: string): string {
  return url.replace(/^https?:\/\/[^/]+\/i\/[0-9a-f]+/, '{task}');
}

/**
 * The environment options a recorded episode ran with that change what its steps do: the action
 * sets it was allowed (a coordinate action replays as it ran, not refused) and its text layout.
 * Absent in headers older than the fields, which ran with the defaults, so none are set then.
 */
export function recordedEnvOptions(header: Pick<EpisodeHeader, 'id' | 'env'>): Partial<EnvOptions> {
  const { actionSets, textLayout } = header.env;
  return {
    ...(actionSets ? { actionSets: checkActionSets(actionSets, `episode ${header.id}'s header`) } : {}),
    ...(textLayout === 'sentences' || textLayout === 'runs' ? { textLayout } : {}),
  };
}

export async function replayEpisode(
  deps: { env: BrowserEnv; server: TaskServer; store: LabStore },
  episodeId: string,
  opts: ReplayOptions = {},
): Promise<ReplayReport> {
  const { env, server, store } = deps;
  const episode = store.readEpisode(episodeId);
  const task = episode.header.task;
  const instance = server.createInstance(task.family, task.seed, { tier: task.tier as 1 | 2 | 3 });
  const steps: ReplayStep[] = [];
  let cancelled = false;
  try {
    let current: Observation = await env.reset({
      instruction: instance.spec.instruction,
      startUrl: instance.spec.startUrl,
      allowedOrigins: instance.spec.allowedOrigins,
    });
    for (const recorded of episode.steps) {
      if (opts.signal?.aborted) {
        cancelled = true;
        break;
      }
      await opts.beforeStep?.(recorded.index);
      const step = compare(store, recorded.index, recorded.action, recorded.observation, current);
      step.recordedError = recorded.error?.code ?? null;
      const result = await env.step(recorded.action);
      step.replayedError = result.error?.code ?? null;
      recordAnswer(instance.ctx, recorded.action, result.error === null);
      steps.push(step);
      opts.onStep?.(step);
      current = result.observation;
    }
    const finalRecorded = episode.end?.finalObservation;
    const finalMatch = !!finalRecorded && sameState(finalRecorded, current);
    const matched = steps.filter((s) => s.urlMatch && s.elementsMatch).length + (finalMatch ? 1 : 0);
    const verdict = instance.family.check(instance.ctx);
    return {
      episodeId,
      family: task.family,
      seed: task.seed,
      steps,
      fidelity: Math.round((matched / (steps.length + 1)) * 1000) / 1000,
      finalMatch,
      recordedSuccess: episode.end ? episode.end.success : null,
      replayedSuccess: verdict.success,
      cancelled,
    };
  } finally {
    server.releaseInstance(instance.ctx.id);
  }
}

function sameState(recorded: ObservationRecord, replayed: Observation): boolean {
  return normaliseUrl(recorded.url) === normaliseUrl(replayed.url) && elementsHash(recorded.elements) === elementsHash(replayed.elements);
}

function compare(store: LabStore, index: number, action: string, recorded: ObservationRecord, replayed: Observation): ReplayStep {
  const recordedHash = elementsHash(recorded.elements);
  const replayedHash = elementsHash(replayed.elements);
  return {
    index,
    action,
    urlMatch: normaliseUrl(recorded.url) === normaliseUrl(replayed.url),
    elementsMatch: recordedHash === replayedHash,
    recordedUrl: recorded.url,
    replayedUrl: replayed.url,
    recordedHash,
    replayedHash,
    recordedScreenshot: recorded.screenshot,
    replayedScreenshot: replayed.screenshot ? store.blobs.put(replayed.screenshot.png) : null,
    recordedError: null,
    replayedError: null,
  };
}
