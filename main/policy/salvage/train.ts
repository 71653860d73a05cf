/**
 * Salvage-DS, top to bottom. Each iteration:
 *   1. draws `statesPerIter` states (seeded by run seed and iteration, so a resumed run draws the same);
 *   2. samples a group of G completions per state with the current policy (./sampling.ts), under the
 *      action guide unless the job says otherwise, and scores each parsed action against the
 *      reference by meaning (./reward.ts);
 *   3. gates each group (contrast, competence); kept groups become policy-gradient rows with
 *      group-relative advantages, rejected ones anchor rows on the reference action (or are dropped);
 *   4. takes `updatesPerIter` AdamW steps on the objective of ./loss.ts, the KL measured against the
 *      frozen SFT policy;
 *   5. appends the iteration's statistics to salvage-stats.jsonl.
 * The run folder is a policy folder (model, tokenizer, policy.json), so `lab eval --policy` reads
 * it; it also holds the optimizer, salvage-state.json and salvage-config.json. Runs wherever it is
 * called; the CLI runs it in a worker (./runner.ts).
 */
import { z } from 'zod';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { selectBackend } from '../../models/backend.ts';
import { isCheckpoint, loadModel, saveModel } from '../../models/checkpoint.ts';
import { writeFileAtomic, readJsonFile } from '../../store/json-file.ts';
import { appendJsonlLine } from '../../store/jsonl.ts';
import { KVCache, type TransformerLM } from '../../models/model.ts';
import { Rng } from '../../common/rng.ts';
import { END_OF_TEXT, type Tokenizer } from '../../models/tokenizer.ts';
import { AdamW } from '../../models/train.ts';
import { mixSeed } from '../../common/rng.ts';
import { actionMeaning } from '../mining.ts';
import { ActionGuide, citeLinesFor, promptElements } from '../action-guide.ts';
import { parsePolicyOutput, type PolicyPromptInput } from '../prompt.ts';
import { readPolicySettings, type PolicySettings } from '../settings.ts';
import { encodePrompt, encodeSample } from '../sft-data.ts';
import { type SalvageJob } from './config.ts';
import { clipFraction, salvageBatch, salvageObjective, tokenLogp, type SalvageRow } from './loss.ts';
import { gateGroup, groupAdvantages, scaleNegativeAdvantages, scoreAction } from './reward.ts';
import { logSoftmaxAt, sampleGroup } from './sampling.ts';
import { readStates, type SalvageState } from './states.ts';
import { modelFiles } from '../../store/lab-files.ts';
import { runTrainingLoop } from '../../models/loop.ts';

/** One line of salvage-stats.jsonl. */
export interface IterationStats {
  iteration: number;
  groups: number;
  kept: number;
  /** Groups each gate said no to (a group both refuse counts in both). */
  rejectedByContrast: number;
  rejectedByCompetence: number;
  rejected: number;
  anchored: number;
  dropped: number;
  meanReward: number;
  meanSpread: number;
  meanCompetence: number;
  /** Shares of all samples: same meaning as the reference, invalid. */
  correctShare: number;
  invalidShare: number;
  pgLoss: number;
  kl: number;
  anchorLoss: number;
  clipFraction: number;
  gradNorm: number;
  /** Learning rate of the iteration's last update (it rises over the warm-up); 0 when no update was taken. */
  lr: number;
  sampledTokens: number;
  elapsedS: number;
}

export interface SalvageHooks {
  onIteration?(s: IterationStats, iterations: number): void;
  onLog?(line: string): void;
  /** Polled once per iteration; true stops the run after saving a checkpoint. */
  shouldStop?(): boolean;
}

export interface SalvageResult {
  outDir: string;
  backend: string;
  iterationsDone: number;
  resumedFrom: number;
  cancelled: boolean;
  states: number;
  /** Over this call's iterations. */
  meanReward: number;
  keptShare: number;
  elapsedS: number;
}

/** What the policy writes for a state, and the reference's meaning on the state's page. */
export interface PreparedState {
  state: SalvageState;
  prompt: number[];
  reference: ReturnType<typeof actionMeaning>;
  /** [prompt][thought][action][stop], loss mask on action tokens and stop only. */
  anchor: { ids: number[]; mask: number[] };
  /** The action guide of the state's prompt, when the run samples guided. */
  guide?: ActionGuide;
}

/** `guided`: build the state's action guide, for samples of at most `maxNew` tokens. */
export function prepareState(state: SalvageState, tokenizer: Tokenizer, settings: PolicySettings, ctx: number, guided?: { maxNew: number }): PreparedState {
  const enc = { prompt: settings.prompt, ctx, reserve: settings.reserve, targets: 'action' as const };
  const anchor = encodeSample(tokenizer, state, enc);
  const prompt = encodePrompt(tokenizer, state.input as PolicyPromptInput, settings.prompt, ctx - settings.reserve);
  // Samples start at the thought line, whatever the policy's targets.
  const guide = guided
    ? new ActionGuide(tokenizer, promptElements(tokenizer.decode(prompt)), tokenizer.specialId(END_OF_TEXT), false, Math.min(guided.maxNew, ctx - prompt.length), 0, settings.prompt.thought === 'element',
      undefined, citeLinesFor(tokenizer.decode(prompt), settings.prompt.answer))
    : undefined;
  return {
    state, prompt, reference: actionMeaning(state.target.action, state.input.elements), anchor: { ids: anchor.ids, mask: anchor.mask },
    ...(guide ? { guide } : {}),
  };
}

