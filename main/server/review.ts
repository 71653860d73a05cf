/**
 * Queries behind the reflection-retry review view: collection runs (lab/runs/), and per task
 * instance its attempts side by side with the reflections they were given, the step where each
 * retry parts from the attempt it retries, and the shortened trajectory beside the original.
 * Everything is read from the run's progress log, the episodes and lab/reflections/; nothing here
 * writes (accepting and rejecting is review-decisions.ts).
 */
import { describeAction } from '../environment/action-target.ts';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LabStore, EpisodeData } from '../store/lab.ts';
import type { StepRecord } from '../store/schema.ts';
import { RunFolder, summarise, type ShortenedEvent } from '../collection/collect-run.ts';
import type { Arm, AttemptEvent } from '../collection/retries.ts';
import { ReflectionStore, stateKey } from '../collection/reflect.ts';
import { planShortening } from '../collection/shorten.ts';
import { readDecisions } from './review-decisions.ts';
import { labPaths } from '../store/layout.ts';
import type { AttemptView, CollectionRunInfo, Divergence, ReviewTask, ReviewTaskRow, ShortenedView, StepView } from '../../preload/views.ts';
import { runFiles } from '../store/lab-files.ts';

export function listRunIds(labDir: string): string[] {
  const dir = labPaths.runs(labDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((d) => existsSync(runFiles(join(dir, d)).config)).sort().reverse();
}

const taskKeysOf = (run: RunFolder): string[] => [...new Set(run.events.flatMap((e) => ('task' in e ? [e.task] : [])))];

function splitKey(task: string): { family: string; seed: number } {
  const at = task.lastIndexOf(':');
  return { family: task.slice(0, at), seed: Number(task.slice(at + 1)) };
}

export function readRunInfo(labDir: string, runId: string): CollectionRunInfo {
  const run = RunFolder.read(labDir, runId);
  const keys = taskKeysOf(run);
  // The summary over the tasks the log holds: a run still going (or stopped) is reviewed as far as it got.
  const summary = summarise(run, keys);
  const decisions = readDecisions(run.dir);
  const attempts = run.events.filter((e): e is AttemptEvent => e.type === 'attempt');
  const shortened = run.events.filter((e): e is ShortenedEvent => e.type === 'shortened');
  const tasks = keys.map((task): ReviewTaskRow => {
    const mine = attempts.filter((e) => e.task === task);
    const arms = summary.arms.map(({ arm }) => {
      const win = mine.filter((e) => e.arms.includes(arm) && e.success).sort((a, b) => a.attempt - b.attempt)[0];
      return { arm, success: !!win, solvedAt: win ? win.attempt : null };
    });
    const sh = shortened.filter((e) => e.task === task);
    const kept = sh.find((e) => e.episodeId);
    const first = kept ?? sh[0];
    const decision = decisions.filter((d) => d.task === task).at(-1)?.decision ?? null;
    return {
      task, ...splitKey(task), attempts: mine.length, arms,
      shortening: first ? { stepsBefore: first.stepsBefore, stepsAfter: first.episodeId ? first.stepsAfter : first.stepsBefore, kept: !!first.episodeId } : null,
      decision,
    };
  });
  return { runId: run.config.runId, createdAt: run.config.createdAt, config: run.config, summary, tasks };
}

function stepViews(steps: StepRecord[]): StepView[] {
  return steps.map((s) => ({
    index: s.index,
    action: s.action,
    readable: describeAction(s.action, s.observation.elements),
    ...(s.thought ? { thought: s.thought } : {}),
    url: s.observation.url,
    title: s.observation.title,
    error: s.error ? s.error.code : null,
    state: stateKey(s.observation),
  }));
}

/**
 * The first step at which `b` (a retry) parts from `a` (the attempt it retries): the page state
 * before the step differs, or the same page got a different action; when one trajectory is a
 * prefix of the other, the step where the shorter one ended. null when they are the same.
 */
export function firstDivergence(a: Pick<StepView, 'state' | 'action'>[], b: Pick<StepView, 'state' | 'action'>[]): Divergence | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i].state !== b[i].state) return { step: i, kind: 'state', before: a[i].action, after: b[i].action };
    if (a[i].action !== b[i].action) return { step: i, kind: 'action', before: a[i].action, after: b[i].action };
  }
  if (a.length === b.length) return null;
  return { step: n, kind: 'length', before: a[n]?.action ?? null, after: b[n]?.action ?? null };
}

