/**
 * A small causal transformer language model (GPT-2 style: pre-LayerNorm blocks, learned
 * positions, untied output head) in TensorFlow.js, with a KV cache for incremental decoding.
 *
 * The embedding table may hold extra rows for semantic adaptive tokens (SAT, see ../models/sdsat.ts):
 * they can be fed as input but are never predicted, so the output head covers standard tokens only.
 *
 * Two forward paths share the same block code:
 *  - `forwardTrain`: whole sequences with an arbitrary additive attention bias (SAT masks), one-hot
 *    embeddings because `tf.gather` has no gradient on the wasm backend;
 *  - `forward`: inference with a KV cache, any number of new tokens per call, causal.
 */
import * as tf from '@tensorflow/tfjs';
import { Rng } from './rng.ts';

export interface ModelConfig {
  /** Standard tokens: rows of the embedding that are also output classes. */
  vocabSize: number;
  /** Extra input-only embedding rows for SAT tokens (ids vocabSize .. vocabSize+satTokens-1). */
  satTokens: number;
  /** Longest sequence (positions) the model can see. */
  ctx: number;
  dModel: number;
  nLayer: number;
  nHead: number;
  dFF: number;
  /** Standard deviation of the initial weights. */
  initStd: number;
  seed: number;
}

export const defaultModelConfig: ModelConfig = {
  vocabSize: 768,
  satTokens: 0,
  ctx: 256,
  dModel: 128,
  nLayer: 4,
  nHead: 4,
  dFF: 512,
  initStd: 0.02,
  seed: 1,
};

/** Additive attention bias for masked-out pairs: exp() of it is exactly 0 in float32. */
export const MASKED = -1e9;

type Params = Map<string, tf.Variable>;

/** Per-layer keys and values of the tokens seen so far, [batch, heads, length, headDim]. */
export class KVCache {
  k: tf.Tensor4D[] = [];
  v: tf.Tensor4D[] = [];
  length = 0;

  constructor(readonly batch: number) {}

  /** Drop every entry at position >= n (rejected drafts, SAT positions). */
  rollback(n: number): void {
    if (n > this.length || n < 0) throw new Error(`cannot roll back a cache of length ${this.length} to ${n}`);
    if (n === this.length) return;
    for (let l = 0; l < this.k.length; l++) {
      const [b, h, , d] = this.k[l].shape;
      const k = this.k[l].slice([0, 0, 0, 0], [b, h, n, d]);
      const v = this.v[l].slice([0, 0, 0, 0], [b, h, n, d]);
      this.k[l].dispose();
      this.v[l].dispose();
      this.k[l] = k;
      this.v[l] = v;
    }
    this.length = n;
  }

  dispose(): void {
    for (const t of [...this.k, ...this.v]) t.dispose();
    this.k = [];
    this.v = [];
    this.length = 0;
  }
}

/**
 * Custom placement of new tokens (SAT blocks beside drafts): their positions, and an additive bias
 * [len, past+len] saying which cached and new tokens each one sees (0) or not (MASKED).
 */
export interface Layout {
  pos: number[];
  bias: Float32Array;
}

export interface ForwardOutput {
  /** Logits, row-major [batch, rows, vocabSize]; rows = new tokens, or 1 with lastOnly. */
  logits: Float32Array;
  rows: number;
}

export class TransformerLM {
  readonly params: Params;

  constructor(readonly config: ModelConfig, params?: Params) {
    if (config.dModel % config.nHead !== 0) throw new Error('dModel must be a multiple of nHead');
    this.params = params ?? initParams(config);
  }

  get parameterCount(): number {
    let n = 0;
    for (const p of this.params.values()) n += p.size;
    return n;
  }

  /** Total embedding rows (standard + SAT). */
  get inputVocab(): number {
    return this.config.vocabSize + this.config.satTokens;
  }

  p(name: string): tf.Variable {
    const v = this.params.get(name);
    if (!v) throw new Error(`missing parameter ${name}`);
    return v;
  }

