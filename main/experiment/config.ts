/**
 * An experiment's whole configuration: one object, fixed when the experiment is created and written
 * to lab/experiments/<id>/config.json, so a resumed run (and a reader) sees every parameter and seed.
 *
 * Presets size the same pipeline: `tiny` (a test: one family, a handful of episodes, a few training
 * steps), `demo` (under 20 minutes on two CPU cores: three families, tier 1, short SFT and RL, one
 * training seed) and `full` (the real run: every training family, both SFT arms fine-tuned from the
 * shipped policy, three Salvage-DS seeds, evaluations sized so each claimed difference has a 95%
 * interval of about +-5 points).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { SHIPPED_POLICY } from '../policy/shipped.ts';
import { PRESETS as SALVAGE_PRESETS, SalvageJob, defaultSalvageJob } from '../policy/salvage/config.ts';
import { TARGETS } from '../policy/sft-data.ts';
import { ANSWER_FORMS, ELEMENT_LAYOUTS, ELEMENT_ORDERS, THOUGHT_KINDS, defaultPromptSettings } from '../policy/prompt.ts';
import { TOKENIZER_SPACES, defaultSftJob } from '../policy/sft-job.ts';
import { fieldIssue } from '../store/schema-error.ts';
import { LAB_ID } from '../store/layout.ts';
import { modelFiles } from '../store/lab-files.ts';

export const EXPERIMENT_PRESETS = ['tiny', 'demo', 'full'] as const;
export type ExperimentPreset = (typeof EXPERIMENT_PRESETS)[number];

/** Salvage-DS and its ablations; `states-all` is the salvage preset trained on every training state. */
export const VARIANTS = [...SALVAGE_PRESETS, 'states-all'] as const;
export type Variant = (typeof VARIANTS)[number];

/** An experiment id: also its folder name under lab/experiments/. */
export const EXPERIMENT_ID = LAB_ID;

/** One set of mining rollouts: the SFT policy on `seeds` training instances per family (times `runs`), greedy unless `sampling` is given. */
export const RolloutSet = z.object({
  name: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lower-case letters, digits and single dashes'),
  tier: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  seeds: z.number().int().min(1),
  runs: z.number().int().min(1).default(1),
  /** Offset into the training seeds, so sets do not roll out on the same instances. */
  firstSeed: z.number().int().min(0).default(0),
  sampling: z.object({ temperature: z.number().positive(), topP: z.number().gt(0).max(1) }).optional(),
});
export type RolloutSet = z.infer<typeof RolloutSet>;

