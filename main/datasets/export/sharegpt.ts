/**
 * LLaMA-Factory, ShareGPT style: <split>.json (a JSON array) per split, screenshots copied into
 * images/, a dataset_info.json registering each split, so `dataset_dir` can point at the folder
 * as is, and llamafactory_sft.yaml, a training config on the train split (./llamafactory.ts).
 * Image paths are relative to that folder (LLaMA-Factory's default media_dir).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyImage, defuseImageMarkers, writeJson, type ExportContext } from './common.ts';
import { LLAMAFACTORY_CONFIG } from './formats.ts';
import { llamaFactoryConfig } from './llamafactory.ts';

export const IMAGE_MARKER = '<image>';

interface ShareGptRow {
  conversations: Array<{ from: 'human' | 'gpt'; value: string }>;
  system: string;
  images: string[];
}

export async function exportShareGpt(ctx: ExportContext): Promise<void> {
  const copied = new Set<string>();
  const info: Record<string, unknown> = {};
  const label = `${ctx.manifest.name}_v${ctx.manifest.version}`;
  let maxBytes = 0;
  let maxImages = 0;
  for (const { split, samples } of ctx.splits) {
    const rows: ShareGptRow[] = [];
    for (const s of samples) {
      const images = s.images.map((img) => `images/${copyImage(img, join(ctx.dir, 'images'), copied)}`);
      const [system, user, assistant] = s.messages;
      rows.push({
        conversations: [
          // One marker per image, at the start of the user turn: the count must match `images`.
          { from: 'human', value: IMAGE_MARKER.repeat(images.length) + defuseImageMarkers(user.content) },
          { from: 'gpt', value: defuseImageMarkers(assistant.content) },
        ],
        system: defuseImageMarkers(system.content),
        images,
      });
      maxBytes = Math.max(maxBytes, Buffer.byteLength(system.content + user.content + assistant.content));
      maxImages = Math.max(maxImages, images.length);
      await ctx.advance();
    }
    const file = `${split}.json`;
    writeJson(join(ctx.dir, file), rows);
    ctx.wrote(file);
    info[`${label}_${split}`] = {
      file_name: file,
      formatting: 'sharegpt',
      columns: { messages: 'conversations', system: 'system', images: 'images' },
      tags: { role_tag: 'from', content_tag: 'value', user_tag: 'human', assistant_tag: 'gpt' },
    };
  }
  writeJson(join(ctx.dir, 'dataset_info.json'), info);
  ctx.wrote('dataset_info.json');
  const has = (split: string) => ctx.splits.some((g) => g.split === split);
  if (has('train')) {
    const plan = { label, train: `${label}_train`, validation: has('validation') ? `${label}_validation` : undefined, images: copied.size > 0, maxBytes, maxImages };
    writeFileSync(join(ctx.dir, LLAMAFACTORY_CONFIG), llamaFactoryConfig(plan));
    ctx.wrote(LLAMAFACTORY_CONFIG);
  } else {
    ctx.warn(`no train split, so no ${LLAMAFACTORY_CONFIG} (its splits are registered in dataset_info.json)`);
  }
  for (const c of [...copied].sort()) ctx.wrote(c.slice(ctx.dir.length + 1));
}
