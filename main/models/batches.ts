/**
 * Training batches for plain next-token training and for SDSAT fine-tuning.
 *
 * An SDSAT example is a window of standard tokens x[0..T-1] followed by `blocks` SAT blocks.
 * Block b has a cut point c: its SAT i (1..k) sits at position c+i, sees standard tokens 0..c and
 * SATs 1..i of its own block, and learns x[c+i+1], the token i+1 places after the cut. This is
 * what decoding pass 1 runs: [x_c, SAT x k] after a cache holding x[0..c-1].
 * Standard tokens never see any SAT (the bias masks them), so their logits and loss are exactly
 * those of the same weights without SATs.
 */
import type { SatSettings } from './checkpoint.ts';
import { MASKED } from './model.ts';
import type { Rng } from '../common/rng.ts';

export interface Batch {
  batch: number;
  /** Sequence length including SAT blocks. */
  len: number;
  ids: Int32Array;
  pos: Int32Array;
  labels: Int32Array;
  /** 1 where the row is a standard token with a label, else 0. */
  stdWeight: Float32Array;
  /** 1 where the row is a SAT with a label, else 0. */
  satWeight: Float32Array;
  /** Additive attention bias, [batch, 1, len, len] (or [1, 1, len, len] when shared). */
  bias: Float32Array;
  biasShared: boolean;
}

export interface SatBlocks {
  sat: SatSettings;
  /** Standard vocabulary size: SAT ids start here. */
  vocabSize: number;
  blocks: number;
}

/** SAT id for draft position i (0-based). */
export function satId(sat: SatSettings, vocabSize: number, i: number): number {
  return sat.mode === 'shared' ? vocabSize : vocabSize + i;
}

/** Sample windows of seqLen+1 tokens from `tokens` and build a batch (SAT blocks optional). */
export function sampleBatch(tokens: Int32Array, batch: number, seqLen: number, rng: Rng, satBlocks?: SatBlocks): Batch {
  const starts: number[] = [];
  for (let b = 0; b < batch; b++) starts.push(rng.below(tokens.length - seqLen - 1));
  return buildBatch(tokens, starts, seqLen, rng, satBlocks);
}

export function buildBatch(tokens: Int32Array, starts: number[], seqLen: number, rng: Rng, satBlocks?: SatBlocks): Batch {
  const batch = starts.length;
  const k = satBlocks?.sat.k ?? 0;
  const nBlocks = satBlocks ? satBlocks.blocks : 0;
  if (satBlocks && seqLen < k + 2) throw new Error(`seqLen ${seqLen} too short for SAT blocks of ${k}`);
  const len = seqLen + nBlocks * k;
  const ids = new Int32Array(batch * len);
  const pos = new Int32Array(batch * len);
  const labels = new Int32Array(batch * len);
  const stdWeight = new Float32Array(batch * len);
  const satWeight = new Float32Array(batch * len);
  const biasShared = nBlocks === 0;
  const bias = new Float32Array((biasShared ? 1 : batch) * len * len).fill(MASKED);
  for (let b = 0; b < (biasShared ? 1 : batch); b++) {
    const base = b * len * len;
    for (let i = 0; i < seqLen; i++) for (let j = 0; j <= i; j++) bias[base + i * len + j] = 0;
  }
  for (let b = 0; b < batch; b++) {
    const s = starts[b];
    for (let i = 0; i < seqLen; i++) {
      ids[b * len + i] = tokens[s + i];
      pos[b * len + i] = i;
      labels[b * len + i] = tokens[s + i + 1];
      stdWeight[b * len + i] = 1;
    }
    for (let blk = 0; blk < nBlocks; blk++) {
      const sb = satBlocks as SatBlocks;
      const c = rng.below(seqLen - k); // cut: last visible standard index, c + k < seqLen + 1
      for (let i = 1; i <= k; i++) {
        const row = seqLen + blk * k + (i - 1);
        ids[b * len + row] = satId(sb.sat, sb.vocabSize, i - 1);
        pos[b * len + row] = c + i;
        labels[b * len + row] = tokens[s + c + i + 1];
        satWeight[b * len + row] = 1;
        const base = b * len * len + row * len;
        for (let j = 0; j <= c; j++) bias[base + j] = 0;
        for (let j = seqLen + blk * k; j <= row; j++) bias[base + j] = 0;
      }
    }
  }
  return { batch, len, ids, pos, labels, stdWeight, satWeight, bias, biasShared };
}
