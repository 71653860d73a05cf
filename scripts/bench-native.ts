// Benchmarks the native TF.js backend against wasm (and cpu for matmul) in one process and
// prints JSON. Run: npx tsx scripts/bench-native.ts [--quick] [--profile] [--steps N]
//   --quick    fewer shapes / steps (smoke run)
//   --profile  also print (to stderr) the slowest kernels of one training step per backend
//   --steps N  rounds of the small training config (default 4)
// Machines are shared and noisy: every figure is the median of several timed runs.
import os from 'node:os';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { nativeBackendInfo, nativeKernelNames, tryRegisterNativeBackend } from '../main/models/native-backend.ts';
import { buildTinyTransformer, type TransformerConfig } from '../test/native/tiny-transformer.ts';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const profile = argv.includes('--profile');
const stepsArg = argv.indexOf('--steps');
// Rounds of the small training config (each round: 4 native steps, 1 wasm step).
const timedSteps = stepsArg >= 0 ? Number(argv[stepsArg + 1]) : 4;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Seconds per call: median of `reps` runs, each looping for at least `minSec`. */
function timeIt(fn: () => void, reps: number, minSec: number): number {
  fn(); // warm-up (allocations, wasm tiering, packing buffers)
  const runs: number[] = [];
  for (let r = 0; r < reps; r++) {
    let n = 0;
    const t0 = performance.now();
    let dt = 0;
    do {
      fn();
      n++;
      dt = (performance.now() - t0) / 1000;
    } while (dt < minSec);
    runs.push(dt / n);
  }
  return median(runs);
}

type Shape = { name: string; batch: number; m: number; n: number; k: number; tA?: boolean; tB?: boolean };

const shapes: Shape[] = [
  { name: '512x512x512', batch: 1, m: 512, n: 512, k: 512 },
  { name: '1024x1024x1024', batch: 1, m: 1024, n: 1024, k: 1024 },
  { name: '512x128 @ 128x512 (mlp-like)', batch: 1, m: 512, n: 512, k: 128 },
  { name: '512x512^T @ 512x128 (grad-like, tA)', batch: 1, m: 512, n: 128, k: 512, tA: true },
  { name: '32 x (64x32 @ (64x32)^T) (attention, tB)', batch: 32, m: 64, n: 64, k: 32, tB: true },
  { name: '67x300x129 (odd)', batch: 1, m: 67, n: 129, k: 300 },
];

async function benchMatmul(backend: string, s: Shape): Promise<number | null> {
  await tf.setBackend(backend);
  const aShape = s.tA ? [s.batch, s.k, s.m] : [s.batch, s.m, s.k];
  const bShape = s.tB ? [s.batch, s.n, s.k] : [s.batch, s.k, s.n];
  const a = tf.randomNormal(aShape);
  const b = tf.randomNormal(bShape);
  const flops = 2 * s.batch * s.m * s.n * s.k;
  // The cpu backend needs ~1 s per 512^3 product; keep its big shapes out.
  if (backend === 'cpu' && flops > 2 * 512 ** 3) return null;
  const sec = timeIt(() => {
    const c = tf.matMul(a, b, s.tA, s.tB);
    c.dataSync();
    c.dispose();
  }, backend === 'cpu' ? 1 : quick ? 3 : 5, backend === 'cpu' ? 0.2 : 0.3);
  a.dispose();
  b.dispose();
  return flops / sec / 1e9;
}

// lossAfterSteps: loss after stepsTotal Adam steps on one fixed batch (a sanity check that
// training moves; the backends run different step counts, so values differ).
// cpuMsPerStep: process CPU time (all threads) per step; unlike wall time it barely moves
// when other processes compete for the cores, so it helps read numbers from a busy machine.
type TrainResult = {
  tokensPerSec: number; stepMs: number; cpuMsPerStep: number; stepsTimed: number; stepsTotal: number; lossAfterSteps: number;
};

/**
 * Tokens/s of one Adam training step on native and wasm. The two backends alternate in
 * rounds so both see the same background load (the machines are shared); each keeps its
 * own model, so no tensor crosses backends. Warm-up steps let V8 optimise TF.js's JS.
 */
