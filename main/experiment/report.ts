/**
 * The experiment's report, from the stages' outputs alone: report.json (every number with its 95%
 * interval, the configuration, the backend, timings per stage) and report.html (./report-html.ts).
 *
 * Verdicts are fixed rules, decided before any number is seen and not tuned afterwards:
 *   claim 1 (fewer steps on solved test tasks, reflection-trained vs plain-trained SFT):
 *     reproduced when the bootstrap interval of the difference in mean steps lies below 0;
 *   claim 2 (Salvage-DS beats SFT, on test seeds and on held-out families):
 *     reproduced on a split when the Newcombe interval of the success-rate difference lies above 0.
 *   A point estimate in the claimed direction with an interval that includes 0 is "inconclusive";
 *   the other direction (or no difference) is "not reproduced"; too little data is "not measurable".
 */
import { z } from 'zod';
import { existsSync, readFileSync } from 'node:fs';
import { Rng } from '../common/rng.ts';
import { rate, tMean, type Interval, type Mean, type Rate } from '../common/stats.ts';
import type { EvalReport } from '../evaluation/eval.ts';
import { readRecordedConfig, type ExperimentFolder } from './folder.ts';
import { labPaths } from '../store/layout.ts';
import type { LabStore } from '../store/lab.ts';
import { variantSeeds, type ExperimentConfig, type Variant } from './config.ts';
import type { CollectOutputs, DatasetOutputs, EvalOutputs, MineOutputs, SalvageOutputs, SftOutputs } from './stages.ts';
import { experimentStages } from './stages.ts';
import { readMiningFile } from '../policy/mining-file.ts';
import { experimentFiles } from '../store/lab-files.ts';
import { readJsonFile } from '../store/json-file.ts';
import { EvalEpisodesFile } from '../policy/output-files.ts';

export type Verdict = 'reproduced' | 'inconclusive' | 'not reproduced' | 'not measurable';

export interface Difference {
  value: number | null;
  ci95: Interval | null;
}

export interface MethodResult {
  method: string;
  /** Training seeds pooled into the figures. */
  seeds: number[];
  test: { success: Rate; successBySeed: Mean; stepsOnSolved: Mean; invalidActions: Rate };
  heldout: { success: Rate; successBySeed: Mean; stepsOnSolved: Mean; invalidActions: Rate } | null;
}

