/**
 * verl RL Parquet: <split>.parquet with one row per state. `data_source` picks verl's reward
 * function (agent_lab/<family>); `reward_model.ground_truth` is the reference action the
 * Salvage-DS reward compares sampled actions with; the prompt stops before the assistant turn.
 * Rows of screenshot datasets add `images` and an <image> marker per image in the user turn.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defuseImageMarkers, type ExportContext } from './common.ts';
import { binary, int64, list, str, struct, writeParquet, type Column } from './parquet.ts';
import { IMAGE_MARKER } from './sharegpt.ts';

export const VERL_ABILITY = 'web_agent';

export async function exportVerl(ctx: ExportContext): Promise<void> {
  const withImages = ctx.splits.some((g) => g.samples.some((s) => s.images.length > 0));
  for (const { split, samples } of ctx.splits) {
    const rows: Record<string, unknown>[] = [];
    for (const [index, s] of samples.entries()) {
      const [system, user] = s.messages;
      const prompt = withImages
        ? [
            { role: 'system', content: defuseImageMarkers(system.content) },
            { role: 'user', content: IMAGE_MARKER.repeat(s.images.length) + defuseImageMarkers(user.content) },
          ]
        : [
            { role: 'system', content: system.content },
            { role: 'user', content: user.content },
          ];
      rows.push({
        data_source: `agent_lab/${s.family}`,
        prompt,
        ability: VERL_ABILITY,
        reward_model: { style: 'rule', ground_truth: s.target.action },
        extra_info: { split, index, episode_id: s.episodeId, step: s.step, family: s.family, seed: s.seed },
        ...(withImages ? { images: s.images.map((img) => ({ bytes: readFileSync(img.path), path: `${img.sha256}.png` })) } : {}),
      });
      await ctx.advance();
    }
    const col = (name: string, field: Column['field']): Column => ({ name, field, data: rows.map((r) => r[name]) });
    const columns: Column[] = [
      col('data_source', str),
      col('prompt', list(struct({ role: str, content: str }))),
      col('ability', str),
      col('reward_model', struct({ style: str, ground_truth: str })),
      col('extra_info', struct({ split: str, index: int64, episode_id: str, step: int64, family: str, seed: int64 })),
      ...(withImages ? [col('images', list(struct({ bytes: binary, path: str })))] : []),
    ];
    const file = `${split}.parquet`;
    writeParquet(join(ctx.dir, file), columns);
    ctx.wrote(file);
  }
}
