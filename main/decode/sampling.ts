/**
 * Token choice from logits: greedy, nucleus (top-p) distributions, and the speculative-sampling
 * acceptance rule. Pure functions over Float32Arrays so the statistics can be tested without a model.
 */
import type { Rng } from '../common/rng.ts';

// Here too for the decoders (./verify.ts); models/ takes it from common/ and knows nothing of decoding.
export { argmax } from '../common/argmax.ts';

/** The n highest-scoring indices within [offset, offset+vocab), best first (first one on ties). */
export function topTokens(logits: Float32Array, offset: number, vocab: number, n: number): number[] {
  const best: number[] = [];
  for (let i = 0; i < vocab; i++) {
    const v = logits[offset + i];
    if (best.length === n && v <= logits[offset + best[n - 1]]) continue;
    let at = best.length === n ? n - 1 : best.length;
    while (at > 0 && logits[offset + best[at - 1]] < v) at--;
    best.splice(at, 0, i);
    if (best.length > n) best.pop();
  }
  return best;
}

/**
 * The distribution plain nucleus sampling draws from: softmax(logits / temperature), cut to the
 * smallest set of most likely tokens whose mass reaches topP, renormalised.
 */
export function nucleusDistribution(logits: Float32Array, topP: number, temperature: number, offset = 0, n = logits.length - offset): Float64Array {
  const p = new Float64Array(n);
  let max = -Infinity;
  for (let i = 0; i < n; i++) max = Math.max(max, logits[offset + i]);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    p[i] = Math.exp((logits[offset + i] - max) / Math.max(temperature, 1e-6));
    sum += p[i];
  }
  for (let i = 0; i < n; i++) p[i] /= sum;
  if (topP >= 1) return p;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => p[b] - p[a] || a - b);
  let mass = 0;
  let keep = 0;
  while (keep < n && mass < topP) mass += p[order[keep++]];
  const out = new Float64Array(n);
  for (let i = 0; i < keep; i++) out[order[i]] = p[order[i]] / mass;
  return out;
}

/** Draw an index from a probability vector. */
export function sample(p: ArrayLike<number>, rng: Rng): number {
  const u = rng.next();
  let c = 0;
  let last = 0;
  for (let i = 0; i < p.length; i++) {
    if (p[i] <= 0) continue;
    c += p[i];
    last = i;
    if (u < c) return i;
  }
  return last; // rounding: u fell past the accumulated mass
}

/**
 * Speculative sampling's verification of one draft token x ~ q against target p: accept with
 * probability min(1, p(x)/q(x)); otherwise return a token from the residual max(0, p - q),
 * renormalised. The returned token is distributed exactly as p.
 */
export function verifyDraft(x: number, p: ArrayLike<number>, q: ArrayLike<number>, rng: Rng): { accepted: boolean; token: number } {
  const px = p[x];
  const qx = q[x];
  if (qx > 0 && rng.next() < Math.min(1, px / qx)) return { accepted: true, token: x };
  const residual = new Float64Array(p.length);
  let sum = 0;
  for (let i = 0; i < p.length; i++) {
    residual[i] = Math.max(0, p[i] - q[i]);
    sum += residual[i];
  }
  // sum is 0 only when p == q, where rejection cannot happen except through rounding: fall back to p.
  if (sum <= 0) return { accepted: false, token: sample(p, rng) };
  for (let i = 0; i < residual.length; i++) residual[i] /= sum;
  return { accepted: false, token: sample(residual, rng) };
}

/** A copy of the row logits[offset .. offset+n) with the tokens `mask` forbids (0) at -Infinity: constrained decoding. */
export function maskedRow(logits: Float32Array, offset: number, n: number, mask: Uint8Array): Float32Array {
  const row = logits.slice(offset, offset + n);
  for (let i = 0; i < n; i++) if (!mask[i]) row[i] = -Infinity;
  return row;
}
