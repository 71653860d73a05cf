// TF.js backend 'native': the cpu backend with its hot kernels replaced by the C++ addon
// (native/). Every cpu kernel is re-registered under 'native', so any model runs
// unchanged; only the kernels in nativeKernelNames() run natively (float32 inputs; other
// dtypes fall through to the cpu code). Tensor data stays in the cpu backend's
// Float32Arrays and is handed to the addon without copying.
import * as tf from '@tensorflow/tfjs';
import { BinaryOp, loadNativeAddon, ReduceOp, UnaryOp, type NativeAddon, type NativeInfo } from './native-addon.ts';

export const NATIVE_BACKEND = 'native';

/**
 * A fused AdamW update, registered only for the native backend: inputs {p, g, m, v}, attrs
 * {lr, b1, b2, eps, c1, c2, wd, gradScale}; outputs [p, m, v] updated. The optimizer uses it when
 * the active backend has it (one kernel per parameter instead of ~18 elementwise ops).
 */
export const ADAMW_KERNEL = 'LabAdamW';

/**
 * Softmax's gradient over the last axis in one pass, registered only for the native backend:
 * inputs {y, dy} (the softmax's output and the upstream gradient), output dx. The model's
 * attention softmaxes use it when the active backend has it (model.ts softmaxLastAxis).
 */
export const SOFTMAX_GRAD_KERNEL = 'LabSoftmaxGrad';

/**
 * Softmax over the last axis under a causal mask, registered only for the native backend: input
 * {x} [..., lq, lk], attr {past}; row i of the last two axes sees columns 0..past+i and the others
 * are 0. An inference pass's attention uses it (model.ts) instead of adding a [lq, lk] mask and
 * exponentiating every column: half of a prefill's scores are masked.
 */
export const CAUSAL_SOFTMAX_KERNEL = 'LabCausalSoftmax';

export type NativeRegistration = { ok: true } | { ok: false; reason: string };

/** The slice of MathBackendCPU the native kernels use. */
interface CpuBackend extends tf.KernelBackend {
  data: { get(id: tf.DataId): { values?: tf.backend_util.BackendValues } };
  makeTensorInfo(shape: number[], dtype: tf.DataType, values?: tf.backend_util.BackendValues): tf.TensorInfo;
  disposeIntermediateTensorInfo(t: tf.TensorInfo): void;
}

// attrs is absent for kernels called without attributes (e.g. Neg).
type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: CpuBackend; attrs?: tf.NamedAttrMap };

let registration: NativeRegistration | undefined;
let nativeInfo: NativeInfo | undefined;
let nativeNames: string[] = [];

/**
 * Registers the 'native' backend when the addon loads; otherwise returns why not, so the
 * backend chooser can print that once and fall back to wasm. Idempotent (the result is
 * cached per process). Does not select the backend: that is tf.setBackend('native').
 */
export function tryRegisterNativeBackend(priority = 0): NativeRegistration {
  if (registration) return registration;
  registration = register(priority);
  return registration;
}

/** What the addon chose on this CPU (undefined until registered). */
export function nativeBackendInfo(): NativeInfo | undefined {
  return nativeInfo;
}

let rowKernels = true;
/**
 * `lab bench sft` only: turn the row kernels added on 2026-12-05 (GatherV2, PadV2) off, so the
 * cpu backend's run instead, to time the old training step beside the new one.
 */
export function setNativeRowKernels(on: boolean): void {
  rowKernels = on;
}

/** TF.js kernels with a native implementation (empty until registered). */
export function nativeKernelNames(): string[] {
  return [...nativeNames];
}

