/** Runs a training job in a worker thread; the caller stays responsive and can cancel it. */
import type { TrainJob, TrainProgress, TrainResult } from './train.ts';
import { startWorkerJob, type JobHandle } from './worker-job.ts';

export type TrainEvent = { type: 'progress'; progress: TrainProgress } | { type: 'log'; line: string };

export type TrainingHandle = JobHandle<TrainResult>;

export function startTraining(job: TrainJob, on: { progress?(p: TrainProgress): void; log?(line: string): void } = {}): TrainingHandle {
  return startWorkerJob<TrainResult, TrainEvent>(new URL('./train-worker.ts', import.meta.url), job, 'training worker', (m) => {
    if (m.type === 'progress') on.progress?.(m.progress);
    else on.log?.(m.line);
  });
}
