/** Runs a training job in a worker thread; the caller stays responsive and can cancel it. */
import { Worker } from 'node:worker_threads';
import type { TrainJob, TrainProgress, TrainResult } from './train.ts';

export type TrainMessage =
  | { type: 'progress'; progress: TrainProgress }
  | { type: 'log'; line: string }
  | { type: 'done'; result: TrainResult }
  | { type: 'error'; message: string };

export interface TrainingHandle {
  /** Resolves when the run ends: finished, or cancelled (after its checkpoint is saved). */
  result: Promise<TrainResult>;
  /** Ask the run to stop after the current step; it saves a checkpoint it can resume from. */
  cancel(): void;
  /** Stop the worker at once, without a final checkpoint. */
  kill(): Promise<void>;
}

/**
 * Run from TypeScript sources (tsx), a worker does not inherit the loader: start it through a tiny
 * ES module that registers tsx first. Built output (.js) starts the worker directly.
 */
export function createWorker(entry: URL, workerData: unknown): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData });
  const api = import.meta.resolve('tsx/esm/api');
  const code = `import { register } from ${JSON.stringify(api)}; register(); await import(${JSON.stringify(entry.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), { workerData });
}

export function startTraining(job: TrainJob, on: { progress?(p: TrainProgress): void; log?(line: string): void } = {}): TrainingHandle {
  const cancel = new SharedArrayBuffer(4);
  const worker = createWorker(new URL('./train-worker.ts', import.meta.url), { job, cancel });
  const result = new Promise<TrainResult>((resolve, reject) => {
    let settled = false;
    worker.on('message', (m: TrainMessage) => {
      if (m.type === 'progress') on.progress?.(m.progress);
      else if (m.type === 'log') on.log?.(m.line);
      else if (m.type === 'done') {
        settled = true;
        resolve(m.result);
      } else {
        settled = true;
        reject(new Error(m.message));
      }
    });
    worker.on('error', (err) => {
      settled = true;
      reject(err);
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`training worker exited with code ${code}`));
    });
  });
  return {
    result,
    cancel: () => Atomics.store(new Int32Array(cancel), 0, 1),
    kill: async () => {
      await worker.terminate();
    },
  };
}
