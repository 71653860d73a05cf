/** Tiny random-init models for fast tests (logits spread wide so float rounding never flips an argmax). */
import { selectBackend } from '../../main/models/backend.ts';
import { TransformerLM, defaultModelConfig, type ModelConfig } from '../../main/models/model.ts';

export const tinyConfig: ModelConfig = {
  ...defaultModelConfig, vocabSize: 61, satTokens: 4, ctx: 64, dModel: 32, nLayer: 2, nHead: 2, dFF: 64, initStd: 0.3, seed: 7,
};

export async function tinyModel(overrides: Partial<ModelConfig> = {}): Promise<TransformerLM> {
  await selectBackend();
  return new TransformerLM({ ...tinyConfig, ...overrides });
}

export function randomIds(n: number, vocab: number, seed: number): number[] {
  let s = seed;
  return Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % vocab;
  });
}