export const ExperimentConfig = z.object({
  id: z.string().regex(EXPERIMENT_ID),
  preset: z.enum(EXPERIMENT_PRESETS),
  createdAt: z.string(),
  /** The experiment this one replays (lab experiment --replay): its config.json, with this id and createdAt. */
  replayOf: z.string().regex(EXPERIMENT_ID).optional(),
  /**
   * Changes made to this configuration after the experiment started, oldest first: what changed, why,
   * and which finished stages were reopened to run again under it. The fields above already hold the
   * new values; a replay runs them from the start and records no amendments of its own.
   */
  amendments: z.array(z.object({
    at: z.string(),
    change: z.string().min(1),
    why: z.string().min(1),
    reopened: z.array(z.string()),
  })).optional(),
  /** Training families (collection, SFT, mining); test seeds of these and the held-out families are evaluated. */
  families: z.array(z.string().min(1)).min(1),
  collect: z.object({
    agent: z.literal('noisy'),
    agentSeed: z.number().int(),
    /** Task instances (training seeds) per family. */
    seeds: z.number().int().min(1),
    retries: z.number().int().min(0),
    parallel: z.number().int().min(1),
    maxSteps: z.number().int().min(1).optional(),
    /** Tier forced on every collected instance (as `collect --tier`); absent: each seed's own tier. */
    tier: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
  }),
  /** Share of episodes (by instance) held out of SFT training for its validation loss. */
  validationShare: z.number().min(0).lt(1),
  sft: z.object({
    steps: z.number().int().min(1),
    batch: z.number().int().min(1),
    lr: z.number().positive(),
    warmup: z.number().int().min(0),
    seed: z.number().int(),
    vocabSize: z.number().int().min(64),
    /**
     * The policy's shape; `copy`: the copy (pointer) path, `copyNext`: its continuation bonus, each
     * absent in configs written before it (none).
     */
    model: z.object({
      dModel: z.number().int(), nLayer: z.number().int(), nHead: z.number().int(), dFF: z.number().int(), ctx: z.number().int(),
      copy: z.boolean().default(false), copyNext: z.boolean().default(false),
    }),
    maxPageChars: z.number().int().min(50),
    evalEvery: z.number().int().min(1),
    checkpointEvery: z.number().int().min(1),
    /** The rest of the SFT job, recorded from the library's defaults when the experiment was created. */
    minLr: z.number().positive(),
    weightDecay: z.number().min(0),
    gradClip: z.number().positive(),
    targets: z.enum(TARGETS),
    reserve: z.number().int().min(1),
    evalSamples: z.number().int().min(1),
    /** Prompt element order (see PromptSettings); configs written before it existed used `page`. */
    elementOrder: z.enum(ELEMENT_ORDERS).default('page'),
    /** Prompt task-match marks (see PromptSettings); configs written before they existed had none. */
    markTaskMatches: z.boolean().default(false),
    /** Loss weight of prompt tokens in SFT; configs written before it existed trained with 0. */
    promptWeight: z.number().min(0).max(1).default(0),
    /** Element line layout (see PromptSettings); configs written before it existed used `id-first`. */
    elementLayout: z.enum(ELEMENT_LAYOUTS).default('id-first'),
    /** Tokenizer chunking (see SftJob); configs written before it existed used `attached`. */
    tokenizerSpaces: z.enum(TOKENIZER_SPACES).default('attached'),
    /** The thought line the policy learns (see PromptSettings); configs written before it existed used `dataset`. */
    thought: z.enum(THOUGHT_KINDS).default('dataset'),
    /** Clip of page text runs in the prompt (see PromptSettings); absent: the name clip. */
    maxTextChars: z.number().int().positive().optional(),
    /** Value marks in the prompt (see PromptSettings); configs written before it existed had none. */
    markValues: z.boolean().default(false),
    /** How an answer is written (see PromptSettings); configs written before it existed used `message`. */
    answer: z.enum(ANSWER_FORMS).default('message'),
    /**
     * `shipped`: both SFT arms fine-tune the policy that ships with the workbench on their own
     * collected episodes (its shape, tokenizer and weights replace `model` and `vocabSize`), so
     * Salvage-DS starts from a policy that solves tasks. Absent: both arms train from random weights.
     */
    init: z.literal('shipped').optional(),
    /** SHA-256 of the init's weights when the experiment was created: a resumed or replayed run refuses other weights. */
    initDigest: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  }),
  eval: z.object({
    /** Test seeds per family and run (training families), and per held-out family. */
    testSeeds: z.number().int().min(1),
    heldoutSeeds: z.number().int().min(1),
    runs: z.number().int().min(1),
    tier: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    parallel: z.number().int().min(1),
    maxSteps: z.number().int().min(1).optional(),
    /** Guided decoding of the policies (`lab eval --no-guided` is false); configs written before it existed decoded freely. */
    guided: z.boolean().default(false),
    /**
     * Runs of the two SFT policies' test and held-out evaluations (absent: `runs`). SFT is trained
     * once while each Salvage-DS variant is pooled over its training seeds; giving SFT as many
     * episodes as a variant's pool keeps both sides of each difference equally sized.
     */
    sftRuns: z.number().int().min(1).optional(),
    /**
     * Runs of the held-out evaluations on the two sides of the Salvage-DS claim: the reflection-trained
     * SFT policy, and each training seed of the `salvage` variant (absent: as the test evaluations).
     * Held-out success is low (about 15%), and a ±5-point interval on the difference needs about
     * 450 episodes a side there; the ablations keep `runs`, since no claim rests on their held-out figures.
     */
    claimHeldoutRuns: z.object({ sft: z.number().int().min(1), salvage: z.number().int().min(1) }).optional(),
  }),
  /** Rollouts of the SFT policy on training instances, for mining. */
  mine: z.object({
    /** Training instances per family of the single greedy rollout set (stage rollout-train), when `rollouts` is absent. */
    seeds: z.number().int().min(1),
    /** Confirm critical states by branching (`lab mine --confirm`); absent in configs written before it existed. */
    confirm: z.boolean().optional(),
    /**
     * Mining at scale: several rollout sets (stages rollout-<name>), greedy or sampled, any tier,
     * each on its own block of training seeds; mined together into one report. Absent: one greedy
     * tier-`eval.tier` set of `seeds` instances (rollout-train), as experiments before it ran.
     */
    rollouts: z.array(RolloutSet).min(1).optional(),
    /** With `confirm`: branch at most this many states (a hash-fixed sample); absent: all. */
    confirmMax: z.number().int().min(1).optional(),
    /**
     * Share of mined task instances whose critical states Salvage-DS never trains on: the held-out
     * states of the state yardstick (`lab bench states`). Absent: 0, every mined state trains.
     */
    heldoutShare: z.number().min(0).lt(1).optional(),
  }),
  salvage: z.object({
    variants: z.array(z.enum(VARIANTS)).min(1),
    /** Training seeds: each variant is trained once per seed (state draws and sampling). */
    seeds: z.array(z.number().int()).min(1),
    /**
     * The seeds the ablations (every variant but salvage itself) train at, a subset of `seeds`;
     * absent: all of them. Salvage-DS carries the claim and runs at every seed.
     */
    ablationSeeds: z.array(z.number().int()).min(1).optional(),
    iterations: z.number().int().min(1),
    statesPerIter: z.number().int().min(1),
    group: z.number().int().min(2),
    updatesPerIter: z.number().int().min(1),
    checkpointEvery: z.number().int().min(1),
    /**
     * Every other Salvage-DS parameter, recorded from the library's defaults at creation (the
     * variant's preset switches its part off on top of these), so a resumed run uses the same.
     */
    rl: SalvageJob.pick({ routineShare: true, topP: true, temperature: true, guided: true, reward: true, gates: true, rejected: true, anchorCoef: true, clipEps: true, beta: true, advEps: true, negativeScale: true, lossAgg: true, lr: true, warmup: true, weightDecay: true, gradClip: true }),
  }),
  backend: z.string().optional(),
}).refine((c) => (c.salvage.ablationSeeds ?? []).every((s) => c.salvage.seeds.includes(s)), { message: 'every ablation seed must be one of salvage.seeds', path: ['salvage', 'ablationSeeds'] });
export type ExperimentConfig = z.infer<typeof ExperimentConfig>;

