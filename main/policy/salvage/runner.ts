/** Runs Salvage-DS in a worker thread (as ../sft-runner.ts does for SFT): progress, cancel, kill. */
import { createWorker } from '../../models/train-runner.ts';
import type { SalvageJob } from './config.ts';
import type { IterationStats, SalvageResult } from './train.ts';

export type SalvageMessage =
  | { type: 'iteration'; stats: IterationStats; iterations: number }
  | { type: 'log'; line: string }
  | { type: 'done'; result: SalvageResult }
  | { type: 'error'; message: string };

export interface SalvageHandle {
  /** Resolves when the run ends: finished, or cancelled after saving its checkpoint. */
  result: Promise<SalvageResult>;
  /** Stop after the current iteration and save a checkpoint the run resumes from. */
  cancel(): void;
  /** Stop the worker at once, without a final checkpoint. */
  kill(): Promise<void>;
}

export function startSalvage(job: SalvageJob, on: { iteration?(s: IterationStats, iterations: number): void; log?(line: string): void } = {}): SalvageHandle {
  const cancel = new SharedArrayBuffer(4);
  const worker = createWorker(new URL('./worker.ts', import.meta.url), { job, cancel });
  const result = new Promise<SalvageResult>((resolve, reject) => {
    let settled = false;
    const settle = (f: () => void) => {
      settled = true;
      f();
    };
    worker.on('message', (m: SalvageMessage) => {
      if (m.type === 'iteration') on.iteration?.(m.stats, m.iterations);
      else if (m.type === 'log') on.log?.(m.line);
      else if (m.type === 'done') settle(() => resolve(m.result));
      else settle(() => reject(new Error(m.message)));
    });
    worker.on('error', (err) => settle(() => reject(err)));
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`Salvage-DS worker exited with code ${code}`));
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
