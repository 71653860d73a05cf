/**
 * The experiment's stages, each a call into the library the single commands use (collection,
 * datasets, SFT, evaluation, mining, Salvage-DS). A stage returns its outputs (ids, paths, numbers);
 * when the run is cancelled it throws StageStopped after leaving its own resumable state behind
 * (a collection run's log, an SFT or Salvage-DS checkpoint).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { appendJsonlLine } from '../store/jsonl.ts';
import type { BrowserEnv } from '../environment/environment.ts';
import type { TaskServer } from '../tasks/server.ts';
import type { LabStore } from '../store/lab.ts';
import { RunFolder, runCollection, type CollectSummary } from '../collection/collect-run.ts';
import type { AttemptEvent } from '../collection/retries.ts';
import { createDataset, readManifest } from '../datasets/index.ts';
import { defaultPromptSettings, type PromptSettings } from '../policy/prompt.ts';
import { policySamples, writeSftSamples } from '../policy/sft-data.ts';
import { defaultSftJob, type SftJob } from '../policy/sft-job.ts';
import type { SftResult } from '../policy/sft.ts';
import { startSft } from '../policy/sft-runner.ts';
import { newEvalId, runEval, type EvalReport, type EvalSplit } from '../evaluation/eval.ts';
import { mineEvaluations } from '../evaluation/mine-run.ts';
import { applyPreset, defaultSalvageJob, parseSalvageJob, type SalvageJob } from '../policy/salvage/config.ts';
import { freezeStates } from '../policy/salvage/states.ts';
import { startSalvage } from '../policy/salvage/runner.ts';
import type { SalvageResult } from '../policy/salvage/train.ts';
import { readPolicySettings } from '../policy/settings.ts';
import { initDigest, initPolicyDir, variantSeeds, type ExperimentConfig, type RolloutSet, type Variant } from './config.ts';
import type { ExperimentFolder } from './folder.ts';
import { labPaths } from '../store/layout.ts';
import { evalFiles, experimentFiles, modelFiles } from '../store/lab-files.ts';
import { heldOutFamilies } from '../tasks/registry.ts';

export class StageStopped extends Error {
  constructor(stage: string) {
    super(`stage ${stage} stopped`);
  }
}

export interface StageContext {
  folder: ExperimentFolder;
  config: ExperimentConfig;
  store: LabStore;
  server: TaskServer;
  envs: BrowserEnv[];
  browserKind: string;
  signal: AbortSignal;
  /** The stage's own progress (done of total, with a short note). */
  progress(done: number, total: number, note?: string): void;
  log(line: string): void;
}

/** What a stage does, for estimating it from finished stages of the same kind (held-out episodes run longer than test ones). */
export type StageKind = 'collect' | 'datasets' | 'sft' | 'eval-test' | 'eval-heldout' | 'eval-train' | 'mine' | 'salvage';

export interface Stage {
  name: string;
  kind: StageKind;
  /** The work it has in all, in its own unit; absent for stages counted only as a whole (collection, datasets, mining). */
  planned?: { total: number; unit: 'episodes' | 'steps' | 'iterations' };
  /** The stages whose outputs it reads: when one of them runs again, so must this one. */
  inputs: string[];
  run(ctx: StageContext): Promise<unknown>;
}

export interface CollectOutputs { runId: string; dir: string; summary: CollectSummary; successIds: string[] }
export interface DatasetOutputs { reflect: { name: string; version: number; episodes: number; steps: number }; plain: { name: string; version: number; episodes: number; steps: number } }
export interface SftOutputs { dir: string; result: SftResult; curve: string }
export interface EvalOutputs { evalId: string; path: string; policy: string; split: EvalSplit; overall: EvalReport['overall']; byFamily: EvalReport['byFamily']; decoding: EvalReport['decoding']; episodes: number; elapsedS: number }
export interface MineOutputs {
  /** The first rollout evaluation (the mining report lies beside it); evalIds: every one mined (absent in outputs written before several existed). */
  evalId: string; evalIds?: string[]; path: string; failures: number; distinctStates?: number; failed: number; byMode: Record<string, number>; byFamily: Record<string, Record<string, number>>;
  /** With mine.confirm: branching outcomes (confirmed, recoverable, ...) over the branched states, and per failure mode. */
  confirmation?: Record<string, number>;
  confirmationByMode?: Record<string, Record<string, number>>;
}
export interface SalvageOutputs { dir: string; variant: Variant; seed: number; states: number; critical: number; result: SalvageResult; stats: string }

