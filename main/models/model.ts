/**
 * A small causal transformer language model (GPT-2 style: pre-LayerNorm blocks, learned
 * positions, untied output head) in TensorFlow.js, with a KV cache for incremental decoding.
 *
 * The embedding table may hold extra rows for semantic adaptive tokens (SAT, see ../decode/sdsat.ts):
 * they can be fed as input but are never predicted, so the output head covers standard tokens only.
 *
 * With `copy`, the output is a pointer-generator mixture: a pointer over earlier positions and a
 * gate mix the vocabulary softmax with the tokens those positions hold (the compact web policy
 * must write ids and names that stand in its prompt). The output is still one distribution.
 *
 * Two forward paths share the same block code:
 *  - `forwardTrain` / `labelLogProbs`: whole sequences with an arbitrary additive attention bias
 *    (SAT masks); embeddings gathered, or as one-hot products where gather has no gradient (wasm);
 *  - `forward`: inference with a KV cache, any number of new tokens per call, causal.
 */
import * as tf from '@tensorflow/tfjs';
import { Rng } from '../common/rng.ts';
import { CAUSAL_SOFTMAX_KERNEL, SOFTMAX_GRAD_KERNEL } from './native-backend.ts';

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
  /**
   * A copy (pointer) path in the output: a pointer over every earlier position and a gate mix the
   * vocabulary distribution with "the token standing at the position pointed to" (see copyMix).
   * Absent or false in models trained before it existed: plain vocabulary logits.
   */
  copy?: boolean;
  /**
   * With `copy`: the pointer also scores "the position after the one holding the current token"
   * by a learned, per-position amount (copy.wnext, copy.bnext), so that continuing a copied span
   * (after "Nils" comes " Holm") does not depend on the keys having learned it. Absent or false in
   * models trained before it existed.
   */
  copyNext?: boolean;
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

/**
 * Per-layer keys and values of the tokens seen so far, [batch, heads, length, headDim]; for a model
 * that copies, also the pointer's keys [batch, length, dModel] and the token ids per row (what a
 * pointer at a position copies).
 */
export class KVCache {
  k: tf.Tensor4D[] = [];
  v: tf.Tensor4D[] = [];
  pk: tf.Tensor3D | null = null;
  ids: number[][];
  /** Per row, the token each cached position's pointer key was built with as its predecessor (-1: none). */
  prev: number[][];
  length = 0;

  constructor(readonly batch: number) {
    this.ids = Array.from({ length: batch }, () => []);
    this.prev = Array.from({ length: batch }, () => []);
  }

  /** A cache of `n` rows, each a copy of this one-row cache (a group sampled from one prompt). */
  tiled(n: number): KVCache {
    if (this.batch !== 1) throw new Error('only a one-row cache can be tiled');
    const out = new KVCache(n);
    out.k = this.k.map((k) => tf.tile(k, [n, 1, 1, 1]));
    out.v = this.v.map((v) => tf.tile(v, [n, 1, 1, 1]));
    out.pk = this.pk ? tf.tile(this.pk, [n, 1, 1]) : null;
    out.ids = Array.from({ length: n }, () => [...this.ids[0]]);
    out.prev = Array.from({ length: n }, () => [...this.prev[0]]);
    out.length = this.length;
    return out;
  }

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
    if (this.pk) {
      const pk = this.pk.slice([0, 0, 0], [this.batch, n, this.pk.shape[2]]);
      this.pk.dispose();
      this.pk = pk;
    }
    this.ids = this.ids.map((row) => row.slice(0, n));
    this.prev = this.prev.map((row) => row.slice(0, n));
    this.length = n;
  }

  /**
   * Keep only the entries at `indices`, in that order (the accepted branch of a draft tree). Keys
   * already carry their positions (learned position embeddings are added at the input), so
   * entries may be moved.
   */
  keep(indices: readonly number[]): void {
    if (indices.some((i) => i < 0 || i >= this.length)) throw new Error(`cannot keep entries outside a cache of length ${this.length}`);
    // Runs of consecutive entries, each one slice: gather along an inner axis is far slower here
    // (12 ms against well under 1 for a few slices and a concat).
    const runs: [number, number][] = [];
    for (const i of indices) {
      const last = runs.at(-1);
      if (last && last[0] + last[1] === i) last[1]++;
      else runs.push([i, 1]);
    }
    const pick = <T extends tf.Tensor>(t: T, axis: number): T => {
      const parts = runs.map(([start, size]) => {
        const begin = t.shape.map((_, a) => (a === axis ? start : 0));
        const shape = t.shape.map((n, a) => (a === axis ? size : n));
        return tf.slice(t, begin, shape);
      });
      const out = (parts.length === 1 ? parts[0] : tf.concat(parts, axis)) as T;
      if (parts.length > 1) for (const p of parts) p.dispose();
      t.dispose();
      return out;
    };
    this.k = this.k.map((k) => pick(k, 2));
    this.v = this.v.map((v) => pick(v, 2));
    if (this.pk) this.pk = pick(this.pk, 1);
    this.ids = this.ids.map((row) => indices.map((i) => row[i]));
    this.prev = this.prev.map((row) => indices.map((i) => row[i]));
    this.length = indices.length;
  }

  dispose(): void {
    for (const t of [...this.k, ...this.v]) t.dispose();
    this.pk?.dispose();
    this.k = [];
    this.v = [];
    this.pk = null;
    this.ids = this.ids.map(() => []);
    this.prev = this.prev.map(() => []);
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
  /**
   * For a model that copies: the row of each new token's predecessor in its own sequence (-1: the
   * last cached token), whose embedding the pointer's key at that token holds. Default r - 1, the
   * row before; a draft tree's node follows its parent instead.
   */
  prevRow?: number[];
}

