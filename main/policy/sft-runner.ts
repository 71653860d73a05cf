/** Runs SFT in a worker thread (like ../models/train-runner.ts does for `lab train lm`): progress, cancel, kill. */
import { createWorker } from '../models/train-runner.ts';
import type { TrainProgress } from '../models/train.ts';
import type { SftJob, SftResult } from './sft.ts';

export type SftMessage =
  | { type: 'progress'; progress: TrainProgress }
  | { type: 'log'; line: string }
  | { type: 'done'; result: SftResult }
  | { type: 'error'; message: string };

export interface SftHandle {
  /** Resolves when the run ends: finished, or cancelled after saving its checkpoint. */
  result: Promise<SftResult>;
  /** Stop after the current step and save a checkpoint the run resumes from. */
  cancel(): void;
  /** Stop the worker at once, without a final checkpoint. */
  kill(): Promise<void>;
}

export function startSft(job: SftJob, on: { progress?(p: TrainProgress): void; log?(line: string): void } = {}): SftHandle {
  const cancel = new SharedArrayBuffer(4);
  const worker = createWorker(new URL('./sft-worker.ts', import.meta.url), { job, cancel });
  const result = new Promise<SftResult>((resolve, reject) => {
    let settled = false;
    const settle = (f: () => void) => {
      settled = true;
      f();
    };
    worker.on('message', (m: SftMessage) => {
      if (m.type === 'progress') on.progress?.(m.progress);
      else if (m.type === 'log') on.log?.(m.line);
      else if (m.type === 'done') settle(() => resolve(m.result));
      else settle(() => reject(new Error(m.message)));
    });
    worker.on('error', (err) => settle(() => reject(err)));
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`SFT worker exited with code ${code}`));
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
