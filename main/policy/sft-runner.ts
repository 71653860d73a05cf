/** Runs SFT and SAT tuning of a policy in a worker thread (as ../models/train-runner.ts does for `lab train lm`): progress, cancel, kill. */
import { startWorkerJob, type JobHandle } from '../models/worker-job.ts';
import type { TrainEvent } from '../models/train-runner.ts';
import type { TrainJob, TrainProgress, TrainResult } from '../models/train.ts';
import type { SftJob, SftResult } from './sft.ts';

export type SftHandle = JobHandle<SftResult>;

export function startSft(job: SftJob, on: { progress?(p: TrainProgress): void; log?(line: string): void } = {}): SftHandle {
  return startWorkerJob<SftResult, TrainEvent>(new URL('./sft-worker.ts', import.meta.url), job, 'SFT worker', (m) => {
    if (m.type === 'progress') on.progress?.(m.progress);
    else on.log?.(m.line);
  });
}

/** SAT tuning of a compact policy on its SFT samples (`lab train sdsat --samples`), in its own worker. */
export function startSatTune(job: TrainJob, on: { progress?(p: TrainProgress): void; log?(line: string): void } = {}): JobHandle<TrainResult> {
  return startWorkerJob<TrainResult, TrainEvent>(new URL('./sat-tune-worker.ts', import.meta.url), job, 'SAT tuning worker', (m) => {
    if (m.type === 'progress') on.progress?.(m.progress);
    else on.log?.(m.line);
  });
}