export interface ForwardOutput {
  /** Logits, row-major [batch, rows, vocabSize]; rows = new tokens, or 1 with lastOnly. */
  logits: Float32Array;
  rows: number;
}

export const TRAIN_EMBEDDINGS = ['gather', 'one-hot'] as const;

export class TransformerLM {
  readonly params: Params;
  /**
   * How training passes look up embeddings (see embed). Gather on the project's native backend,
   * which has a one-pass kernel for gather's gradient (UnsortedSegmentSum); one-hot elsewhere:
   * wasm has no such kernel, and the cpu backend's builds a mask per table row (a step of the
   * 276K policy took 250 s instead of a few).
   */
  trainEmbedding: (typeof TRAIN_EMBEDDINGS)[number] = tf.getBackend() === 'native' ? 'gather' : 'one-hot';

  /**
   * `lab bench sft` only: the training step as it was until 2026-12-05 (the pointer's targets by a
   * broadcast Equal, labels' log-probabilities by a one-hot product, TF.js's softmax gradient), so
   * the benchmark times the old step beside the new one in the same run. Same numbers either way.
   */
  legacyTrainStep = false;

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
   * Returns logits [batch*len, vocabSize] (for a model that copies, log-probabilities of the mixed
   * distribution, which every softmax reads the same way). Call inside a gradient or tidy scope.
   */
  forwardTrain(ids: tf.Tensor1D, pos: tf.Tensor1D, bias: tf.Tensor4D, batch: number, len: number): tf.Tensor2D {
    const t = this.trunk(ids, pos, bias, batch, len);
    const logits = linear(t.h, this.p('head.w'));
    if (!this.config.copy) return logits;
    const { gate, attn } = this.pointer(t.h, t.tok, ids, bias, batch, len);
    const pCopy = tf.matMul(attn, oneHot3(ids.reshape([batch, len]) as tf.Tensor2D, this.config.vocabSize)).reshape([batch * len, this.config.vocabSize]);
    return copyMix(logits, gate, pCopy as tf.Tensor2D);
  }

