// A small decoder-only transformer written with plain TF.js ops, used by the native
// backend's tests (gradients must match wasm) and by scripts/bench-native.ts (tokens/s).
// It exercises what real training does: embedding as one-hot matmul, causal attention,
// MLP, layer norm, softmax cross-entropy.
import * as tf from '@tensorflow/tfjs';

export interface TransformerConfig {
  vocab: number;
  dModel: number;
  heads: number;
  layers: number;
  seq: number;
  batch: number;
}

export interface TinyTransformer {
  variables: tf.Variable[];
  /** Mean next-token cross-entropy of token ids x [batch, seq] against y [batch, seq]. */
  loss(x: tf.Tensor2D, y: tf.Tensor2D): tf.Scalar;
  /** Deterministic random batch of token ids. */
  batch(seed: number): { x: tf.Tensor2D; y: tf.Tensor2D };
  dispose(): void;
}

export function buildTinyTransformer(cfg: TransformerConfig, seed: number): TinyTransformer {
  const { vocab: V, dModel: d, heads: H, layers: L, seq: T } = cfg;
  const dh = d / H;
  let s = seed;
  const vars: tf.Variable[] = [];
  const param = (shape: number[], std: number) => {
    const v = tf.variable(tf.randomNormal(shape, 0, std, 'float32', s++));
    vars.push(v);
    return v;
  };
  const ones = (n: number) => {
    const v = tf.variable(tf.ones([n]));
    vars.push(v);
    return v;
  };
  const zeros = (n: number) => {
    const v = tf.variable(tf.zeros([n]));
    vars.push(v);
    return v;
  };
  const emb = param([V, d], 0.02);
  const pos = param([T, d], 0.02);
  const layers = Array.from({ length: L }, () => ({
    g1: ones(d), b1: zeros(d),
    wq: param([d, d], 0.02), wk: param([d, d], 0.02), wv: param([d, d], 0.02), wo: param([d, d], 0.02),
    g2: ones(d), b2: zeros(d),
    w1: param([d, 4 * d], 0.02), c1: zeros(4 * d), w2: param([4 * d, d], 0.02), c2: zeros(d),
  }));
  const gf = ones(d);
  const bf = zeros(d);
  const wout = param([d, V], 0.02);
  // Causal mask: -1e9 above the diagonal, added to the attention scores.
  const mask = tf.tidy(() => tf.linalg.bandPart(tf.ones([T, T]), -1, 0).sub(1).mul(1e9));

  const layerNorm = (x: tf.Tensor2D, g: tf.Tensor, b: tf.Tensor): tf.Tensor2D => {
    const { mean, variance } = tf.moments(x, -1, true);
    return x.sub(mean).mul(tf.rsqrt(variance.add(1e-5))).mul(g).add(b);
  };

  const loss = (x: tf.Tensor2D, y: tf.Tensor2D): tf.Scalar => tf.tidy(() => {
    const B = x.shape[0];
    const heads = (t: tf.Tensor2D) => t.reshape([B, T, H, dh]).transpose([0, 2, 1, 3]);
    // oneHot(..., 'float32') is avoided: the wasm backend (4.22) writes int32 bits into the
    // float tensor; int32 then cast works everywhere.
    let h = tf.matMul(tf.oneHot(x.flatten(), V).cast('float32'), emb) as tf.Tensor2D;
    h = h.reshape([B, T, d]).add(pos).reshape([B * T, d]);
    for (const p of layers) {
      const a = layerNorm(h, p.g1, p.b1);
      const q = heads(tf.matMul(a, p.wq));
      const k = heads(tf.matMul(a, p.wk));
      const v = heads(tf.matMul(a, p.wv));
      const scores = tf.matMul(q, k, false, true).mul(1 / Math.sqrt(dh)).add(mask);
      const att = tf.matMul(tf.softmax(scores), v).transpose([0, 2, 1, 3]).reshape([B * T, d]) as tf.Tensor2D;
      h = h.add(tf.matMul(att, p.wo));
      const m = layerNorm(h, p.g2, p.b2);
      h = h.add(tf.matMul(tf.relu(tf.matMul(m, p.w1).add(p.c1)) as tf.Tensor2D, p.w2).add(p.c2));
    }
    const logits = tf.matMul(layerNorm(h, gf, bf), wout);
    return tf.losses.softmaxCrossEntropy(tf.oneHot(y.flatten(), V).cast('float32'), logits) as tf.Scalar;
  });

  const batch = (bseed: number) => tf.tidy(() => {
    const ids = tf.randomUniform([cfg.batch, T + 1], 0, V, 'int32', bseed) as tf.Tensor2D;
    return {
      x: ids.slice([0, 0], [cfg.batch, T]) as tf.Tensor2D,
      y: ids.slice([0, 1], [cfg.batch, T]) as tf.Tensor2D,
    };
  });

  return {
    variables: vars,
    loss,
    batch,
    dispose: () => {
      for (const v of vars) v.dispose();
      mask.dispose();
    },
  };
}
