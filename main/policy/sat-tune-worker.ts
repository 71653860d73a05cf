/** Worker-thread entry for SAT tuning a compact policy on its SFT samples (./sat-tune.ts), off the caller's thread. */
import { serveWorkerJob } from '../models/worker-job.ts';
import type { TrainEvent } from '../models/train-runner.ts';
import type { TrainJob, TrainResult } from '../models/train.ts';
import { satTunePolicy } from './sat-tune.ts';

await serveWorkerJob<TrainJob, TrainResult, TrainEvent>((job, io) => satTunePolicy(job, {
  onProgress: (progress) => io.post({ type: 'progress', progress }),
  onLog: (line) => io.post({ type: 'log', line }),
  shouldStop: io.shouldStop,
}));
