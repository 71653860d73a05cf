/**
 * Hugging Face datasets, two layouts:
 *  - `hf`: a folder per split with metadata.jsonl; `file_name` names the screenshot relative to
 *    it (the ImageFolder convention), so `load_dataset("imagefolder", data_dir=...)` pairs them.
 *  - `hf-parquet`: data/<split>-00000-of-00001.parquet with the image embedded as a struct of
 *    bytes and path (what `datasets` writes for an Image feature), plus the feature types in the
 *    file's "huggingface" metadata so the column loads as an image, not as raw bytes.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TrainingSample } from '../samples.ts';
import { copyImage, writeJsonl, type ExportContext } from './common.ts';
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
  const copied = new Set<string>();
  for (const { split, samples } of ctx.splits) {
    const rows: unknown[] = [];
    for (const s of samples) {
      // ImageFolder allows one image per row; a step has at most one screenshot.
      const image = s.images[0];
      const file_name = image ? `images/${copyImage(image, join(ctx.dir, split, 'images'), copied)}` : undefined;
      rows.push(file_name ? { file_name, ...sampleColumns(s) } : sampleColumns(s));
      await ctx.advance();
    }
    writeJsonl(join(ctx.dir, split, 'metadata.jsonl'), rows);
    ctx.wrote(`${split}/metadata.jsonl`);
  }
  for (const c of [...copied].sort()) ctx.wrote(c.slice(ctx.dir.length + 1));
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
