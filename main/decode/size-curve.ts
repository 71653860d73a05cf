/**
 * The size curve behind `lab bench sizes`: where, as a model grows, its own SAT drafts start to pay
 * against drafts copied from the context. Each model is measured as `bench decode` measures one
 * (every mode against AR beside it, on the same prompts, repeated for an interval), with its pass
 * costs (./cost.ts) and its training record, into one report (./size-curve-report.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadedModel } from '../models/checkpoint.ts';
import { modelFiles } from '../store/lab-files.ts';
import { runDecodeBench, type BenchHooks, type BenchRequest } from './bench.ts';
import { costAt, expectedAccepted, measurePassCost, predictedSpeedup, rateNeeded } from './cost.ts';
import { SAT_PAY_TARGET, type SizePoint } from './size-curve-report.ts';

export { readSizeCurveReport, SAT_PAY_TARGET, sizeCurveReportSchema, type SizeCurveReport, type SizePoint } from './size-curve-report.ts';

/** Tokens in the cache before a timed pass: mid-generation after a typical prompt. */
const COST_CACHE = 128;

interface RunRecord {
  kind?: string;
  valLoss?: number | null;
  baseValLoss?: number | null;
  valSatLoss?: number | null;
  trainTokens?: number;
  elapsedS?: number;
  /** The step a resumed run started at (0: a fresh start). */
  resumedFrom?: number;
  job?: { base?: string; samplesFile?: string };
}

/** A folder's run records: runs.jsonl as the trainers write it, or training-runs.jsonl as the shipped model carries both runs. */
function runRecords(dir: string): RunRecord[] {
  const path = [modelFiles(dir).runs, join(dir, 'training-runs.jsonl')].find((p) => existsSync(p));
  if (!path) return [];
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim()).flatMap((line, i) => {
    try {
      return [JSON.parse(line) as RunRecord];
    } catch {
      throw new Error(`${path}:${i + 1}: not JSON`);
    }
  });
}

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);

/**
 * Seconds a training took across its stops: the run that started it (resumedFrom 0) and every
 * resumed run after it, of one kind. null without a record.
 */
function trainingSeconds(records: RunRecord[], kind: string): number | null {
  const runs = records.filter((r) => r.kind === kind);
  if (!runs.length) return null;
  const start = runs.findLastIndex((r) => !r.resumedFrom);
  return runs.slice(Math.max(start, 0)).reduce((s, r) => s + (num(r.elapsedS) ?? 0), 0);
}

/** How a SAT-tuned model and its base were trained, from their run records; nulls where a record is missing. */
export function trainingFigures(dir: string): SizePoint['training'] {
  const records = runRecords(dir);
  const sat = records.filter((r) => r.kind === 'sdsat').at(-1);
  const baseDir = sat?.job?.base;
  // The shipped model carries both runs in one file; a lab's SAT-tuned folder names its base's.
  const baseRecords = records.some((r) => r.kind === 'lm') ? records : baseDir && existsSync(baseDir) ? runRecords(baseDir) : [];
  const base = baseRecords.filter((r) => r.kind === 'lm').at(-1);
  return {
    baseValLoss: num(sat?.baseValLoss) ?? num(base?.valLoss),
    valLoss: num(sat?.valLoss),
    valSatLoss: num(sat?.valSatLoss),
    trainTokens: num(base?.trainTokens) ?? num(sat?.trainTokens),
    baseTrainS: trainingSeconds(baseRecords, 'lm'),
    satTuneS: trainingSeconds(records, 'sdsat'),
  };
}

/** The fastest mode whose outputs stayed AR's and whose speedup interval (or value, with one repeat) lies above 1. */
export function bestMode(modes: SizePoint['modes']): SizePoint['best'] {
  const paying = Object.entries(modes)
    .filter(([, m]) => m.identicalOutputs !== false && (m.speedupCi95 ? m.speedupCi95.low > 1 : m.speedup > 1))
    .sort((a, b) => b[1].speedup - a[1].speedup);
  return paying.length ? { mode: paying[0][0], k: paying[0][1].k, speedup: paying[0][1].speedup } : null;
}

