/**
 * Hugging Face datasets, two layouts:
 *  - `hf`: a folder per split with metadata.jsonl; `file_name` names the screenshot relative to
 *    it (the ImageFolder convention), so `load_dataset("imagefolder", data_dir=...)` pairs them.
 *    Without screenshots the same metadata.jsonl loads with the "json" builder.
 *  - `hf-parquet`: data/<split>-00000-of-00001.parquet with the image embedded as a struct of
 *    bytes and path (what `datasets` writes for an Image feature), plus the feature types in the
 *    file's "huggingface" metadata so the column loads as an image, not as raw bytes.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TrainingSample } from '../samples.ts';
import { DatasetError } from '../errors.ts';
import { writeJsonl, type ExportContext } from './common.ts';
import { binary, bool, int64, list, str, struct, writeParquet, type Column } from './parquet.ts';

/** The columns besides the image, shared by both layouts. */
function sampleColumns(s: TrainingSample) {
  return {
    messages: s.messages.map((m) => ({ role: m.role, content: m.content })),
    episode_id: s.episodeId,
    step: s.step,
    family: s.family,
    seed: s.seed,
    tier: s.tier,
    critical: s.critical,
    corrected: s.corrected,
  };
}

export async function exportHfFolder(ctx: ExportContext): Promise<void> {
  for (const { split, samples } of ctx.splits) {
    const withImage = samples.filter((s) => s.images.length > 0).length;
    if (withImage > 0 && withImage < samples.length) {
      // ImageFolder needs a file on every row; a half-empty image column would fail to load.
      throw new DatasetError(
        `dataset ${ctx.manifest.name} v${ctx.manifest.version}: split ${split} mixes steps with and without screenshots (${withImage} of ${samples.length} have one); ` +
          'the hf folder layout needs an image on every row: export as hf-parquet, or select only episodes recorded with screenshots',
      );
    }
    const rows: unknown[] = [];
    for (const s of samples) {
      // ImageFolder allows one image per row; a step has at most one screenshot. One file per
      // row, not per hash: older `datasets` index metadata by file_name and would merge rows.
      const image = s.images[0];
      let file_name: string | undefined;
      if (image) {
        file_name = `images/${s.episodeId}_${s.step}.png`;
        mkdirSync(join(ctx.dir, split, 'images'), { recursive: true });
        copyFileSync(image.path, join(ctx.dir, split, file_name));
        ctx.wrote(`${split}/${file_name}`);
      }
      rows.push(file_name ? { file_name, ...sampleColumns(s) } : sampleColumns(s));
      await ctx.advance();
    }
    writeJsonl(join(ctx.dir, split, 'metadata.jsonl'), rows);
    ctx.wrote(`${split}/metadata.jsonl`);
  }
}

const value = (dtype: string) => ({ dtype, _type: 'Value' });

export async function exportHfParquet(ctx: ExportContext): Promise<void> {
  const withImages = ctx.splits.some((g) => g.samples.some((s) => s.images.length > 0));
  const features: Record<string, unknown> = {
    ...(withImages ? { image: { _type: 'Image' } } : {}),
    messages: [{ role: value('string'), content: value('string') }],
    episode_id: value('string'),
    step: value('int64'),
    family: value('string'),
    seed: value('int64'),
    tier: value('int64'),
    critical: value('bool'),
    corrected: value('bool'),
  };
  const kv = [{ key: 'huggingface', value: JSON.stringify({ info: { features } }) }];
  for (const { split, samples } of ctx.splits) {
    const rows: Array<ReturnType<typeof sampleColumns> & { image?: { bytes: Uint8Array; path: string } | null }> = [];
    for (const s of samples) {
      const img = s.images[0];
      rows.push({ ...(withImages ? { image: img ? { bytes: readFileSync(img.path), path: `${img.sha256}.png` } : null } : {}), ...sampleColumns(s) });
      await ctx.advance();
    }
    const col = <K extends keyof (typeof rows)[number]>(name: K, field: Column['field']): Column => ({ name, field, data: rows.map((r) => r[name]) });
    const columns: Column[] = [
      ...(withImages ? [col('image', struct({ bytes: binary, path: str }, true))] : []),
      col('messages', list(struct({ role: str, content: str }))),
      col('episode_id', str),
      col('step', int64),
      col('family', str),
      col('seed', int64),
      col('tier', int64),
      col('critical', bool),
      col('corrected', bool),
    ];
    const file = `data/${split}-00000-of-00001.parquet`;
    mkdirSync(dirname(join(ctx.dir, file)), { recursive: true });
    writeParquet(join(ctx.dir, file), columns, kv);
    ctx.wrote(file);
  }
}