function register(priority: number): NativeRegistration {
  const load = loadNativeAddon();
  if (!load.ok) return { ok: false, reason: load.reason };
  const cpuFactory = tf.findBackendFactory('cpu');
  if (!cpuFactory) return { ok: false, reason: 'TF.js cpu backend is not registered' };
  // Registered already by another copy of this module (e.g. bundled twice): re-registering
  // would warn once per kernel.
  if (tf.findBackendFactory(NATIVE_BACKEND)) return { ok: true };
  try {
    nativeInfo = load.addon.info();
    // A fresh MathBackendCPU: it owns the tensor storage of the 'native' backend.
    tf.registerBackend(NATIVE_BACKEND, () => cpuFactory() as tf.KernelBackend, priority);
    for (const config of tf.getKernelsForBackend('cpu')) {
      tf.registerKernel({ ...config, backendName: NATIVE_BACKEND });
    }
    for (const config of nativeKernels(load.addon)) {
      if (tf.getKernel(config.kernelName, NATIVE_BACKEND)) tf.unregisterKernel(config.kernelName, NATIVE_BACKEND);
      tf.registerKernel(config);
      nativeNames.push(config.kernelName);
    }
    return { ok: true };
  } catch (err) {
    // Leave no half-registered backend behind for tf.setBackend to pick up.
    for (const k of tf.getKernelsForBackend(NATIVE_BACKEND)) tf.unregisterKernel(k.kernelName, NATIVE_BACKEND);
    if (tf.findBackendFactory(NATIVE_BACKEND)) tf.removeBackend(NATIVE_BACKEND);
    nativeNames = [];
    return { ok: false, reason: `registering the native backend failed: ${(err as Error).message}` };
  }
}

/** The cpu implementation of a kernel, for inputs the native path does not cover. */
function cpuKernel(name: string): tf.KernelFunc {
  const k = tf.getKernel(name, 'cpu');
  if (!k) throw new Error(`cpu kernel ${name} missing`);
  return k.kernelFunc;
}

function f32(backend: CpuBackend, t: tf.TensorInfo): Float32Array {
  const values = backend.data.get(t.dataId).values;
  // Some cpu kernels hand back float32 tensors over other typed arrays (e.g. Cast from bool keeps
  // its Int32Array): copy those, never read them as floats.
  return values instanceof Float32Array ? values : Float32Array.from(values as ArrayLike<number>);
}

function nativeKernels(addon: NativeAddon): tf.KernelConfig[] {
  const cpuBatchMatMul = cpuKernel(tf.BatchMatMul);
  const cpuFused = cpuKernel(tf._FusedMatMul);

  // BatchMatMul: also what tf.matMul's gradients call, so training uses it both ways.
  function batchMatMul(args: KernelArgs): tf.TensorInfo {
    const { inputs, backend } = args;
    const attrs = args.attrs ?? {};
    const a = inputs.a as tf.TensorInfo;
    const b = inputs.b as tf.TensorInfo;
    if (a.dtype !== 'float32' || b.dtype !== 'float32') return cpuBatchMatMul(args) as tf.TensorInfo;
    return matMulInto(backend, a, b, !!attrs.transposeA, !!attrs.transposeB);
  }

  function matMulInto(backend: CpuBackend, a: tf.TensorInfo, b: tf.TensorInfo, tA: boolean, tB: boolean): tf.TensorInfo {
    const ra = a.shape.length;
    const rb = b.shape.length;
    const M = tA ? a.shape[ra - 1] : a.shape[ra - 2];
    const K = tA ? a.shape[ra - 2] : a.shape[ra - 1];
    const Kb = tB ? b.shape[rb - 1] : b.shape[rb - 2];
    const N = tB ? b.shape[rb - 2] : b.shape[rb - 1];
    if (K !== Kb) {
      throw new Error(`Error in matMul: inner shapes (${K}) and (${Kb}) of Tensors with shapes ` +
        `${a.shape} and ${b.shape} and transposeA=${tA} and transposeB=${tB} must match.`);
    }
    const outerA = a.shape.slice(0, -2);
    const outerB = b.shape.slice(0, -2);
    const outer = tf.broadcast_util.assertAndGetBroadcastShape(outerA, outerB);
    const batchA = tf.util.sizeFromShape(outerA);
    const batchB = tf.util.sizeFromShape(outerB);
    const batch = Math.max(batchA, batchB);
    const out = new Float32Array(batch * M * N);
    // Batch broadcasting by index modulo, exactly like the cpu and wasm kernels.
    addon.matmul(f32(backend, a), f32(backend, b), out, batch, batchA, batchB, M, N, K, tA, tB);
    return backend.makeTensorInfo([...outer, M, N], 'float32', out);
  }

  // _FusedMatMul = matmul + optional bias + optional activation (tf.fused.matMul, layers).
  function fusedMatMul(args: KernelArgs): tf.TensorInfo {
    const { inputs, backend } = args;
    const attrs = args.attrs ?? {};
    const a = inputs.a as tf.TensorInfo;
    const b = inputs.b as tf.TensorInfo;
    if (a.dtype !== 'float32' || b.dtype !== 'float32') return cpuFused(args) as tf.TensorInfo;
    let cur = matMulInto(backend, a, b, !!attrs.transposeA, !!attrs.transposeB);
    const bias = inputs.bias as tf.TensorInfo | undefined;
    if (bias) {
      const next = tf.getKernel(tf.Add, NATIVE_BACKEND)!.kernelFunc({ inputs: { a: cur, b: bias }, backend }) as tf.TensorInfo;
      backend.disposeIntermediateTensorInfo(cur);
      cur = next;
    }
    const activation = attrs.activation as string | undefined;
    if (activation && activation !== 'linear') {
      const next = applyActivation(backend, cur, activation, inputs.preluActivationWeights as tf.TensorInfo | undefined,
        attrs.leakyreluAlpha as number | undefined);
      backend.disposeIntermediateTensorInfo(cur);
      cur = next;
    }
    return cur;
  }

  return [
    kernel(tf.BatchMatMul, batchMatMul),
    kernel(tf._FusedMatMul, fusedMatMul),
    ...elementwiseKernels(addon),
    ...(addon.softmaxGrad ? [softmaxGradKernel(addon.softmaxGrad)] : []),
    ...(addon.causalSoftmax ? [causalSoftmaxKernel(addon.causalSoftmax)] : []),
    kernel(ADAMW_KERNEL, (args) => {
      const { backend } = args;
      const [p, g, m, v] = (['p', 'g', 'm', 'v'] as const).map((k) => args.inputs[k] as tf.TensorInfo);
      const a = args.attrs as Record<string, number>;
      const outs = [p, m, v].map((t) => new Float32Array(tf.util.sizeFromShape(t.shape)));
      addon.adamw(f32(backend, p), f32(backend, g), f32(backend, m), f32(backend, v), outs[0], outs[1], outs[2],
        a.lr, a.b1, a.b2, a.eps, a.c1, a.c2, a.wd, a.gradScale);
      return outs.map((o) => backend.makeTensorInfo(p.shape, 'float32', o)) as unknown as tf.TensorInfo;
    }),
  ];
}