const policyDir = (ctx: StageContext, name: string) => experimentFiles(ctx.folder.dir).policy(name);

/** Collection on the training families: with reflection-conditioned retries and shortening, or plain (blind retries only). */
function collectStage(arm: 'reflect' | 'plain'): Stage {
  const name = `collect-${arm}`;
  return {
    name,
    kind: 'collect',
    inputs: [],
    async run(ctx) {
      const c = ctx.config.collect;
      // The run id follows from the experiment's, so a stopped stage finds its run (and its log) again.
      const runId = `${ctx.config.id}-${arm}`;
      const run = RunFolder.exists(ctx.store.dir, runId)
        ? RunFolder.open(ctx.store.dir, runId)
        : RunFolder.create(ctx.store.dir, {
            runId,
            tasks: `${ctx.config.families.join(',')}:train`, agent: c.agent, agentSeed: c.agentSeed, retries: c.retries,
            reflect: arm === 'reflect' ? 'rules' : 'none', shorten: arm === 'reflect', parallel: c.parallel, seeds: c.seeds,
            ...(c.maxSteps ? { maxSteps: c.maxSteps } : {}),
            ...(c.tier ? { tier: c.tier } : {}),
            experiment: ctx.config.id,
          });
      if (!ctx.folder.lastState(name)) ctx.folder.log({ stage: name, status: 'resumable', state: { runId } });
      const summary = await runCollection({ envs: ctx.envs, server: ctx.server, store: ctx.store, browserKind: ctx.browserKind }, run, {
        signal: ctx.signal,
        onTaskDone: (done, total, task) => ctx.progress(done, total, task),
      });
      if (ctx.signal.aborted || summary.tasksDone < summary.tasks) throw new StageStopped(name);
      // The training episodes of this arm: each task's successful attempt, shortened where a shorter replay passed.
      const armName = arm === 'reflect' ? 'reflect' : 'blind';
      const shortened = new Map(run.events.flatMap((e) => (e.type === 'shortened' && e.episodeId ? [[e.from, e.episodeId] as const] : [])));
      const wins = run.events.filter((e): e is AttemptEvent => e.type === 'attempt' && e.success && e.arms.includes(armName));
      const successIds = [...new Set(wins.map((e) => shortened.get(e.episodeId) ?? e.episodeId))];
      return { runId: run.config.runId, dir: run.dir, summary, successIds } satisfies CollectOutputs;
    },
  };
}

/** Two frozen datasets: reflection-collected and shortened, and plain-collected. */
const datasetsStage: Stage = {
  name: 'datasets',
  kind: 'datasets',
  inputs: ['collect-reflect', 'collect-plain'],
  async run(ctx) {
    const ratios = { train: 1 - ctx.config.validationShare, validation: ctx.config.validationShare, test: 0 };
    const make = (arm: 'reflect' | 'plain') => {
      const ids = ctx.folder.outputs<CollectOutputs>(`collect-${arm}`).successIds;
      if (!ids.length) throw new Error(`collect-${arm}: no successful episode to train on`);
      const { manifest } = createDataset(ctx.store, { name: `exp-${ctx.config.id}-${arm}`, description: `experiment ${ctx.config.id}: ${arm}-collected`, filter: { ids }, ratios });
      return { name: manifest.name, version: manifest.version, episodes: manifest.episodes.length, steps: manifest.episodes.reduce((n, e) => n + e.steps, 0) };
    };
    return { reflect: make('reflect'), plain: make('plain') } satisfies DatasetOutputs;
  },
};

/** The prompt both SFT arms train in (with `init`, the init policy's own: a test holds the full preset's equal to the shipped policy's). */
export function sftPromptSettings(s: ExperimentConfig['sft']): PromptSettings {
  return {
    ...defaultPromptSettings, maxPageChars: s.maxPageChars, elementOrder: s.elementOrder, markTaskMatches: s.markTaskMatches, elementLayout: s.elementLayout,
    thought: s.thought, ...(s.maxTextChars ? { maxTextChars: s.maxTextChars } : {}), markValues: s.markValues, answer: s.answer,
  };
}