export interface ExperimentReport {
  experimentId: string;
  /** Present in a report of an unfinished experiment (`lab experiment report ID --partial`): the stages it stands on. */
  partial?: { stagesDone: number; stages: number };
  createdAt: string;
  config: ExperimentConfig;
  backend: { browser: string; sft: string[]; salvage: string[] };
  timings: Array<{ stage: string; elapsedS: number; attempts: number }>;
  totalS: number;
  collection: { reflect: CollectOutputs['summary']; plain: CollectOutputs['summary'] };
  datasets: DatasetOutputs;
  sft: Record<'reflect' | 'plain', { finalLoss: number; valLoss: number; valOn: string; steps: number; trainSamples: number; tokensPerSec: number; curve: Array<{ step: number; loss: number; valLoss: number | null }> }>;
  claims: {
    fewerSteps: {
      claim: string;
      reflect: Mean;
      plain: Mean;
      /** reflect - plain (negative: fewer steps), over each policy's solved test tasks. */
      difference: Difference;
      /** 1 - reflect / plain. */
      relativeReduction: number | null;
      /** The same on the test tasks both policies solved. */
      common: { tasks: number; reflect: number | null; plain: number | null; difference: Difference };
      verdict: Verdict;
    };
    salvageBeatsSft: {
      claim: string;
      /** Salvage-DS - SFT (reflection-trained), in points of success rate. */
      test: { difference: Difference; verdict: Verdict };
      heldout: { difference: Difference; verdict: Verdict };
      verdict: Verdict;
    };
  };
  /**
   * How precisely the run measured each claim: the half-width of each difference's 95% interval
   * against the precision the experiment is sized for (+-1 step, +-5 points); null where there is no interval.
   */
  precision: {
    target: { steps: number; points: number };
    fewerSteps: number | null;
    salvageTest: number | null;
    salvageHeldout: number | null;
    /** Every half-width present and within its target. */
    met: boolean;
  };
  methods: MethodResult[];
  /**
   * Every ablation against SFT and against Salvage-DS at the same training seeds (its own), in
   * success points (test, held-out). `seeds`: the seeds both sides pool; absent in reports written
   * before it existed, where Salvage-DS was pooled over every seed it ran at.
   */
  ablations: Array<{ variant: Variant; seeds?: number[]; test: { vsSft: Difference; vsSalvage: Difference }; heldout: { vsSft: Difference; vsSalvage: Difference } }>;
  failureModes: Omit<MineOutputs, 'path'>;
  /**
   * Salvage rate per failure mode: of the test instances the reflection-trained SFT policy failed
   * (mode from stage mine-sft-test), the share of Salvage-DS's episodes on the same instances that
   * succeed, pooled over its evaluated seeds; and of the instances SFT solved, the share Salvage-DS
   * lost. Absent without that stage (configs before mining at scale).
   */
  salvageByMode?: {
    evalId: string;
    byMode: Record<string, { sftFailed: number; salvage: Rate }>;
    allFailed: Rate;
    lostOfSolved: Rate;
  };
  /**
   * What the gates did in each Salvage-DS run, summed over its iterations: groups sampled, kept for
   * the policy gradient, refused by each gate (a group both refuse counts in both), anchored and
   * dropped, and the optimizer updates taken. Absent in reports written before it existed.
   */
  gates?: Array<{ variant: Variant; seed: number; groups: number; kept: number; rejectedByContrast: number; rejectedByCompetence: number; anchored: number; dropped: number; updates: number; meanCorrectShare: number | null }>;
  salvageCurves: Array<{ variant: Variant; seed: number; states: number; critical: number; iterations: Array<Record<string, number>> }>;
}

const readJsonl = (path: string): Array<Record<string, number>> =>
  existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter((l) => l.trim()).flatMap((l) => { try { return [JSON.parse(l)]; } catch { return []; } }) : [];

/** Salvage rate per failure mode: pairs SFT's test episodes with Salvage-DS's on the same instances (family, seed). */
export function salvageByMode(mined: Pick<MineOutputs, 'evalId' | 'path'>, sft: EvalOutputs, salvage: EvalOutputs[]): NonNullable<ExperimentReport['salvageByMode']> {
  const inst = (e: { family: string; seed: number }) => `${e.family}:${e.seed}`;
  const modeOf = new Map(readMiningFile(mined.path).map((f) => [f.episodeId, f.mode]));
  const salvageEps = new Map<string, boolean[]>();
  for (const e of salvage.flatMap(episodesOf)) salvageEps.set(inst(e), [...(salvageEps.get(inst(e)) ?? []), e.success]);
  const sftEps = episodesOf(sft).filter((e) => salvageEps.has(inst(e)));
  const byMode: Record<string, { sftFailed: number; solved: number; episodes: number }> = {};
  let lost = 0;
  let kept = 0;
  for (const e of sftEps) {
    const outcomes = salvageEps.get(inst(e))!;
    if (e.success) {
      lost += outcomes.filter((x) => !x).length;
      kept += outcomes.length;
      continue;
    }
    const m = (byMode[modeOf.get(e.episodeId) ?? 'not mined'] ??= { sftFailed: 0, solved: 0, episodes: 0 });
    m.sftFailed++;
    m.solved += outcomes.filter((x) => x).length;
    m.episodes += outcomes.length;
  }
  const all = Object.values(byMode);
  return {
    evalId: mined.evalId,
    byMode: Object.fromEntries(Object.entries(byMode).map(([m, c]) => [m, { sftFailed: c.sftFailed, salvage: rate(c.solved, c.episodes) }])),
    allFailed: rate(all.reduce((n, c) => n + c.solved, 0), all.reduce((n, c) => n + c.episodes, 0)),
    lostOfSolved: rate(lost, kept),
  };
}