async function benchTraining(cfg: TransformerConfig, rounds: number, perRound: Record<string, number>): Promise<Record<string, TrainResult>> {
  const runs: Record<string, { step: () => number; times: number[]; cpu: number[]; loss: number; warm: number; cleanup: () => void }> = {};
  for (const backend of Object.keys(perRound)) {
    await tf.setBackend(backend);
    const model = buildTinyTransformer(cfg, 1234);
    const opt = tf.train.adam(1e-3);
    const { x, y } = model.batch(42);
    const step = () => tf.tidy(() => {
      const { value, grads } = tf.variableGrads(() => model.loss(x, y));
      opt.applyGradients(grads as Parameters<typeof opt.applyGradients>[0]);
      return value.dataSync()[0];
    });
    const warm = backend === 'wasm' ? 2 : 6;
    for (let i = 0; i < warm; i++) step();
    if (profile) {
      await printProfile(`${backend} forward+backward`, () => tf.tidy(() => tf.variableGrads(() => model.loss(x, y)).value));
    }
    runs[backend] = { step, times: [], cpu: [], loss: NaN, warm, cleanup: () => { x.dispose(); y.dispose(); model.dispose(); opt.dispose(); } };
  }
  for (let r = 0; r < rounds; r++) {
    for (const [backend, n] of Object.entries(perRound)) {
      await tf.setBackend(backend);
      const run = runs[backend];
      for (let i = 0; i < n; i++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        run.loss = run.step();
        run.times.push(performance.now() - t0);
        const c = process.cpuUsage(c0);
        run.cpu.push((c.user + c.system) / 1000);
      }
    }
  }
  const out: Record<string, TrainResult> = {};
  for (const [backend, run] of Object.entries(runs)) {
    await tf.setBackend(backend);
    run.cleanup();
    const stepMs = median(run.times);
    out[backend] = {
      tokensPerSec: Number(((cfg.batch * cfg.seq) / (stepMs / 1000)).toFixed(1)),
      stepMs: Number(stepMs.toFixed(1)),
      cpuMsPerStep: Number(median(run.cpu).toFixed(1)),
      stepsTimed: run.times.length,
      stepsTotal: run.warm + run.times.length,
      lossAfterSteps: Number(run.loss.toFixed(4)),
    };
  }
  return out;
}

async function printProfile(backend: string, fn: () => tf.Tensor): Promise<void> {
  const info = await tf.profile(() => fn());
  const byKernel = new Map<string, { ms: number; calls: number }>();
  for (const k of info.kernels) {
    const ms = typeof k.kernelTimeMs === 'number' ? k.kernelTimeMs : 0;
    const e = byKernel.get(k.name) ?? { ms: 0, calls: 0 };
    e.ms += ms;
    e.calls++;
    byKernel.set(k.name, e);
  }
  const top = [...byKernel.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15);
  const total = [...byKernel.values()].reduce((s, e) => s + e.ms, 0);
  console.error(`profile ${backend}: ${total.toFixed(1)} ms in kernels`);
  for (const [name, e] of top) console.error(`  ${name.padEnd(24)} ${e.ms.toFixed(1).padStart(8)} ms ${String(e.calls).padStart(5)} calls`);
}

async function main(): Promise<void> {
  const reg = tryRegisterNativeBackend();
  if (!reg.ok) {
    console.log(JSON.stringify({ native: { available: false, reason: reg.reason } }, null, 2));
    return;
  }
  const backends = ['native', 'wasm', 'cpu'];
  const matmul: Record<string, Record<string, number | null>> = {};
  for (const s of quick ? shapes.slice(0, 1) : shapes) {
    matmul[s.name] = {};
    for (const b of backends) {
      const g = await benchMatmul(b, s);
      matmul[s.name][b] = g === null ? null : Number(g.toFixed(2));
    }
  }
  const configs: Array<{ cfg: TransformerConfig; rounds: number; perRound: Record<string, number> }> = [
    { cfg: { vocab: 256, dModel: 128, heads: 4, layers: 4, seq: 64, batch: 8 }, rounds: quick ? 2 : timedSteps, perRound: { native: 4, wasm: 1 } },
  ];
  if (!quick) {
    configs.push({ cfg: { vocab: 256, dModel: 256, heads: 4, layers: 4, seq: 128, batch: 4 }, rounds: 3, perRound: { native: 3, wasm: 1 } });
  }
  const training = [];
  for (const { cfg, rounds, perRound } of configs) {
    const r = await benchTraining(cfg, rounds, perRound);
    training.push({
      config: cfg,
      native: r.native,
      wasm: r.wasm,
      speedupVsWasm: Number((r.native.tokensPerSec / r.wasm.tokensPerSec).toFixed(1)),
    });
  }
  const result = {
    native: { available: true, ...nativeBackendInfo(), kernels: nativeKernelNames() },
    load: { loadavg1m: Number(os.loadavg()[0].toFixed(2)), cpus: os.cpus().length },
    matmulGflops: matmul,
    training,
  };
  console.log(JSON.stringify(result, null, 2));
}

await main();
