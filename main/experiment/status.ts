/**
 * Where an experiment stands, read from its folder while another process may be running it: each
 * stage's status, attempts and seconds, how far the running stage got (episodes, SFT steps,
 * Salvage-DS iterations, counted from the files it appends to), and an estimate of the time left
 * from the stages already finished (seconds per episode, per step, per iteration of the same
 * kind). What `lab experiment status` prints and the Experiments view shows.
 *
 * Reads only: stages.jsonl's last line may be half-written, and is then skipped (readStageEvents).
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { readJsonFile } from '../store/json-file.ts';
import { readJsonl } from '../store/jsonl.ts';
import { labPaths } from '../store/layout.ts';
import { evalFiles, experimentFiles, modelFiles } from '../store/lab-files.ts';
import { ExperimentFolder } from './folder.ts';
import { experimentStages, type StageKind } from './stages.ts';
import { stageOutputRefs } from './stage-refs.ts';
import { liveRunLock } from './run-lock.ts';
import type { ExperimentHeadline, ExperimentInfo, ExperimentStageInfo, StageProgress, StageStatus } from '../../preload/views.ts';

const num = (x: unknown): number | null => (typeof x === 'number' ? x : null);
const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);

/**
 * The records of a file a stage appends to; none when it does not exist yet. A torn last line (the
 * writer stopped mid-line) is left out; the writer repairs it before its next append.
 */
function appended(path: string): Array<Record<string, unknown>> {
  return existsSync(path) ? readJsonl(path, z.record(z.string(), z.unknown())).records : [];
}

/** Distinct values of `key` over those records (a resumed run may repeat some). */
const distinct = (path: string, key: (r: Record<string, unknown>) => unknown): number => new Set(appended(path).map((r) => JSON.stringify(key(r)))).size;

/** Work a stage that has not finished has done so far, counted from the files it appends to. */
function workDone(folder: ExperimentFolder, labDir: string, stage: string, kind: StageKind): number {
  if (kind === 'sft') return distinct(experimentFiles(folder.dir).curve(stage), (r) => r.step);
  if (kind === 'salvage') return appended(modelFiles(experimentFiles(folder.dir).policy(stage)).salvageStats).length;
  if (kind.startsWith('eval-')) {
    // The id an evaluation stage records before its first episode (as stages.ts resumes it).
    const evalId = folder.lastState(stage)?.evalId as string | undefined;
    return evalId ? distinct(evalFiles(labPaths.eval(labDir, evalId)).episodes, (r) => [r.family, r.seed, r.run]) : 0;
  }
  return 0;
}

function headlineOf(report: Record<string, any>): ExperimentHeadline {
  const armYield = (run: string, arm: string) => num(report.collection?.[run]?.arms?.find?.((a: { arm?: string }) => a?.arm === arm)?.yield);
  const success = (method: string) => num(report.methods?.find?.((m: { method?: string }) => m?.method === method)?.test?.success?.value);
  return {
    reflectYield: armYield('reflect', 'reflect'),
    plainYield: armYield('plain', 'blind'),
    sftReflectTestSuccess: success('sft-reflect'),
    salvageTestSuccess: success('salvage'),
    fewerStepsVerdict: str(report.claims?.fewerSteps?.verdict),
    salvageVerdict: str(report.claims?.salvageBeatsSft?.verdict),
  };
}

export interface StatusOptions {
  /** This process runs the experiment (the app's own replay), whatever run.lock says. */
  runningHere?: boolean;
  /** The clock, for the running attempt's seconds (tests). */
  now?: number;
}

/** An experiment's stages, state, headline figures and time left; errors name the id, file and field. */
export function experimentStatus(labDir: string, id: string, opts: StatusOptions = {}): ExperimentInfo {
  const folder = ExperimentFolder.read(labDir, id);
  const { config, dir, events } = folder;
  const runBy = opts.runningHere ? null : liveRunLock(dir);
  const isRunning = opts.runningHere === true || runBy !== null;
  const now = opts.now ?? Date.now();

  const plan = experimentStages(config);
  const stages = plan.map((s): ExperimentStageInfo => {
    const mine = events.filter((e) => e.stage === s.name && e.status !== 'resumable');
    const last = mine.at(-1);
    const ended = mine.filter((e) => e.elapsedS !== undefined);
    // Finished as the pipeline judges it (ExperimentFolder.isDone): a stage an amendment reopened, or
    // whose outputs were set aside, runs again on resume, as a stopped one does.
    const logged: StageStatus = !last ? 'pending' : last.status === 'started' ? (isRunning ? 'running' : 'started') : last.status === 'reopened' ? 'stopped' : (last.status as StageStatus);
    const status: StageStatus = logged === 'done' && !folder.isDone(s.name) ? 'stopped' : logged;
    const outputs = status === 'done' ? readJsonFile(folder.outputsPath(s.name), z.unknown(), 'JSON') : null;
    const planned = s.planned;
    const done = status === 'done' ? planned?.total : status === 'pending' ? 0 : planned && Math.min(planned.total, workDone(folder, labDir, s.name, s.kind));
    const progress: StageProgress | null = planned ? { done: done ?? 0, total: planned.total, unit: planned.unit } : null;
    // The attempt under way has no elapsedS yet: its seconds run from its "started" line.
    const runningS = status === 'running' && last ? Math.max(0, (now - Date.parse(last.at)) / 1000) : 0;
    const endedS = ended.reduce((n, e) => n + (e.elapsedS ?? 0), 0);
    return {
      name: s.name, status,
      outputs: outputs === null ? [] : stageOutputRefs(s.name, outputs),
      elapsedS: ended.length || runningS ? Math.round((endedS + runningS) * 100) / 100 : null,
      attempts: mine.filter((e) => e.status === 'started').length,
      error: last?.status === 'failed' ? (last.error ?? null) : null,
      progress,
      summary: outputs === null ? null : stageSummary(s.kind, outputs),
      estimateS: null,
    };
  });
  const remaining = estimateRemaining(stages, new Map(plan.map((s) => [s.name, s.kind])));

  const reportPath = experimentFiles(dir).report;
  const headline = existsSync(reportPath) ? headlineOf(readJsonFile(reportPath, z.record(z.string(), z.unknown()), 'JSON')) : null;
  const state: ExperimentInfo['state'] = isRunning ? 'running' : headline ? 'finished' : stages.some((s) => s.status === 'failed') ? 'failed' : events.length ? 'stopped' : 'not started';
  return {
    id: config.id, preset: config.preset, createdAt: config.createdAt, replayOf: config.replayOf ?? null, amendments: config.amendments ?? [],
    stages, stagesDone: stages.filter((s) => s.status === 'done').length, state, hasReport: headline !== null, headline, runBy,
    elapsedS: Math.round(stages.reduce((n, s) => n + (s.elapsedS ?? 0), 0)),
    remaining,
  };
}

