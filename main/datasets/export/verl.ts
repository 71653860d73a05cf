/**
 * verl RL Parquet: <split>.parquet with one row per state, and reward_agent_lab.py beside it, the
 * custom reward function verl loads (`custom_reward_function.path`, see ../README.md).
 *
 * `data_source` is agent_lab/<family>: a label for verl's per-source metrics. It does not choose a
 * reward by itself: verl's built-in scorer knows only its own datasets and refuses other names, so
 * a run must point `custom_reward_function.path` at the shipped module. `reward_model.ground_truth`
 * is a JSON string holding what that reward reads: the reference action and the page's elements
 * reduced to id, role and name (the meaning of an action is its target's role, name and rank
 * among equals, so the page must travel with the row). The prompt stops before the assistant
 * turn. Rows of screenshot datasets add `images` and an <image> marker per image in the user turn.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '../../policy/observation-text.ts';
import type { PageElement } from '../../environment/types.ts';
import { resourcePath } from '../../paths.ts';
import type { SampleImage } from '../samples.ts';
import { defuseImageMarkers, type ExportContext } from './common.ts';
import { REWARD_MODULE } from './formats.ts';
import { binary, int64, list, str, struct, writeParquet, type Column, type Field } from './parquet.ts';
import { IMAGE_MARKER } from './sharegpt.ts';

export { REWARD_MODULE } from './formats.ts';

export const VERL_ABILITY = 'web_agent';
/** Bumped when the ground truth's shape changes; the reward module refuses any other. */
export const GROUND_TRUTH_VERSION = 1;

/** What the reward module needs to score a response at a state: the reference action and the page. */
export function rewardGroundTruth(action: string, elements: readonly PageElement[]): string {
  return JSON.stringify({ v: GROUND_TRUTH_VERSION, action, elements: elements.map(({ id, role, name }) => ({ id, role, name })) });
}

/** One state as a verl row needs it. */
export interface VerlState {
  family: string;
  /** system, user (an assistant message after them is ignored). */
  messages: readonly ChatMessage[];
  images: readonly SampleImage[];
  /** The reference action. */
  action: string;
  /** The page at the state. */
  elements: readonly PageElement[];
}

/**
 * Write one verl Parquet file. `extraInfo` describes the extra_info struct of every row (it
 * differs between dataset rows and mined critical states); `withImages` adds the images column,
 * for every row, when any state of the export has a screenshot.
 */
export function writeVerlParquet(path: string, rows: ReadonlyArray<{ state: VerlState; extraInfo: Record<string, unknown> }>, extraInfo: Field, withImages: boolean): void {
  const prompt = ({ messages: [system, user], images }: VerlState) =>
    withImages
      ? [
          { role: 'system', content: defuseImageMarkers(system.content) },
          { role: 'user', content: IMAGE_MARKER.repeat(images.length) + defuseImageMarkers(user.content) },
        ]
      : [
          { role: 'system', content: system.content },
          { role: 'user', content: user.content },
        ];
  const data = {
    data_source: rows.map((r) => `agent_lab/${r.state.family}`),
    prompt: rows.map((r) => prompt(r.state)),
    ability: rows.map(() => VERL_ABILITY),
    reward_model: rows.map((r) => ({ style: 'rule', ground_truth: rewardGroundTruth(r.state.action, r.state.elements) })),
    extra_info: rows.map((r) => r.extraInfo),
    images: withImages ? rows.map((r) => r.state.images.map((img) => ({ bytes: readFileSync(img.path), path: `${img.sha256}.png` }))) : [],
  };
  const columns: Column[] = [
    { name: 'data_source', field: str, data: data.data_source },
    { name: 'prompt', field: list(struct({ role: str, content: str })), data: data.prompt },
    { name: 'ability', field: str, data: data.ability },
    { name: 'reward_model', field: struct({ style: str, ground_truth: str }), data: data.reward_model },
    { name: 'extra_info', field: extraInfo, data: data.extra_info },
    ...(withImages ? [{ name: 'images', field: list(struct({ bytes: binary, path: str })), data: data.images }] : []),
  ];
  writeParquet(path, columns);
}

/** Copy the reward module into an export folder; returns its file name. */
export function writeRewardModule(dir: string): string {
  copyFileSync(resourcePath('trainers', REWARD_MODULE), join(dir, REWARD_MODULE));
  return REWARD_MODULE;
}

const DATASET_EXTRA_INFO = struct({ split: str, index: int64, episode_id: str, step: int64, family: str, seed: int64 });

export async function exportVerl(ctx: ExportContext): Promise<void> {
  const withImages = ctx.splits.some((g) => g.samples.some((s) => s.images.length > 0));
  for (const { split, samples } of ctx.splits) {
    const rows: Array<{ state: VerlState; extraInfo: Record<string, unknown> }> = [];
    for (const [index, s] of samples.entries()) {
      rows.push({
        state: { family: s.family, messages: s.messages, images: s.images, action: s.target.action, elements: s.elements },
        extraInfo: { split, index, episode_id: s.episodeId, step: s.step, family: s.family, seed: s.seed },
      });
      await ctx.advance();
    }
    const file = `${split}.parquet`;
    writeVerlParquet(join(ctx.dir, file), rows, DATASET_EXTRA_INFO, withImages);
    ctx.wrote(file);
  }
  ctx.wrote(writeRewardModule(ctx.dir));
}