/** A run's gate counts summed over its iterations (salvage-stats.jsonl lines). */
export function gateSummary(variant: Variant, seed: number, its: ReadonlyArray<Record<string, number>>, updatesPerIter = 1): NonNullable<ExperimentReport['gates']>[number] {
  const sum = (k: string) => its.reduce((n, i) => n + (i[k] ?? 0), 0);
  const groups = sum('groups');
  // An iteration with rows to learn from takes updatesPerIter updates; one whose groups were all dropped takes none.
  const updates = its.filter((i) => (i.kept ?? 0) + (i.anchored ?? 0) > 0).length * updatesPerIter;
  return {
    variant, seed, groups, kept: sum('kept'), rejectedByContrast: sum('rejectedByContrast'), rejectedByCompetence: sum('rejectedByCompetence'),
    anchored: sum('anchored'), dropped: sum('dropped'), updates, meanCorrectShare: groups ? its.reduce((n, i) => n + (i.correctShare ?? 0) * (i.groups ?? 0), 0) / groups : null,
  };
}

/** Newcombe's hybrid score interval for p1 - p2 from the two Wilson intervals. */
export function rateDifference(a: Rate, b: Rate): Difference {
  if (a.value === null || b.value === null || !a.ci95 || !b.ci95) return { value: null, ci95: null };
  const d = a.value - b.value;
  return {
    value: d,
    ci95: { low: d - Math.hypot(a.value - a.ci95.low, b.ci95.high - b.value), high: d + Math.hypot(a.ci95.high - a.value, b.value - b.ci95.low) },
  };
}

/** Mean of xs minus mean of ys, with a seeded percentile-bootstrap interval. */
export function meanDifference(xs: readonly number[], ys: readonly number[], resamples = 2000, seed = 1): Difference {
  if (!xs.length || !ys.length) return { value: null, ci95: null };
  const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const d = mean(xs) - mean(ys);
  if (xs.length < 2 || ys.length < 2) return { value: d, ci95: null };
  const rng = new Rng(seed);
  const ds = new Float64Array(resamples);
  const draw = (v: readonly number[]) => { let s = 0; for (let i = 0; i < v.length; i++) s += v[rng.below(v.length)]; return s / v.length; };
  for (let r = 0; r < resamples; r++) ds[r] = draw(xs) - draw(ys);
  ds.sort();
  return { value: d, ci95: { low: ds[Math.floor(0.025 * resamples)], high: ds[Math.min(resamples - 1, Math.floor(0.975 * resamples))] } };
}

/** Half the width of a difference's interval (null without one). */
export function halfWidth(d: Difference): number | null {
  return d.ci95 ? (d.ci95.high - d.ci95.low) / 2 : null;
}

/** The precision the full preset is sized for (issue: +-5 points on success, +-1 step on solved tasks). */
export const PRECISION_TARGET = { steps: 1, points: 5 };

/** The verdict of a difference whose claimed direction is `sign` (+1: above 0, -1: below 0). */
export function verdictOf(d: Difference, sign: 1 | -1): Verdict {
  if (d.value === null) return 'not measurable';
  if (!(d.value * sign > 0)) return 'not reproduced';
  if (d.ci95 && (sign > 0 ? d.ci95.low > 0 : d.ci95.high < 0)) return 'reproduced';
  return 'inconclusive';
}

function episodesOf(ev: EvalOutputs): EvalReport['episodes'] {
  return readJsonFile(ev.path, EvalEpisodesFile, 'an evaluation report').episodes;
}

/** Success, steps and invalid actions pooled over a method's evaluations (one per training seed). */
function pooled(evals: EvalOutputs[]): MethodResult['test'] {
  const eps = evals.flatMap(episodesOf);
  const solved = eps.filter((e) => e.success).map((e) => e.steps);
  const steps = eps.reduce((n, e) => n + e.steps, 0);
  const mean = solved.length ? solved.reduce((a, b) => a + b, 0) / solved.length : null;
  return {
    success: rate(eps.filter((e) => e.success).length, eps.length),
    successBySeed: tMean(evals.map((e) => e.overall.success.value ?? 0)),
    stepsOnSolved: evals.length === 1 ? evals[0].overall.stepsOnSolved : { n: solved.length, value: mean, ci95: null },
    invalidActions: rate(eps.reduce((n, e) => n + e.invalidSteps, 0), steps),
  };
}