function softmaxGradKernel(softmaxGrad: NonNullable<NativeAddon['softmaxGrad']>): tf.KernelConfig {
  return kernel(SOFTMAX_GRAD_KERNEL, (args) => {
    const { backend } = args;
    const y = args.inputs.y as tf.TensorInfo;
    const dy = args.inputs.dy as tf.TensorInfo;
    const cols = y.shape[y.shape.length - 1] ?? 1;
    const dx = new Float32Array(tf.util.sizeFromShape(y.shape));
    if (dx.length > 0) softmaxGrad(f32(backend, y), f32(backend, dy), dx, dx.length / cols, cols);
    return backend.makeTensorInfo(y.shape, 'float32', dx);
  });
}

function causalSoftmaxKernel(causalSoftmax: NonNullable<NativeAddon['causalSoftmax']>): tf.KernelConfig {
  return kernel(CAUSAL_SOFTMAX_KERNEL, (args) => {
    const { backend } = args;
    const x = args.inputs.x as tf.TensorInfo;
    const past = (args.attrs as { past: number }).past;
    const [lq, lk] = x.shape.slice(-2);
    if (x.dtype !== 'float32' || x.shape.length < 2 || !(Number.isInteger(past) && past >= 0 && past + lq <= lk)) {
      throw new Error(`${CAUSAL_SOFTMAX_KERNEL}: needs float32 [..., lq, lk] with 0 <= past and past + lq <= lk, got ${x.dtype} [${x.shape}] past ${past}`);
    }
    const out = new Float32Array(tf.util.sizeFromShape(x.shape));
    if (out.length > 0) causalSoftmax(f32(backend, x), out, out.length / (lq * lk), lq, lk, past);
    return backend.makeTensorInfo(x.shape, 'float32', out);
  });
}