  /**
   * log p(label) at every row [batch*len]: what the training losses need. For a model that copies,
   * the pointer's share of a label is the attention on the positions holding it (marginalised over
   * all of them), computed without materialising the [len, vocab] copy distribution.
   */
  labelLogProbs(ids: tf.Tensor1D, pos: tf.Tensor1D, bias: tf.Tensor4D, batch: number, len: number, labels: tf.Tensor1D): tf.Tensor1D {
    const t = this.trunk(ids, pos, bias, batch, len);
    const logits = linear(t.h, this.p('head.w'));
    const lpVocab = this.vocabLogProbs(logits, labels);
    if (!this.config.copy) return lpVocab;
    const { gate, attn } = this.pointer(t.h, t.tok, ids, bias, batch, len);
    const holds = this.legacyTrainStep
      ? tf.cast(tf.equal(ids.reshape([batch, 1, len]), labels.reshape([batch, len, 1])), 'float32')
      : positionsHolding(ids, labels, batch, len);
    const pCopy = tf.sum(tf.mul(attn, holds), -1).reshape([batch * len]);
    const g = gate.reshape([batch * len]);
    const p = tf.add(tf.mul(g, tf.exp(lpVocab)), tf.mul(tf.sub(1, g), pCopy));
    return tf.log(tf.add(p, COPY_EPS)) as tf.Tensor1D;
  }

  /**
   * log softmax(logits)[row, label] at every row. Where gathers have a fast gradient (the same
   * switch as the embeddings), the labels' entries are gathered from the flattened log-softmax
   * instead of a [rows, vocab] one-hot product and its sum: four passes over rows x vocab fewer
   * (the product stays for legacyTrainStep). Labels outside the vocabulary (SATs) read 0, as a one-hot row of zeros does.
   */
  private vocabLogProbs(logits: tf.Tensor2D, labels: tf.Tensor1D): tf.Tensor1D {
    const vocab = this.config.vocabSize;
    const lsm = tf.logSoftmax(logits);
    const lab = this.trainEmbedding === 'gather' && !this.legacyTrainStep ? labels.dataSync() : null;
    if (!lab || lab.some((l) => l < 0 || l >= vocab)) return tf.sum(tf.mul(oneHot(labels, vocab), lsm), -1) as tf.Tensor1D;
    const flat = Int32Array.from(lab, (l, row) => row * vocab + l);
    return tf.gather(lsm.reshape([-1]), tf.tensor1d(flat, 'int32')) as tf.Tensor1D;
  }

  /** Embeddings and blocks: the final normalised hidden states [batch*len, d] and the token embeddings. */
  private trunk(ids: tf.Tensor1D, pos: tf.Tensor1D, bias: tf.Tensor4D, batch: number, len: number): { h: tf.Tensor2D; tok: tf.Tensor2D } {
    const { dModel } = this.config;
    const tok = this.embed(ids, 'wte', this.inputVocab);
    const ps = this.embed(pos, 'wpe', this.config.ctx);
    let x = tf.add(tok, ps) as tf.Tensor2D;
    for (let l = 0; l < this.config.nLayer; l++) x = this.block(x, l, batch, len, bias, null, linear).x;
    return { h: layerNorm(x.reshape([batch * len, dModel]), this.p('lnf.g'), this.p('lnf.b')), tok };
  }

  /**
   * Rows of an embedding table, differentiably. `gather` reads the rows (its gradient scatters back);
   * `one-hot` multiplies a one-hot matrix by the table, the same numbers at the cost of a
   * [tokens, rows] x [rows, d] product, for the wasm backend, which has no gradient kernel for gather.
   */
  private embed(ids: tf.Tensor1D, table: string, rows: number): tf.Tensor2D {
    if (this.trainEmbedding === 'gather') return tf.gather(this.p(table), ids) as tf.Tensor2D;
    return linear(oneHot(ids, rows), this.p(table));
  }

