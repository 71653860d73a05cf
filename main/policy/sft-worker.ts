/** Worker-thread entry for SFT: runs `trainSft` off the caller's thread (see ../models/worker-job.ts). */
import { serveWorkerJob } from '../models/worker-job.ts';
import type { TrainEvent } from '../models/train-runner.ts';
import { trainSft, type SftJob, type SftResult } from './sft.ts';

await serveWorkerJob<SftJob, SftResult, TrainEvent>((job, io) => trainSft(job, {
  onProgress: (progress) => io.post({ type: 'progress', progress }),
  onLog: (line) => io.post({ type: 'log', line }),
  shouldStop: io.shouldStop,
}));
