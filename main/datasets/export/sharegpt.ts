/**
 * LLaMA-Factory, ShareGPT style: <split>.json (a JSON array) per split, screenshots copied into
 * images/, and a dataset_info.json registering each split, so `dataset_dir` can point at the
 * folder as is. Image paths are relative to that folder (LLaMA-Factory's default media_dir).
 */
import { join } from 'node:path';
import { copyImage, defuseImageMarkers, writeJson, type ExportContext } from './common.ts';

export const IMAGE_MARKER = '<image>';

interface ShareGptRow {
  conversations: Array<{ from: 'human' | 'gpt'; value: string }>;
  system: string;
  images: string[];
}

export async function exportShareGpt(ctx: ExportContext): Promise<void> {
  const copied = new Set<string>();
  const info: Record<string, unknown> = {};
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
      await ctx.advance();
    }
    const file = `${split}.json`;
    writeJson(join(ctx.dir, file), rows);
    ctx.wrote(file);
    info[`${ctx.manifest.name}_v${ctx.manifest.version}_${split}`] = {
      file_name: file,
      formatting: 'sharegpt',
      columns: { messages: 'conversations', system: 'system', images: 'images' },
      tags: { role_tag: 'from', content_tag: 'value', user_tag: 'human', assistant_tag: 'gpt' },
    };
  }
  writeJson(join(ctx.dir, 'dataset_info.json'), info);
  ctx.wrote('dataset_info.json');
  for (const c of [...copied].sort()) ctx.wrote(c.slice(ctx.dir.length + 1));
}