/**
 * The report from the stages' outputs. `partial`: an experiment still running (or stopped) once
 * its SFT, evaluation and mining stages are done: each Salvage-DS variant is pooled over the
 * training seeds whose evaluations have finished (none yet: no figure), and `partial` says how many
 * stages it stands on. A partial report is printed, never written as report.json (whose presence
 * marks an experiment finished).
 */
export async function buildReport(folder: ExperimentFolder, browserKind: string, opts: { partial?: boolean } = {}): Promise<ExperimentReport> {
  const cfg = folder.config;
  const out = <T>(stage: string) => folder.outputs<T>(stage);
  const stages = experimentStages(cfg);
  const done = stages.filter((st) => folder.isDone(st.name)).length;
  const partial = opts.partial === true && done < stages.length;
  if (partial) {
    // A partial report needs everything before the first Salvage-DS run.
    const base = stages.slice(0, stages.findIndex((st) => st.name.startsWith('salvage-')));
    const missing = base.map((st) => st.name).filter((st) => !folder.isDone(st));
    if (missing.length) throw new Error(`experiment ${cfg.id}: a partial report needs its SFT, evaluation and mining stages; not finished yet: ${missing.join(', ')}`);
  }
  // Salvage-DS stages: all of them in a finished experiment, the finished ones in a partial report.
  const finished = (stage: string) => !partial || folder.isDone(stage);
  const sft = { reflect: out<SftOutputs>('sft-reflect'), plain: out<SftOutputs>('sft-plain') };
  const evRefl = out<EvalOutputs>('eval-sft-reflect-test');
  const evPlain = out<EvalOutputs>('eval-sft-plain-test');

  // Claim 1: steps on solved test tasks.
  const solvedSteps = (ev: EvalOutputs) => episodesOf(ev).filter((e) => e.success);
  const rs = solvedSteps(evRefl);
  const ps = solvedSteps(evPlain);
  const difference = meanDifference(rs.map((e) => e.steps), ps.map((e) => e.steps));
  const key = (e: { family: string; seed: number; run: number }) => `${e.family}:${e.seed}:${e.run}`;
  const pMap = new Map(ps.map((e) => [key(e), e.steps]));
  const both = rs.filter((e) => pMap.has(key(e)));
  const commonR = both.map((e) => e.steps);
  const commonP = both.map((e) => pMap.get(key(e))!);
  const avg = (v: number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : null);
  const rMean = evRefl.overall.stepsOnSolved;
  const pMean = evPlain.overall.stepsOnSolved;

  // Methods: the two SFT policies (one seed: SFT is trained once) and each Salvage-DS variant over its seeds.
  const methods: MethodResult[] = [
    { method: 'sft-plain', seeds: [cfg.sft.seed], test: pooled([evPlain]), heldout: null },
    { method: 'sft-reflect', seeds: [cfg.sft.seed], test: pooled([evRefl]), heldout: pooled([out<EvalOutputs>('eval-sft-reflect-heldout')]) },
  ];
  // A variant's seeds whose evaluation on a split has finished, and those evaluations.
  const evaluatedSeeds = (v: Variant, split: 'test' | 'heldout') => variantSeeds(cfg.salvage, v).filter((s) => finished(`eval-${v}-s${s}-${split}`));
  const evalsAt = (v: Variant, split: 'test' | 'heldout', seeds: number[]) => seeds.map((s) => out<EvalOutputs>(`eval-${v}-s${s}-${split}`));
  for (const v of cfg.salvage.variants) {
    const seeds = evaluatedSeeds(v, 'test');
    methods.push({
      method: v, seeds,
      test: pooled(evalsAt(v, 'test', seeds)),
      heldout: pooled(evalsAt(v, 'heldout', evaluatedSeeds(v, 'heldout'))),
    });
  }
  const m = (name: string) => methods.find((x) => x.method === name)!;
  const sftR = m('sft-reflect');
  const salv = cfg.salvage.variants.includes('salvage') ? m('salvage') : null;
  const testDiff = salv ? rateDifference(salv.test.success, sftR.test.success) : { value: null, ci95: null };
  const heldDiff = salv?.heldout && sftR.heldout ? rateDifference(salv.heldout.success, sftR.heldout.success) : { value: null, ci95: null };
  const tv = verdictOf(testDiff, 1);
  const hv = verdictOf(heldDiff, 1);
  const both2: Verdict = tv === hv ? tv : [tv, hv].includes('not measurable') ? 'not measurable' : [tv, hv].includes('not reproduced') ? 'not reproduced' : 'inconclusive';

  // Salvage-DS success at an ablation's own seeds (seed 1 alone when the ablations ran only there),
  // so both sides share seeds and episodes; the ablations share their seeds, so each pool is read once.
  const salvagePools = new Map<string, Rate | null>();
  const salvageAt = (split: 'test' | 'heldout', seeds: number[]): Rate | null => {
    const key = `${split}:${seeds.join(',')}`;
    if (!salvagePools.has(key)) {
      const evals = salv ? evalsAt('salvage', split, seeds.filter((s) => evaluatedSeeds('salvage', split).includes(s))) : [];
      salvagePools.set(key, evals.length ? pooled(evals).success : null);
    }
    return salvagePools.get(key)!;
  };
  const salvageOuts = cfg.salvage.seeds.flatMap((s) => cfg.salvage.variants.filter((v) => variantSeeds(cfg.salvage, v).includes(s) && finished(`salvage-${v}-s${s}`)).map((v) => out<SalvageOutputs>(`salvage-${v}-s${s}`)));
  const timings = stages.map((s) => {
    const ev = folder.events.filter((e) => e.stage === s.name && e.elapsedS !== undefined);
    return { stage: s.name, elapsedS: Math.round(ev.reduce((n, e) => n + (e.elapsedS ?? 0), 0) * 100) / 100, attempts: folder.events.filter((e) => e.stage === s.name && e.status === 'started').length };
  });
  const mine = out<MineOutputs>('mine');
  // A resumed SFT run repeats the steps after its last checkpoint: the later line of a step wins.
  // Progress repeats the last validation loss between evaluations: keep it only where it was measured.
  const measured = (step: number) => step % cfg.sft.evalEvery === 0 || step === cfg.sft.steps;
  const curve = (o: SftOutputs) => [...new Map(readJsonl(o.curve).map((p) => [p.step, { step: p.step, loss: p.loss, valLoss: measured(p.step) ? ((p.valLoss as number | null) ?? null) : null }])).values()].sort((a, b) => a.step - b.step);
  const sftSummary = (o: SftOutputs) => ({ finalLoss: o.result.finalLoss, valLoss: o.result.valLoss, valOn: o.result.valOn, steps: o.result.stepsDone, trainSamples: o.result.trainSamples, tokensPerSec: o.result.tokensPerSec, curve: curve(o) });

  return {
    experimentId: cfg.id,
    ...(partial ? { partial: { stagesDone: done, stages: stages.length } } : {}),
    createdAt: new Date().toISOString(),
    config: cfg,
    backend: { browser: browserKind, sft: [...new Set([sft.reflect.result.backend, sft.plain.result.backend])], salvage: [...new Set(salvageOuts.map((s) => s.result.backend))] },
    timings,
    totalS: Math.round(timings.reduce((n, t) => n + t.elapsedS, 0) * 10) / 10,
    collection: { reflect: out<CollectOutputs>('collect-reflect').summary, plain: out<CollectOutputs>('collect-plain').summary },
    datasets: out<DatasetOutputs>('datasets'),
    sft: { reflect: sftSummary(sft.reflect), plain: sftSummary(sft.plain) },
    claims: {
      fewerSteps: {
        claim: 'trained on reflection-collected, shortened data, the policy takes fewer steps on solved test tasks than trained on plain-collected data (paper: up to 19.7% fewer)',
        reflect: rMean, plain: pMean, difference,
        relativeReduction: rMean.value !== null && pMean.value ? 1 - rMean.value / pMean.value : null,
        common: { tasks: both.length, reflect: avg(commonR), plain: avg(commonP), difference: meanDifference(commonR, commonP) },
        verdict: verdictOf(difference, -1),
      },
      salvageBeatsSft: {
        claim: 'Salvage-DS beats SFT on test seeds and on held-out families (paper: +2.4 to +7.0 points at 8B)',
        test: { difference: testDiff, verdict: tv }, heldout: { difference: heldDiff, verdict: hv }, verdict: both2,
      },
    },
    precision: precisionOf(difference, testDiff, heldDiff),
    methods,
    ablations: cfg.salvage.variants.filter((v) => v !== 'salvage').map((v) => {
      const salvTest = salvageAt('test', m(v).seeds);
      const salvHeld = salvageAt('heldout', evaluatedSeeds(v, 'heldout'));
      const none = { value: null, ci95: null };
      return {
        variant: v, seeds: m(v).seeds,
        test: { vsSft: rateDifference(m(v).test.success, sftR.test.success), vsSalvage: salvTest ? rateDifference(m(v).test.success, salvTest) : none },
        heldout: {
          vsSft: m(v).heldout && sftR.heldout ? rateDifference(m(v).heldout!.success, sftR.heldout.success) : none,
          vsSalvage: salvHeld && m(v).heldout ? rateDifference(m(v).heldout!.success, salvHeld) : none,
        },
      };
    }),
    ...(stages.some((st) => st.name === 'mine-sft-test') && folder.isDone('mine-sft-test') && salv ? { salvageByMode: salvageByMode(out<MineOutputs>('mine-sft-test'), evRefl, evalsAt('salvage', 'test', evaluatedSeeds('salvage', 'test'))) } : {}),
    failureModes: { evalId: mine.evalId, failures: mine.failures, failed: mine.failed, byMode: mine.byMode, byFamily: mine.byFamily, ...(mine.confirmation ? { confirmation: mine.confirmation } : {}) },
    gates: salvageOuts.map((s) => gateSummary(s.variant, s.seed, readJsonl(s.stats), cfg.salvage.updatesPerIter)),
    salvageCurves: salvageOuts.map((s) => ({ variant: s.variant, seed: s.seed, states: s.states, critical: s.critical, iterations: readJsonl(s.stats) })),
  };
}

