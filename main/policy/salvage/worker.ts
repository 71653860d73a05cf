/** Worker-thread entry for Salvage-DS: runs `trainSalvage` off the caller's thread (see ../../models/worker-job.ts). */
import { serveWorkerJob } from '../../models/worker-job.ts';
import type { SalvageJob } from './config.ts';
import type { SalvageEvent } from './runner.ts';
import { trainSalvage, type SalvageResult } from './train.ts';

await serveWorkerJob<SalvageJob, SalvageResult, SalvageEvent>((job, io) => trainSalvage(job, {
  onIteration: (stats, iterations) => io.post({ type: 'iteration', stats, iterations }),
  onLog: (line) => io.post({ type: 'log', line }),
  shouldStop: io.shouldStop,
}));