function kernel(kernelName: string, fn: (args: KernelArgs) => tf.TensorInfo): tf.KernelConfig {
  return { kernelName, backendName: NATIVE_BACKEND, kernelFunc: fn as unknown as tf.KernelFunc };
}

/**
 * Element strides of a dense `shape` seen through `outShape` (numpy broadcasting: missing
 * or size-1 dims get stride 0).
 */
function broadcastStrides(outShape: number[], shape: number[]): number[] {
  const strides = new Array<number>(outShape.length).fill(0);
  let s = 1;
  for (let i = shape.length - 1, d = outShape.length - 1; i >= 0; i--, d--) {
    if (shape[i] !== 1) strides[d] = s;
    s *= shape[i];
  }
  return strides;
}

/**
 * Packs [rank, shape..., strides of each input...] for the addon, dropping size-1 dims and
 * merging neighbours that are contiguous for every input: most calls become rank 1 or 2,
 * which the native loops run as plain vectorised runs.
 */
function stridedDims(outShape: number[], inputs: number[][]): Int32Array {
  const shape: number[] = [];
  const strides: number[][] = inputs.map(() => []);
  for (let d = 0; d < outShape.length; d++) {
    if (outShape[d] === 1) continue;
    const last = shape.length - 1;
    const mergeable = last >= 0 && inputs.every((st, k) => strides[k][last] === st[d] * outShape[d]);
    if (mergeable) {
      shape[last] *= outShape[d];
      inputs.forEach((st, k) => { strides[k][last] = st[d]; });
    } else {
      shape.push(outShape[d]);
      inputs.forEach((st, k) => strides[k].push(st[d]));
    }
  }
  if (shape.length === 0) { // scalar
    shape.push(1);
    strides.forEach((st) => st.push(0));
  }
  return Int32Array.from([shape.length, ...shape, ...strides.flat()]);
}

