/**
 * Worker-thread entry for `lab serve`: loads the model once and generates one request at a time.
 * Generation runs here so the HTTP thread stays free to answer /health, queue requests and flush
 * streamed chunks while the model computes (a forward pass never yields to the event loop).
 *
 * Stop strings and cancellation end a generation from inside the decoder's token callback by
 * throwing: the shared decoders know stop tokens only, and their cleanup runs in `finally`.
 * Cancellation is a shared slot holding the id of the request to drop, read between tokens.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { END_OF_TEXT } from '../models/tokenizer.ts';
import type { DecodeMode, Sampling } from '../decode/index.ts';
import { openDecodingModel } from '../decode/models.ts';
import { PromptCache } from '../decode/prompt-cache.ts';
import { StopScanner } from './stop-scanner.ts';
import type { WorkerReply, WorkerRequest } from './model-worker.ts';

const { dir, decode, k, backend: wanted, cancel, promptCache: kept = 4 } = workerData as { dir: string; decode: DecodeMode; k?: number; backend?: string; cancel: SharedArrayBuffer; promptCache?: number };
const cancelSlot = new Int32Array(cancel);
const post = (m: WorkerReply) => parentPort!.postMessage(m);

class Halt extends Error {}

try {
  const { backend, loaded, createDecoder } = await openDecodingModel(dir, { backend: wanted });
  const decoder = createDecoder(loaded, decode, k);
  const eot = loaded.tokenizer.specialId(END_OF_TEXT);
  const ctx = loaded.model.config.ctx;
  // Chat requests repeat their system text and earlier turns: later ones start from those keys.
  const promptCache = kept > 0 ? new PromptCache(kept) : undefined;
  post({ type: 'ready', info: { backend: backend.id, decode: decoder.mode, ctx, sat: loaded.sat, promptCache: kept } });

  // Requests arrive one at a time (the main thread queues them); handle them in order.
  let chain = Promise.resolve();
  parentPort!.on('message', (req: WorkerRequest) => {
    chain = chain.then(async () => {
      try {
        await generate(req);
      } catch (err) {
        post({ type: 'error', id: req.id, message: err instanceof Error ? err.message : String(err) });
      }
    });
  });

  async function generate(req: WorkerRequest): Promise<void> {
    const all = loaded.tokenizer.encode(req.prompt);
    // Room for the answer: what was asked for, but never more than half the context, so a long
    // prompt keeps its most recent half (the end of a chat prompt is what the model must answer).
    const reserve = Math.max(1, Math.min(req.maxTokens, Math.floor(ctx / 2)));
    const keep = Math.max(1, ctx - reserve);
    const prompt = all.length > keep ? all.slice(all.length - keep) : all;
    const scanner = new StopScanner(req.stop);
    const tokens: number[] = [];
    let produced = 0;
    let finish: 'stop' | 'length' = 'length';
    let emitted = 0;
    const flush = (upTo: number, text: string) => {
      if (upTo > emitted) post({ type: 'delta', id: req.id, text: text.slice(emitted, upTo) });
      emitted = Math.max(emitted, upTo);
    };
    let text = '';
    const sampling: Sampling = req.temperature === 0 ? { kind: 'greedy' } : { kind: 'nucleus', topP: req.topP, temperature: req.temperature };
    const reusedBefore = promptCache?.stats.reusedTokens ?? 0;
    try {
      const result = await decoder.generate(prompt, {
        maxNew: req.maxTokens,
        sampling,
        seed: req.seed,
        stopTokens: [eot],
        promptCache,
        onToken(id) {
          if (Atomics.load(cancelSlot, 0) === req.id) throw new Halt('cancelled');
          produced++;
          if (id === eot) return;
          tokens.push(id);
          text = loaded.tokenizer.decode(tokens);
          // A token may end inside a multi-byte character: wait for the rest of it.
          if (text.endsWith('\uFFFD')) return;
          const hit = scanner.find(text);
          if (hit !== null) {
            text = text.slice(0, hit);
            finish = 'stop';
            throw new Halt('stop string');
          }
          flush(scanner.safeLength(text), text);
        },
      });
      if (result.stoppedBy === 'stopToken') finish = 'stop';
    } catch (err) {
      if (!(err instanceof Halt)) throw err;
      if (err.message === 'cancelled') {
        post({ type: 'error', id: req.id, message: 'cancelled' });
        return;
      }
    }
    flush(text.length, text);
    // Completion tokens: every token the model produced, the end-of-text token included.
    // Read from the cache's totals: a generation ended by a stop string or cancellation has no result.
    const cachedPromptTokens = (promptCache?.stats.reusedTokens ?? 0) - reusedBefore;
    post({ type: 'done', id: req.id, text, finishReason: finish, promptTokens: prompt.length, cachedPromptTokens, droppedPromptTokens: all.length - prompt.length, completionTokens: produced });
  }
} catch (err) {
  post({ type: 'fatal', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
