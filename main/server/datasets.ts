/**
 * The app's datasets: versions listed (a damaged manifest listed as unreadable, never hiding the
 * rest), previews and freezes under the same guard everywhere (held-out families out, the freeze
 * checks confirmed by a person), and exports in the background with progress, cancel and a
 * download of what finished.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { DatasetPreview, DatasetVersionDetail, DatasetVersionInfo } from '../../preload/views.ts';
import type { LabStore } from '../store/lab.ts';
import type { TaskFamily } from '../tasks/types.ts';
import { labPaths } from '../store/layout.ts';
import {
  createDataset, exportDataset, isExportFormat, listDatasetNames, listVersions, parseDatasetRef, parseFilter, previewDataset, readManifest, validateDatasetName,
  type DatasetFilter, type FreezeWarning, type SplitRatios,
} from '../datasets/index.ts';
import type { Emit } from './lab-parts.ts';


export class DatasetsLab {
  private exports = new Map<string, AbortController>();
  /** Exports finished in this process, by id: the only folders the web server offers for download. */
  private finished = new Map<string, string>();

  constructor(private readonly deps: { store: LabStore; families: Map<string, TaskFamily>; emit: Emit }) {}

  list(): Array<{ name: string; versions: DatasetVersionInfo[]; unreadable?: Array<{ version: number; error: string }> }> {
    const dir = this.deps.store.dir;
    return listDatasetNames(dir).map((name) => {
      const versions: DatasetVersionInfo[] = [];
      const unreadable: Array<{ version: number; error: string }> = [];
      for (const version of listVersions(dir, name)) {
        // One damaged manifest must not hide every other dataset: it is listed as unreadable, with why.
        try {
          const m = readManifest(dir, { name, version }, { verify: false });
          versions.push({ version, createdAt: m.createdAt, ...(m.description ? { description: m.description } : {}), stats: m.stats });
        } catch (err) {
          unreadable.push({ version, error: (err as Error).message });
        }
      }
      return { name, versions, ...(unreadable.length ? { unreadable } : {}) };
    });
  }

  /** Families evaluations hold out, which the freeze checks keep out of training data. */
  heldOutFamilies(): string[] {
    return [...this.deps.families.values()].filter((f) => f.heldOut).map((f) => f.name);
  }

  preview(filter: DatasetFilter, ratios?: SplitRatios): DatasetPreview {
    const r = previewDataset(this.deps.store, { filter: parseFilter(filter), ratios, heldOutFamilies: this.heldOutFamilies() });
    return { matched: r.matched, dropped: r.dropped.length, orphans: r.orphans, episodes: r.episodes.length, stats: r.stats, errors: [...r.errors, ...r.warnings], checks: r.checks };
  }

  create(request: { name: string; description?: string; filter: DatasetFilter; ratios?: SplitRatios; confirmWarnings?: boolean }) {
    const { confirmWarnings, ...rest } = request;
    const filter = parseFilter(request.filter);
    const r = createDataset(this.deps.store, { ...rest, filter, ...this.freezeGuard(request.name, confirmWarnings) });
    return { name: r.manifest.name, version: r.manifest.version, stats: r.manifest.stats, dropped: r.dropped };
  }

  /**
   * What every freeze from the app goes through (Datasets and Review alike): held-out families kept
   * out, and the checks (test seeds or held-out families in train, empty splits) run again on what is
   * frozen now (the lab may have changed since a preview), refused unless a person confirmed them.
   */
  freezeGuard(name: string, confirmWarnings: boolean | undefined) {
    const confirm = confirmWarnings === true ? undefined : (checks: readonly FreezeWarning[]) => {
      if (checks.length) throw new Error(`dataset ${name} was not frozen; confirm first: ${checks.map((c) => c.message).join('; ')}`);
    };
    return { heldOutFamilies: this.heldOutFamilies(), ...(confirm ? { confirm } : {}) };
  }

  readVersion(name: string, version: number): DatasetVersionDetail {
    const m = readManifest(this.deps.store.dir, { name: validateDatasetName(name), version }, { verify: false });
    return {
      name: m.name,
      version: m.version,
      filter: m.filter,
      episodes: m.episodes.map((e) => ({ id: e.id, family: e.family, seed: e.seed, agent: e.agent, outcome: e.outcome, steps: e.steps, split: e.split })),
    };
  }

  /** The folder of an export this process finished, for the web server's download; null for any other id. */
  finishedExportDir(exportId: string): string | null {
    return this.finished.get(exportId) ?? null;
  }

  startExport(dataset: string, format: string, outDir: string): { exportId: string; outDir: string } {
    if (!isExportFormat(format)) throw new Error(`unknown export format "${format}"`);
    const ref = parseDatasetRef(dataset);
    const manifest = readManifest(this.deps.store.dir, ref); // fail now if it is missing or changed
    const exportId = randomBytes(6).toString('hex');
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, '');
    const target = outDir || join(labPaths.exports(this.deps.store.dir), `${manifest.name}-v${manifest.version}-${format}-${stamp}`);
    const controller = new AbortController();
    this.exports.set(exportId, controller);
    exportDataset(this.deps.store, {
      dataset: { name: manifest.name, version: manifest.version },
      format,
      outDir: target,
      signal: controller.signal,
      onProgress: (p) => this.deps.emit('exportProgress', { exportId, done: p.done, total: p.total }),
    })
      .then(
        (result) => {
          this.finished.set(exportId, result.outDir);
          this.deps.emit('exportDone', { exportId, result });
        },
        (err: Error) => this.deps.emit('exportDone', { exportId, result: null, error: err.message }),
      )
      .finally(() => this.exports.delete(exportId));
    return { exportId, outDir: target };
  }

  cancelExport(exportId: string): void {
    this.exports.get(exportId)?.abort();
  }
}