/** SFT on one of the two datasets, in a worker; a cancelled run keeps its checkpoint and resumes. */
function sftStage(arm: 'reflect' | 'plain', config: ExperimentConfig): Stage {
  const name = `sft-${arm}`;
  return {
    name,
    kind: 'sft',
    inputs: ['datasets'],
    planned: { total: config.sft.steps, unit: 'steps' },
    async run(ctx) {
      const s = ctx.config.sft;
      if (s.init && s.initDigest && initDigest(s.init) !== s.initDigest) {
        throw new Error(`${name}: the ${s.init} policy's weights (${initPolicyDir(s.init)}) differ from those this experiment was created with; replay it where they are the same`);
      }
      const outDir = policyDir(ctx, name);
      const samplesFile = modelFiles(outDir).sftSamples;
      const ds = ctx.folder.outputs<DatasetOutputs>('datasets')[arm];
      const prompt = sftPromptSettings(s);
      if (!existsSync(modelFiles(outDir).trainState) || !existsSync(samplesFile)) {
        writeSftSamples(outDir, policySamples(ctx.store, readManifest(ctx.store.dir, { name: ds.name, version: ds.version })), prompt);
      }
      const job: SftJob = {
        ...defaultSftJob, outDir, samplesFile, dataset: { name: ds.name, version: ds.version },
        steps: s.steps, batch: s.batch, lr: s.lr, minLr: s.minLr, warmup: s.warmup, weightDecay: s.weightDecay, gradClip: s.gradClip, seed: s.seed,
        evalEvery: s.evalEvery, checkpointEvery: s.checkpointEvery, targets: s.targets, reserve: s.reserve, evalSamples: s.evalSamples, promptWeight: s.promptWeight,
        resume: true, backend: ctx.config.backend, vocabSize: s.vocabSize, model: s.model, prompt, tokenizerSpaces: s.tokenizerSpaces,
        ...(s.init ? { init: initPolicyDir(s.init) } : {}),
      };
      // The loss curve, appended as it goes so a resumed run's curve continues the stopped one.
      const curve = experimentFiles(ctx.folder.dir).curve(name);
      mkdirSync(experimentFiles(ctx.folder.dir).curves, { recursive: true });
      const handle = startSft(job, {
        progress: (p) => {
          appendJsonlLine(curve, { step: p.step, loss: p.loss, valLoss: p.valLoss, lr: p.lr, tokensPerSec: p.tokensPerSec });
          ctx.progress(p.step, p.steps, `loss ${p.loss.toFixed(3)}`);
        },
      });
      const onAbort = () => handle.cancel();
      ctx.signal.addEventListener('abort', onAbort);
      try {
        const result = await handle.result;
        if (result.cancelled) throw new StageStopped(name);
        return { dir: outDir, result, curve } satisfies SftOutputs;
      } finally {
        ctx.signal.removeEventListener('abort', onAbort);
      }
    },
  };
}

/**
 * Evaluate a policy (greedy decoding) on test seeds, held-out families or training instances, in
 * `runs` runs (each on its own block of seeds).
 */
function evalStage(name: string, policyStage: string, split: EvalSplit, runs: number, config: ExperimentConfig, rollout?: RolloutSet): Stage {
  const e = config.eval;
  const seeds = rollout?.seeds ?? (split === 'heldout' ? e.heldoutSeeds : split === 'train' ? config.mine.seeds : e.testSeeds);
  const families = split === 'heldout' ? heldOutFamilies().length : config.families.length;
  return {
    name,
    kind: split === 'heldout' ? 'eval-heldout' : split === 'train' ? 'eval-train' : 'eval-test',
    planned: { total: families * seeds * runs, unit: 'episodes' },
    inputs: [policyStage],
    async run(ctx) {
      const policy = ctx.folder.outputs<{ dir: string }>(policyStage).dir;
      // The evaluation's id is recorded before its first episode, so a stopped stage continues it rather than starting over.
      const recorded = ctx.folder.lastState(name)?.evalId as string | undefined;
      const evalId = recorded ?? newEvalId();
      if (!recorded) ctx.folder.log({ stage: name, status: 'resumable', state: { evalId } });
      const sampling = rollout?.sampling ? { kind: 'nucleus' as const, ...rollout.sampling } : { kind: 'greedy' as const };
      const report = await runEval({ envs: ctx.envs, server: ctx.server, store: ctx.store, browserKind: ctx.browserKind }, {
        policy: { dir: policy, sampling, backend: ctx.config.backend, guided: e.guided },
        tasks: split === 'heldout' ? 'all' : ctx.config.families.join(','), split, seeds, runs,
        ...(rollout?.firstSeed ? { firstSeed: rollout.firstSeed } : {}),
        tier: rollout?.tier ?? e.tier, parallel: e.parallel, ...(e.maxSteps ? { maxSteps: e.maxSteps } : {}), experiment: ctx.config.id,
      }, {
        signal: ctx.signal, evalId,
        onEpisode: (done, total, ep) => ctx.progress(done, total, `${ep.family}:${ep.seed} ${ep.success ? 'solved' : 'failed'}`),
      });
      if (ctx.signal.aborted) throw new StageStopped(name);
      return {
        evalId: report.evalId, path: report.path, policy, split, overall: report.overall, byFamily: report.byFamily,
        decoding: report.decoding, episodes: report.episodes.length, elapsedS: report.elapsedS,
      } satisfies EvalOutputs;
    },
  };
}

