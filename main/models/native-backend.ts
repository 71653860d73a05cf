// TF.js backend 'native': the cpu backend with its hot kernels replaced by the C++ addon
// (native/). Every cpu kernel is re-registered under 'native', so any model runs
// unchanged; only the kernels listed in NATIVE_KERNELS run natively. Tensor data stays in
// the cpu backend's Float32Arrays and is handed to the addon without copying.
import * as tf from '@tensorflow/tfjs';
import { loadNativeAddon, type NativeAddon, type NativeInfo } from './native-addon.ts';

export const NATIVE_BACKEND = 'native';

export type NativeRegistration = { ok: true } | { ok: false; reason: string };

/** The slice of MathBackendCPU the native kernels use. */
interface CpuBackend extends tf.KernelBackend {
  data: { get(id: tf.DataId): { values?: tf.backend_util.BackendValues } };
  makeTensorInfo(shape: number[], dtype: tf.DataType, values?: tf.backend_util.BackendValues): tf.TensorInfo;
  disposeIntermediateTensorInfo(t: tf.TensorInfo): void;
}

type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: CpuBackend; attrs: tf.NamedAttrMap };

let registration: NativeRegistration | undefined;
let nativeInfo: NativeInfo | undefined;

/**
 * Registers the 'native' backend when the addon loads; otherwise reports why not (once per
 * process) so the caller can fall back to wasm. Idempotent. Does not select the backend:
 * that is tf.setBackend('native') in the backend chooser.
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

function register(priority: number): NativeRegistration {
  const load = loadNativeAddon();
  if (!load.ok) return { ok: false, reason: load.reason };
  const cpuFactory = tf.findBackendFactory('cpu');
  if (!cpuFactory) return { ok: false, reason: 'TF.js cpu backend is not registered' };
  try {
    nativeInfo = load.addon.info();
    // A fresh MathBackendCPU: it owns the tensor storage of the 'native' backend.
    tf.registerBackend(NATIVE_BACKEND, () => cpuFactory() as tf.KernelBackend, priority);
    for (const config of tf.getKernelsForBackend('cpu')) {
      tf.registerKernel({ ...config, backendName: NATIVE_BACKEND });
    }
    for (const config of nativeKernels(load.addon)) {
      tf.unregisterKernel(config.kernelName, NATIVE_BACKEND);
      tf.registerKernel(config);
    }
    return { ok: true };
  } catch (err) {
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
  return backend.data.get(t.dataId).values as Float32Array;
}

function nativeKernels(addon: NativeAddon): tf.KernelConfig[] {
  const cpuBatchMatMul = cpuKernel(tf.BatchMatMul);
  const cpuFused = cpuKernel(tf._FusedMatMul);

  // BatchMatMul: also what tf.matMul's gradients call, so training uses it both ways.
  function batchMatMul(args: KernelArgs): tf.TensorInfo {
    const { inputs, backend, attrs } = args;
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
    const { inputs, backend, attrs } = args;
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
    { kernelName: tf.BatchMatMul, backendName: NATIVE_BACKEND, kernelFunc: batchMatMul as unknown as tf.KernelFunc },
    { kernelName: tf._FusedMatMul, backendName: NATIVE_BACKEND, kernelFunc: fusedMatMul as unknown as tf.KernelFunc },
  ];
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
