/** Index of the largest value (first one on ties), within [offset, offset+n): greedy decoding's and distillation's choice. */
export function argmax(logits: Float32Array, offset = 0, n = logits.length - offset): number {
  let best = 0;
  let bestV = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = logits[offset + i];
    if (v > bestV) {
      bestV = v;
      best = i;
    }
  }
  return best;
}
