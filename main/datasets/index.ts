/** Dataset curation and export: the functions the UI and the CLI call. */
export { DatasetError, ExportCancelledError } from './errors.ts';
export { parseFilter, loadEpisodeInfos, type DatasetFilter, type EpisodeInfo, type Outcome, OUTCOMES } from './filter.ts';
export { DEFAULT_RATIOS, parseRatios, splitOf, dedupeEpisodes, SPLITS, type SplitName, type SplitRatios } from './split.ts';
export { createDataset, previewDataset, computeStats, type CreateDatasetRequest, type CreateDatasetResult, type CurateResult } from './curate.ts';
export {
  readManifest,
  verifyManifest,
  listDatasetNames,
  listVersions,
  parseDatasetRef,
  validateDatasetName,
  type DatasetManifest,
  type DatasetStats,
} from './manifest.ts';
export { freezeChecks, type FreezeWarning, type FreezeCheckKind } from './freeze-checks.ts';
export { buildSamples, type TrainingSample } from './samples.ts';
export { exportDataset, EXPORT_FORMATS, isExportFormat, type ExportFormat, type ExportRequest, type ExportResult } from './export/index.ts';
export type { ExportProgress } from './export/common.ts';
