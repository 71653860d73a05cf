/**
 * A long job in a worker thread, both sides: the caller gets a result promise, cancel and kill;
 * the worker runs the job and posts its events. Training, SFT and Salvage-DS all run this way.
 * Cancellation is a shared flag (not a message) so the job sees it between steps without ever
 * yielding to the event loop.
 */
import { parentPort, workerData, Worker } from 'node:worker_threads';

/** What a worker posts: the job's own events, then exactly one of done / error. */
export type WorkerMessage<R, E> = E | { type: 'done'; result: R } | { type: 'error'; message: string };

export interface JobHandle<R> {
  /** Resolves when the run ends: finished, or cancelled after saving its checkpoint. */
  result: Promise<R>;
  /** Ask the run to stop after the current step; it saves a checkpoint it can resume from. */
  cancel(): void;
  /** Stop the worker at once, without a final checkpoint. */
  kill(): Promise<void>;
}

/**
 * Run from TypeScript sources (tsx), a worker does not inherit the loader: start it through a tiny
 * ES module that registers tsx first. Built output (.js) starts the worker directly.
 */
export function createWorker(entry: URL, data: unknown): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData: data });
  const api = import.meta.resolve('tsx/esm/api');
  const code = `import { register } from ${JSON.stringify(api)}; register(); await import(${JSON.stringify(entry.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), { workerData: data });
}

/** Caller side: start `entry` on `job`; every event other than done/error goes to onEvent. */
export function startWorkerJob<R, E extends { type: string }>(entry: URL, job: unknown, label: string, onEvent: (event: E) => void): JobHandle<R> {
  const cancel = new SharedArrayBuffer(4);
  const worker = createWorker(entry, { job, cancel });
  const result = new Promise<R>((resolve, reject) => {
    let settled = false;
    const settle = (f: () => void) => {
      settled = true;
      f();
    };
    worker.on('message', (m: WorkerMessage<R, E>) => {
      if (m.type === 'done') settle(() => resolve((m as { result: R }).result));
      else if (m.type === 'error') settle(() => reject(new Error((m as { message: string }).message)));
      else onEvent(m as E);
    });
    worker.on('error', (err) => settle(() => reject(err)));
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`${label} exited with code ${code}`));
    });
  });
  return {
    result,
    cancel: () => Atomics.store(new Int32Array(cancel), 0, 1),
    kill: async () => {
      await worker.terminate();
    },
  };
}

/** Worker side: run the job from workerData, post its events, then its result or its error. */
export async function serveWorkerJob<J, R, E>(run: (job: J, io: { post(event: E): void; shouldStop(): boolean }) => Promise<R>): Promise<void> {
  const { job, cancel } = workerData as { job: J; cancel: SharedArrayBuffer };
  const flag = new Int32Array(cancel);
  const post = (m: WorkerMessage<R, E>) => parentPort?.postMessage(m);
  try {
    const result = await run(job, { post, shouldStop: () => Atomics.load(flag, 0) === 1 });
    post({ type: 'done', result });
  } catch (err) {
    post({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
}
