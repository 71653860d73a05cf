/**
 * The main-thread side of the generation worker: starts it, queues requests (the model runs one
 * generation at a time, in arrival order), relays streamed text and cancels a request whose
 * client went away.
 */
import type { Worker } from 'node:worker_threads';
import { createWorker } from '../models/worker-job.ts';
import type { DecodeMode } from '../decode/index.ts';
import type { SatSettings } from '../models/checkpoint.ts';

export interface WorkerRequest {
  id: number;
  prompt: string;
  maxTokens: number;
  /** 0 means greedy decoding; otherwise nucleus sampling with topP. */
  temperature: number;
  topP: number;
  seed: number;
  stop: string[];
}

export interface ModelInfo {
  backend: string;
  decode: string;
  /** Prompts whose KV caches are kept (0: prefix caching off). */
  promptCache: number;
  ctx: number;
  sat: SatSettings | null;
}

export interface Generation {
  text: string;
  finishReason: 'stop' | 'length';
  /** Prompt tokens the model read (after dropping the oldest ones that did not fit). */
  promptTokens: number;
  /** Of those, tokens whose keys and values came from a recent request's prompt (prefix caching). */
  cachedPromptTokens: number;
  droppedPromptTokens: number;
  completionTokens: number;
}

export type WorkerReply =
  | { type: 'ready'; info: ModelInfo }
  | { type: 'delta'; id: number; text: string }
  | ({ type: 'done'; id: number } & Generation)
  | { type: 'error'; id: number; message: string }
  | { type: 'fatal'; message: string };

export class CancelledGeneration extends Error {
  constructor() {
    super('cancelled');
  }
}

interface Pending {
  onDelta?: (text: string) => void;
  resolve: (g: Generation) => void;
  reject: (e: Error) => void;
}

export class ModelWorker {
  private nextId = 1;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly pending = new Map<number, Pending>();
  private waiting = 0;
  private dead: Error | null = null;

  private constructor(
    private readonly worker: Worker,
    private readonly cancelSlot: Int32Array,
    readonly info: ModelInfo,
  ) {
    worker.on('message', (m: WorkerReply) => {
      if (m.type === 'ready' || m.type === 'fatal') return;
      const p = this.pending.get(m.id);
      if (!p) return;
      if (m.type === 'delta') p.onDelta?.(m.text);
      else {
        this.pending.delete(m.id);
        if (m.type === 'done') p.resolve(m);
        else p.reject(m.message === 'cancelled' ? new CancelledGeneration() : new Error(m.message));
      }
    });
    const fail = (err: Error) => {
      this.dead ??= err;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`model worker exited (code ${code})`)));
  }

  /** @param opts.promptCache prompts whose KV caches are kept for later requests (0: none) */
  static start(opts: { dir: string; decode: DecodeMode; k?: number; backend?: string; promptCache?: number }): Promise<ModelWorker> {
    const cancel = new SharedArrayBuffer(4);
    const worker = createWorker(new URL('./generate-worker.ts', import.meta.url), { ...opts, cancel });
    return new Promise((resolve, reject) => {
      const onMessage = (m: WorkerReply) => {
        if (m.type === 'ready') {
          worker.off('message', onMessage);
          resolve(new ModelWorker(worker, new Int32Array(cancel), m.info));
        } else if (m.type === 'fatal') {
          void worker.terminate();
          reject(new Error(`cannot load the model in ${opts.dir}: ${m.message.split('\n')[0]}`));
        }
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`model worker exited during start (code ${code})`)));
    });
  }

  /** Why the worker stopped (it crashed or was closed); null while it works. */
  get failure(): Error | null {
    return this.dead;
  }

  /** Requests waiting for the model, the running one included. */
  get queueLength(): number {
    return this.waiting;
  }

  /** Queue a generation. A signal aborted while it waits drops it; while it runs, stops it. */
  generate(req: Omit<WorkerRequest, 'id'>, onDelta?: (text: string) => void, signal?: AbortSignal): Promise<Generation> {
    const id = this.nextId++;
    this.waiting++;
    const run = this.tail.then(
      () =>
        new Promise<Generation>((resolve, reject) => {
          if (this.dead) return reject(this.dead);
          if (signal?.aborted) return reject(new CancelledGeneration());
          this.pending.set(id, { onDelta, resolve, reject });
          signal?.addEventListener('abort', () => Atomics.store(this.cancelSlot, 0, id), { once: true });
          this.worker.postMessage({ ...req, id } satisfies WorkerRequest);
        }),
    );
    const settled = run.finally(() => this.waiting--);
    this.tail = settled.catch(() => undefined);
    return settled;
  }

  async close(): Promise<void> {
    this.dead ??= new Error('model worker closed');
    await this.worker.terminate();
  }
}
