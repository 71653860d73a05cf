/**
 * One recipe from an empty lab to a trained compact policy: oracle episodes on training seeds of
 * the nine training families (tier 1), frozen as a dataset, then SFT of the copying policy. The
 * presets are plain data, so `lab train policy --preset P` and the shipped policy's README name the
 * same numbers.
 */
import type { Tier } from '../tasks/types.ts';
import { createHash } from 'node:crypto';
import { MINIWOB_PREFIX } from '../tasks/miniwob/loader.ts';
import { GUR56_TASKS } from '../tasks/miniwob/task-sets.ts';
import { hasMiniwobOracle, whyNoOracle } from '../tasks/miniwob/oracles/index.ts';
import { defaultPromptSettings, type PromptSettings } from './prompt.ts';
import { defaultSftJob, defaultSftModel, type SftJob } from './sft-job.ts';

/** The nine families every recipe trains on (the training families before the four varied ones of 2026-12-06), named so a recipe reproduces. */
export const TRAINING_FAMILIES = ['shop', 'flights', 'webmail', 'hotels', 'jobs', 'calendar', 'realestate', 'compare', 'tickets'] as const;

export interface PolicyRecipe {
  families: readonly string[];
  /** Training seeds per family, collected with the oracle at this tier. */
  seeds: number;
  tier: Tier;
  parallel: number;
  /** Share of instances kept out of training for the validation loss. */
  validationShare: number;
  prompt: PromptSettings;
  sft: Pick<SftJob, 'steps' | 'batch' | 'lr' | 'minLr' | 'warmup' | 'seed' | 'vocabSize' | 'evalEvery' | 'checkpointEvery' | 'model' | 'tokenizerSpaces'>;
}

/**
 * What the policy shipped on 2026-12-04 was trained with: element thoughts (the thought line is
 * the acted-on element's printed line, which the pointer copies), more seeds and about 2 epochs
 * instead of 0.8. About 2 hours on the 2-core machine (51 min collection).
 */
const LONG_RECIPE = {
  families: TRAINING_FAMILIES, seeds: 250, tier: 1, parallel: 2, validationShare: 0.03,
  prompt: { ...defaultPromptSettings, thought: 'element' },
  sft: {
    steps: 2000, batch: 8, lr: 3e-3, minLr: 3e-4, warmup: 30, seed: 1, vocabSize: 1024, evalEvery: 250, checkpointEvery: 50,
    model: { ...defaultSftModel, ctx: 512, copy: true }, tokenizerSpaces: 'separate',
  },
} satisfies PolicyRecipe;

const WIDE_MODEL = { dModel: 128, nLayer: 3, nHead: 4, dFF: 512, ctx: 512, copy: true };

export const POLICY_RECIPES = {
  /**
   * The 45-minute recipe (since 2026-12-05): the shipped policy's model and prompt from scratch,
   * in the time the issue allows: 100 seeds per family (900 oracle episodes, 16 minutes at 2
   * browsers) and 1,100 steps of the 3 x 128 copying model (22 minutes, about 3 epochs), with
   * element thoughts, the task-layout element order and text runs of up to 100 characters.
   * Measured from an empty lab on the 2-core machine: 37.7 minutes, 42/180 on tier-1 test seeds.
   */
  default: {
    families: TRAINING_FAMILIES, seeds: 100, tier: 1, parallel: 2, validationShare: 0.03,
    prompt: { ...defaultPromptSettings, thought: 'element', elementOrder: 'task-layout', maxTextChars: 100 },
    sft: {
      steps: 1100, batch: 8, lr: 3e-3, minLr: 3e-4, warmup: 30, seed: 1, vocabSize: 1024, evalEvery: 250, checkpointEvery: 50,
      model: WIDE_MODEL, tokenizerSpaces: 'separate',
    },
  },
  /** The 45-minute recipe until 2026-12-05 (0.8 epochs of dataset thoughts, 2 x 64): 9/180 on tier-1 test seeds. */
  small: {
    families: TRAINING_FAMILIES, seeds: 190, tier: 1, parallel: 2, validationShare: 0.03,
    prompt: defaultPromptSettings,
    sft: {
      steps: 600, batch: 8, lr: 3e-3, minLr: 3e-4, warmup: 30, seed: 1, vocabSize: 1024, evalEvery: 100, checkpointEvery: 50,
      model: { ...defaultSftModel, ctx: 512, copy: true }, tokenizerSpaces: 'separate',
    },
  },
  long: LONG_RECIPE,
  /**
   * The long recipe with a wider model, the first of the shipped policy's three stages (the other
   * two fine-tune it under the task-layout prompt: scripts/train-shipped-policy.sh):
   * 3 blocks of width 128 (972K parameters instead of 276K). At these sizes a step is mostly per-op
   * overhead, so it costs about 1.3x the small model's (2,680 tokens/s against about 3,900 on the
   * 2-core machine), and SFT takes about 47 minutes.
   */
  wide: { ...LONG_RECIPE, sft: { ...LONG_RECIPE.sft, model: WIDE_MODEL } },
  /** Seconds, not minutes: checks that the recipe runs end to end (tests, a first look). */
  quick: {
    families: ['shop', 'jobs'], seeds: 3, tier: 1, parallel: 1, validationShare: 0,
    prompt: { ...defaultPromptSettings, maxPageChars: 300 },
    sft: {
      steps: 6, batch: 4, lr: 3e-3, minLr: 3e-4, warmup: 2, seed: 1, vocabSize: 300, evalEvery: 3, checkpointEvery: 3,
      model: { dModel: 32, nLayer: 1, nHead: 2, dFF: 64, ctx: 256, copy: true }, tokenizerSpaces: 'separate',
    },
  },
} satisfies Record<string, PolicyRecipe>;