/** The rollout stages mining reads: one per rollout set, or the single rollout-train of older configs. */
export function rolloutStageNames(config: ExperimentConfig): string[] {
  return config.mine.rollouts ? config.mine.rollouts.map((r) => `rollout-${r.name}`) : ['rollout-train'];
}

/**
 * Mine evaluations as `lab mine` does, into one mining.json beside the first, rewritten after every
 * state, so a stopped stage continues where it was. Reference and branch episodes are the
 * experiment's, not the evaluation's (they are the oracle's, not the policy's).
 */
async function mineInStage(ctx: StageContext, name: string, evalIds: string[], confirm: boolean): Promise<MineOutputs> {
  const path = evalFiles(labPaths.eval(ctx.store.dir, evalIds[0])).mining;
  const deps = { envs: ctx.envs.slice(0, Math.max(1, ctx.config.eval.parallel)), server: ctx.server, store: ctx.store, browserKind: ctx.browserKind, signal: ctx.signal, provenance: { experiment: ctx.config.id } };
  const r = await mineEvaluations(deps, evalIds, path, {
    confirm, confirmMax: ctx.config.mine.confirmMax, examplesPerMode: 5, onProgress: (phase, done, total) => ctx.progress(done, total, phase),
  });
  if (r.cancelled) throw new StageStopped(name);
  const out = r.report;
  return {
    evalId: evalIds[0], evalIds, path, failures: out.failures, distinctStates: out.distinctStates, failed: r.failed, byMode: out.byMode, byFamily: out.byFamily as Record<string, Record<string, number>>,
    ...(out.confirmation ? { confirmation: out.confirmation.byStatus, confirmationByMode: out.confirmation.byMode } : {}),
  };
}

/** Failure modes of the SFT policy's rollouts on training instances, critical states confirmed by branching where the config says. */
function mineStage(config: ExperimentConfig): Stage {
  return {
    name: 'mine',
    kind: 'mine',
    inputs: rolloutStageNames(config),
    run: (ctx) => mineInStage(ctx, 'mine', rolloutStageNames(ctx.config).map((s) => ctx.folder.outputs<EvalOutputs>(s).evalId), !!ctx.config.mine.confirm),
  };
}

/**
 * Failure modes of the reflection-trained SFT policy's failed test episodes (no branching): the
 * report then says, per mode, how many of them Salvage-DS solves (its salvage rate). Mining at
 * scale configs (`mine.rollouts`) only.
 */
const mineSftTestStage: Stage = {
  name: 'mine-sft-test',
  kind: 'mine',
  inputs: ['eval-sft-reflect-test'],
  run: (ctx) => mineInStage(ctx, 'mine-sft-test', [ctx.folder.outputs<EvalOutputs>('eval-sft-reflect-test').evalId], false),
};

