/** Worker-thread entry for training: runs `train` off the caller's thread (see worker-job.ts). */
import { train, type TrainJob, type TrainProgress, type TrainResult } from './train.ts';
import type { TrainEvent } from './train-runner.ts';
import { serveWorkerJob } from './worker-job.ts';

await serveWorkerJob<TrainJob, TrainResult, TrainEvent>(async (job, io) => {
  const hooks = {
    onProgress: (progress: TrainProgress) => io.post({ type: 'progress', progress }),
    onLog: (line: string) => io.post({ type: 'log', line }),
    shouldStop: io.shouldStop,
  };
  // SAT tuning of a compact policy reads SFT samples and runs in the policy's own worker (policy/sat-tune-worker.ts).
  if (job.samplesFile) throw new Error('a job with samplesFile is a policy SAT tuning: start it with startSatTune (main/policy/sft-runner.ts)');
  return train(job, hooks);
});
