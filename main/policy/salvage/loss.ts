/**
 * The Salvage-DS objective over one padded batch of two kinds of rows:
 *
 *   policy-gradient rows  [prompt][sampled completion]   kept groups: every completion token carries
 *                                                        its advantage and its sampling-time log-prob
 *   anchor rows           [prompt][ref thought][ref action]  rejected groups: only the action tokens
 *                                                        (and the stop token) carry loss
 *
 *   loss = sum_t w_t * -min(rho_t A_t, clip(rho_t, 1-eps, 1+eps) A_t)          clipped surrogate
 *        + beta * sum_t w_t * (exp(d_t) - d_t - 1),  d_t = log pi_sft - log pi  KL, k3 estimator
 *        + anchorCoef * sum_t a_t * -log pi(token_t)                             action-only anchor
 *
 * w sums to 1 over policy-gradient tokens ('token': every token counts the same, as DAPO; 'sequence':
 * each completion counts the same, as GRPO), a sums to 1 over anchor tokens. The k3 estimator is
 * unbiased for KL(pi || pi_sft), never negative, and exactly 0 where the two policies agree.
 */
import * as tf from '@tensorflow/tfjs';
import type { TransformerLM } from '../../models/model.ts';
import type { Batch } from '../../models/batches.ts';
import { sftBatch } from '../sft.ts';

import type { LossAggregation } from './config.ts';

export { LOSS_AGGREGATIONS, type LossAggregation } from './config.ts';

export type SalvageRow =
  | { kind: 'pg'; ids: number[]; promptLength: number; advantage: number; oldLogp: number[] }
  | { kind: 'anchor'; ids: number[]; mask: number[] };

export interface SalvageBatch {
  batch: Batch;
  /** Per row position (predicting the next token): weights summing to 1 over their kind. */
  pgWeight: Float32Array;
  anchorWeight: Float32Array;
  advantage: Float32Array;
  oldLogp: Float32Array;
}

export function salvageBatch(rows: readonly SalvageRow[], agg: LossAggregation): SalvageBatch {
  const masks = rows.map((r) => (r.kind === 'anchor' ? r.mask : r.ids.map((_, i) => (i >= r.promptLength ? 1 : 0))));
  const batch = sftBatch(rows.map((r, i) => ({ ids: r.ids, mask: masks[i], promptLength: 0 })));
  const n = batch.batch * batch.len;
  const pgWeight = new Float32Array(n);
  const anchorWeight = new Float32Array(n);
  const advantage = new Float32Array(n);
  const oldLogp = new Float32Array(n);
  const pgRows = rows.filter((r) => r.kind === 'pg');
  const pgTokens = pgRows.reduce((a, r) => a + (r.ids.length - r.promptLength), 0);
  const anchorTokens = rows.reduce((a, r, i) => a + (r.kind === 'anchor' ? masks[i].reduce((x, y) => x + y, 0) : 0), 0);
  rows.forEach((r, b) => {
    if (r.kind === 'anchor') {
      for (let i = 1; i < r.ids.length; i++) if (r.mask[i]) anchorWeight[b * batch.len + i - 1] = 1 / anchorTokens;
      return;
    }
    const completion = r.ids.length - r.promptLength;
    if (r.oldLogp.length !== completion) throw new Error(`row ${b}: ${r.oldLogp.length} old log-probs for ${completion} completion tokens`);
    for (let j = 0; j < completion; j++) {
      const at = b * batch.len + r.promptLength + j - 1;
      pgWeight[at] = agg === 'token' ? 1 / pgTokens : 1 / (completion * pgRows.length);
      advantage[at] = r.advantage;
      oldLogp[at] = r.oldLogp[j];
    }
  });
  return { batch, pgWeight, anchorWeight, advantage, oldLogp };
}

/** log pi(label) at every row position, [batch*len]. Call inside a gradient or tidy scope. */
export function tokenLogp(model: TransformerLM, b: Batch): tf.Tensor1D {
  const bias = tf.tensor4d(b.bias, [b.biasShared ? 1 : b.batch, 1, b.len, b.len]);
  return model.labelLogProbs(tf.tensor1d(b.ids, 'int32'), tf.tensor1d(b.pos, 'int32'), bias, b.batch, b.len, tf.tensor1d(b.labels, 'int32'));
}

export interface ObjectiveSettings {
  clipEps: number;
  beta: number;
  anchorCoef: number;
}

export interface ObjectiveTerms {
  total: tf.Scalar;
  pg: tf.Scalar;
  kl: tf.Scalar;
  anchor: tf.Scalar;
}

/** The loss from the new log-probs (with gradient) and the frozen SFT policy's (without). */
export function salvageObjective(logp: tf.Tensor1D, refLogp: Float32Array, sb: Omit<SalvageBatch, 'batch'>, s: ObjectiveSettings): ObjectiveTerms {
  const w = tf.tensor1d(sb.pgWeight);
  const adv = tf.tensor1d(sb.advantage);
  const ratio = tf.exp(tf.sub(logp, tf.tensor1d(sb.oldLogp)));
  const surrogate = smaller(tf.mul(ratio, adv), tf.mul(tf.clipByValue(ratio, 1 - s.clipEps, 1 + s.clipEps), adv));
  const pg = tf.neg(tf.sum(tf.mul(w, surrogate))) as tf.Scalar;
  const d = tf.sub(tf.tensor1d(refLogp), logp);
  const kl = tf.sum(tf.mul(w, tf.sub(tf.sub(tf.exp(d), d), 1))) as tf.Scalar;
  const anchor = tf.neg(tf.sum(tf.mul(tf.tensor1d(sb.anchorWeight), logp))) as tf.Scalar;
  const total = tf.addN([pg, tf.mul(kl, s.beta), tf.mul(anchor, s.anchorCoef)]) as tf.Scalar;
  return { total, pg, kl, anchor };
}

/**
 * min(a, b) as b - relu(b - a): the same value and gradient as tf.minimum, whose gradient the
 * project's native backend cannot run (its mul refuses the boolean mask tf.minimum's gradient casts).
 */
function smaller(a: tf.Tensor, b: tf.Tensor): tf.Tensor {
  return tf.sub(b, tf.relu(tf.sub(b, a)));
}

/** Share of policy-gradient tokens whose ratio the clip holds (where the clipped term is the smaller one). */
export function clipFraction(logp: Float32Array, sb: Omit<SalvageBatch, 'batch'>, clipEps: number): number {
  let clipped = 0;
  let n = 0;
  for (let i = 0; i < logp.length; i++) {
    if (!sb.pgWeight[i]) continue;
    n++;
    const r = Math.exp(logp[i] - sb.oldLogp[i]);
    if ((sb.advantage[i] > 0 && r > 1 + clipEps) || (sb.advantage[i] < 0 && r < 1 - clipEps)) clipped++;
  }
  return n ? clipped / n : 0;
}
