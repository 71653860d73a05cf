/**
 * A Salvage-DS run's whole configuration: one object, every field with a documented default, written
 * beside the checkpoint (salvage-config.json) so a run says what it ran with and can be re-run.
 *
 * Ablations are presets that switch parts off:
 *   salvage        polarized reward, contrast + competence gates, action-only anchor on rejected groups
 *   graded         the same with graded reward (partial credit for type, target, text)
 *   no-gates       every group kept for the clipped policy gradient (nothing rejected, so no anchor)
 *   drop-rejected  gates on, rejected groups thrown away instead of anchored (DAPO's dynamic sampling
 *                  drops groups that carry no signal; here the gates decide what carries none)
 *   plain-grpo     GRPO as DeepSeekMath defines it with a rule-based verifier: reward 1 when the
 *                  action means the reference, 0 otherwise (invalid too), no gates, no anchor,
 *                  loss averaged per completion then over completions; same clip and KL
 * `states: 'all'` (RL on every training state instead of mined ones) combines with any preset;
 * `confirmedOnly` keeps only mined states that branching confirmed.
 */
import { z } from 'zod';
import { COMPETENCE_KINDS, REWARD_KINDS, defaultGateSettings, defaultRewardSettings } from './reward.ts';
import { STATE_SOURCES } from './states.ts';
import { fieldIssue } from '../../store/schema-error.ts';

// Here rather than in ./loss.ts (which re-exports it) so the CLI's help can list it without TF.js.
export const LOSS_AGGREGATIONS = ['token', 'sequence'] as const;
export type LossAggregation = (typeof LOSS_AGGREGATIONS)[number];

export const PRESETS = ['salvage', 'graded', 'no-gates', 'drop-rejected', 'plain-grpo'] as const;
export type Preset = (typeof PRESETS)[number];

export const SalvageJob = z.object({
  /** The SFT policy folder: the starting weights and the frozen reference of the KL penalty. */
  policy: z.string(),
  outDir: z.string(),
  /** salvage-states.jsonl (see ./states.ts). */
  statesFile: z.string(),
  preset: z.enum(PRESETS),
  /** Where the states came from (recorded; the states file holds them). */
  states: z.enum(STATE_SOURCES),
  /** Mined states: only those confirmed by branching (`lab mine --confirm`). Absent in runs recorded before it existed. */
  confirmedOnly: z.boolean().default(false),
  routineShare: z.number().min(0).lt(1),
  /**
   * Share of mined task instances whose states the run never trains on (kept for the state
   * yardstick, `lab bench states`; ../state-split.ts). Runs recorded before it existed used 0.
   */
  heldoutShare: z.number().min(0).lt(1).default(0),
  iterations: z.number().int().positive(),
  /** States per iteration; each gets a group of `group` samples. */
  statesPerIter: z.number().int().positive(),
  group: z.number().int().min(2),
  /** Gradient steps on each iteration's samples (more than 1 lets the ratio move and the clip act). */
  updatesPerIter: z.number().int().positive(),
  topP: z.number().gt(0).max(1),
  temperature: z.number().positive(),
  /**
   * Sample under the action guide (../action-guide.ts), as `lab eval` decodes: the groups compare
   * actions the page can take instead of spending their samples on unparsable ones. Runs recorded
   * before it existed sampled freely.
   */
  guided: z.boolean().default(false),
  /** Most tokens sampled per completion (default: the policy's reserve). */
  maxNew: z.number().int().positive(),
  reward: z.object({
    kind: z.enum(REWARD_KINDS),
    correct: z.number(),
    wrong: z.number(),
    invalid: z.number(),
    gradedWeights: z.object({ type: z.number().min(0), target: z.number().min(0), text: z.number().min(0) }),
  }),
  gates: z.object({ enabled: z.boolean(), minSpread: z.number().min(0), competence: z.enum(COMPETENCE_KINDS), lo: z.number().min(0).max(1), hi: z.number().min(0).max(1) }),
  /** Rejected groups: 'anchor' (NLL on the reference action's tokens) or 'drop'. */
  rejected: z.enum(['anchor', 'drop']),
  anchorCoef: z.number().min(0),
  clipEps: z.number().positive(),
  /** Weight of the KL penalty to the SFT policy. */
  beta: z.number().min(0),
  advEps: z.number().positive(),
  /**
   * Scale of negative advantages (1: the method as designed; 0: wrong samples are not pushed down,
   * right ones still pulled up). Runs recorded before it existed used 1.
   */
  negativeScale: z.number().min(0).max(1).default(1),
  lossAgg: z.enum(LOSS_AGGREGATIONS),
  lr: z.number().positive(),
  /**
   * Updates over which the learning rate rises linearly to `lr`: AdamW's first steps move every
   * weight by about the learning rate whatever its gradient, which is what wrecked full3's policy
   * at 3e-4. Runs recorded before it existed had none (0).
   */
  warmup: z.number().int().min(0).default(0),
  weightDecay: z.number().min(0),
  gradClip: z.number().positive(),
  seed: z.number().int(),
  checkpointEvery: z.number().int().positive(),
  resume: z.boolean(),
  backend: z.string().optional(),
});
export type SalvageJob = z.infer<typeof SalvageJob>;