/** The training seeds a Salvage-DS variant runs at: every seed for salvage itself, `ablationSeeds` (where set) for the ablations. */
export function variantSeeds(salvage: ExperimentConfig['salvage'], variant: Variant): number[] {
  if (variant === 'salvage' || !salvage.ablationSeeds) return salvage.seeds;
  return salvage.seeds.filter((s) => salvage.ablationSeeds!.includes(s));
}

type Recorded = 'minLr' | 'weightDecay' | 'gradClip' | 'targets' | 'reserve' | 'evalSamples' | 'elementOrder' | 'markTaskMatches' | 'promptWeight' | 'elementLayout' | 'tokenizerSpaces' | 'thought' | 'markValues' | 'answer' | 'initDigest';
/** What a preset sizes; the rest is filled from the library's defaults (and recorded) unless the preset sets it. */
type Sized = Omit<ExperimentConfig, 'id' | 'createdAt' | 'replayOf' | 'preset' | 'backend' | 'sft' | 'salvage'> & {
  sft: Omit<ExperimentConfig['sft'], Recorded | 'model'> & Partial<Pick<ExperimentConfig['sft'], Recorded>> & {
    model: Omit<ExperimentConfig['sft']['model'], 'copyNext'> & { copyNext?: boolean };
  };
  salvage: Omit<ExperimentConfig['salvage'], 'rl'>;
};

const small = { dModel: 32, nLayer: 1, nHead: 2, dFF: 64, ctx: 256, copy: true };
/** The shipped policy's shape (resources/models/web-policy/model.json; a test keeps the two equal). */
export const SHIPPED_SHAPE = { dModel: 128, nLayer: 3, nHead: 4, dFF: 512, ctx: 512, copy: true, copyNext: true };

