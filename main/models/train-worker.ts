/** Worker-thread entry for training: runs `train` off the caller's thread (see worker-job.ts). */
import { train, type TrainJob, type TrainResult } from './train.ts';
import type { TrainEvent } from './train-runner.ts';
import { serveWorkerJob } from './worker-job.ts';

await serveWorkerJob<TrainJob, TrainResult, TrainEvent>((job, io) => train(job, {
  onProgress: (progress) => io.post({ type: 'progress', progress }),
  onLog: (line) => io.post({ type: 'log', line }),
  shouldStop: io.shouldStop,
}));
