/**
 * Evaluation of a compact policy: episodes on test seeds of the training families, or on the
 * held-out families, recorded in the lab like any other, and a report with 95% intervals.
 *
 * Runs: run r takes the next block of `seeds` test seeds per family and sampling seed r, so runs
 * are independent draws of the test distribution whether decoding is greedy or sampled. Success
 * rates get Wilson intervals over all episodes and, with two runs or more, a Student-t interval
 * over the per-run rates; steps on solved tasks get a bootstrap interval.
 *
 * An invalid action is a step whose action could not be carried out as written: it did not parse
 * (malformed_action), named no element on the page (unknown_element), had a bad argument
 * (invalid_argument) or is outside the environment's action sets (action_not_allowed: a coordinate
 * action, which did not parse before they existed). A sound action that fails on the page (say, a
 * covered button) is not invalid.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { stampedId } from '../store/stamped-id.ts';
import { z } from 'zod';
import { appendJsonlLine, readJsonl } from '../store/jsonl.ts';
import { rerunOnLostBrowser, type BrowserLostError } from '../environment/browser-lost.ts';
import type { BrowserEnv } from '../environment/environment.ts';
import type { TaskServer } from '../tasks/server.ts';
import type { Tier } from '../tasks/types.ts';
import type { LabStore } from '../store/lab.ts';
import { drillFamilies, heldOutFamilies, trainingFamilies } from '../tasks/registry.ts';
import { runEpisode } from '../collection/episode.ts';
import { CompactPolicyAgent, type CompactPolicyOptions, type DecodeComparison, type DecoderTotals } from '../agents/compact-policy.ts';
import { bootstrapMean, rate, ratioMean, tMean, type Mean, type Rate } from '../common/stats.ts';
import type { EvalSplit } from './eval-splits.ts';
import { EvalRequestFile } from '../policy/output-files.ts';
import { evalFiles } from '../store/lab-files.ts';
import { readJsonFile, writeFileAtomic } from '../store/json-file.ts';
import { labPaths } from '../store/layout.ts';
import { MINIWOB_PREFIX } from '../tasks/miniwob/loader.ts';
import { miniwobMeans, type MiniwobMeans, type MiniwobServing } from './miniwob.ts';

export { EVAL_SPLITS, type EvalSplit } from './eval-splits.ts';

export const INVALID_ACTION_CODES: ReadonlySet<string> = new Set(['malformed_action', 'unknown_element', 'invalid_argument', 'action_not_allowed']);

export interface EvalRequest {
  policy: Omit<CompactPolicyOptions, 'seed'>;
  /** Families: `all`, or comma-separated names (must belong to the split). */
  tasks: string;
  split: EvalSplit;
  /** Task instances per family and run. */
  seeds: number;
  runs: number;
  /**
   * Where in the split's seed range the first run starts (default 0): mining rolls out sampled
   * and greedy policies on different instances of the training seeds this way.
   */
  firstSeed?: number;
  /** Force this tier on every instance (default: the tier each seed generates). */
  tier?: Tier;
  parallel: number;
  maxSteps?: number;
  /** End page-state goals when the checker passes (default true; false: as before, until the agent stops). */
  endOnGoal?: boolean;
  /** The experiment this evaluation is a stage of; recorded in its episodes' provenance. */
  experiment?: string;
  /**
   * MiniWoB++ families (`miniwob.<task>` in tasks) are served from this checkout, with these
   * settings; absent: built-in families only.
   */
  miniwob?: MiniwobServing;
}

export interface EvalTask {
  family: string;
  seed: number;
  run: number;
}

/** One finished episode, as the metrics need it. */
export interface EvalEpisode extends EvalTask {
  episodeId: string;
  tier: number;
  success: boolean;
  steps: number;
  invalidSteps: number;
}

export interface GroupMetrics {
  episodes: number;
  success: Rate;
  /** Mean steps of the solved episodes. */
  stepsOnSolved: Mean;
  invalidActions: Rate;
  /** Success rate per run (with a t interval over runs when there are two or more). */
  successByRun: Mean;
}