/** One Salvage-DS variant (or ablation) at one training seed, from the reflection-trained SFT policy. */
function salvageStage(variant: Variant, seed: number, config: ExperimentConfig): Stage {
  const name = `salvage-${variant}-s${seed}`;
  return {
    name,
    kind: 'salvage',
    // The states-all variant trains on the SFT data's states alone, not on mined ones.
    inputs: variant === 'states-all' ? ['sft-reflect'] : ['sft-reflect', 'mine'],
    planned: { total: config.salvage.iterations, unit: 'iterations' },
    async run(ctx) {
      const sc = ctx.config.salvage;
      const sft = ctx.folder.outputs<SftOutputs>('sft-reflect').dir;
      const outDir = policyDir(ctx, name);
      const statesFile = modelFiles(outDir).salvageStates;
      const base: SalvageJob = {
        ...defaultSalvageJob, ...structuredClone(sc.rl), policy: sft, outDir, statesFile, maxNew: readPolicySettings(sft).reserve,
        states: variant === 'states-all' ? 'all' : 'mined',
        iterations: sc.iterations, statesPerIter: sc.statesPerIter, group: sc.group, updatesPerIter: sc.updatesPerIter,
        seed, checkpointEvery: sc.checkpointEvery, resume: true, backend: ctx.config.backend, heldoutShare: ctx.config.mine.heldoutShare ?? 0,
      };
      const job = parseSalvageJob(applyPreset(base, variant === 'states-all' ? 'salvage' : variant), name);
      const { critical } = freezeStates(ctx.store, job, {
        miningPath: job.states === 'mined' ? ctx.folder.outputs<MineOutputs>('mine').path : undefined, sftSamples: modelFiles(sft).sftSamples,
      });
      const handle = startSalvage(job, { iteration: (s, n) => ctx.progress(s.iteration + 1, n, `reward ${s.meanReward.toFixed(2)} kept ${s.kept}/${s.groups}`) });
      const onAbort = () => handle.cancel();
      ctx.signal.addEventListener('abort', onAbort);
      try {
        const result = await handle.result;
        if (result.cancelled) throw new StageStopped(name);
        return { dir: outDir, variant, seed, states: result.states, critical, result, stats: modelFiles(outDir).salvageStats } satisfies SalvageOutputs;
      } finally {
        ctx.signal.removeEventListener('abort', onAbort);
      }
    },
  };
}

/**
 * Every stage of the experiment, in order: the ablations only at their seeds (`ablationSeeds`).
 * Evaluations run `eval.runs` runs each; SFT's run
 * `sftRuns` (as many episodes as a variant's pool over its seeds), and the two held-out sides of
 * the Salvage-DS claim run `claimHeldoutRuns` where the config has it.
 */
export function experimentStages(config: ExperimentConfig): Stage[] {
  const e = config.eval;
  const sftRuns = e.sftRuns ?? e.runs;
  const rollouts = config.mine.rollouts
    ? config.mine.rollouts.map((r) => evalStage(`rollout-${r.name}`, 'sft-reflect', 'train', r.runs, config, r))
    : [evalStage('rollout-train', 'sft-reflect', 'train', 1, config)];
  // Rollouts and mining come straight after the SFT policy they mine, so `--until mine` stops with
  // the states Salvage-DS's configuration is chosen on and no evaluation run yet.
  const stages: Stage[] = [
    collectStage('reflect'), collectStage('plain'), datasetsStage, sftStage('reflect', config), ...rollouts, mineStage(config), sftStage('plain', config),
    evalStage('eval-sft-reflect-test', 'sft-reflect', 'test', sftRuns, config), evalStage('eval-sft-plain-test', 'sft-plain', 'test', sftRuns, config),
    evalStage('eval-sft-reflect-heldout', 'sft-reflect', 'heldout', e.claimHeldoutRuns?.sft ?? sftRuns, config),
    ...(config.mine.rollouts ? [mineSftTestStage] : []),
  ];
  const variantAt = (v: Variant, seed: number) => {
    const s = `salvage-${v}-s${seed}`;
    const heldoutRuns = v === 'salvage' ? (e.claimHeldoutRuns?.salvage ?? e.runs) : e.runs;
    stages.push(
      salvageStage(v, seed, config),
      evalStage(`eval-${v}-s${seed}-test`, s, 'test', e.runs, config),
      evalStage(`eval-${v}-s${seed}-heldout`, s, 'heldout', heldoutRuns, config),
    );
  };
  // Salvage-DS at every seed before any ablation: the claim needs only these, so a run cut short
  // across sessions has the claim's figure first and the ablations after it.
  const { variants, seeds } = config.salvage;
  if (variants.includes('salvage')) for (const seed of seeds) variantAt('salvage', seed);
  for (const seed of seeds) {
    for (const v of variants.filter((x) => x !== 'salvage' && variantSeeds(config.salvage, x).includes(seed))) variantAt(v, seed);
  }
  return stages;
}
