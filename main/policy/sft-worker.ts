/** Worker-thread entry for SFT: runs `trainSft` off the caller's thread, cancelled by a shared flag. */
import { parentPort, workerData } from 'node:worker_threads';
import { trainSft, type SftJob } from './sft.ts';
import type { SftMessage } from './sft-runner.ts';

const { job, cancel } = workerData as { job: SftJob; cancel: SharedArrayBuffer };
const flag = new Int32Array(cancel);
const post = (m: SftMessage) => parentPort?.postMessage(m);

try {
  const result = await trainSft(job, {
    onProgress: (progress) => post({ type: 'progress', progress }),
    onLog: (line) => post({ type: 'log', line }),
    shouldStop: () => Atomics.load(flag, 0) === 1,
  });
  post({ type: 'done', result });
} catch (err) {
  post({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
