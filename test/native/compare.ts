// Test helpers: run the same computation on two TF.js backends and compare the numbers.
import assert from 'node:assert/strict';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { tryRegisterNativeBackend } from '../../main/models/native-backend.ts';

const registration = tryRegisterNativeBackend();

/** Options for node:test: skip (with the loader's reason) when the addon is not built. */
export const needsNative: { skip: string | false } = {
  skip: registration.ok ? false : `native addon not built: ${registration.reason}`,
};

/** Deterministic pseudo-random data (the same on every backend). */
export function randomData(n: number, seed: number, lo = -1, hi = 1): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = lo + ((s >>> 0) / 4294967296) * (hi - lo);
  }
  return out;
}

/** Runs fn on `backend` and returns every output's values. */
export async function runOn(backend: string, fn: () => tf.Tensor | tf.Tensor[]): Promise<Float32Array[]> {
  await tf.setBackend(backend);
  await tf.ready();
  const outs = tf.tidy(() => {
    const r = fn();
    return Array.isArray(r) ? r : [r];
  });
  const values = outs.map((t) => Float32Array.from(t.dataSync()));
  tf.dispose(outs);
  return values;
}

/** Asserts native(fn) equals wasm(fn) within |d| <= atol + rtol * |wasm|. */
export async function assertSameAsWasm(fn: () => tf.Tensor | tf.Tensor[], label: string, rtol = 1e-4, atol = 1e-5): Promise<void> {
  const want = await runOn('wasm', fn);
  const got = await runOn('native', fn);
  assert.equal(got.length, want.length, `${label}: output count`);
  for (let k = 0; k < want.length; k++) {
    assert.equal(got[k].length, want[k].length, `${label}: output ${k} size`);
    for (let i = 0; i < want[k].length; i++) {
      const w = want[k][i];
      const g = got[k][i];
      if (g === w || (Number.isNaN(w) && Number.isNaN(g))) continue; // also equal infinities
      const ok = Math.abs(g - w) <= atol + rtol * Math.abs(w);
      if (!ok) assert.fail(`${label}: output ${k}[${i}] native ${g} vs wasm ${w}`);
    }
  }
}
