/**
 * Worker-thread entry for training: runs `train` off the caller's thread and reports by message.
 * Cancellation is a shared flag (not a message) so it is seen between steps without the training
 * loop ever yielding to the event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { train, type TrainJob } from './train.ts';
import type { TrainMessage } from './train-runner.ts';

const { job, cancel } = workerData as { job: TrainJob; cancel: SharedArrayBuffer };
const flag = new Int32Array(cancel);
const post = (m: TrainMessage) => parentPort?.postMessage(m);

try {
  const result = await train(job, {
    onProgress: (progress) => post({ type: 'progress', progress }),
    onLog: (line) => post({ type: 'log', line }),
    shouldStop: () => Atomics.load(flag, 0) === 1,
  });
  post({ type: 'done', result });
} catch (err) {
  post({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
