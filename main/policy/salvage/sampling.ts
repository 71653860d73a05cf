/**
 * A group of G completions of one prompt, sampled together: the prompt is run once, its KV cache
 * copied G times, and the G rows decode in one batched forward pass per token. Each sampled token
 * keeps the policy's log-probability of it at sampling time (softmax at temperature 1, before the
 * nucleus cut): the "old policy" of the clipped importance ratio, on the same scale the training
 * pass computes the new one.
 *
 * With a constraint (the action guide), each row samples among the tokens it allows, and the
 * log-probability kept is still the policy's own over the whole vocabulary: the guide decides which
 * actions are tried, the gradient is that of the policy the training pass sees.
 */
import { KVCache, type TransformerLM } from '../../models/model.ts';
import { Rng } from '../../common/rng.ts';
import { maskedRow, nucleusDistribution, sample } from '../../decode/sampling.ts';
import type { TokenConstraint } from '../../decode/types.ts';

export interface SampledCompletion {
  /** Generated tokens, the stop token included when it was generated. */
  tokens: number[];
  /** log p_old(token) per generated token. */
  logp: number[];
}

export interface GroupSampling {
  group: number;
  maxNew: number;
  topP: number;
  temperature: number;
  seed: number;
  stopToken: number;
  /** Tokens each row may take next, given its tokens so far (absent: any). */
  constraint?: TokenConstraint;
}

export function sampleGroup(model: TransformerLM, prompt: readonly number[], s: GroupSampling): SampledCompletion[] {
  if (!prompt.length) throw new Error('empty prompt');
  const V = model.config.vocabSize;
  const rng = new Rng(s.seed);
  const one = new KVCache(1);
  let cache = new KVCache(s.group);
  try {
    if (prompt.length > 1) model.forward([prompt.slice(0, -1) as number[]], one, true);
    cache = one.tiled(s.group);
    const out: SampledCompletion[] = Array.from({ length: s.group }, () => ({ tokens: [], logp: [] }));
    const done = new Array<boolean>(s.group).fill(s.maxNew <= 0);
    let pending = new Array<number>(s.group).fill(prompt[prompt.length - 1]);
    while (done.some((d) => !d) && cache.length + 1 <= model.config.ctx) {
      const { logits } = model.forward(pending.map((t) => [t]), cache, true);
      pending = pending.map((prev, g) => {
        // Finished rows keep decoding (one batch, one shape) but their tokens are dropped.
        if (done[g]) return prev;
        const mask = s.constraint?.allowed(out[g].tokens) ?? null;
        const p = mask ? nucleusDistribution(maskedRow(logits, g * V, V, mask), s.topP, s.temperature, 0, V) : nucleusDistribution(logits, s.topP, s.temperature, g * V, V);
        const tok = sample(p, rng);
        out[g].tokens.push(tok);
        out[g].logp.push(logSoftmaxAt(logits, g * V, V, tok));
        if (tok === s.stopToken || out[g].tokens.length >= s.maxNew) done[g] = true;
        return tok;
      });
    }
    return out;
  } finally {
    one.dispose();
    cache.dispose();
  }
}

/** log softmax(logits[offset .. offset+n))[i], in float64. */
export function logSoftmaxAt(logits: Float32Array, offset: number, n: number, i: number): number {
  let max = -Infinity;
  for (let j = 0; j < n; j++) max = Math.max(max, logits[offset + j]);
  let sum = 0;
  for (let j = 0; j < n; j++) sum += Math.exp(logits[offset + j] - max);
  return logits[offset + i] - max - Math.log(sum);
}
