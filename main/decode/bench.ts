/**
 * The decoding benchmark behind `lab bench decode` and the app's decoding dashboard: AR and the
 * SDSAT modes on the same prompts, per k, in one run; tokens/s, speedup, acceptance, identity.
 * The report is plain JSON (the shipped model carries one as bench-decode.json); its schema here
 * is what the dashboard validates files against.
 */
import type { BenchReport, BenchRow } from './bench-report.ts';
import type { LoadedModel } from '../models/checkpoint.ts';
import { AutoregressiveDecoder, DECODE_MODES, createDecoder, type DecodeMode } from './index.ts';
import { ratioMean } from '../common/stats.ts';
import { emptyStats, summarize, type DecodeStats, type GenerateOptions, type GenerateResult, type Sampling } from './types.ts';

export { benchRowSchema, benchReportSchema, readBenchReport, type BenchRow, type BenchReport } from './bench-report.ts';

/**
 * Most tokens one loop can emit: the two-pass modes (sdsat and its trees) the exact token, k drafts
 * and a bonus; one-pass and lookup k drafts and a bonus.
 */
export function maxTokensPerLoop(mode: string, k: number): number {
  return mode === 'sdsat' || mode === 'sdsat-tree' || mode === 'merged-tree' ? k + 2 : k + 1;
}

export { DEFAULT_PROMPTS, readPrompts } from './prompts.ts';

/** Sum the stats of several generations into one. */
export function mergeStats(mode: string, all: DecodeStats[]): DecodeStats {
  const k = Math.max(0, ...all.map((s) => s.draftedPerPosition.length));
  const m = emptyStats(mode, 0, k);
  for (const s of all) {
    for (const key of ['newTokens', 'promptTokens', 'forwardPasses', 'loops', 'verifySteps', 'drafted', 'accepted', 'prefillMs', 'decodeMs'] as const) m[key] += s[key];
    s.draftedPerPosition.forEach((d, i) => (m.draftedPerPosition[i] += d));
    s.acceptedPerPosition.forEach((a, i) => (m.acceptedPerPosition[i] += a));
  }
  return m;
}

export interface BenchRequest {
  prompts: { id: string; text: string }[];
  ks: number[];
  modes: DecodeMode[];
  sampling: Sampling;
  maxNew: number;
  seed: number;
  /** Times each k's prompt set is decoded (default 1); more than one gives the speedup an interval. */
  repeats?: number;
}

export interface BenchHooks {
  /** Checked between generations: the run stops there and reports what it measured. */
  stopped?: () => boolean;
  /** After each generation (and once at the start with done 0). */
  onProgress?: (done: number, total: number) => void;
  /**
   * Awaited between generations, outside the timed regions: a server yields to its event loop
   * here so that progress reaches the UI and a cancel request is read.
   */
  between?: () => Promise<void>;
}

export type BenchResults = Pick<BenchReport, 'cancelled' | 'best' | 'results'>;

