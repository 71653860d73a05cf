/** Tiny random-init models for fast tests (logits spread wide so float rounding never flips an argmax). */
import { tensor1d } from '@tensorflow/tfjs';
import { selectBackend } from '../../main/models/backend.ts';
import { TransformerLM, defaultModelConfig, type ModelConfig } from '../../main/models/model.ts';

export const tinyConfig: ModelConfig = {
  ...defaultModelConfig, vocabSize: 61, satTokens: 4, ctx: 64, dModel: 32, nLayer: 2, nHead: 2, dFF: 64, initStd: 0.3, seed: 7,
};

export async function tinyModel(overrides: Partial<ModelConfig> = {}): Promise<TransformerLM> {
  await selectBackend();
  const model = new TransformerLM({ ...tinyConfig, ...overrides });
  // The continuation bonus's bias starts at 0: a clear positive one, so a wrong predecessor shows in the logits.
  if (model.config.copyNext) model.p('copy.bnext').assign(tensor1d([2]));
  return model;
}

/** The copy variants a decoding test runs over: none, the pointer, the pointer with its continuation bonus. */
export const COPY_VARIANTS: Partial<ModelConfig>[] = [{ copy: false }, { copy: true }, { copy: true, copyNext: true }];

export function randomIds(n: number, vocab: number, seed: number): number[] {
  let s = seed;
  return Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % vocab;
  });
}