/**
 * Defaults sized for two CPU cores and the default 2-layer policy: 4 states x 8 samples per
 * iteration, two gradient steps on them. The learning rate is small because RL moves a policy that
 * already works: AdamW's first steps move every weight by about the learning rate whatever its
 * gradient. At 3e-4 one update took experiment full3's SFT policy to a KL estimate of 282 per
 * sampled token (k3, against the SFT policy), and the run ended at 26/90 test tasks against the
 * SFT policy's 51/90; 1e-4 gave 45/90, 3e-5 and 1e-5 kept 51/90 (docs/benchmarks.md, "The
 * Salvage-DS learning rate"). The KL term (GRPO's beta 0.04) then keeps it near.
 */
export const defaultSalvageJob: Omit<SalvageJob, 'policy' | 'outDir' | 'statesFile' | 'maxNew'> = {
  preset: 'salvage', states: 'mined', confirmedOnly: false, routineShare: 0.2, heldoutShare: 0,
  iterations: 30, statesPerIter: 4, group: 8, updatesPerIter: 2, topP: 0.95, temperature: 1, guided: true,
  reward: defaultRewardSettings, gates: defaultGateSettings, rejected: 'anchor', anchorCoef: 0.5,
  clipEps: 0.2, beta: 0.04, advEps: 1e-4, negativeScale: 1, lossAgg: 'token',
  lr: 3e-5, warmup: 0, weightDecay: 0, gradClip: 1, seed: 1, checkpointEvery: 5, resume: true,
};

type Tunable = Pick<SalvageJob, 'preset' | 'reward' | 'gates' | 'rejected' | 'lossAgg'>;

/** A preset's switches on top of a job (only what the ablation changes). */
export function applyPreset<T extends Tunable>(job: T, preset: Preset): T {
  const j = { ...job, preset, reward: { ...job.reward }, gates: { ...job.gates } };
  if (preset === 'graded') j.reward.kind = 'graded';
  if (preset === 'no-gates') j.gates.enabled = false;
  if (preset === 'drop-rejected') j.rejected = 'drop';
  if (preset === 'plain-grpo') {
    j.reward = { ...j.reward, kind: 'polarized', correct: 1, wrong: 0, invalid: 0 };
    j.gates.enabled = false;
    j.rejected = 'drop';
    j.lossAgg = 'sequence';
  }
  return j;
}

/** Check a job (from the CLI or a config file), naming the field that is wrong. */
export function parseSalvageJob(raw: unknown, where: string): SalvageJob {
  const r = SalvageJob.safeParse(raw);
  if (!r.success) throw new Error(`${where}: ${fieldIssue(r.error)}`);
  if (r.data.gates.lo > r.data.gates.hi) throw new Error(`${where}: field gates: competence band [${r.data.gates.lo}, ${r.data.gates.hi}] is empty`);
  if (r.data.reward.invalid > r.data.reward.wrong) throw new Error(`${where}: field reward.invalid: must not exceed reward.wrong (invalid actions are penalised more)`);
  return r.data;
}