  /**
   * Training forward pass: ids and positions [batch*len], bias [batch or 1, 1, len, len] additive.
   * Returns logits [batch*len, vocabSize]. Call inside a gradient or tidy scope.
   */
  forwardTrain(ids: tf.Tensor1D, pos: tf.Tensor1D, bias: tf.Tensor4D, batch: number, len: number): tf.Tensor2D {
    const { dModel } = this.config;
    const tok = linear(oneHot(ids, this.inputVocab), this.p('wte'));
    const ps = linear(oneHot(pos, this.config.ctx), this.p('wpe'));
    let x = tf.add(tok, ps) as tf.Tensor2D;
    for (let l = 0; l < this.config.nLayer; l++) x = this.block(x, l, batch, len, bias, null, linear).x;
    return this.head(x.reshape([batch * len, dModel]), linear);
  }

  /**
   * Inference: run `ids` ([batch][newLen], same length per row) after what the cache holds, append
   * their keys/values to the cache, and return their logits (or only the last row's with lastOnly).
   * Without a layout the new tokens take the next positions and see each other causally.
   */
  forward(ids: number[][], cache: KVCache, lastOnly = false, layout?: Layout): ForwardOutput {
    const batch = ids.length;
    const len = ids[0].length;
    if (batch !== cache.batch) throw new Error(`batch ${batch} does not match cache batch ${cache.batch}`);
    const past = cache.length;
    const maxPos = layout ? Math.max(...layout.pos) : past + len - 1;
    if (maxPos >= this.config.ctx) throw new Error(`context full: position ${maxPos} >= ${this.config.ctx}`);
    const out = tf.tidy(() => {
      const flat = tf.tensor1d(ids.flat(), 'int32');
      const pos = layout ? tf.tensor1d(layout.pos, 'int32') : tf.range(past, past + len, 1, 'int32');
      const tok = tf.gather(this.p('wte'), flat);
      const ps = tf.tile(tf.gather(this.p('wpe'), pos), [batch, 1]);
      let x = tf.add(tok, ps) as tf.Tensor2D;
      // A single new token may see every cached position: no mask needed.
      const bias = layout ? tf.tensor4d(layout.bias, [1, 1, len, past + len]) : len === 1 ? null : causalBias(past, len);
      const ks: tf.Tensor4D[] = [];
      const vs: tf.Tensor4D[] = [];
      for (let l = 0; l < this.config.nLayer; l++) {
        const r = this.block(x, l, batch, len, bias, cache.length ? { k: cache.k[l], v: cache.v[l] } : null, dense);
        x = r.x;
        ks.push(r.k);
        vs.push(r.v);
      }
      if (lastOnly) {
        x = x.reshape([batch, len, this.config.dModel]).slice([0, len - 1, 0], [batch, 1, this.config.dModel])
          .reshape([batch, this.config.dModel]);
      }
      return { logits: this.head(x, dense), ks, vs };
    });
    for (const t of [...cache.k, ...cache.v]) t.dispose();
    cache.k = out.ks;
    cache.v = out.vs;
    cache.length = past + len;
    const logits = out.logits.dataSync() as Float32Array;
    out.logits.dispose();
    return { logits, rows: lastOnly ? 1 : len };
  }

