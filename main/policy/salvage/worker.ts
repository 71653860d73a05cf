/** Worker-thread entry for Salvage-DS: runs `trainSalvage` off the caller's thread, cancelled by a shared flag. */
import { parentPort, workerData } from 'node:worker_threads';
import type { SalvageJob } from './config.ts';
import type { SalvageMessage } from './runner.ts';
import { trainSalvage } from './train.ts';

const { job, cancel } = workerData as { job: SalvageJob; cancel: SharedArrayBuffer };
const flag = new Int32Array(cancel);
const post = (m: SalvageMessage) => parentPort?.postMessage(m);

try {
  const result = await trainSalvage(job, {
    onIteration: (stats, iterations) => post({ type: 'iteration', stats, iterations }),
    onLog: (line) => post({ type: 'log', line }),
    shouldStop: () => Atomics.load(flag, 0) === 1,
  });
  post({ type: 'done', result });
} catch (err) {
  post({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