export async function runDecodeBench(loaded: Pick<LoadedModel, 'model' | 'tokenizer' | 'sat'>, req: BenchRequest, hooks: BenchHooks = {}): Promise<BenchResults> {
  const { model, tokenizer } = loaded;
  for (const m of req.modes) if (m === 'ar' || !DECODE_MODES.includes(m)) throw new Error(`bench modes are ${DECODE_MODES.filter((d) => d !== 'ar').join(', ')}, not ${m}`);
  if (!req.prompts.length) throw new Error('bench decode: no prompts');
  const promptIds = req.prompts.map((p) => tokenizer.encode(p.text));
  const gen: GenerateOptions = { maxNew: req.maxNew, sampling: req.sampling, seed: req.seed };
  const ar = new AutoregressiveDecoder(model);
  const stopped = hooks.stopped ?? (() => false);
  const repeats = req.repeats ?? 1;
  // Warm-up: first calls compile kernels and grow wasm memory; not measured.
  await ar.generate(promptIds[0], { ...gen, maxNew: 8 });
  const total = req.ks.length * repeats * promptIds.length * (1 + req.modes.length);
  let done = 0;
  hooks.onProgress?.(done, total);
  const rows: BenchRow[] = [];
  for (const k of req.ks) {
    if (stopped()) break;
    const decoders = req.modes.map((m) => createDecoder(loaded, m, k));
    // Each k's pass shapes are new: warm them up too, untimed.
    for (const d of decoders) await d.generate(promptIds[0], { ...gen, maxNew: 8 });
    // AR is re-measured beside every k, and AR and SDSAT alternate prompt by prompt, so that
    // load from other processes on a shared machine falls on both sides alike.
    const byRepeat: GenerateResult[][][] = [];
    for (let r = 0; r < repeats && !stopped(); r++) {
      const outs: GenerateResult[][] = [[], ...req.modes.map(() => [])];
      for (const ids of promptIds) {
        if (stopped()) break;
        for (const [i, d] of [ar, ...decoders].entries()) {
          outs[i].push(await d.generate(ids, gen));
          hooks.onProgress?.(++done, total);
          await hooks.between?.();
        }
      }
      if (outs[0].length) byRepeat.push(outs);
    }
    if (!byRepeat.length) break;
    req.modes.forEach((mode, mi) => {
      // A stop between AR and SDSAT leaves one prompt measured on one side only: compare the rest.
      const pairs = byRepeat.map((outs) => {
        const n = Math.min(outs[0].length, outs[mi + 1].length);
        return { ar: outs[0].slice(0, n), sd: outs[mi + 1].slice(0, n) };
      }).filter((p) => p.ar.length > 0);
      if (!pairs.length) return;
      const a = summarize(mergeStats('ar', pairs.flatMap((p) => p.ar.map((r) => r.stats))));
      const sdStats = mergeStats(mode, pairs.flatMap((p) => p.sd.map((r) => r.stats)));
      const s = summarize(sdStats);
      const perRepeat = pairs.map((p) => summarize(mergeStats(mode, p.sd.map((r) => r.stats))).tokensPerSec / summarize(mergeStats('ar', p.ar.map((r) => r.stats))).tokensPerSec);
      const n = pairs[0].ar.length;
      const mismatches = req.sampling.kind === 'greedy'
        ? req.prompts.filter((_, i) => pairs.some((p) => i < p.ar.length && p.ar[i].tokens.join() !== p.sd[i].tokens.join())).map((p) => p.id) : null;
      rows.push({
        k, mode, prompts: n, newTokens: sdStats.newTokens,
        arTokensPerSec: a.tokensPerSec, tokensPerSec: s.tokensPerSec, speedup: s.tokensPerSec / a.tokensPerSec,
        meanAcceptanceLength: s.meanAcceptanceLength, acceptanceRate: s.acceptanceRate, acceptanceRatePerPosition: s.acceptanceRatePerPosition,
        tokensPerLoop: s.tokensPerLoop, forwardPassesPerToken: { ar: a.forwardPassesPerToken, sdsat: s.forwardPassesPerToken },
        msPerLoop: { ar: a.msPerLoop, sdsat: s.msPerLoop },
        identicalOutputs: mismatches ? mismatches.length === 0 : null, mismatchedPrompts: mismatches,
        ceilingSpeedup: (maxTokensPerLoop(mode, k) * a.msPerLoop) / s.msPerLoop,
        repeats: pairs.length, speedupPerRepeat: perRepeat, speedupCi95: ratioMean(perRepeat).ci95,
      });
    });
  }
  const bestOf = (mode: string) => rows.filter((r) => r.mode === mode).reduce<BenchRow | null>((b, r) => (!b || r.speedup > b.speedup ? r : b), null);
  const best = Object.fromEntries(req.modes.map((m) => {
    const b = bestOf(m);
    return [m, b && { k: b.k, speedup: b.speedup, meanAcceptanceLength: b.meanAcceptanceLength, identicalOutputs: b.identicalOutputs, speedupCi95: b.speedupCi95 ?? null }];
  }));
  return { cancelled: stopped(), best, results: rows };
}
