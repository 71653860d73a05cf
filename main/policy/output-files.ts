/**
 * The files the training view reads, validated where they enter: SFT's train-log.jsonl, Salvage-DS's
 * salvage-stats.jsonl and salvage-config.json, evaluation reports and their mining reports. Only
 * the fields the view shows are checked; the rest passes through untouched.
 */
import { z } from 'zod';
import { TrainLogLine } from './train-log.ts';
import { FAILURE_MODES } from './mining.ts';
import { fieldIssue } from '../store/schema-error.ts';

export { TrainLogLine };
export type SftPoint = z.infer<typeof TrainLogLine>;

/** One line of salvage-stats.jsonl (main/policy/salvage/train.ts IterationStats). */
export const SalvagePoint = z.object({
  iteration: z.number().int().nonnegative(),
  groups: z.number().int(),
  kept: z.number().int(),
  rejectedByContrast: z.number().int(),
  rejectedByCompetence: z.number().int(),
  rejected: z.number().int(),
  anchored: z.number().int(),
  dropped: z.number().int(),
  meanReward: z.number(),
  meanSpread: z.number(),
  meanCompetence: z.number(),
  correctShare: z.number(),
  invalidShare: z.number(),
  pgLoss: z.number(),
  kl: z.number(),
  anchorLoss: z.number(),
  clipFraction: z.number(),
  gradNorm: z.number(),
  /** The iteration's learning rate (after the warm-up); absent in runs written before it was recorded. */
  lr: z.number().optional(),
  sampledTokens: z.number(),
  elapsedS: z.number(),
});
export type SalvagePoint = z.infer<typeof SalvagePoint>;

const interval = z.object({ low: z.number(), high: z.number() }).nullable();
const rate = z.object({ k: z.number(), n: z.number(), value: z.number().nullable(), ci95: interval });
const mean = z.object({ n: z.number(), value: z.number().nullable(), ci95: interval });
export const GroupMetrics = z.object({ episodes: z.number(), success: rate, stepsOnSolved: mean, invalidActions: rate, successByRun: mean });
export type EvalGroupMetrics = z.infer<typeof GroupMetrics>;

/** One finished episode in an evaluation report (../evaluation/eval.ts EvalEpisode). */
export const EvalEpisodeRecord = z.object({
  family: z.string(), seed: z.number().int(), run: z.number().int(), episodeId: z.string(), tier: z.number().int(),
  success: z.boolean(), steps: z.number().int(), invalidSteps: z.number().int(),
});

export const EvalReportFile = z.object({
  evalId: z.string(),
  createdAt: z.string(),
  request: z.object({ tasks: z.string(), split: z.string(), seeds: z.number(), runs: z.number(), tier: z.number().optional() }).passthrough(),
  policy: z.object({ dir: z.string() }).passthrough(),
  overall: GroupMetrics,
  byFamily: z.record(z.string(), GroupMetrics),
  byTier: z.record(z.string(), GroupMetrics),
});

/** An evaluation's report.json read for its episodes alone (mining, the experiment's pooled figures); the rest passes through. */
export const EvalEpisodesFile = z.object({ episodes: z.array(EvalEpisodeRecord.passthrough()) }).passthrough();

/** An evaluation's recorded request.json: the fields a continuation compares are checked, the rest pass through. */
export const EvalRequestFile = z.object({
  policy: z.object({ dir: z.string() }).passthrough(), tasks: z.string(), split: z.string(), seeds: z.number().int(), runs: z.number().int(),
  firstSeed: z.number().int().optional(), tier: z.number().int().optional(), maxSteps: z.number().int().optional(), endOnGoal: z.boolean().optional(),
  miniwob: z.object({ root: z.string(), timeLimitMs: z.number().int().min(1).optional(), humanDisplay: z.boolean().optional() }).optional(),
}).passthrough();

const example = z.object({
  episodeId: z.string(),
  step: z.number().int().nonnegative(),
  mode: z.enum(FAILURE_MODES),
  family: z.string(),
  seed: z.number(),
  tier: z.number(),
  action: z.string().nullable(),
  referenceAction: z.string().nullable(),
  referenceId: z.string(),
});
export const MiningFile = z.object({
  failures: z.number().int(),
  byMode: z.record(z.string(), z.number()),
  byFamily: z.record(z.string(), z.record(z.string(), z.number())),
  examples: z.record(z.string(), z.array(example)),
});
export type MiningInfo = z.infer<typeof MiningFile>;

/** Parse complete JSONL lines against a schema; a bad line is reported, not fatal (the run goes on). */
export function parseLines<S extends z.ZodType>(lines: readonly string[], schema: S, file: string): { points: z.infer<S>[]; errors: string[] } {
  const points: z.infer<S>[] = [];
  const errors: string[] = [];
  for (const line of lines) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      errors.push(`${file}: a line is not valid JSON`);
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) points.push(parsed.data);
    else errors.push(`${file}: ${fieldIssue(parsed.error, '(line)')}`);
  }
  return { points, errors };
}