export const PRESET_CONFIGS: Record<ExperimentPreset, Sized> = {
  tiny: {
    families: ['compare'],
    collect: { agent: 'noisy', agentSeed: 1, seeds: 2, retries: 1, parallel: 1 },
    validationShare: 0,
    sft: { steps: 4, batch: 4, lr: 3e-3, warmup: 1, seed: 1, vocabSize: 300, model: small, maxPageChars: 300, evalEvery: 4, checkpointEvery: 2 },
    eval: { testSeeds: 1, heldoutSeeds: 1, runs: 1, tier: 1, parallel: 1, maxSteps: 3, guided: true },
    mine: { seeds: 1, confirm: true },
    salvage: { variants: ['salvage', 'plain-grpo'], seeds: [1], iterations: 1, statesPerIter: 1, group: 2, updatesPerIter: 1, checkpointEvery: 1 },
  },
  demo: {
    families: ['shop', 'flights', 'webmail'],
    collect: { agent: 'noisy', agentSeed: 1, seeds: 6, retries: 2, parallel: 2, tier: 1 },
    validationShare: 0.1,
    sft: { steps: 120, batch: 8, lr: 3e-3, warmup: 12, seed: 1, vocabSize: 768, model: { dModel: 48, nLayer: 2, nHead: 4, dFF: 192, ctx: 448, copy: true }, maxPageChars: 500, evalEvery: 40, checkpointEvery: 40 },
    eval: { testSeeds: 3, heldoutSeeds: 3, runs: 1, tier: 1, parallel: 2, maxSteps: 10, guided: true },
    mine: { seeds: 3, confirm: true },
    salvage: { variants: [...VARIANTS], seeds: [1], iterations: 6, statesPerIter: 4, group: 6, updatesPerIter: 2, checkpointEvery: 3 },
  },
  full: {
    families: ['shop', 'flights', 'webmail', 'hotels', 'jobs', 'calendar', 'realestate', 'compare', 'tickets'],
    collect: { agent: 'noisy', agentSeed: 1, seeds: 40, retries: 2, parallel: 2, tier: 1 },
    validationShare: 0.1,
    // Both arms fine-tune the shipped policy (101/180 on tier-1 test seeds; trained on oracle episodes
    // of training seeds) on their own collected episodes, in its own prompt: cited answers and value
    // marks since its reading stage (test/experiment/config.test.ts holds the two equal). From random weights the
    // arms solved 2-4 of 180 test tasks (experiment full1, 2026-12-03), too few for either claim.
    // 500 steps of 8 at lr 5e-4: about 3.4 epochs of full2's 1,193 reflection training samples
    // (validation loss 0.106 at the end; tier 1 and checker-ended episodes keep trajectories short).
    sft: {
      init: 'shipped', steps: 500, batch: 8, lr: 5e-4, warmup: 20, seed: 1, vocabSize: 1024, model: SHIPPED_SHAPE, maxPageChars: 700, evalEvery: 100, checkpointEvery: 50,
      elementOrder: 'task-layout', elementLayout: 'name-first', thought: 'element', maxTextChars: 100, markValues: true, answer: 'cite',
    },
    // Power: each Salvage-DS variant pools 3 seeds x 270 test episodes (15 seeds x 9 families x 2
    // runs) and each SFT policy gets the same 810 (sftRuns 6), so a success difference near 50% has a
    // 95% interval of about +-4.8 points. Held out, success is near 15%: 540 episodes a side
    // (15 seeds x 2 families x 18 runs for SFT, x 6 runs x 3 seeds for Salvage-DS) give about
    // +-4.4 points at 15% and +-4.8 at 20%; the ablations' held-out figures stay at 180.
    eval: { testSeeds: 15, heldoutSeeds: 15, runs: 2, sftRuns: 6, claimHeldoutRuns: { sft: 18, salvage: 6 }, tier: 1, parallel: 2, guided: true },
    // Mining at scale (issue 42): full3 mined 8 greedy tier-1 seeds per family, 15 failures and 19
    // states, too few for RL to learn anything. Greedy and sampled rollouts on tiers 1 and 2, the
    // sampled ones on other training instances, about 1,170 rollouts; 200 states branched (a
    // hash-fixed sample); 30% of the mined instances held out of RL for the state yardstick.
    mine: {
      seeds: 8, confirm: true, confirmMax: 200, heldoutShare: 0.3,
      rollouts: [
        { name: 't2-greedy', tier: 2, seeds: 30, runs: 1, firstSeed: 0 },
        { name: 't1-sampled', tier: 1, seeds: 40, runs: 1, firstSeed: 1000, sampling: { temperature: 1, topP: 0.95 } },
        { name: 't1-greedy', tier: 1, seeds: 40, runs: 1, firstSeed: 0 },
        { name: 't2-sampled', tier: 2, seeds: 20, runs: 1, firstSeed: 1000, sampling: { temperature: 1, topP: 0.95 } },
      ],
    },
    // The claim's Salvage-DS at three seeds, the five ablations at the first two: at one seed (full3)
    // an ablation's difference from Salvage-DS had an interval of +-7 to +-10 points; two seeds
    // narrow it, three of each would add about 3.5 hours to the preset.
    salvage: { variants: [...VARIANTS], seeds: [1, 2, 3], ablationSeeds: [1, 2], iterations: 30, statesPerIter: 4, group: 8, updatesPerIter: 2, checkpointEvery: 5 },
  },
};