export interface EvalReport {
  evalId: string;
  createdAt: string;
  request: EvalRequest;
  policy: Awaited<ReturnType<CompactPolicyAgent['config']>>;
  overall: GroupMetrics;
  byFamily: Record<string, GroupMetrics>;
  byTier: Record<string, GroupMetrics>;
  /** tokensPerSec: generated tokens over generation time (prompt prefill excluded); msPerStep: prefill and generation together. */
  decoding: {
    steps: number; invalidOutputs: number; tokensPerSec: number; msPerStep: number;
    /** Prefill alone per step, and the share of prompt tokens the prompt cache supplied; absent in reports written before them. */
    prefillMsPerStep?: number; reusedPromptShare?: number;
  };
  /** With policy.compareDecode: both decoders on every step of these episodes, side by side. */
  decodeComparison?: DecodeComparisonReport;
  episodes: EvalEpisode[];
  elapsedS: number;
  /** Episodes started again because the browser under them went away (absent when none was): their browsers and how many. */
  browserReruns?: { reruns: number; endpoints: string[] };
  /** With MiniWoB++ tasks (byFamily holds one row per task): the mean over the 56-task set, tasks not run as failures, and over the tasks run. */
  miniwob?: MiniwobMeans;
}

/**
 * The families of a split named by a spec, with a clear error for a family of the wrong split.
 * `miniwob` lists the MiniWoB++ families served (`miniwob.<task>`): those may be named too, on the
 * test or train split (their seed ranges are those of every family), never as part of "all".
 */
export function evalFamilies(spec: string, split: EvalSplit, miniwob: readonly string[] = []): string[] {
  const pool = (split === 'heldout' ? heldOutFamilies() : trainingFamilies()).map((f) => f.name);
  if (spec === 'all' || spec === '') return pool;
  // A drill family (factbook, directory) is evaluated on its own seeds when named, never as part of "all".
  const named = split === 'heldout' ? pool : [...pool, ...drillFamilies().map((f) => f.name)];
  const names = spec.split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of names) {
    if (n.startsWith(MINIWOB_PREFIX)) {
      if (split === 'heldout') throw new Error(`--tasks: "${n}" is a MiniWoB++ task, not a held-out family: evaluate it on --split test`);
      if (!miniwob.includes(n)) throw new Error(`--tasks: "${n}" is not a MiniWoB++ task served here (${miniwob.length ? `${miniwob.length} tasks from the checkout` : 'no checkout given: --miniwob DIR'})`);
      continue;
    }
    if (!named.includes(n)) throw new Error(`--tasks: "${n}" is not a ${split === 'heldout' ? 'held-out' : 'training or drill'} family (${split}: ${named.join(', ')})`);
  }
  return names;
}

/** The MiniWoB++ families a task server serves. */
export function servedMiniwobFamilies(server: Pick<TaskServer, 'familyNames'>): string[] {
  return server.familyNames.filter((n) => n.startsWith(MINIWOB_PREFIX));
}

/** The task instances of an evaluation: per run, the next `seeds` test seeds of each family. */
export function evalTasks(req: Pick<EvalRequest, 'tasks' | 'split' | 'seeds' | 'runs' | 'firstSeed'>, server: TaskServer): EvalTask[] {
  const out: EvalTask[] = [];
  for (let run = 0; run < req.runs; run++) {
    for (let k = 0; k < req.seeds; k++) {
      for (const family of evalFamilies(req.tasks, req.split, servedMiniwobFamilies(server))) {
        const range = server.familySeeds(family)[req.split === 'train' ? 'train' : 'test'];
        const seed = range.from + (req.firstSeed ?? 0) + run * req.seeds + k;
        if (seed >= range.to) throw new Error(`${family}: not enough ${req.split === 'train' ? 'train' : 'test'} seeds for ${req.runs} runs of ${req.seeds}`);
        out.push({ family, seed, run });
      }
    }
  }
  return out;
}

export function groupMetrics(eps: readonly EvalEpisode[], runs: number): GroupMetrics {
  const solved = eps.filter((e) => e.success).map((e) => e.steps);
  const steps = eps.reduce((n, e) => n + e.steps, 0);
  const invalid = eps.reduce((n, e) => n + e.invalidSteps, 0);
  const perRun: number[] = [];
  for (let r = 0; r < runs; r++) {
    const inRun = eps.filter((e) => e.run === r);
    if (inRun.length) perRun.push(inRun.filter((e) => e.success).length / inRun.length);
  }
  return {
    episodes: eps.length,
    success: rate(solved.length, eps.length),
    stepsOnSolved: bootstrapMean(solved),
    invalidActions: rate(invalid, steps),
    successByRun: tMean(perRun),
  };
}

function groupBy(eps: readonly EvalEpisode[], key: (e: EvalEpisode) => string, runs: number): Record<string, GroupMetrics> {
  const keys = [...new Set(eps.map(key))].sort();
  return Object.fromEntries(keys.map((k) => [k, groupMetrics(eps.filter((e) => key(e) === k), runs)]));
}

