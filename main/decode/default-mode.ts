/**
 * Which decoder a model uses when nobody names one: the one its own folder's benchmark measured
 * fastest (bench-decode.json, written by `lab bench decode` and shipped with the models), among
 * those whose outputs stayed AR's and whose speedup interval lies above 1. On the shipped code model
 * that is `lookup-tree` (1.74x), not SDSAT (0.93x): a default should follow the measurement, not
 * the method's name. A folder without a benchmark gets `lookup-tree`: copied drafts need no SAT
 * tokens, and greedy output stays AR's exactly.
 */
import { existsSync } from 'node:fs';
import { readBenchReport } from './bench-report.ts';
import { DECODE_MODES, type DecodeMode } from './types.ts';
import { modelFiles } from '../store/lab-files.ts';
import { basename } from 'node:path';

export interface DefaultDecoder {
  mode: DecodeMode;
  /** Drafts per loop the benchmark measured the mode at (absent: the decoder's own default). */
  k?: number;
  /** Why, in a sentence (for logs and `--help`). */
  why: string;
}

/**
 * A compact policy's decoder when nobody names one. A policy folder that ships a bench-decode.json
 * is decided by it, as any model is, under greedy decoding. Otherwise greedy decoding copies drafts
 * from the prompt (`lookup-tree`), SAT-tuned or not: on the shipped policies that is 1.70-1.73x AR
 * per step with the same actions, while SAT drafts measured 0.81-1.02x even on SAT-tuned policies
 * (docs/benchmarks.md, "SDSAT on the policy's own outputs"). Sampling decodes with AR, so a seed
 * draws the rollouts AR draws for it (a drafting decoder spends the sampling stream differently).
 */
/**
 * Drafted tokens per branch for a policy's `lookup-tree`: an element thought line is copied whole
 * from the prompt, so longer drafts keep paying. Chosen on training instances (2026-12-07, 181
 * steps, with the output history): k = 8 1.71-1.75x AR whole steps (three runs), k = 6 1.73x; without
 * the history k = 8 1.62x, k = 4 1.56x.
 */
export const POLICY_LOOKUP_K = 8;

export function defaultPolicyDecoder(policyDir: string, greedy: boolean): DefaultDecoder {
  if (!greedy) return { mode: 'ar', why: 'sampling: AR, so a seed draws the rollouts AR draws' };
  if (existsSync(modelFiles(policyDir).benchDecode)) return defaultDecoder(policyDir);
  return { mode: 'lookup-tree', k: POLICY_LOOKUP_K, why: `greedy: drafts copied from the prompt and earlier outputs, k = ${POLICY_LOOKUP_K} (measured faster than SAT drafts on the shipped policies)` };
}

export function defaultDecoder(modelDir: string): DefaultDecoder {
  const path = modelFiles(modelDir).benchDecode;
  if (!existsSync(path)) return { mode: 'lookup-tree', why: `no ${basename(path)} in ${modelDir}: copied drafts, which need no SAT tokens` };
  const report = readBenchReport(path);
  const paying = Object.entries(report.best)
    .filter((e): e is [DecodeMode, NonNullable<(typeof e)[1]>] => (DECODE_MODES as readonly string[]).includes(e[0]) && e[1] !== null)
    .filter(([, b]) => b.identicalOutputs !== false && (b.speedupCi95 ? b.speedupCi95.low > 1 : b.speedup > 1))
    .sort((a, b) => b[1].speedup - a[1].speedup);
  if (!paying.length) return { mode: 'ar', why: `${path}: no mode beat AR` };
  const [mode, best] = paying[0];
  return { mode, k: best.k, why: `${path}: ${mode} at k = ${best.k}, ${best.speedup.toFixed(2)}x AR` };
}
