// Loads the optional C++ addon built from native/ (see scripts/build-native.mjs).
// Never throws: when the addon is missing, disabled or broken, callers get a reason and
// TF.js keeps running on wasm/cpu.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The functions the addon exports. All arrays are used in place (zero-copy). */
export interface NativeAddon {
  /** out[b] = op(a[b % batchA]) x op(b[b % batchB]); op(a) is M x K, op(b) is K x N. */
  matmul(
    a: Float32Array, b: Float32Array, out: Float32Array,
    batch: number, batchA: number, batchB: number,
    M: number, N: number, K: number, transA: boolean, transB: boolean,
  ): void;
  info(): NativeInfo;
  /** out = a (op) b; dims = [rank, shape..., strideA..., strideB...] (stride 0 = broadcast). */
  binary(op: number, a: Float32Array, b: Float32Array, out: Float32Array, dims: Int32Array): void;
  /** out[e] = a[offset(e)]; dims = [rank, shape..., strideA...] (transpose, broadcast copy). */
  stridedCopy(a: Float32Array, out: Float32Array, dims: Int32Array): void;
  /** Elementwise op over the whole array; alpha is Step's value for x <= 0. */
  unary(op: number, x: Float32Array, out: Float32Array, alpha: number): void;
  /** x viewed as [outer, red, inner] reduced over `red` into out [outer, inner]. */
  reduce(op: number, x: Float32Array, out: Float32Array, outer: number, red: number, inner: number): void;
  /** Softmax over the last axis of x viewed as [rows, cols]. */
  softmax(x: Float32Array, out: Float32Array, rows: number, cols: number): void;
  /**
   * Softmax's gradient over the last axis: dx = y * (dy - sum(dy * y)) per row of [rows, cols].
   * Optional: an addon built before it existed still loads, and the gradient stays TF.js's.
   */
  softmaxGrad?(y: Float32Array, dy: Float32Array, dx: Float32Array, rows: number, cols: number): void;
  /**
   * Softmax over the last axis of x viewed as [blocks, lq, lk], row i of each block seeing columns
   * 0..past+i (the rest 0). Optional, as softmaxGrad is.
   */
  causalSoftmax?(x: Float32Array, out: Float32Array, blocks: number, lq: number, lk: number, past: number): void;
  /** One AdamW step into pOut/mOut/vOut (all arrays the same length; g is scaled by gradScale first). */
  adamw(
    p: Float32Array, g: Float32Array, m: Float32Array, v: Float32Array,
    pOut: Float32Array, mOut: Float32Array, vOut: Float32Array,
    lr: number, b1: number, b2: number, eps: number, c1: number, c2: number, wd: number, gradScale: number,
  ): void;
}

/** Op codes shared with native/src/ops.h. */
export const BinaryOp = { add: 0, sub: 1, mul: 2, div: 3, squaredDifference: 4 } as const;
export const UnaryOp = { relu: 0, step: 1, exp: 2, neg: 3, square: 4, rsqrt: 5, sqrt: 6, log: 7, sigmoid: 8 } as const;
export const ReduceOp = { sum: 0, max: 1, mean: 2 } as const;

export interface NativeInfo {
  /** Micro-kernel in use: 'avx512f' | 'avx2+fma' | 'sse2' | 'neon' | 'scalar'. */
  isa: string;
  /** Best the CPU supports (LAB_NATIVE_ISA can only lower the choice). */
  detectedIsa: string;
  arch: string;
  threads: number;
}

export type AddonLoad = { ok: true; addon: NativeAddon; path: string } | { ok: false; reason: string };

let cached: AddonLoad | undefined;

/** Where node-gyp puts the addon, relative to the repository root. */
export function addonCandidates(): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = resolve(here, '..', '..');
  const fromEnv = process.env.LAB_NATIVE_ADDON;
  return [
    ...(fromEnv ? [resolve(fromEnv)] : []),
    join(root, 'native', 'build', 'Release', 'lab_native.node'),
    join(root, 'native', 'build', 'Debug', 'lab_native.node'),
  ];
}

/** Loads the addon once per process; LAB_NO_NATIVE=1 disables it (tests the fallback). */
export function loadNativeAddon(): AddonLoad {
  if (cached) return cached;
  cached = load();
  return cached;
}

function load(): AddonLoad {
  if (process.env.LAB_NO_NATIVE === '1') return { ok: false, reason: 'disabled by LAB_NO_NATIVE=1' };
  const path = addonCandidates().find((p) => existsSync(p));
  if (!path) return { ok: false, reason: 'not built (run `npm run build:native`)' };
  try {
    const require = createRequire(import.meta.url);
    const addon = require(path) as Partial<NativeAddon>;
    const expected = ['matmul', 'info', 'binary', 'stridedCopy', 'unary', 'reduce', 'softmax', 'adamw'] as const;
    if (expected.some((name) => typeof addon[name] !== 'function')) {
      return { ok: false, reason: `${path} does not export the expected functions (stale build?)` };
    }
    return { ok: true, addon: addon as NativeAddon, path };
  } catch (err) {
    return { ok: false, reason: `failed to load ${path}: ${(err as Error).message}` };
  }
}