  /**
   * The copy gate [batch*len, 1] and pointer attention [batch, len, len] of a whole training
   * sequence. The pointer sees what attention sees (the same bias, so a standard token never points
   * at a SAT) and only positions holding a standard token. Its keys add the embedding of the token
   * before each position: continuing a copy ("after Bos comes ton") is then a match of the current
   * token against that embedding, which a tiny model finds at once instead of learning an
   * induction head first.
   */
  private pointer(h: tf.Tensor2D, tok: tf.Tensor2D, ids: tf.Tensor1D, bias: tf.Tensor4D, batch: number, len: number) {
    const d = this.config.dModel;
    const before = tf.concat([tf.zeros([batch, 1, d]), tok.reshape([batch, len, d]).slice([0, 0, 0], [batch, len - 1, d])], 1).reshape([batch * len, d]) as tf.Tensor2D;
    const keys = tf.add(linear(h, this.p('copy.wk')), linear(before, this.p('copy.wprev'))).reshape([batch, len, d]) as tf.Tensor3D;
    const queries = linear(h, this.p('copy.wq')).reshape([batch, len, d]) as tf.Tensor3D;
    let pointerBias = tf.add(bias.reshape([bias.shape[0], len, len]), standardOnly(ids.reshape([batch, 1, len]) as tf.Tensor3D, this.config.vocabSize)) as tf.Tensor3D;
    if (this.config.copyNext) {
      const idv = Array.from(ids.dataSync());
      const rows = Array.from({ length: batch }, (_, b) => idv.slice(b * len, (b + 1) * len));
      const next = continuations(rows, rows.map((r) => r.map((_, j) => (j > 0 ? r[j - 1] : -1))), rows, this.config.vocabSize);
      pointerBias = tf.add(pointerBias, tf.mul(linear(h, this.p('copy.wnext'), this.p('copy.bnext')).reshape([batch, len, 1]), next)) as tf.Tensor3D;
    }
    const attn = pointerAttention(queries, keys, pointerBias, this.legacyTrainStep ? tf.softmax : softmaxLastAxis);
    const gate = tf.sigmoid(linear(h, this.p('copy.wg'), this.p('copy.bg'))) as tf.Tensor2D;
    return { gate, attn };
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
    const rowIds = ids.map((row, b) => [...cache.ids[b], ...row]);
    // Each position's predecessor as its pointer key saw it (a draft tree's node: its parent).
    let rowPrev: number[][] | null = null;
    const out = tf.tidy(() => {
      const flat = tf.tensor1d(ids.flat(), 'int32');
      const pos = layout ? tf.tensor1d(layout.pos, 'int32') : tf.range(past, past + len, 1, 'int32');
      const tok = tf.gather(this.p('wte'), flat);
      const wpe = tf.gather(this.p('wpe'), pos);
      const ps = batch === 1 ? wpe : tf.tile(wpe, [batch, 1]);
      let x = tf.add(tok, ps) as tf.Tensor2D;
      // A single new token may see every cached position: no mask needed. A causal pass masks in
      // its softmax where the backend has the fused kernel; the pointer still needs the bias on
      // every row it reads but the last (which sees everything).
      const fusedCausal = !layout && len > 1 && !!tf.getKernel(CAUSAL_SOFTMAX_KERNEL, tf.getBackend());
      const needBias = layout || (len > 1 && (!fusedCausal || (this.config.copy && !lastOnly)));
      const bias = !needBias ? null : layout ? tf.tensor4d(layout.bias, [1, 1, len, past + len]) : causalBias(past, len);
      const ks: tf.Tensor4D[] = [];
      const vs: tf.Tensor4D[] = [];
      for (let l = 0; l < this.config.nLayer; l++) {
        const r = this.block(x, l, batch, len, fusedCausal ? null : bias, cache.length ? { k: cache.k[l], v: cache.v[l] } : null, dense, fusedCausal ? past : undefined);
        x = r.x;
        ks.push(r.k);
        vs.push(r.v);
      }
      const h = layerNorm(x, this.p('lnf.g'), this.p('lnf.b'));
      const rows = lastOnly ? 1 : len;
      const hOut = lastOnly ? h.reshape([batch, len, this.config.dModel]).slice([0, len - 1, 0], [batch, 1, this.config.dModel]).reshape([batch, this.config.dModel]) as tf.Tensor2D : h;
      const logits = dense(hOut, this.p('head.w'));
      if (!this.config.copy) return { logits, ks, vs, pk: [] as tf.Tensor3D[], copy: [] as tf.Tensor[] };
      // The pointer over cache and new tokens, seeing what attention sees (layout or causal).
      const d = this.config.dModel;
      const prevRow = layout?.prevRow;
      const prev = ids.flatMap((row, b) => row.map((_, r) => {
        const p = prevRow ? prevRow[r] : r - 1;
        return p < 0 ? cache.ids[b].at(-1) ?? -1 : row[p];
      }));
      rowPrev = ids.map((_, b) => [...cache.prev[b], ...prev.slice(b * len, (b + 1) * len)]);
      // The predecessor's embedding, a zero row where there is none (the first position).
      const before = tf.mul(tf.gather(this.p('wte'), tf.tensor1d(prev.map((p) => Math.max(p, 0)), 'int32')), tf.tensor2d(prev.map((p) => (p < 0 ? 0 : 1)), [prev.length, 1]));
      const newKeys = tf.add(dense(h, this.p('copy.wk')), dense(before as tf.Tensor2D, this.p('copy.wprev'))).reshape([batch, len, d]);
      const pk = (cache.pk ? tf.concat([cache.pk, newKeys], 1) : newKeys) as tf.Tensor3D;
      let pointerBias: tf.Tensor = tf.tensor3d(standardOnlyBias(rowIds, this.config.vocabSize), [batch, 1, past + len]);
      if (bias) {
        const b3 = bias.reshape([len, past + len]);
        pointerBias = tf.add(pointerBias, (lastOnly ? b3.slice([len - 1, 0], [1, past + len]) : b3).reshape([1, rows, past + len]));
      }
      if (this.config.copyNext) {
        const current = ids.map((row) => (lastOnly ? row.slice(len - 1) : row));
        const next = continuations(current, rowPrev, rowIds, this.config.vocabSize);
        pointerBias = tf.add(pointerBias, tf.mul(dense(hOut, this.p('copy.wnext'), this.p('copy.bnext')).reshape([batch, rows, 1]), next));
      }
      const attn = pointerAttention(dense(hOut, this.p('copy.wq')).reshape([batch, rows, d]) as tf.Tensor3D, pk, pointerBias);
      const gate = tf.sigmoid(dense(hOut, this.p('copy.wg'), this.p('copy.bg'))) as tf.Tensor2D;
      return { logits, ks, vs, pk: [pk], copy: [attn, gate] };
    });
    for (const t of [...cache.k, ...cache.v]) t.dispose();
    cache.pk?.dispose();
    cache.k = out.ks;
    cache.v = out.vs;
    cache.pk = out.pk[0] ?? null;
    cache.ids = rowIds;
    if (rowPrev) cache.prev = rowPrev;
    cache.length = past + len;
    const rows = lastOnly ? 1 : len;
    let logits = out.logits.dataSync() as Float32Array;
    out.logits.dispose();
    if (out.copy.length) {
      const [attn, gate] = out.copy;
      // The mixture on the CPU: a [rows, past+len] pointer scattered onto its tokens costs far less
      // than the one-hot product training uses ([past+len, vocab] per call), the largest tensor of
      // a decoding pass.
      logits = copyMixRows(logits, gate.dataSync() as Float32Array, attn.dataSync() as Float32Array, rowIds, this.config.vocabSize);
      attn.dispose();
      gate.dispose();
    }
    return { logits, rows };
  }

