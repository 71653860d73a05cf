/** Runs Salvage-DS in a worker thread (as ../sft-runner.ts does for SFT): progress, cancel, kill. */
import { startWorkerJob, type JobHandle } from '../../models/worker-job.ts';
import type { SalvageJob } from './config.ts';
import type { IterationStats, SalvageResult } from './train.ts';

export type SalvageEvent = { type: 'iteration'; stats: IterationStats; iterations: number } | { type: 'log'; line: string };

export type SalvageHandle = JobHandle<SalvageResult>;

export function startSalvage(job: SalvageJob, on: { iteration?(s: IterationStats, iterations: number): void; log?(line: string): void } = {}): SalvageHandle {
  return startWorkerJob<SalvageResult, SalvageEvent>(new URL('./worker.ts', import.meta.url), job, 'Salvage-DS worker', (m) => {
    if (m.type === 'iteration') on.iteration?.(m.stats, m.iterations);
    else on.log?.(m.line);
  });
}
