/**
 * What every exporter shares: the samples grouped by split, a staging folder that becomes the
 * output folder only when the export finished (so a cancelled or failed export leaves nothing
 * half-written behind), progress and cancellation.
 */
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, rmdirSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { DatasetError, ExportCancelledError } from '../errors.ts';
import type { DatasetManifest } from '../manifest.ts';
import type { SampleImage, TrainingSample } from '../samples.ts';
import { SPLITS, type SplitName } from '../split.ts';

export interface ExportProgress {
  done: number;
  total: number;
}

export interface ExportContext {
  /** The staging folder to write into. */
  dir: string;
  manifest: DatasetManifest;
  /** Non-empty splits only, in train, validation, test order. */
  splits: Array<{ split: SplitName; samples: TrainingSample[] }>;
  /** Call once per sample written: reports progress, yields to the event loop, honours abort. */
  advance(): Promise<void>;
  /** Record a written file (relative to the output folder) for the result. */
  wrote(relPath: string): void;
  /** Report something exported differently from what the format usually holds (in the result's warnings). */
  warn(message: string): void;
}

export function groupBySplit(samples: readonly TrainingSample[]): ExportContext['splits'] {
  return SPLITS.map((split) => ({ split, samples: samples.filter((s) => s.split === split) })).filter((g) => g.samples.length > 0);
}

/** The output folder may be new or empty; never mix an export into other files. */
export function checkOutDir(outDir: string): string {
  const out = resolve(outDir);
  if (existsSync(out) && readdirSync(out).length > 0) throw new DatasetError(`output folder ${out} is not empty; choose a new or empty folder`);
  return out;
}

export async function withStagingDir<T>(
  outDir: string,
  signal: AbortSignal | undefined,
  onProgress: ((p: ExportProgress) => void) | undefined,
  total: number,
  run: (dir: string, advance: () => Promise<void>) => Promise<T>,
): Promise<T> {
  const out = checkOutDir(outDir);
  mkdirSync(dirname(out), { recursive: true });
  const staging = join(dirname(out), `.${basename(out)}.partial-${randomBytes(4).toString('hex')}`);
  mkdirSync(staging);
  let done = 0;
  const advance = async () => {
    done++;
    onProgress?.({ done, total });
    // Yield now and then so a Ctrl-C handler (or the UI) gets to run during a long export.
    if (done % 16 === 0 || done === total) await new Promise((r) => setImmediate(r));
    if (signal?.aborted) throw new ExportCancelledError();
  };
  try {
    if (signal?.aborted) throw new ExportCancelledError();
    onProgress?.({ done: 0, total });
    const result = await run(staging, advance);
    if (signal?.aborted) throw new ExportCancelledError();
    if (existsSync(out)) rmdirSync(out); // empty, checked above
    renameSync(staging, out);
    return result;
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

export function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2) + '\n');
}

export function writeJsonl(path: string, rows: readonly unknown[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : ''));
}

/** Append JSON lines one at a time: a split with inline images need not fit in memory. */
export class JsonlWriter {
  private fd: number;
  constructor(path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'w');
  }
  write(row: unknown): void {
    writeSync(this.fd, JSON.stringify(row) + '\n');
  }
  close(): void {
    closeSync(this.fd);
  }
}

/** Copy a screenshot into `folder` once, named by its hash; returns the file name. */
export function copyImage(image: SampleImage, folder: string, copied: Set<string>): string {
  const name = `${image.sha256}.png`;
  const dest = join(folder, name);
  if (!copied.has(dest)) {
    mkdirSync(folder, { recursive: true });
    copyFileSync(image.path, dest);
    copied.add(dest);
  }
  return name;
}

/**
 * Page text can contain the literal "<image>" (a product called that, a code sample). Trainers
 * count that string as an image slot, so it is defused in text and only real images get one.
 */
export function defuseImageMarkers(text: string): string {
  return text.replaceAll('<image>', '< image>');
}