/** log p(reference action tokens | prompt, reference thought): the competence gate's "probability". */
export function referenceLogProb(model: TransformerLM, s: PreparedState): number {
  const cache = new KVCache(1);
  try {
    const ids = s.anchor.ids;
    const { logits } = model.forward([ids.slice(0, -1)], cache, false);
    const V = model.config.vocabSize;
    let sum = 0;
    for (let i = 1; i < ids.length; i++) if (s.anchor.mask[i]) sum += logSoftmaxAt(logits, (i - 1) * V, V, ids[i]);
    return sum;
  } finally {
    cache.dispose();
  }
}

/** salvage-state.json: the loop's position at the last checkpoint and the job that ran it. */
const SavedRunState = z.object({ state: z.object({ iteration: z.number().int().min(0), updates: z.number().int().min(0) }), job: z.unknown() });

interface RunState {
  iteration: number;
  /** Optimizer steps taken (an iteration whose groups all were dropped takes none). */
  updates: number;
}

export async function trainSalvage(job: SalvageJob, hooks: SalvageHooks = {}): Promise<SalvageResult> {
  const t0 = performance.now();
  const backend = await selectBackend(job.backend);
  hooks.onLog?.(`backend: ${backend.id}`);
  if (!isCheckpoint(job.policy)) throw new Error(`no policy model in ${job.policy}`);
  const ref = loadModel(job.policy);
  const settings = readPolicySettings(job.policy, ref.meta);
  const resuming = job.resume && isCheckpoint(job.outDir) && existsSync(modelFiles(job.outDir).salvageState);
  const current = resuming ? loadModel(job.outDir) : loadModel(job.policy);
  const { model, tokenizer } = current;
  const states = readStates(job.statesFile).map((s) => prepareState(s, tokenizer, settings, model.config.ctx, job.guided ? { maxNew: job.maxNew } : undefined));
  hooks.onLog?.(`states: ${states.length} (${states.filter((s) => s.state.kind === 'critical').length} critical); ${resuming ? `resuming from ${job.outDir}` : `starting from ${job.policy}`}`);

  mkdirSync(job.outDir, { recursive: true });
  const opt = new AdamW(model, job.weightDecay);
  const run: RunState = { iteration: 0, updates: 0 };
  if (resuming) {
    Object.assign(run, readJsonFile(modelFiles(job.outDir).salvageState, SavedRunState, 'a Salvage-DS run state').state);
    opt.load(modelFiles(job.outDir).optimizer, run.updates);
    keepStatsUpTo(modelFiles(job.outDir).salvageStats, run.iteration);
  } else if (existsSync(modelFiles(job.outDir).salvageStats)) writeFileSync(modelFiles(job.outDir).salvageStats, '');
  writeFileAtomic(modelFiles(job.outDir).salvageConfig, JSON.stringify(job, null, 2));
  const resumedFrom = run.iteration;
  const checkpoint = async (done: number) => {
    run.iteration = done;
    await saveModel(job.outDir, { model, tokenizer, sat: current.sat, meta: { kind: 'salvage', backend: backend.id, tfVersion: backend.tfVersion, iteration: run.iteration, job } });
    writeFileAtomic(modelFiles(job.outDir).policySettings, JSON.stringify(settings, null, 2));
    opt.save(modelFiles(job.outDir).optimizer);
    writeFileAtomic(modelFiles(job.outDir).salvageState, JSON.stringify({ state: run, job }, null, 2));
  };

  const stop = tokenizer.specialId(END_OF_TEXT);
  let rewardSum = 0;
  let groups = 0;
  let kept = 0;
  const { cancelled } = await runTrainingLoop({
    from: run.iteration, steps: job.iterations, shouldStop: hooks.shouldStop, checkpointEvery: job.checkpointEvery, checkpoint,
    step: (i) => {
      const it0 = performance.now();
      const s = runIteration(job, i, states, model, ref.model, tokenizer, stop);
      s.elapsedS = (performance.now() - it0) / 1000;
      appendJsonlLine(modelFiles(job.outDir).salvageStats, s);
      return s;
    },
    record: ({ out: s }) => {
      rewardSum += s.meanReward * s.groups;
      groups += s.groups;
      kept += s.kept;
      hooks.onIteration?.(s, job.iterations);
    },
  });
  const result: SalvageResult = {
    outDir: job.outDir, backend: backend.id, iterationsDone: run.iteration, resumedFrom, cancelled, states: states.length,
    meanReward: groups ? rewardSum / groups : NaN, keptShare: groups ? kept / groups : NaN, elapsedS: (performance.now() - t0) / 1000,
  };
  appendJsonlLine(modelFiles(job.outDir).runs, { time: new Date().toISOString(), kind: 'salvage', ...result, job });
  model.dispose();
  ref.model.dispose();
  opt.dispose();
  return result;

  function runIteration(job: SalvageJob, iteration: number, all: PreparedState[], model: TransformerLM, sft: TransformerLM, tokenizer: Tokenizer, stop: number): IterationStats {
    const pick = new Rng(mixSeed(job.seed, iteration, 'states'));
    const picked = Array.from({ length: job.statesPerIter }, () => all[pick.below(all.length)]);
    const rows: SalvageRow[] = [];
    const st: IterationStats = {
      iteration, groups: picked.length, kept: 0, rejectedByContrast: 0, rejectedByCompetence: 0, rejected: 0, anchored: 0, dropped: 0,
      meanReward: 0, meanSpread: 0, meanCompetence: 0, correctShare: 0, invalidShare: 0, pgLoss: 0, kl: 0, anchorLoss: 0, clipFraction: 0, gradNorm: 0, lr: 0, sampledTokens: 0, elapsedS: 0,
    };
    picked.forEach((p, g) => {
      const maxNew = Math.min(job.maxNew, model.config.ctx - p.prompt.length);
      const group = sampleGroup(model, p.prompt, { group: job.group, maxNew, topP: job.topP, temperature: job.temperature, seed: mixSeed(job.seed, iteration, g, 'sample'), stopToken: stop, ...(p.guide ? { constraint: p.guide } : {}) });
      const scored = group.map((c) => {
        const parsed = parsePolicyOutput(tokenizer.decode(c.tokens.filter((t) => t !== stop)));
        return scoreAction(parsed.action, parsed.valid, p.reference, p.state.input.elements, job.reward);
      });
      const rewards = scored.map((x) => x.reward);
      const share = scored.filter((x) => x.correct).length / scored.length;
      const competence = job.gates.competence === 'share' ? share : Math.exp(referenceLogProb(model, p));
      const verdict = gateGroup(rewards, competence, job.gates);
      st.meanReward += rewards.reduce((a, b) => a + b, 0) / rewards.length / picked.length;
      st.meanSpread += verdict.spread / picked.length;
      st.meanCompetence += competence / picked.length;
      st.correctShare += share / picked.length;
      st.invalidShare += scored.filter((x) => x.invalid).length / scored.length / picked.length;
      st.sampledTokens += group.reduce((a, c) => a + c.tokens.length, 0);
      if (verdict.rejectedBy.includes('contrast')) st.rejectedByContrast++;
      if (verdict.rejectedBy.includes('competence')) st.rejectedByCompetence++;
      if (verdict.kept) {
        st.kept++;
        const adv = scaleNegativeAdvantages(groupAdvantages(rewards, job.advEps), job.negativeScale);
        group.forEach((c, i) => {
          if (c.tokens.length) rows.push({ kind: 'pg', ids: [...p.prompt, ...c.tokens], promptLength: p.prompt.length, advantage: adv[i], oldLogp: c.logp });
        });
        return;
      }
      st.rejected++;
      if (job.rejected === 'drop') {
        st.dropped++;
        return;
      }
      st.anchored++;
      rows.push({ kind: 'anchor', ids: p.anchor.ids, mask: p.anchor.mask });
    });
    if (!rows.length) return st;
    const sb = salvageBatch(rows, job.lossAgg);
    const refLogp = tf.tidy(() => tokenLogp(sft, sb.batch).dataSync() as Float32Array);
    for (let u = 0; u < job.updatesPerIter; u++) {
      let terms = { pg: 0, kl: 0, anchor: 0, clip: 0 };
      st.lr = job.warmup > 0 ? job.lr * Math.min(1, (run.updates + 1) / job.warmup) : job.lr;
      const { gradNorm } = opt.minimize(() => {
        const logp = tokenLogp(model, sb.batch);
        const o = salvageObjective(logp, refLogp, sb, job);
        terms = { pg: o.pg.dataSync()[0], kl: o.kl.dataSync()[0], anchor: o.anchor.dataSync()[0], clip: clipFraction(logp.dataSync() as Float32Array, sb, job.clipEps) };
        return o.total;
      }, st.lr, job.gradClip);
      st.pgLoss += terms.pg / job.updatesPerIter;
      st.kl += terms.kl / job.updatesPerIter;
      st.anchorLoss += terms.anchor / job.updatesPerIter;
      st.clipFraction += terms.clip / job.updatesPerIter;
      st.gradNorm += gradNorm / job.updatesPerIter;
      run.updates++;
    }
    return st;
  }
}

/** A resumed run drops the statistics of iterations after its checkpoint (they are redone). */
function keepStatsUpTo(path: string, iterations: number): void {
  if (!existsSync(path)) return;
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() && (JSON.parse(l) as IterationStats).iteration < iterations);
  writeFileSync(path, lines.map((l) => l + '\n').join(''));
}
