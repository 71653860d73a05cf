/**
 * Frozen dataset versions: lab/datasets/<name>/v<N>/manifest.json. A version is written once and
 * never changed; it records the sha256 of every episode and labels file it was made from, so a
 * later read can tell whether the data underneath it moved.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DatasetError } from './errors.ts';
import { datasetFilterSchema, OUTCOMES } from './filter.ts';
import { fileSha256 } from './hash.ts';
import { SPLITS } from './split.ts';
import { LAB_ID, labPaths } from '../store/layout.ts';
import { datasetVersionFiles } from '../store/lab-files.ts';
import { readJsonFile } from '../store/json-file.ts';

export const MANIFEST_FORMAT = 'agent-lab-dataset';
export const MANIFEST_VERSION = 1;

const sha = z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 hex digest');
const counts = z.record(z.string(), z.number().int().min(0));

export const manifestEpisodeSchema = z.object({
  id: z.string().regex(LAB_ID),
  family: z.string(),
  seed: z.number().int(),
  tier: z.number().int(),
  agent: z.string(),
  outcome: z.enum(OUTCOMES),
  steps: z.number().int().min(0),
  split: z.enum(SPLITS),
  episodeSha256: sha,
  /** null: the episode had no labels file when the dataset was frozen. */
  labelsSha256: sha.nullable(),
  /** Steps whose screenshot was already missing from the blob store when the dataset was frozen. */
  missingScreenshots: z.array(z.object({ step: z.number().int().min(0), sha256: sha })).optional(),
});

export const statsSchema = z.object({
  episodes: z.number().int().min(0),
  steps: z.number().int().min(0),
  instances: z.number().int().min(0),
  byFamily: counts,
  byTier: counts,
  byOutcome: counts,
  byAgent: counts,
  bySplit: counts,
  stepsBySplit: counts,
});

export const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  formatVersion: z.literal(MANIFEST_VERSION),
  name: z.string(),
  version: z.number().int().min(1),
  createdAt: z.string(),
  description: z.string().optional(),
  filter: datasetFilterSchema,
  split: z.object({ by: z.literal('family+seed'), ratios: z.object({ train: z.number(), validation: z.number(), test: z.number() }) }),
  dedupe: z.object({ dropped: z.number().int().min(0), droppedIds: z.array(z.object({ id: z.string(), duplicateOf: z.string() })) }),
  episodes: z.array(manifestEpisodeSchema).min(1, 'a dataset holds at least one episode'),
  stats: statsSchema,
});
export type DatasetManifest = z.infer<typeof manifestSchema>;
export type ManifestEpisode = z.infer<typeof manifestEpisodeSchema>;
export type DatasetStats = z.infer<typeof statsSchema>;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function validateDatasetName(name: string): string {
  if (!NAME.test(name) || name.includes('..')) {
    throw new DatasetError(`invalid dataset name "${name}": use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit`);
  }
  return name;
}

/** "name" or "name@v3" (also "name@3"). */
export function parseDatasetRef(ref: string): { name: string; version?: number } {
  const m = ref.match(/^([^@]+)(?:@v?(\d+))?$/);
  if (!m) throw new DatasetError(`invalid dataset reference "${ref}": expected NAME or NAME@vN`);
  return { name: validateDatasetName(m[1]), version: m[2] === undefined ? undefined : Number(m[2]) };
}

export const datasetsDir = labPaths.datasets;
export const datasetDir = (labDir: string, name: string) => join(datasetsDir(labDir), validateDatasetName(name));
export const versionDir = (labDir: string, name: string, version: number) => join(datasetDir(labDir, name), `v${version}`);
export const episodeFile = labPaths.episodeFile;
export const labelsFile = labPaths.labelsFile;

/** Versions present on disk, ascending. */
export function listVersions(labDir: string, name: string): number[] {
  const dir = datasetDir(labDir, name);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((d) => d.match(/^v(\d+)$/))
    .filter((m): m is RegExpMatchArray => !!m && existsSync(datasetVersionFiles(join(dir, m[0])).manifest))
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

export function listDatasetNames(labDir: string): string[] {
  const dir = datasetsDir(labDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => NAME.test(n) && listVersions(labDir, n).length > 0)
    .sort();
}

/**
 * Write the next version. mkdir without `recursive` fails if the folder exists, so two writers
 * racing for the same N cannot overwrite each other: the loser takes N+1.
 */
export function writeNextVersion(labDir: string, name: string, build: (version: number) => DatasetManifest): DatasetManifest {
  mkdirSync(datasetDir(labDir, name), { recursive: true });
  for (let attempt = 0; attempt < 100; attempt++) {
    const versions = listVersions(labDir, name);
    const next = (versions.at(-1) ?? 0) + 1 + attempt;
    const dir = versionDir(labDir, name, next);
    try {
      mkdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw err;
    }
    const manifest = manifestSchema.parse(build(next));
    const path = datasetVersionFiles(dir).manifest;
    const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(tmp, JSON.stringify(manifest, null, 2) + '\n');
    renameSync(tmp, path);
    return manifest;
  }
  throw new DatasetError(`dataset ${name}: could not allocate a new version folder`);
}

export interface ReadManifestOptions {
  /** Check every episode and labels file against the frozen hashes (default true). */
  verify?: boolean;
}

/** Read a version (the latest when none is given), validate it, and verify the frozen hashes. */
export function readManifest(labDir: string, ref: string | { name: string; version?: number }, opts: ReadManifestOptions = {}): DatasetManifest {
  const { name, version: asked } = typeof ref === 'string' ? parseDatasetRef(ref) : { name: validateDatasetName(ref.name), version: ref.version };
  const versions = listVersions(labDir, name);
  if (!versions.length) throw new DatasetError(`dataset ${name} does not exist in ${datasetsDir(labDir)}`);
  const version = asked ?? versions.at(-1)!;
  const where = `dataset ${name} v${version}`;
  if (!versions.includes(version)) throw new DatasetError(`${where} does not exist (versions: ${versions.map((v) => `v${v}`).join(', ')})`);
  const path = datasetVersionFiles(versionDir(labDir, name, version)).manifest;
  let m: DatasetManifest;
  try {
    m = readJsonFile(path, manifestSchema);
  } catch (err) {
    throw new DatasetError(`${where}: ${(err as Error).message}`); // names the file and the field
  }
  if (m.name !== name || m.version !== version) throw new DatasetError(`${where}: ${path} says it is ${m.name} v${m.version}`);
  if (opts.verify !== false) verifyManifest(labDir, m);
  return m;
}

/** Throw naming the first episode whose episode or labels file differs from the frozen one. */
export function verifyManifest(labDir: string, m: DatasetManifest): void {
  const where = `dataset ${m.name} v${m.version}`;
  for (const e of m.episodes) {
    const ep = episodeFile(labDir, e.id);
    const now = fileSha256(ep);
    if (now === null) throw new DatasetError(`${where}: episode ${e.id} is missing (${ep})`);
    if (now !== e.episodeSha256) {
      throw new DatasetError(`${where}: episode ${e.id} changed after the dataset was frozen (${ep}: sha256 ${now.slice(0, 12)}…, frozen ${e.episodeSha256.slice(0, 12)}…)`);
    }
    const lf = labelsFile(labDir, e.id);
    const labels = fileSha256(lf);
    if (labels !== e.labelsSha256) {
      throw new DatasetError(`${where}: the labels of episode ${e.id} changed after the dataset was frozen (${lf}); create a new version to use them`);
    }
  }
}
