/** Runs SFT in a worker thread (like ../models/train-runner.ts does for `lab train lm`): progress, cancel, kill. */
import { startWorkerJob, type JobHandle } from '../models/worker-job.ts';
import type { TrainEvent } from '../models/train-runner.ts';
import type { TrainProgress } from '../models/train.ts';
import type { SftJob, SftResult } from './sft.ts';

export type SftHandle = JobHandle<SftResult>;

export function startSft(job: SftJob, on: { progress?(p: TrainProgress): void; log?(line: string): void } = {}): SftHandle {
  return startWorkerJob<SftResult, TrainEvent>(new URL('./sft-worker.ts', import.meta.url), job, 'SFT worker', (m) => {
    if (m.type === 'progress') on.progress?.(m.progress);
    else on.log?.(m.line);
  });
}