function precisionOf(steps: Difference, test: Difference, heldout: Difference): ExperimentReport['precision'] {
  const round = (x: number | null, scale: number) => (x === null ? null : Math.round(x * scale * 1000) / 1000);
  const p = { fewerSteps: round(halfWidth(steps), 1), salvageTest: round(halfWidth(test), 100), salvageHeldout: round(halfWidth(heldout), 100) };
  const within = (x: number | null, target: number) => x !== null && x <= target;
  return {
    target: PRECISION_TARGET, ...p,
    met: within(p.fewerSteps, PRECISION_TARGET.steps) && within(p.salvageTest, PRECISION_TARGET.points) && within(p.salvageHeldout, PRECISION_TARGET.points),
  };
}

/**
 * report.json of experiment `id`, parsed; an experiment without one is named, with the command that
 * shows where it stands.
 * Not schema-checked field by field: reports written by older versions lack newer blocks, and
 * readers (the Markdown renderer) say so where a block is missing.
 */
export function readReport(labDir: string, id: string): { report: ExperimentReport; path: string } {
  readRecordedConfig(labDir, id); // the id and the folder, named in the error
  const path = experimentFiles(labPaths.experiment(labDir, id)).report;
  if (!existsSync(path)) throw new Error(`experiment ${id} has no report yet (${path} is written when its last stage ends); see where it stands with \`lab experiment status ${id}\``);
  return { report: readJsonFile(path, z.record(z.string(), z.unknown()), 'JSON') as unknown as ExperimentReport, path };
}

/** The browser an experiment's evaluations ran in, as its first SFT test episode's (validated) header records it. */
export function recordedBrowser(folder: ExperimentFolder, store: LabStore): string {
  const first = episodesOf(folder.outputs<EvalOutputs>('eval-sft-reflect-test'))[0];
  return first ? store.readEpisode(first.episodeId).header.env.browser : 'unknown';
}