export function summariseEval(eps: readonly EvalEpisode[], runs: number): Pick<EvalReport, 'overall' | 'byFamily' | 'byTier'> {
  return { overall: groupMetrics(eps, runs), byFamily: groupBy(eps, (e) => e.family, runs), byTier: groupBy(eps, (e) => String(e.tier), runs) };
}

export interface EvalDeps {
  envs: BrowserEnv[];
  server: TaskServer;
  store: LabStore;
  browserKind: string;
}

export interface EvalHooks {
  signal?: AbortSignal;
  onEpisode?(done: number, total: number, e: EvalEpisode): void;
  /**
   * Run under this id (see newEvalId). When its folder holds a stopped evaluation of the same
   * request, that one continues: its finished episodes count, and only the others run.
   */
  evalId?: string;
}

/** A new evaluation id: its creation time, then random hex. */
export function newEvalId(): string {
  return stampedId();
}

// Prompt token counts are absent from progress lines written before prefix caching (read as 0).
const DecodingTotals = z.object({
  steps: z.number(), invalid: z.number(), tokens: z.number(), decodeMs: z.number(), prefillMs: z.number(),
  promptTokens: z.number().default(0), reusedPromptTokens: z.number().default(0),
});
type DecodingTotals = z.infer<typeof DecodingTotals>;
const ProgressLine = z.object({
  family: z.string(), seed: z.number().int(), run: z.number().int(), episodeId: z.string(), tier: z.number().int(),
  success: z.boolean(), steps: z.number().int(), invalidSteps: z.number().int(), decoding: DecodingTotals,
});

const taskKey = (t: EvalTask) => `${t.family}:${t.seed}:${t.run}`;

/**
 * The fields that decide which episodes an evaluation runs and how: a continuation must keep them.
 * Not the number of runs: run r's instances do not depend on how many runs there are (evalTasks),
 * so a continuation may add runs to a finished evaluation, keeping every episode it has.
 */
function requestFingerprint(req: Pick<EvalRequest, 'tasks' | 'seeds' | 'maxSteps' | 'endOnGoal' | 'firstSeed' | 'miniwob'> & { policy: unknown; split: string; tier?: number }): string {
  const { policy, tasks, split, seeds, tier, maxSteps, endOnGoal, firstSeed, miniwob } = req;
  // MiniWoB++'s settings change its episodes; where the checkout lies does not (a moved checkout continues).
  const served = miniwob ? { miniwob: { timeLimitMs: miniwob.timeLimitMs ?? null, humanDisplay: !!miniwob.humanDisplay } } : {};
  return JSON.stringify({ policy, tasks, split, seeds, tier: tier ?? null, maxSteps: maxSteps ?? null, endOnGoal: endOnGoal ?? true, ...(firstSeed ? { firstSeed } : {}), ...served });
}

/**
 * An evaluation's request.json. The fields that choose its episodes are checked; the policy's
 * decoding options pass through as recorded (the agent checks them when it loads).
 */
export function readEvalRequest(path: string): EvalRequest {
  return readJsonFile(path, EvalRequestFile, 'an evaluation request') as unknown as EvalRequest;
}

/** The finished episodes of a stopped evaluation under `dir` (none for a new one), after checking it ran this request. */
function startOrContinue(dir: string, evalId: string, req: EvalRequest): Array<z.infer<typeof ProgressLine>> {
  const files = evalFiles(dir);
  const requestPath = files.request;
  if (!existsSync(requestPath)) {
    mkdirSync(dir, { recursive: true });
    writeFileAtomic(requestPath, JSON.stringify(req, null, 2) + '\n');
    return [];
  }
  const recorded = readEvalRequest(requestPath);
  if (requestFingerprint(recorded) !== requestFingerprint(req)) {
    throw new Error(`evaluation ${evalId}: ${requestPath} records a different request (policy, tasks, seeds, tier, step limit or MiniWoB++ settings); start a new evaluation instead`);
  }
  if (req.runs < recorded.runs) throw new Error(`evaluation ${evalId}: ${requestPath} records ${recorded.runs} runs; a continuation may add runs, not drop them (asked for ${req.runs})`);
  // More runs: the request now records them, so a later continuation keeps the larger evaluation.
  if (req.runs > recorded.runs) writeFileAtomic(requestPath, JSON.stringify(req, null, 2) + '\n');
  const progress = files.episodes;
  return existsSync(progress) ? readJsonl(progress, ProgressLine).records : [];
}