export function readReviewTask(store: LabStore, runId: string, task: string): ReviewTask {
  const run = RunFolder.read(store.dir, runId);
  const key = String(task);
  const events = run.events.filter((e) => 'task' in e && e.task === key);
  const attempts = events.filter((e): e is AttemptEvent => e.type === 'attempt');
  if (!attempts.length) throw new Error(`run ${runId} has no attempts at task ${key}`);
  const reflections = new ReflectionStore(store.dir);
  const episodes = new Map<string, EpisodeData>();
  const episode = (id: string) => {
    let e = episodes.get(id);
    if (!e) episodes.set(id, (e = store.readEpisode(id)));
    return e;
  };
  const armOrder: Arm[] = ['reflect', 'blind'];
  const ordered = [...attempts].sort((x, y) => armOrder.indexOf(x.arms[0]) - armOrder.indexOf(y.arms[0]) || x.attempt - y.attempt);
  const seen = new Set<string>();
  const views: AttemptView[] = [];
  for (const a of ordered) {
    if (seen.has(a.episodeId)) continue;
    seen.add(a.episodeId);
    const ep = episode(a.episodeId);
    const steps = stepViews(ep.steps);
    const retryOf = ep.header.links.retryOf ?? null;
    const given = a.reflections.map((id) => {
      try {
        const r = reflections.load(id);
        return { id, text: r.text, reflector: r.reflector };
      } catch (err) {
        return { id, text: `(reflection ${id} unreadable: ${(err as Error).message})`, reflector: '?' };
      }
    });
    views.push({
      episodeId: a.episodeId,
      attempt: a.attempt,
      arms: a.arms,
      success: a.success,
      reason: ep.end?.reason ?? null,
      retryOf,
      reflections: given,
      divergence: retryOf ? firstDivergence(stepViews(episode(retryOf).steps), steps) : null,
      unmetKeyPoints: (ep.end?.keyPoints ?? []).filter((k) => !k.met).map((k) => k.name),
      steps,
    });
  }
  const shortened = events
    .filter((e): e is ShortenedEvent => e.type === 'shortened')
    .map((s): ShortenedView => {
      const plan = planShortening(episode(s.from));
      return {
        from: s.from,
        episodeId: s.episodeId,
        stepsBefore: s.stepsBefore,
        stepsAfter: s.stepsAfter,
        replaySuccess: s.replaySuccess,
        keep: plan.keep,
        cuts: plan.cuts,
        steps: s.episodeId ? stepViews(episode(s.episodeId).steps) : [],
      };
    });
  const first = episode(attempts[0].episodeId).header.task;
  const armNames = [...new Set(attempts.flatMap((a) => a.arms))].sort((x, y) => armOrder.indexOf(x) - armOrder.indexOf(y));
  return {
    runId: run.config.runId,
    task: key,
    family: first.family,
    seed: first.seed,
    tier: first.tier,
    instruction: first.instruction,
    attempts: views,
    arms: armNames.map((arm) => {
      const mine = attempts.filter((a) => a.arms.includes(arm)).sort((x, y) => x.attempt - y.attempt);
      return { arm, episodes: mine.map((a) => a.episodeId), success: mine.some((a) => a.success) };
    }),
    shortened,
    decisions: readDecisions(run.dir).filter((d) => d.task === key),
  };
}