/** An evaluation split with nothing finished yet is estimated from another's seconds per episode. */
const FALLBACK: Record<string, string[]> = { 'eval-heldout': ['eval-test', 'eval-train'], 'eval-train': ['eval-test', 'eval-heldout'], 'eval-test': ['eval-heldout', 'eval-train'] };

/**
 * Fills each unfinished stage's estimateS from the finished stages of its kind: seconds per unit
 * of work (episode, step, iteration) where the kind has units, else seconds per stage. A kind
 * with nothing finished is estimated from the running stage's own pace once it has done some
 * work (an evaluation, from another split's pace first); otherwise the stage is listed as not
 * estimated and left out of the total.
 */
function estimateRemaining(stages: ExperimentStageInfo[], kinds: Map<string, StageKind>): ExperimentInfo['remaining'] {
  const rate = new Map<string, number>();
  const byKind = new Map<string, { s: number; units: number }>();
  for (const st of stages) {
    if (st.status !== 'done' || st.elapsedS === null) continue;
    const k = kinds.get(st.name)!;
    const acc = byKind.get(k) ?? { s: 0, units: 0 };
    acc.s += st.elapsedS;
    acc.units += st.progress?.total ?? 1;
    byKind.set(k, acc);
  }
  for (const [k, { s, units }] of byKind) rate.set(k, s / units);
  let estimateS = 0;
  const unestimated: string[] = [];
  for (const st of stages) {
    if (st.status === 'done') continue;
    const left = st.progress ? st.progress.total - st.progress.done : 1;
    const kind = kinds.get(st.name)!;
    let perUnit = rate.get(kind) ?? (FALLBACK[kind] ?? []).map((k) => rate.get(k)).find((r) => r !== undefined);
    if (perUnit === undefined && st.progress && st.progress.done > 0 && st.elapsedS) perUnit = st.elapsedS / st.progress.done;
    if (perUnit === undefined) {
      unestimated.push(st.name);
      continue;
    }
    st.estimateS = Math.round(left * perUnit);
    estimateS += st.estimateS;
  }
  return { estimateS: Math.round(estimateS), unestimated };
}

/** One line of what a finished stage measured, for the status table. */
function stageSummary(kind: StageKind, outputs: unknown): string | null {
  const o = (outputs ?? {}) as Record<string, any>;
  const pct = (k: number, n: number) => `${k}/${n}, ${((100 * k) / Math.max(1, n)).toFixed(1)}%`;
  if (kind === 'collect') {
    const arms = Array.isArray(o.summary?.arms) ? (o.summary.arms as Array<Record<string, any>>) : [];
    return arms.map((a) => `${a.arm} ${num(a.successes) ?? '?'}/${num(a.tasks) ?? '?'}`).join(', ') || null;
  }
  if (kind === 'datasets') return `reflect ${num(o.reflect?.episodes)} episodes / ${num(o.reflect?.steps)} steps, plain ${num(o.plain?.episodes)} / ${num(o.plain?.steps)}`;
  // A dataset without a validation split measures "validation" loss on training samples (SftResult.valOn): say which.
  if (kind === 'sft') return num(o.result?.valLoss) === null ? null : `${o.result.valOn === 'train' ? 'loss on training samples (no validation split)' : 'validation loss'} ${(o.result.valLoss as number).toFixed(3)}`;
  if (kind.startsWith('eval-')) {
    const s = o.overall?.success;
    return num(s?.k) === null || num(s?.n) === null ? null : `solved ${pct(s.k, s.n)}`;
  }
  if (kind === 'mine') {
    if (num(o.failures) === null) return null;
    const distinct = num(o.distinctStates) === null ? '' : `, ${o.distinctStates as number} distinct states`;
    const confirmed = num(o.confirmation?.confirmed) === null ? '' : `, ${o.confirmation.confirmed as number} confirmed`;
    return `${o.failures as number} failures mined of ${num(o.failed) ?? '?'} failed${distinct}${confirmed}`;
  }
  if (kind === 'salvage') {
    const states = num(o.states);
    return states === null ? null : `${states} states (${num(o.critical) ?? '?'} critical)`;
  }
  return null;
}
