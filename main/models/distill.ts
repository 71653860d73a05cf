/**
 * Self-distillation data for SAT tuning: windows whose continuation is the base model's own greedy
 * output. Verification accepts a draft only when it equals what the model itself would emit, so
 * SATs that also learn from these windows learn the target they are judged against (Medusa-2 uses
 * the same idea). Prompts are cut from the training text; generation runs batched with the KV cache.
 */
import { KVCache, type TransformerLM } from './model.ts';
import type { Rng } from '../common/rng.ts';
import { argmax } from '../common/argmax.ts';

/**
 * `windows` sequences of `windowLen` tokens, concatenated: `promptLen` tokens of training text
 * followed by the model's greedy continuation.
 */
export function greedyWindows(model: TransformerLM, tokens: Int32Array, windows: number, windowLen: number, promptLen: number, rng: Rng, batch = 16): Int32Array {
  const out = new Int32Array(windows * windowLen);
  const V = model.config.vocabSize;
  for (let w0 = 0; w0 < windows; w0 += batch) {
    const n = Math.min(batch, windows - w0);
    const rows: number[][] = [];
    for (let b = 0; b < n; b++) {
      const s = rng.below(tokens.length - promptLen);
      rows.push(Array.from(tokens.subarray(s, s + promptLen)));
    }
    const cache = new KVCache(n);
    try {
      model.forward(rows.map((r) => r.slice(0, -1)), cache, true);
      let pending = rows.map((r) => r[r.length - 1]);
      while (rows[0].length < windowLen) {
        const { logits } = model.forward(pending.map((t) => [t]), cache, true);
        pending = rows.map((_, b) => argmax(logits, b * V, V));
        rows.forEach((r, b) => r.push(pending[b]));
      }
    } finally {
      cache.dispose();
    }
    rows.forEach((r, b) => out.set(r, (w0 + b) * windowLen));
  }
  return out;
}