/**
 * Measure one SAT-tuned model: the decode benchmark (ks above the model's trained k are dropped),
 * pass costs, and what they predict for two-pass SDSAT. `costRepeats` timed passes per position count.
 */
export async function measureSizePoint(
  dir: string,
  loaded: Pick<LoadedModel, 'model' | 'tokenizer' | 'sat'>,
  req: Omit<BenchRequest, 'sampling' | 'seed'> & { costRepeats: number },
  hooks: BenchHooks = {},
): Promise<{ point: SizePoint; cancelled: boolean }> {
  const { model, sat } = loaded;
  if (!sat) throw new Error(`${dir} has no SAT tokens: fine-tune it with \`lab train sdsat\``);
  const ks = req.ks.filter((k) => k <= sat.k);
  if (!ks.length) throw new Error(`${dir} was SAT-tuned with k = ${sat.k}; none of k = ${req.ks.join(', ')} fits`);
  const bench = await runDecodeBench(loaded, { ...req, ks, sampling: { kind: 'greedy' }, seed: 0 }, hooks);
  const rows = bench.results;
  const kMax = Math.max(...rows.map((r) => r.k), ks[0]);
  const rowAt = (mode: string, k: number) => rows.find((r) => r.mode === mode && r.k === k);

  const c = model.config;
  // Pass widths a loop runs (k + 1, trees up to a few k), at most half the context, after a cache that fills the rest.
  const positions = [...new Set([1, 2, ...ks.map((k) => k + 1), 2 * kMax + 2, 4 * kMax + 1])].filter((n) => n <= c.ctx / 2).sort((a, b) => a - b);
  const passCost = bench.cancelled ? [] : measurePassCost(model, positions, { cacheLength: Math.min(COST_CACHE, c.ctx - Math.max(...positions)), repeats: req.costRepeats, warmup: 3 });
  const at = costAt(passCost);
  const modes = Object.fromEntries(Object.entries(bench.best).flatMap(([mode, b]) => (b ? [[mode, {
    k: b.k, speedup: b.speedup, speedupCi95: b.speedupCi95 ?? null, meanAcceptanceLength: b.meanAcceptanceLength, identicalOutputs: b.identicalOutputs,
  }]] : [])));
  const point: SizePoint = {
    model: dir,
    parameters: model.parameterCount - (c.satTokens ?? 0) * c.dModel,
    config: { dModel: c.dModel, nLayer: c.nLayer, nHead: c.nHead, dFF: c.dFF, ctx: c.ctx, vocabSize: c.vocabSize },
    training: trainingFigures(dir),
    arTokensPerSec: rows.find((r) => r.k === kMax)?.arTokensPerSec ?? 0,
    acceptance: { k: kMax, oneCandidate: rowAt('sdsat', kMax)?.acceptanceRatePerPosition ?? null, threeCandidates: rowAt('sdsat-tree', kMax)?.acceptanceRatePerPosition ?? null },
    modes,
    passCost: passCost.map((p) => ({ positions: p.positions, ms: p.ms.value, relative: Number.isFinite(p.relative) ? p.relative : null })),
    predicted: passCost.length ? ks.map((k) => {
      const row = rowAt('sdsat', k);
      return {
        k,
        expected: row ? predictedSpeedup(at, 'sdsat', k, expectedAccepted(row.acceptanceRatePerPosition)) : null,
        ceiling: predictedSpeedup(at, 'sdsat', k, k),
        measured: row?.speedup ?? null,
        neededRate: rateNeeded(at, 'sdsat', k, SAT_PAY_TARGET),
      };
    }) : [],
    best: bestMode(modes),
  };
  return { point, cancelled: bench.cancelled };
}
