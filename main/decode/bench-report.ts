/**
 * The decoding benchmark's report format (what `bench decode --json` writes and the dashboard reads),
 * apart from ./bench.ts so that reading a report does not load the decoders and TF.js.
 */
import { z } from 'zod';
import { readJsonFile } from '../store/json-file.ts';

export const benchRowSchema = z.object({
  k: z.number().int().min(1),
  mode: z.string(),
  prompts: z.number().int().min(0),
  newTokens: z.number().int().min(0),
  arTokensPerSec: z.number(),
  tokensPerSec: z.number(),
  speedup: z.number(),
  meanAcceptanceLength: z.number().nullable(),
  acceptanceRate: z.number().nullable(),
  acceptanceRatePerPosition: z.array(z.number()),
  tokensPerLoop: z.number(),
  forwardPassesPerToken: z.object({ ar: z.number(), sdsat: z.number() }),
  msPerLoop: z.object({ ar: z.number(), sdsat: z.number() }),
  identicalOutputs: z.boolean().nullable(),
  /**
   * The speedup these loops would give if every draft were accepted: the most tokens a loop can
   * emit over its measured time, against AR's time per token. It separates what better drafts
   * could still win from what the cost of a wider forward pass already takes. Older reports lack it.
   */
  ceilingSpeedup: z.number().optional(),
  mismatchedPrompts: z.array(z.string()).nullable(),
  /**
   * Times the whole prompt set was decoded for this row, the speedup of each repeat, and a 95%
   * interval over them (Student-t on the logarithms, so it stays positive) (null with one repeat). Older reports lack them.
   */
  repeats: z.number().int().min(1).optional(),
  speedupPerRepeat: z.array(z.number()).optional(),
  speedupCi95: z.object({ low: z.number(), high: z.number() }).nullable().optional(),
});
export type BenchRow = z.infer<typeof benchRowSchema>;

const samplingSchema = z.union([
  z.object({ kind: z.literal('greedy') }),
  z.object({ kind: z.literal('nucleus'), topP: z.number(), temperature: z.number(), acceptance: z.enum(['speculative', 'match']).optional() }),
]);

export const benchReportSchema = z.object({
  backend: z.string(),
  model: z.string(),
  sat: z.object({ mode: z.enum(['shared', 'distinct']), k: z.number().int().min(1) }),
  sampling: samplingSchema,
  maxNew: z.number().int().min(1),
  promptsFile: z.string(),
  cancelled: z.boolean(),
  best: z.record(z.string(), z.object({
    k: z.number(), speedup: z.number(), meanAcceptanceLength: z.number().nullable(), identicalOutputs: z.boolean().nullable(),
    speedupCi95: z.object({ low: z.number(), high: z.number() }).nullable().optional(),
  }).nullable()),
  results: z.array(benchRowSchema),
});
export type BenchReport = z.infer<typeof benchReportSchema>;

/** Read a `bench decode --json` report; a bad file is an error naming the file and the field. */
export function readBenchReport(path: string): BenchReport {
  return readJsonFile(path, benchReportSchema, 'a JSON bench report');
}