/** What each preset is for and costs, as the app's start form and `lab experiment --help` say it. */
const PRESET_DESCRIPTIONS: Record<ExperimentPreset, string> = {
  tiny: 'a test of the whole pipeline: about a minute, numbers mean nothing',
  demo: 'under 20 minutes on two cores: every stage at small scale',
  full: 'the real run: fine-tunes the shipped policy, mines its failures at scale, then Salvage-DS at 3 seeds at least and each ablation at 2; about 9 hours on two cores (resumable across sessions)',
};

export function experimentPresets(): Array<{ name: ExperimentPreset; description: string; seeds: number }> {
  return EXPERIMENT_PRESETS.map((name) => ({ name, description: PRESET_DESCRIPTIONS[name], seeds: PRESET_CONFIGS[name].salvage.seeds.length }));
}

/** The preset's configuration with the command's overrides (--seeds). */
export function experimentConfig(preset: string, id: string, over: { seeds?: number; backend?: string } = {}): ExperimentConfig {
  if (!(EXPERIMENT_PRESETS as readonly string[]).includes(preset)) throw new Error(`--preset must be one of ${EXPERIMENT_PRESETS.join(', ')}, got "${preset}"`);
  if (over.seeds !== undefined && (!Number.isInteger(over.seeds) || over.seeds < 1)) throw new Error(`--seeds must be a whole number of at least 1, got ${over.seeds}`);
  if (preset === 'full' && over.seeds !== undefined && over.seeds < 3) throw new Error('--seeds: the full preset runs at least 3 training seeds');
  if (!EXPERIMENT_ID.test(id)) throw new Error(`--out: "${id}" is not a folder name (letters, digits, '_' and '-')`);
  const base = structuredClone(PRESET_CONFIGS[preset as ExperimentPreset]);
  if (over.seeds !== undefined) {
    base.salvage.seeds = Array.from({ length: over.seeds }, (_, i) => i + 1);
    // SFT keeps as many evaluation episodes as a variant's pool over its seeds.
    if (base.eval.sftRuns !== undefined) base.eval.sftRuns = base.eval.runs * over.seeds;
    if (base.eval.claimHeldoutRuns) base.eval.claimHeldoutRuns.sft = base.eval.claimHeldoutRuns.salvage * over.seeds;
  }
  const d = defaultSftJob;
  const r = defaultSalvageJob;
  return parseExperimentConfig({
    ...base, id, preset, createdAt: new Date().toISOString(), ...(over.backend ? { backend: over.backend } : {}),
    sft: {
      minLr: base.sft.lr / 10, weightDecay: d.weightDecay, gradClip: d.gradClip, targets: d.targets, reserve: d.reserve, evalSamples: d.evalSamples,
      elementOrder: defaultPromptSettings.elementOrder, markTaskMatches: defaultPromptSettings.markTaskMatches, promptWeight: d.promptWeight,
      elementLayout: defaultPromptSettings.elementLayout, tokenizerSpaces: d.tokenizerSpaces, thought: defaultPromptSettings.thought,
      markValues: defaultPromptSettings.markValues, answer: defaultPromptSettings.answer,
      ...base.sft,
      ...(base.sft.init ? { initDigest: initDigest(base.sft.init) } : {}),
    },
    salvage: {
      ...base.salvage,
      rl: structuredClone({ routineShare: r.routineShare, topP: r.topP, temperature: r.temperature, guided: r.guided, reward: r.reward, gates: r.gates, rejected: r.rejected, anchorCoef: r.anchorCoef, clipEps: r.clipEps, beta: r.beta, advEps: r.advEps, negativeScale: r.negativeScale, lossAgg: r.lossAgg, lr: r.lr, warmup: r.warmup, weightDecay: r.weightDecay, gradClip: r.gradClip }),
    },
  }, 'experiment');
}

/** The folder of an experiment's init policy. */
export function initPolicyDir(init: 'shipped'): string {
  return { shipped: SHIPPED_POLICY }[init];
}

/** SHA-256 of an init policy's weights (recorded at creation, checked before its SFT runs). */
export function initDigest(init: 'shipped'): string {
  const file = modelFiles(initPolicyDir(init)).weights;
  if (!existsSync(file)) throw new Error(`sft.init ${init}: ${file} is missing (the shipped policy is part of the repository: resources/models/web-policy)`);
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

export function parseExperimentConfig(raw: unknown, where: string): ExperimentConfig {
  const r = ExperimentConfig.safeParse(raw);
  if (!r.success) throw new Error(`${where}: ${fieldIssue(r.error)}`);
  return r.data;
}