/**
 * Run the evaluation's episodes (N environments in parallel) and write lab/evals/<id>/report.json.
 * Each finished episode is appended to episodes.jsonl as it ends; with hooks.evalId naming a
 * stopped evaluation (or a finished one, asked for more runs), the episodes it finished are kept
 * and the rest run (a side-by-side decoder comparison, policy.compareDecode, covers only the
 * episodes of the last run).
 */
export async function runEval(deps: EvalDeps, req: EvalRequest, hooks: EvalHooks = {}): Promise<EvalReport & { path: string }> {
  const t0 = performance.now();
  const evalId = hooks.evalId ?? newEvalId();
  const dir = labPaths.eval(deps.store.dir, evalId);
  const progressPath = evalFiles(dir).episodes;
  // One line per task instance (the later wins), in case a line was written twice.
  const earlier = [...new Map(startOrContinue(dir, evalId, req).map((l) => [taskKey(l), l])).values()];
  const finished = new Set(earlier.map(taskKey));
  const queue = evalTasks(req, deps.server).filter((t) => !finished.has(taskKey(t)));
  const total = queue.length + earlier.length;
  const episodes: EvalEpisode[] = earlier.map(({ decoding: _, ...e }) => e);
  const earlierDecoding = earlier.map((l) => l.decoding);
  const agents: CompactPolicyAgent[] = [];
  const first = new CompactPolicyAgent({ ...req.policy, seed: 0 });
  const policyConfig = await first.config();

  const reruns: BrowserLostError[] = [];
  const work = async (env: BrowserEnv) => {
    for (let task = queue.shift(); task && !hooks.signal?.aborted; task = queue.shift()) {
      // An episode lost with its browser is run again from the start (same instance, same
      // sampling seed) on a live one; only the finished run's agent counts in the decoding totals.
      const { out, agent } = await rerunOnLostBrowser(async () => {
        const agent = new CompactPolicyAgent({ ...req.policy, seed: task.run });
        const out = await runEpisode(
          { env, server: deps.server, store: deps.store, browserKind: deps.browserKind, signal: hooks.signal, endOnGoal: req.endOnGoal ?? true, provenance: { eval: evalId, ...(req.experiment ? { experiment: req.experiment } : {}) } },
          { family: task.family, seed: task.seed, tier: req.tier, agent, maxSteps: req.maxSteps, agentConfig: { ...(await agent.config()), evalId, run: task.run } },
        );
        return { out, agent };
      }, (lost) => reruns.push(lost));
      agents.push(agent);
      if (out.reason === 'cancelled') break;
      const ep = deps.store.readEpisode(out.id);
      const e: EvalEpisode = {
        ...task, episodeId: out.id, tier: ep.header.task.tier, success: out.success, steps: out.steps,
        invalidSteps: ep.steps.filter((s) => s.error && INVALID_ACTION_CODES.has(s.error.code)).length,
      };
      appendJsonlLine(progressPath, { ...e, decoding: decodingOf(agent) });
      episodes.push(e);
      hooks.onEpisode?.(episodes.length, total, e);
    }
  };
  await Promise.all(deps.envs.slice(0, Math.max(1, req.parallel)).map(work));
  episodes.sort((a, b) => a.run - b.run || a.family.localeCompare(b.family) || a.seed - b.seed);

  const dec = [...earlierDecoding, ...agents.map(decodingOf)].reduce((t, a) => ({
    steps: t.steps + a.steps, invalid: t.invalid + a.invalid, tokens: t.tokens + a.tokens, decodeMs: t.decodeMs + a.decodeMs, prefillMs: t.prefillMs + a.prefillMs,
    promptTokens: t.promptTokens + a.promptTokens, reusedPromptTokens: t.reusedPromptTokens + a.reusedPromptTokens,
  }), { steps: 0, invalid: 0, tokens: 0, decodeMs: 0, prefillMs: 0, promptTokens: 0, reusedPromptTokens: 0 });
  const comparisons = agents.map((a) => a.comparison).filter((c): c is DecodeComparison => c !== null);
  const summary = summariseEval(episodes, req.runs);
  const miniwob = miniwobMeans(summary.byFamily, servedMiniwobFamilies(deps.server).map((f) => f.slice(MINIWOB_PREFIX.length)));
  const report: EvalReport = {
    ...(comparisons.length ? { decodeComparison: compareDecoders(comparisons) } : {}),
    evalId, createdAt: new Date().toISOString(), request: req, policy: policyConfig,
    ...summary,
    decoding: { steps: dec.steps, invalidOutputs: dec.invalid, tokensPerSec: dec.decodeMs > 0 ? (dec.tokens / dec.decodeMs) * 1000 : 0, msPerStep: dec.steps ? (dec.decodeMs + dec.prefillMs) / dec.steps : 0,
      prefillMsPerStep: dec.steps ? dec.prefillMs / dec.steps : 0, reusedPromptShare: dec.promptTokens ? dec.reusedPromptTokens / dec.promptTokens : 0,
    },
    episodes,
    elapsedS: (performance.now() - t0) / 1000,
    ...(reruns.length ? { browserReruns: { reruns: reruns.length, endpoints: [...new Set(reruns.map((r) => r.endpoint))] } } : {}),
    ...(miniwob ? { miniwob } : {}),
  };
  const path = evalFiles(dir).report;
  writeFileAtomic(path, JSON.stringify(report, null, 2) + '\n');
  return { ...report, path };
}