  /** One transformer block on x [batch*len, d]; returns the new x and this call's full keys/values. */
  private block(x: tf.Tensor2D, l: number, batch: number, len: number, bias: tf.Tensor4D | null,
    past: { k: tf.Tensor4D; v: tf.Tensor4D } | null, linear: Linear): { x: tf.Tensor2D; k: tf.Tensor4D; v: tf.Tensor4D } {
    const { dModel, nHead } = this.config;
    const hd = dModel / nHead;
    const h = layerNorm(x, this.p(`h${l}.ln1.g`), this.p(`h${l}.ln1.b`));
    const qkv = linear(h, this.p(`h${l}.attn.wqkv`), this.p(`h${l}.attn.bqkv`))
      .reshape([batch, len, 3 * nHead, hd]).transpose([0, 2, 1, 3]);
    let [q, k, v] = tf.split(qkv, 3, 1) as [tf.Tensor4D, tf.Tensor4D, tf.Tensor4D];
    if (past) {
      k = tf.concat([past.k, k], 2);
      v = tf.concat([past.v, v], 2);
    }
    let att = tf.matMul(tf.mul(q, 1 / Math.sqrt(hd)), k, false, true);
    if (bias) att = tf.add(att, bias);
    const y = tf.matMul(tf.softmax(att), v).transpose([0, 2, 1, 3]).reshape([batch * len, dModel]);
    x = tf.add(x, linear(y as tf.Tensor2D, this.p(`h${l}.attn.wo`), this.p(`h${l}.attn.bo`)));
    const h2 = layerNorm(x, this.p(`h${l}.ln2.g`), this.p(`h${l}.ln2.b`));
    const u = linear(h2, this.p(`h${l}.mlp.w1`), this.p(`h${l}.mlp.b1`));
    const g = tf.mul(u, tf.sigmoid(tf.mul(u, 1.702))); // GELU (sigmoid approximation)
    x = tf.add(x, linear(g as tf.Tensor2D, this.p(`h${l}.mlp.w2`), this.p(`h${l}.mlp.b2`)));
    return { x, k, v };
  }

  private head(x: tf.Tensor2D, linear: Linear): tf.Tensor2D {
    return linear(layerNorm(x, this.p('lnf.g'), this.p('lnf.b')), this.p('head.w'));
  }

  /**
   * A copy of this model with `n` extra SAT embedding rows (initialised to the mean standard
   * embedding, so a SAT starts as an "average token" rather than noise).
   */
  withSatTokens(n: number): TransformerLM {
    const config = { ...this.config, satTokens: n };
    const params: Params = new Map();
    for (const [name, v] of this.params) {
      if (name !== 'wte') {
        params.set(name, tf.variable(v.clone(), true));
        continue;
      }
      const std = v.slice([0, 0], [this.config.vocabSize, this.config.dModel]);
      const mean = std.mean(0, true);
      params.set(name, tf.variable(tf.concat([std, tf.tile(mean, [n, 1])], 0), true));
      std.dispose();
      mean.dispose();
    }
    return new TransformerLM(config, params);
  }

  dispose(): void {
    for (const v of this.params.values()) v.dispose();
  }
}

/** Parameter names and shapes, in the fixed order used by checkpoints. */
export function parameterShapes(c: ModelConfig): [string, number[]][] {
  const s: [string, number[]][] = [['wte', [c.vocabSize + c.satTokens, c.dModel]], ['wpe', [c.ctx, c.dModel]]];
  for (let l = 0; l < c.nLayer; l++) {
    s.push(
      [`h${l}.ln1.g`, [c.dModel]], [`h${l}.ln1.b`, [c.dModel]],
      [`h${l}.attn.wqkv`, [c.dModel, 3 * c.dModel]], [`h${l}.attn.bqkv`, [3 * c.dModel]],
      [`h${l}.attn.wo`, [c.dModel, c.dModel]], [`h${l}.attn.bo`, [c.dModel]],
      [`h${l}.ln2.g`, [c.dModel]], [`h${l}.ln2.b`, [c.dModel]],
      [`h${l}.mlp.w1`, [c.dModel, c.dFF]], [`h${l}.mlp.b1`, [c.dFF]],
      [`h${l}.mlp.w2`, [c.dFF, c.dModel]], [`h${l}.mlp.b2`, [c.dModel]],
    );
  }
  s.push(['lnf.g', [c.dModel]], ['lnf.b', [c.dModel]], ['head.w', [c.dModel, c.vocabSize]]);
  return s;
}

function initParams(c: ModelConfig): Params {
  const rng = new Rng(c.seed);
  const params: Params = new Map();
  for (const [name, shape] of parameterShapes(c)) {
    const size = shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(size);
    if (name.endsWith('.g')) data.fill(1);
    else if (!/\.b\w*$/.test(name)) {
      // GPT-2: residual projections scaled down by depth so the residual stream starts small.
      const std = /attn\.wo|mlp\.w2/.test(name) ? c.initStd / Math.sqrt(2 * c.nLayer) : c.initStd;
      for (let i = 0; i < size; i++) data[i] = rng.normal() * std;
    }
    params.set(name, tf.variable(tf.tensor(data, shape), true));
  }
  return params;
}