  /**
   * One transformer block on x [batch*len, d]; returns the new x and this call's full keys/values.
   * @param causalPast inference only, on a backend with CAUSAL_SOFTMAX_KERNEL: the new tokens follow
   *   this many cached ones and see causally (bias is then null)
   */
  private block(x: tf.Tensor2D, l: number, batch: number, len: number, bias: tf.Tensor4D | null,
    past: { k: tf.Tensor4D; v: tf.Tensor4D } | null, linear: Linear, causalPast?: number): { x: tf.Tensor2D; k: tf.Tensor4D; v: tf.Tensor4D } {
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
    const probs = causalPast !== undefined
      ? tf.engine().runKernel(CAUSAL_SOFTMAX_KERNEL, { x: att }, { past: causalPast }) as tf.Tensor4D
      : (this.legacyTrainStep ? tf.softmax : softmaxLastAxis)(att);
    const y = tf.matMul(probs, v).transpose([0, 2, 1, 3]).reshape([batch * len, dModel]);
    x = tf.add(x, linear(y as tf.Tensor2D, this.p(`h${l}.attn.wo`), this.p(`h${l}.attn.bo`)));
    const h2 = layerNorm(x, this.p(`h${l}.ln2.g`), this.p(`h${l}.ln2.b`));
    const u = linear(h2, this.p(`h${l}.mlp.w1`), this.p(`h${l}.mlp.b1`));
    const g = tf.mul(u, tf.sigmoid(tf.mul(u, 1.702))); // GELU (sigmoid approximation)
    x = tf.add(x, linear(g as tf.Tensor2D, this.p(`h${l}.mlp.w2`), this.p(`h${l}.mlp.b2`)));
    return { x, k, v };
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

  /**
   * This model with the pointer's continuation bonus added (copyNext), its weights zero: the same
   * outputs as before until a fine-tune learns them. The model must copy; this one's variables are
   * handed over, so use only the returned model.
   */
  withCopyNext(): TransformerLM {
    if (!this.config.copy) throw new Error('the continuation bonus is part of the copy path: this model has none');
    if (this.config.copyNext) return this;
    const params: Params = new Map(this.params);
    params.set('copy.wnext', tf.variable(tf.zeros([this.config.dModel, 1]), true));
    params.set('copy.bnext', tf.variable(tf.zeros([1]), true));
    return new TransformerLM({ ...this.config, copyNext: true }, params);
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
  if (c.copy) {
    s.push(['copy.wq', [c.dModel, c.dModel]], ['copy.wk', [c.dModel, c.dModel]], ['copy.wprev', [c.dModel, c.dModel]],
      ['copy.wg', [c.dModel, 1]], ['copy.bg', [1]]);
    if (c.copyNext) s.push(['copy.wnext', [c.dModel, 1]], ['copy.bnext', [1]]);
  }
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

/** Float one-hot of a [batch, len] id matrix: [batch, len, depth]; ids >= depth (SATs) give zero rows. */
function oneHot3(ids: tf.Tensor2D, depth: number): tf.Tensor3D {
  return tf.cast(tf.oneHot(ids, depth), 'float32') as tf.Tensor3D;
}

/**
 * holds[b, i, j] = 1 where position j of row b holds row b's label at i: the positions the pointer
 * may copy the label from. Built from the ids on the CPU, not as a broadcast Equal: the cpu
 * backend computes a multi-index per element for that, a fifth of a training step at batch 8 x 400.
 */
function positionsHolding(ids: tf.Tensor1D, labels: tf.Tensor1D, batch: number, len: number): tf.Tensor3D {
  const idv = ids.dataSync();
  const lab = labels.dataSync();
  const holds = new Float32Array(batch * len * len);
  for (let b = 0; b < batch; b++) {
    const row = b * len;
    for (let i = 0; i < len; i++) {
      const label = lab[row + i];
      const out = (row + i) * len;
      for (let j = 0; j < len; j++) if (idv[row + j] === label) holds[out + j] = 1;
    }
  }
  return tf.tensor3d(holds, [batch, len, len]);
}

/**
 * next[b, i, j] = 1 where the pointer key at position j of row b was built after the token row b
 * reads at query i (`prev[b][j] === current[b][i]`): the positions that continue a copy of that
 * token. Only a standard token continues anything (a SAT's position is never copied from, and
 * a SAT query gets no bonus). From the ids on the CPU, like positionsHolding.
 */
function continuations(current: number[][], prev: number[][], all: number[][], vocabSize: number): tf.Tensor3D {
  const batch = current.length;
  const rows = current[0].length;
  const len = prev[0].length;
  const next = new Float32Array(batch * rows * len);
  for (let b = 0; b < batch; b++) {
    for (let i = 0; i < rows; i++) {
      const token = current[b][i];
      if (token < 0 || token >= vocabSize) continue;
      const out = (b * rows + i) * len;
      for (let j = 0; j < len; j++) if (prev[b][j] === token && all[b][j] < vocabSize) next[out + j] = 1;
    }
  }
  return tf.tensor3d(next, [batch, rows, len]);
}

/** standardOnly's bias from the ids on the CPU: [batch * L], MASKED where a position holds a SAT. */
function standardOnlyBias(rows: readonly (readonly number[])[], vocabSize: number): Float32Array {
  const len = rows[0].length;
  const out = new Float32Array(rows.length * len);
  rows.forEach((row, b) => row.forEach((id, j) => { if (id >= vocabSize) out[b * len + j] = MASKED; }));
  return out;
}

/**
 * copyMix for inference, row by row on the CPU: log(g * softmax(logits) + (1 - g) * p_copy + eps),
 * p_copy[v] the pointer's weight on the positions holding v. logits [batch * rows, V], gate
 * [batch * rows], attn [batch, rows, L]; ids[b] the L tokens of row b.
 */
function copyMixRows(logits: Float32Array, gate: Float32Array, attn: Float32Array, ids: readonly (readonly number[])[], vocabSize: number): Float32Array {
  const V = vocabSize;
  const n = gate.length;
  const L = ids[0].length;
  const rowsPerBatch = n / ids.length;
  const out = new Float32Array(n * V);
  const pCopy = new Float64Array(V);
  const e = new Float64Array(V);
  for (let r = 0; r < n; r++) {
    const row = ids[Math.floor(r / rowsPerBatch)];
    pCopy.fill(0);
    for (let j = 0; j < L; j++) {
      const a = attn[r * L + j];
      if (a !== 0 && row[j] < V) pCopy[row[j]] += a;
    }
    let max = -Infinity;
    for (let v = 0; v < V; v++) max = Math.max(max, logits[r * V + v]);
    let sum = 0;
    for (let v = 0; v < V; v++) sum += (e[v] = Math.exp(logits[r * V + v] - max));
    const g = gate[r];
    const scale = g / sum;
    for (let v = 0; v < V; v++) out[r * V + v] = Math.log(scale * e[v] + (1 - g) * pCopy[v] + COPY_EPS);
  }
  return out;
}

/** Keeps log(0) out of the mixture: far below any probability a model assigns, far above float32's floor. */
const COPY_EPS = 1e-10;

/** Additive pointer bias [batch, 1, L]: positions holding a SAT (id >= vocabSize) are never copied. */
function standardOnly(ids: tf.Tensor3D, vocabSize: number): tf.Tensor3D {
  return tf.mul(tf.cast(tf.greaterEqual(ids, vocabSize), 'float32'), MASKED) as tf.Tensor3D;
}

/** Softmax of scaled query-key scores plus an additive bias: [batch, rows, L]. */
function pointerAttention(q: tf.Tensor3D, k: tf.Tensor3D, bias: tf.Tensor, softmax: (x: tf.Tensor) => tf.Tensor = softmaxLastAxis): tf.Tensor3D {
  const scores = tf.matMul(tf.mul(q, 1 / Math.sqrt(q.shape[2])), k, false, true);
  return softmax(tf.add(scores, bias)) as tf.Tensor3D;
}

/**
 * The pointer-generator mixture p = g * softmax(vocabulary logits) + (1 - g) * p_copy, returned as
 * log p: the decoders, guided decoding and Salvage-DS read it as logits (softmax of log p is p).
 */
function copyMix(logits: tf.Tensor2D, gate: tf.Tensor2D, pCopy: tf.Tensor2D): tf.Tensor2D {
  const p = tf.add(tf.mul(gate, tf.softmax(logits)), tf.mul(tf.sub(1, gate), pCopy));
  return tf.log(tf.add(p, COPY_EPS)) as tf.Tensor2D;
}

/**
 * Softmax over the last axis, with its gradient in one native pass where the backend has it
 * (SOFTMAX_GRAD_KERNEL) instead of TF.js's two products, sum and difference over every score:
 * the attention and pointer scores are the largest tensors of a training step.
 */
const softmaxLastAxis = tf.customGrad(((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
  const [x, save] = args as [tf.Tensor, tf.GradSaveFunc];
  const y = tf.softmax(x);
  save([y]);
  return {
    value: y,
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sy] = saved;
      if (tf.getKernel(SOFTMAX_GRAD_KERNEL, tf.getBackend())) return tf.engine().runKernel(SOFTMAX_GRAD_KERNEL, { y: sy, dy }) as tf.Tensor;
      const dyTimesY = tf.mul(dy, sy);
      return tf.sub(dyTimesY, tf.mul(tf.sum(dyTimesY, -1, true), sy));
    },
  };
}) as Parameters<typeof tf.customGrad>[0]) as <T extends tf.Tensor>(x: T) => T;

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