function decodingOf(a: CompactPolicyAgent): DecodingTotals {
  const t = a.totals;
  return { steps: t.steps, invalid: t.invalidOutputs, tokens: t.newTokens, decodeMs: t.decodeMs, prefillMs: t.prefillMs, promptTokens: t.promptTokens, reusedPromptTokens: t.reusedPromptTokens };
}

export interface DecoderFigures {
  mode: string;
  newTokens: number;
  /** Generated tokens over generation time (prefill excluded). */
  tokensPerSec: number;
  /** Prefill and generation per step. */
  msPerStep: number;
  /** Generation only, per step. */
  decodeMsPerStep: number;
  /** Prefill only, per step. */
  prefillMsPerStep: number;
  /** Share of prompt tokens whose keys and values came from the prompt cache (0 without it). */
  reusedPromptShare: number;
  meanAcceptanceLength: number | null;
}

export interface DecodeComparisonReport {
  steps: number;
  identicalSteps: number;
  primary: DecoderFigures;
  other: DecoderFigures;
  /** primary's generation speed over the other's: other's generation time / primary's, over all steps. */
  decodeSpeedup: number;
  /** Geometric mean of the per-step ratios with a 95% interval (t on their logarithms). */
  decodeSpeedupPerStep: Mean;
  /** The same for whole steps, prefill included. */
  stepSpeedup: number;
  /** Geometric mean of the per-step whole-step ratios with a 95% interval; absent in reports written before it existed. */
  stepSpeedupPerStep?: Mean;
}

/** Sum the side-by-side totals of every agent of an evaluation into one report. */
export function compareDecoders(cs: readonly DecodeComparison[]): DecodeComparisonReport {
  const sum = (pick: (c: DecodeComparison) => DecoderTotals): DecoderTotals => cs.map(pick).reduce((t, x) => ({
    mode: x.mode, newTokens: t.newTokens + x.newTokens, decodeMs: t.decodeMs + x.decodeMs, prefillMs: t.prefillMs + x.prefillMs,
    promptTokens: t.promptTokens + x.promptTokens, reusedPromptTokens: t.reusedPromptTokens + x.reusedPromptTokens, forwardPasses: t.forwardPasses + x.forwardPasses, drafted: t.drafted + x.drafted, accepted: t.accepted + x.accepted, verifySteps: t.verifySteps + x.verifySteps,
  }));
  const steps = cs.reduce((n, c) => n + c.steps, 0);
  const figures = (t: DecoderTotals): DecoderFigures => ({
    mode: t.mode, newTokens: t.newTokens, tokensPerSec: t.decodeMs > 0 ? (t.newTokens / t.decodeMs) * 1000 : 0,
    msPerStep: steps ? (t.decodeMs + t.prefillMs) / steps : 0, decodeMsPerStep: steps ? t.decodeMs / steps : 0,
    prefillMsPerStep: steps ? t.prefillMs / steps : 0, reusedPromptShare: t.promptTokens > 0 ? t.reusedPromptTokens / t.promptTokens : 0,
    meanAcceptanceLength: t.verifySteps > 0 ? 1 + t.accepted / t.verifySteps : null,
  });
  const primary = sum((c) => c.primary);
  const other = sum((c) => c.other);
  return {
    steps, identicalSteps: cs.reduce((n, c) => n + c.identicalSteps, 0), primary: figures(primary), other: figures(other),
    decodeSpeedup: primary.decodeMs > 0 ? other.decodeMs / primary.decodeMs : 0,
    decodeSpeedupPerStep: ratioMean(cs.flatMap((c) => c.decodeMsRatio)),
    stepSpeedup: primary.decodeMs + primary.prefillMs > 0 ? (other.decodeMs + other.prefillMs) / (primary.decodeMs + primary.prefillMs) : 0,
    stepSpeedupPerStep: ratioMean(cs.flatMap((c) => c.stepMsRatio ?? [])),
  };
}