export type PolicyRecipeName = keyof typeof POLICY_RECIPES;
export const POLICY_RECIPE_NAMES = Object.keys(POLICY_RECIPES) as PolicyRecipeName[];

/** The SFT job of a recipe, for a model folder and its frozen samples. */
export function recipeSftJob(r: PolicyRecipe, outDir: string, samplesFile: string, dataset: SftJob['dataset'], copy = true): SftJob {
  return {
    ...defaultSftJob, ...r.sft, outDir, samplesFile, dataset, resume: true, prompt: r.prompt,
    model: { ...r.sft.model, copy: copy && r.sft.model.copy },
  };
}

/** Named selections of `lab train policy --miniwob-tasks`: every task of the checkout with an oracle, or those of the 56-task set. */
export const MINIWOB_TRAINING_SETS = ['oracle', 'set56'] as const;

/**
 * The MiniWoB++ tasks a recipe collects oracle episodes of (`--miniwob-tasks`): a set takes its
 * tasks that the checkout has and an oracle solves, and names the others with the reason; named
 * tasks must be task pages of the checkout with an oracle.
 */
export function miniwobTrainingTasks(spec: string, checkout: readonly string[]): { tasks: string[]; skipped: Array<{ task: string; reason: string }> } {
  const has = new Set(checkout);
  const why = (t: string) => (!has.has(t) ? 'not a task page of the checkout' : hasMiniwobOracle(t) ? undefined : `no oracle: ${whyNoOracle(t)}`);
  if ((MINIWOB_TRAINING_SETS as readonly string[]).includes(spec)) {
    const candidates = spec === 'set56' ? GUR56_TASKS : checkout;
    const tasks = candidates.filter((t) => !why(t));
    if (!tasks.length) throw new Error(`--miniwob-tasks ${spec}: no task of the checkout has an oracle (${checkout.length} task pages there)`);
    return { tasks: [...tasks], skipped: candidates.filter((t) => why(t)).map((task) => ({ task, reason: why(task)! })) };
  }
  const names = [...new Set(spec.split(',').map((s) => s.trim()).filter(Boolean).map((n) => (n.startsWith(MINIWOB_PREFIX) ? n.slice(MINIWOB_PREFIX.length) : n)))];
  if (!names.length) throw new Error(`--miniwob-tasks: ${MINIWOB_TRAINING_SETS.join(', ')} or task names, got "${spec}"`);
  for (const n of names) {
    const reason = why(n);
    if (reason) throw new Error(`--miniwob-tasks: "${n}" cannot be collected with the oracle: ${reason}`);
  }
  return { tasks: names, skipped: [] };
}

/**
 * The collection run of a recipe's MiniWoB++ oracle episodes: named after the preset, the selection
 * and the seeds (a list of names by a hash of it), so the same command finds it again and another
 * selection gets a run of its own; its task spec, on the training seeds (test seeds are for `lab eval`).
 */
export function miniwobRecipeRun(preset: string, spec: string, tasks: readonly string[], seeds: number): { runId: string; tasks: string } {
  const key = (MINIWOB_TRAINING_SETS as readonly string[]).includes(spec) ? spec : `t${createHash('sha256').update([...tasks].sort().join(',')).digest('hex').slice(0, 8)}`;
  return { runId: `policy-recipe-${preset}-miniwob-${key}x${seeds}`, tasks: `${tasks.map((t) => MINIWOB_PREFIX + t).join(',')}:train` };
}
