/**
 * The size curve's report format (`lab bench sizes --json`, what the decoding dashboard draws): for
 * each SAT-tuned model of one family at a different size, how well it was trained, how often its
 * SAT drafts are right per draft position, what each decoder measured against AR on the same
 * prompts, and what the pass-cost table predicts. Apart from ./size-curve.ts so that reading a report
 * loads neither the decoders nor TF.js.
 */
import { z } from 'zod';
import { readJsonFile } from '../store/json-file.ts';

const interval = z.object({ low: z.number(), high: z.number() });

/** The speedup SAT drafts must reach to count as paying: issue 47's bar for SAT drafts alone. */
export const SAT_PAY_TARGET = 1.2;

export const sizePointSchema = z.object({
  /** The model folder, as given. */
  model: z.string(),
  /** Trainable parameters of the standard tokens' model (SAT embeddings not counted). */
  parameters: z.number().int().min(1),
  config: z.object({ dModel: z.number(), nLayer: z.number(), nHead: z.number(), dFF: z.number(), ctx: z.number(), vocabSize: z.number() }),
  /** From the folder's run records (runs.jsonl or training-runs.jsonl); null where it has none. */
  training: z.object({
    baseValLoss: z.number().nullable(),
    /** The SAT-tuned model's validation loss on standard tokens (the "within +0.05 nat of its base" check). */
    valLoss: z.number().nullable(),
    valSatLoss: z.number().nullable(),
    trainTokens: z.number().nullable(),
    baseTrainS: z.number().nullable(),
    satTuneS: z.number().nullable(),
  }),
  /** AR tokens/s on these prompts (the k with the most drafts). */
  arTokensPerSec: z.number(),
  /**
   * Conditional acceptance per draft position (accepted where reached), at the largest k measured:
   * one SAT candidate per position (`sdsat`), three at the first position (`sdsat-tree`, widths [3]).
   */
  acceptance: z.object({ k: z.number().int(), oneCandidate: z.array(z.number()).nullable(), threeCandidates: z.array(z.number()).nullable() }),
  /** Each mode's best k against AR measured beside it. */
  modes: z.record(z.string(), z.object({
    k: z.number().int(), speedup: z.number(), speedupCi95: interval.nullable(), meanAcceptanceLength: z.number().nullable(), identicalOutputs: z.boolean().nullable(),
  })),
  /** Pass time against new positions, with a warm cache (./cost.ts). */
  passCost: z.array(z.object({ positions: z.number().int(), ms: z.number().nullable(), relative: z.number().nullable() })),
  /**
   * Two-pass `sdsat` per k: what the pass costs and the measured acceptance predict, the all-accepted
   * ceiling, what was measured, and the acceptance rate (the same at every position) these pass costs
   * need for SAT_PAY_TARGET times AR (null: out of reach even if every draft were accepted; absent
   * in reports written before it was added).
   */
  predicted: z.array(z.object({
    k: z.number().int(), expected: z.number().nullable(), ceiling: z.number(), measured: z.number().nullable(), neededRate: z.number().nullable().optional(),
  })),
  /** The fastest mode whose outputs stayed AR's and whose interval lies above 1 (null: none beat AR). */
  best: z.object({ mode: z.string(), k: z.number().int(), speedup: z.number() }).nullable(),
});
export type SizePoint = z.infer<typeof sizePointSchema>;

export const sizeCurveReportSchema = z.object({
  kind: z.literal('size-curve'),
  time: z.string(),
  backend: z.string(),
  promptsFile: z.string(),
  prompts: z.number().int(),
  maxNew: z.number().int(),
  repeats: z.number().int(),
  ks: z.array(z.number().int()),
  modes: z.array(z.string()),
  cancelled: z.boolean(),
  /** The speedup each point's `predicted[].neededRate` is solved for (SAT_PAY_TARGET; absent in older reports). */
  payTarget: z.number().optional(),
  /** Smallest model first. */
  points: z.array(sizePointSchema),
});
export type SizeCurveReport = z.infer<typeof sizeCurveReportSchema>;

/** Read a `bench sizes --json` report; a bad file is an error naming the file and the field. */
export function readSizeCurveReport(path: string): SizeCurveReport {
  return readJsonFile(path, sizeCurveReportSchema, 'a size-curve report (lab bench sizes --json)');
}