/**
 * Float one-hot rows. Built as int32 then cast: on the wasm backend (tfjs 4.22) tf.oneHot with
 * dtype 'float32' writes integer bit patterns, i.e. 1 becomes 1.4e-45, which silently zeroes
 * every embedding.
 */
export function oneHot(ids: tf.Tensor1D, depth: number): tf.Tensor2D {
  return tf.cast(tf.oneHot(ids, depth), 'float32') as tf.Tensor2D;
}

type Linear = (x: tf.Tensor2D, w: tf.Tensor, bias?: tf.Tensor) => tf.Tensor2D;

/** x @ w (+ bias) for inference: one fused kernel, no gradient bookkeeping. */
function dense(x: tf.Tensor2D, w: tf.Tensor, bias?: tf.Tensor): tf.Tensor2D {
  return tf.fused.matMul({ a: x, b: w as tf.Tensor2D, bias }) as tf.Tensor2D;
}

/**
 * x @ w (+ bias) for 2-D x, for training. The gradient is written out with explicit transposes because the wasm
 * backend's transposed matmuls (what tf.matMul's own gradient uses) run ~10x slower than plain ones.
 */
function linear(x: tf.Tensor2D, w: tf.Tensor, bias?: tf.Tensor): tf.Tensor2D {
  if (bias) return linearBias(x, w as tf.Tensor2D, bias as tf.Tensor1D);
  return linearNoBias(x, w as tf.Tensor2D);
}

const linearBias = tf.customGrad(((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
  const [x, w, b, save] = args as [tf.Tensor, tf.Tensor, tf.Tensor, tf.GradSaveFunc];
  save([x, w]);
  return {
    value: tf.fused.matMul({ a: x as tf.Tensor2D, b: w as tf.Tensor2D, bias: b }),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sx, sw] = saved as [tf.Tensor2D, tf.Tensor2D];
      return [tf.matMul(dy as tf.Tensor2D, tf.transpose(sw)), tf.matMul(tf.transpose(sx), dy as tf.Tensor2D), tf.sum(dy, 0)];
    },
  };
}) as Parameters<typeof tf.customGrad>[0]) as (x: tf.Tensor2D, w: tf.Tensor2D, b: tf.Tensor1D) => tf.Tensor2D;

const linearNoBias = tf.customGrad(((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
  const [x, w, save] = args as [tf.Tensor, tf.Tensor, tf.GradSaveFunc];
  save([x, w]);
  return {
    value: tf.matMul(x as tf.Tensor2D, w as tf.Tensor2D),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sx, sw] = saved as [tf.Tensor2D, tf.Tensor2D];
      return [tf.matMul(dy as tf.Tensor2D, tf.transpose(sw)), tf.matMul(tf.transpose(sx), dy as tf.Tensor2D)];
    },
  };
}) as Parameters<typeof tf.customGrad>[0]) as (x: tf.Tensor2D, w: tf.Tensor2D) => tf.Tensor2D;

function layerNorm(x: tf.Tensor2D, g: tf.Tensor, b: tf.Tensor): tf.Tensor2D {
  const mean = tf.mean(x, -1, true);
  const xc = tf.sub(x, mean);
  const variance = tf.mean(tf.square(xc), -1, true);
  return tf.add(tf.mul(tf.mul(xc, tf.rsqrt(tf.add(variance, 1e-5))), g), b);
}

/** Bias [1, 1, len, past+len]: new token i sees every cached position and new tokens 0..i. */
function causalBias(past: number, len: number): tf.Tensor4D {
  const data = new Float32Array(len * (past + len));
  for (let i = 0; i < len; i++) for (let j = past + i + 1; j < past + len; j++) data[i * (past + len) + j] = MASKED;
  return tf.tensor4d(data, [1, 1, len, past + len]);
}