function elementwiseKernels(addon: NativeAddon): tf.KernelConfig[] {
  const configs: tf.KernelConfig[] = [];

  const binary = (name: string, op: number) => {
    const cpu = cpuKernel(name);
    configs.push(kernel(name, (args) => {
      const { backend } = args;
      const a = args.inputs.a as tf.TensorInfo;
      const b = args.inputs.b as tf.TensorInfo;
      if (a.dtype !== 'float32' || b.dtype !== 'float32') return cpu(args) as tf.TensorInfo;
      const outShape = tf.backend_util.assertAndGetBroadcastShape(a.shape, b.shape);
      const out = new Float32Array(tf.util.sizeFromShape(outShape));
      if (out.length > 0) {
        const dims = stridedDims(outShape, [broadcastStrides(outShape, a.shape), broadcastStrides(outShape, b.shape)]);
        addon.binary(op, f32(backend, a), f32(backend, b), out, dims);
      }
      return backend.makeTensorInfo(outShape, 'float32', out);
    }));
  };
  binary(tf.Add, BinaryOp.add);
  binary(tf.Sub, BinaryOp.sub);
  binary(tf.Multiply, BinaryOp.mul);
  binary(tf.RealDiv, BinaryOp.div);
  binary(tf.SquaredDifference, BinaryOp.squaredDifference);

  const unary = (name: string, op: number) => {
    const cpu = cpuKernel(name);
    configs.push(kernel(name, (args) => {
      const { backend } = args;
      const x = args.inputs.x as tf.TensorInfo;
      if (x.dtype !== 'float32') return cpu(args) as tf.TensorInfo;
      const out = new Float32Array(tf.util.sizeFromShape(x.shape));
      if (out.length > 0) addon.unary(op, f32(backend, x), out, (args.attrs?.alpha as number | undefined) ?? 0);
      return backend.makeTensorInfo(x.shape, 'float32', out);
    }));
  };
  unary(tf.Relu, UnaryOp.relu);
  unary(tf.Step, UnaryOp.step);
  unary(tf.Exp, UnaryOp.exp);
  unary(tf.Neg, UnaryOp.neg);
  unary(tf.Square, UnaryOp.square);
  unary(tf.Rsqrt, UnaryOp.rsqrt);
  unary(tf.Sqrt, UnaryOp.sqrt);
  unary(tf.Log, UnaryOp.log);
  unary(tf.Sigmoid, UnaryOp.sigmoid);

  // Transpose: a strided gather (the cpu kernel computes a multi-index per element).
  const cpuTranspose = cpuKernel(tf.Transpose);
  configs.push(kernel(tf.Transpose, (args) => {
    const { backend } = args;
    const x = args.inputs.x as tf.TensorInfo;
    const perm = args.attrs?.perm as number[];
    if (x.dtype !== 'float32') return cpuTranspose(args) as tf.TensorInfo;
    const outShape = perm.map((p) => x.shape[p]);
    const out = new Float32Array(tf.util.sizeFromShape(outShape));
    if (out.length > 0) {
      const inStrides = broadcastStrides(x.shape, x.shape);
      const dims = stridedDims(outShape, [perm.map((p) => (x.shape[p] === 1 ? 0 : inStrides[p]))]);
      addon.stridedCopy(f32(backend, x), out, dims);
    }
    return backend.makeTensorInfo(outShape, 'float32', out);
  }));

  // Slice / SplitV / Concat: the attention block splits q, k, v out of one projection and its
  // gradient concatenates them back; the cpu kernels compute a multi-index per element (SplitV
  // alone was ~55% of a training step at the default size).
  const cpuSlice = cpuKernel(tf.Slice);
  const sliceInto = (backend: CpuBackend, x: tf.TensorInfo, begin: number[], size: number[]): tf.TensorInfo => {
    const out = new Float32Array(tf.util.sizeFromShape(size));
    if (out.length > 0) {
      const strides = broadcastStrides(x.shape, x.shape);
      const offset = begin.reduce((o, b, d) => o + b * (x.shape[d] === 1 ? 0 : strides[d]), 0);
      const dims = stridedDims(size, [size.map((n, d) => (n === 1 ? 0 : strides[d]))]);
      addon.stridedCopy(f32(backend, x).subarray(offset), out, dims);
    }
    return backend.makeTensorInfo(size, 'float32', out);
  };
  configs.push(kernel(tf.Slice, (args) => {
    const x = args.inputs.x as tf.TensorInfo;
    if (x.dtype !== 'float32') return cpuSlice(args) as tf.TensorInfo;
    const [begin, size] = tf.slice_util.parseSliceParams(x, args.attrs?.begin as number[], args.attrs?.size as number[]);
    return sliceInto(args.backend, x, begin, size);
  }));
  const cpuSplit = cpuKernel(tf.SplitV);
  configs.push(kernel(tf.SplitV, (args) => {
    const x = args.inputs.x as tf.TensorInfo;
    if (x.dtype !== 'float32') return cpuSplit(args) as unknown as tf.TensorInfo;
    const axis = tf.util.parseAxisParam(args.attrs?.axis as number, x.shape)[0];
    const sizes = tf.backend_util.prepareSplitSize(x, args.attrs?.numOrSizeSplits as number[] | number, axis);
    const begin = new Array<number>(x.shape.length).fill(0);
    const parts = sizes.map((n) => {
      const size = x.shape.slice();
      size[axis] = n;
      const part = sliceInto(args.backend, x, begin.slice(), size);
      begin[axis] += n;
      return part;
    });
    return parts as unknown as tf.TensorInfo;
  }));
  const cpuConcat = cpuKernel(tf.Concat);
  configs.push(kernel(tf.Concat, (args) => {
    const { backend } = args;
    const inputs = args.inputs as unknown as tf.TensorInfo[];
    if (inputs.some((t) => t.dtype !== 'float32')) return cpuConcat(args) as tf.TensorInfo;
    const axis = tf.util.parseAxisParam(args.attrs?.axis as number, inputs[0].shape)[0];
    const outShape = tf.backend_util.computeOutShape(inputs.map((t) => t.shape), axis);
    const out = new Float32Array(tf.util.sizeFromShape(outShape));
    // Viewed as [outer, width]: each input contributes one contiguous run per outer index.
    const outer = tf.util.sizeFromShape(outShape.slice(0, axis));
    const rowWidth = out.length / Math.max(outer, 1);
    let colOffset = 0;
    for (const t of inputs) {
      const src = f32(backend, t);
      const w = src.length / Math.max(outer, 1);
      if (w > 0) for (let o = 0; o < outer; o++) out.set(src.subarray(o * w, (o + 1) * w), o * rowWidth + colOffset);
      colOffset += w;
    }
    return backend.makeTensorInfo(outShape, 'float32', out);
  }));

  // Sum / Mean / Max over one contiguous run of axes ([outer, reduced, inner]): covers
  // layer-norm statistics (last axis) and bias gradients (leading axes).
  const reduction = (name: string, op: number) => {
    const cpu = cpuKernel(name);
    configs.push(kernel(name, (args) => {
      const { backend } = args;
      const x = args.inputs.x as tf.TensorInfo;
      const axisAttr = (name === tf.Max ? args.attrs?.reductionIndices : args.attrs?.axis) as number | number[];
      const axes = tf.util.parseAxisParam(axisAttr, x.shape).sort((p, q) => p - q);
      const contiguous = axes.every((ax, i) => i === 0 || ax === axes[i - 1] + 1);
      if (x.dtype !== 'float32' || axes.length === 0 || !contiguous) return cpu(args) as tf.TensorInfo;
      const first = axes[0];
      const last = axes[axes.length - 1];
      const outer = tf.util.sizeFromShape(x.shape.slice(0, first));
      const red = tf.util.sizeFromShape(x.shape.slice(first, last + 1));
      const inner = tf.util.sizeFromShape(x.shape.slice(last + 1));
      if (red === 0 && op === ReduceOp.max) return cpu(args) as tf.TensorInfo;
      const outShape = args.attrs?.keepDims
        ? x.shape.map((d, i) => (i >= first && i <= last ? 1 : d))
        : x.shape.filter((_, i) => i < first || i > last);
      const out = new Float32Array(outer * inner);
      if (out.length > 0) addon.reduce(op, f32(backend, x), out, outer, red, inner);
      return backend.makeTensorInfo(outShape, 'float32', out);
    }));
  };
  reduction(tf.Sum, ReduceOp.sum);
  reduction(tf.Mean, ReduceOp.mean);
  reduction(tf.Max, ReduceOp.max);

  const cpuSoftmax = cpuKernel(tf.Softmax);
  configs.push(kernel(tf.Softmax, (args) => {
    const { backend } = args;
    const logits = args.inputs.logits as tf.TensorInfo;
    const rank = logits.shape.length;
    const dim = args.attrs?.dim as number;
    if (logits.dtype !== 'float32' || rank === 0 || (dim !== -1 && dim !== rank - 1)) return cpuSoftmax(args) as tf.TensorInfo;
    const cols = logits.shape[rank - 1];
    const size = tf.util.sizeFromShape(logits.shape);
    const out = new Float32Array(size);
    if (size > 0) addon.softmax(f32(backend, logits), out, size / cols, cols);
    return backend.makeTensorInfo(logits.shape, 'float32', out);
  }));

  // Gather's gradient: rows added into their segments in one pass. The cpu kernel builds a mask
  // per segment (rows x segments work: 250 s a step for a 1,024-token embedding); this is rows x d.
  const cpuSegmentSum = cpuKernel(tf.UnsortedSegmentSum);
  configs.push(kernel(tf.UnsortedSegmentSum, (args) => {
    const { backend } = args;
    const x = args.inputs.x as tf.TensorInfo;
    const ids = args.inputs.segmentIds as tf.TensorInfo;
    const numSegments = args.attrs?.numSegments as number;
    if (x.dtype !== 'float32' || ids.shape.length !== 1 || x.shape[0] !== ids.shape[0]) return cpuSegmentSum(args) as tf.TensorInfo;
    const inner = tf.util.sizeFromShape(x.shape.slice(1));
    const xs = f32(backend, x);
    const seg = backend.data.get(ids.dataId).values as Int32Array;
    const out = new Float32Array(numSegments * inner);
    for (let i = 0; i < seg.length; i++) {
      const s = seg[i];
      if (s < 0 || s >= numSegments) continue;
      const o = s * inner;
      const r = i * inner;
      for (let j = 0; j < inner; j++) out[o + j] += xs[r + j];
    }
    return backend.makeTensorInfo([numSegments, ...x.shape.slice(1)], 'float32', out);
  }));

  // Gather of whole rows (axis 0, one index per row): the embedding lookups and the pointer's
  // previous-token keys. The cpu kernel computes a multi-index per element.
  const cpuGather = cpuKernel(tf.GatherV2);
  configs.push(kernel(tf.GatherV2, (args) => {
    const { backend } = args;
    const x = args.inputs.x as tf.TensorInfo;
    const indices = args.inputs.indices as tf.TensorInfo;
    const axis = tf.util.parseAxisParam(args.attrs?.axis as number, x.shape)[0];
    const idx = backend.data.get(indices.dataId).values;
    if (!rowKernels || x.dtype !== 'float32' || axis !== 0 || (args.attrs?.batchDims as number | undefined) || !(idx instanceof Int32Array)) return cpuGather(args) as tf.TensorInfo;
    const rows = x.shape[0];
    // Out-of-range indices: the cpu kernel's error names them.
    if (idx.some((i) => i < 0 || i >= rows)) return cpuGather(args) as tf.TensorInfo;
    const inner = tf.util.sizeFromShape(x.shape.slice(1));
    const src = f32(backend, x);
    const out = new Float32Array(idx.length * inner);
    for (let r = 0; r < idx.length; r++) out.set(src.subarray(idx[r] * inner, (idx[r] + 1) * inner), r * inner);
    return backend.makeTensorInfo([...indices.shape, ...x.shape.slice(1)], 'float32', out);
  }));

  // Constant padding (the gradient of Slice): the input's innermost runs copied into place. The
  // cpu kernel computes a multi-index per element.
  const cpuPad = cpuKernel(tf.PadV2);
  configs.push(kernel(tf.PadV2, (args) => {
    const { backend } = args;
    const x = args.inputs.x as tf.TensorInfo;
    const paddings = args.attrs?.paddings as Array<[number, number]>;
    if (!rowKernels || x.dtype !== 'float32' || x.shape.length === 0) return cpuPad(args) as tf.TensorInfo;
    const outShape = x.shape.map((n, d) => paddings[d][0] + n + paddings[d][1]);
    const out = new Float32Array(tf.util.sizeFromShape(outShape)).fill((args.attrs?.constantValue as number | undefined) ?? 0);
    const src = f32(backend, x);
    const rank = x.shape.length;
    const width = x.shape[rank - 1];
    if (src.length === 0) return backend.makeTensorInfo(outShape, 'float32', out);
    const outStrides = broadcastStrides(outShape, outShape);
    const index = new Array<number>(rank - 1).fill(0);
    for (let from = 0; from < src.length; from += width) {
      let to = paddings[rank - 1][0];
      for (let d = 0; d < rank - 1; d++) to += (index[d] + paddings[d][0]) * outStrides[d];
      out.set(src.subarray(from, from + width), to);
      for (let d = rank - 2; d >= 0; d--) { // odometer over the outer dims
        if (++index[d] < x.shape[d]) break;
        index[d] = 0;
      }
    }
    return backend.makeTensorInfo(outShape, 'float32', out);
  }));

  return configs;
}

/** Same activations as the cpu backend's fused_utils, via the registered kernels. */
function applyActivation(backend: CpuBackend, x: tf.TensorInfo, activation: string,
  preluWeights: tf.TensorInfo | undefined, leakyAlpha: number | undefined): tf.TensorInfo {
  const run = (name: string, inputs: tf.NamedTensorInfoMap, attrs: tf.NamedAttrMap = {}) =>
    tf.getKernel(name, NATIVE_BACKEND)!.kernelFunc({ inputs, backend, attrs }) as tf.TensorInfo;
  switch (activation) {
    case 'relu': return run(tf.Relu, { x });
    case 'relu6': return run(tf.Relu6, { x });
    case 'elu': return run(tf.Elu, { x });
    case 'sigmoid': return run(tf.Sigmoid, { x });
    case 'prelu': return run(tf.Prelu, { x, alpha: preluWeights! });
    case 'leakyrelu': return run(tf.LeakyRelu, { x }, { alpha: leakyAlpha ?? 0.2 });
    default: throw new Error(`Activation ${activation} has not been implemented for the native backend`);
  }
}
