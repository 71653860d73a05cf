/**
 * Export a frozen dataset version in a trainer's format. The manifest is verified first (an
 * episode edited since freezing stops the export), samples are built with the labels applied,
 * and the chosen writer fills a staging folder that becomes `outDir` only on success.
 */
import { resolve } from 'node:path';
import type { LabStore } from '../../store/lab.ts';
import { DatasetError } from '../errors.ts';
import { readManifest, type DatasetManifest } from '../manifest.ts';
import { buildSamples, type TrainingSample } from '../samples.ts';
import { describeAction } from '../../environment/action-target.ts';
import type { SplitName } from '../split.ts';
import { groupBySplit, withStagingDir, type ExportContext, type ExportProgress } from './common.ts';
import { exportHfFolder, exportHfParquet } from './hf.ts';
import { exportOpenAi } from './openai.ts';
import { exportShareGpt } from './sharegpt.ts';
import { exportVerl } from './verl.ts';
import { EXPORT_FORMATS, isExportFormat, type ExportFormat } from './formats.ts';

export { EXPORT_FORMATS, isExportFormat, type ExportFormat } from './formats.ts';

const WRITERS: Record<ExportFormat, (ctx: ExportContext) => Promise<void>> = {
  sharegpt: exportShareGpt,
  openai: exportOpenAi,
  hf: exportHfFolder,
  'hf-parquet': exportHfParquet,
  verl: exportVerl,
};

export interface ExportRequest {
  /** "name", "name@v3", or { name, version }; the latest version when none is given. */
  dataset: string | { name: string; version?: number };
  format: ExportFormat;
  outDir: string;
  onProgress?: (p: ExportProgress) => void;
  signal?: AbortSignal;
  /** Fail on a missing screenshot instead of leaving its step out. */
  strict?: boolean;
}

export interface ExportResult {
  dataset: string;
  version: number;
  format: ExportFormat;
  outDir: string;
  /** Files written, relative to outDir. */
  files: string[];
  samples: number;
  samplesBySplit: Partial<Record<SplitName, number>>;
  /** Steps left out (labeled wrong or detour without a correction). */
  skippedSteps: number;
  /** Steps left out because their screenshot file is missing (each named in warnings). */
  missingScreenshots: number;
  images: number;
  /** What was exported differently from the manifest's promise, each naming its file (labels not applied, steps left out). */
  warnings: string[];
  /** The first samples' targets, as written for the trainer and as a person reads them. */
  preview: SamplePreview[];
}

export interface SamplePreview {
  episodeId: string;
  step: number;
  split: SplitName;
  /** The target action as the trainer sees it: `click('23')`. */
  action: string;
  /** The same, its element named from the step's own observation: `click [23] link "Previous day"`. */
  readable: string;
  corrected: boolean;
}

/** How many samples an export's preview shows. */
export const PREVIEW_SAMPLES = 5;

export function previewSamples(samples: readonly TrainingSample[], n = PREVIEW_SAMPLES): SamplePreview[] {
  return samples.slice(0, n).map((s) => ({
    episodeId: s.episodeId, step: s.step, split: s.split, action: s.target.action,
    readable: describeAction(s.target.action, s.elements), corrected: s.corrected,
  }));
}

export async function exportDataset(lab: LabStore, req: ExportRequest): Promise<ExportResult> {
  if (!isExportFormat(req.format)) throw new DatasetError(`unknown export format "${req.format}" (known: ${EXPORT_FORMATS.join(', ')})`);
  const manifest: DatasetManifest = readManifest(lab.dir, req.dataset);
  const where = `dataset ${manifest.name} v${manifest.version}`;
  const { samples, skipped, missingScreenshots, warnings } = buildSamples(lab, manifest, { signal: req.signal, strict: req.strict });
  if (!samples.length) {
    throw new DatasetError(`${where} yields no training samples: its ${manifest.episodes.length} episodes have ${manifest.stats.steps} steps, ${skipped} of them labeled wrong or detour without a correction, ${missingScreenshots} without their screenshot file`);
  }
  const splits = groupBySplit(samples);
  const files: string[] = [];
  await withStagingDir(req.outDir, req.signal, req.onProgress, samples.length, async (dir, advance) => {
    await WRITERS[req.format]({ dir, manifest, splits, advance, wrote: (f) => files.push(f), warn: (w) => warnings.push(`${where}: ${w}`) });
  });
  return {
    dataset: manifest.name,
    version: manifest.version,
    format: req.format,
    outDir: resolve(req.outDir),
    files,
    samples: samples.length,
    samplesBySplit: Object.fromEntries(splits.map((g) => [g.split, g.samples.length])),
    skippedSteps: skipped,
    missingScreenshots,
    images: new Set(samples.flatMap((s) => s.images.map((i) => i.sha256))).size,
    warnings,
    preview: previewSamples(samples),
  };
}
