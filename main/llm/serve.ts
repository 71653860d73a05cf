/**
 * `lab serve`: a workbench model behind an OpenAI-compatible HTTP API, on Node's http module.
 *
 *   POST /v1/chat/completions   chat messages -> a completion (JSON, or server-sent events with
 *                               `stream: true`, ending with `data: [DONE]`)
 *   GET  /v1/models             the one model served
 *   GET  /health                liveness, the model, the queue length
 *
 * The model is single-threaded: requests are served one at a time in arrival order (the queue is
 * in ModelWorker); a client that disconnects is dropped from the queue or its generation stopped.
 * temperature 0 means greedy decoding; anything else nucleus sampling with top_p.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { renderChatPrompt, TURN_STOP } from './chat-template.ts';
import { ApiError, parseChatRequest, usageOf, type ChatCompletionRequest } from './openai-wire.ts';
import { CancelledGeneration, type Generation, type ModelWorker } from './model-worker.ts';

export interface ChatServerOptions {
  worker: ModelWorker;
  /** The id clients name in `model` (a request naming another model gets a 404). */
  modelName: string;
  log?: (line: string) => void;
  /** When set, /v1 routes require `Authorization: Bearer <apiKey>` (as vLLM's --api-key); /health stays open. */
  apiKey?: string;
  /** Sees every valid chat request body (a request log, or tests checking what clients send). */
  onRequest?: (body: ChatCompletionRequest) => void;
  maxBodyBytes?: number;
  /**
   * Web page origins besides the server's own that may call it (they also get CORS headers). A
   * request whose Origin header names any other page is refused: without it, any site open in a
   * browser could make the model generate with a "simple" cross-origin POST (text/plain, no preflight).
   */
  allowOrigins?: readonly string[];
}

const DEFAULT_BODY_LIMIT = 32 * 1024 * 1024;

export class ChatServer {
  private server: Server | null = null;
  private readonly created = Math.floor(Date.now() / 1000);
  served = 0;

  constructor(private readonly opts: ChatServerOptions) {}

  /** Start listening (again, after close). Port 0 picks a free port. */
  listen(port: number, host = '127.0.0.1'): Promise<string> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => this.fail(res, err));
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        const a = server.address() as AddressInfo;
        resolve(`http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`);
      });
    });
  }

  get port(): number | null {
    const a = this.server?.address();
    return a && typeof a === 'object' ? a.port : null;
  }

  /** Stop listening and drop open connections (a generation in progress is stopped). */
  close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** The server's own origins: the address it listens on, and the loopback names for it. */
  private ownOrigins(): string[] {
    const a = this.server?.address();
    if (!a || typeof a !== 'object') return [];
    const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
    return [`http://${host}:${a.port}`, `http://127.0.0.1:${a.port}`, `http://localhost:${a.port}`, `http://[::1]:${a.port}`];
  }

  /** Refuse foreign web pages; give allowed ones their CORS headers. True when the request was answered here (a preflight). */
  private checkOrigin(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    if (origin === undefined) return false; // not from a web page (curl, SDKs, the workbench)
    const allowed = this.opts.allowOrigins ?? [];
    if (!this.ownOrigins().includes(origin) && !allowed.includes(origin)) {
      throw new ApiError(403, `requests from the web page origin ${origin} are refused; start lab serve with --allow-origin ${origin} to allow it`, null, 'origin_not_allowed');
    }
    if (allowed.includes(origin)) res.setHeader('access-control-allow-origin', origin).setHeader('vary', 'origin');
    if (req.method !== 'OPTIONS') return false;
    res.writeHead(204, { 'access-control-allow-methods': 'GET, POST, OPTIONS', 'access-control-allow-headers': 'authorization, content-type', 'access-control-max-age': '600' }).end();
    return true;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.checkOrigin(req, res)) return;
    const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '') || '/';
    const route = (method: string) => {
      if (req.method !== method) throw new ApiError(405, `${req.method} is not allowed on ${path}; use ${method}`, null, 'method_not_allowed');
    };
    if (path === '/health') {
      route('GET');
      const { worker } = this.opts;
      const failure = worker.failure;
      return this.json(res, failure ? 503 : 200, { status: failure ? 'error' : 'ok', ...(failure ? { error: failure.message } : {}), model: this.opts.modelName, ...worker.info, queue: worker.queueLength, served: this.served });
    }
    if (path.startsWith('/v1/') && this.opts.apiKey !== undefined && !sameSecret(req.headers.authorization ?? '', `Bearer ${this.opts.apiKey}`)) {
      throw new ApiError(401, 'missing or wrong API key: send Authorization: Bearer <key>', null, 'invalid_api_key');
    }
    if (path === '/v1/models') {
      route('GET');
      return this.json(res, 200, { object: 'list', data: [this.modelObject()] });
    }
    if (path.startsWith('/v1/models/')) {
      route('GET');
      let id: string;
      try {
        id = decodeURIComponent(path.slice('/v1/models/'.length));
      } catch {
        throw new ApiError(400, `path ${path}: malformed percent-encoding`, null, 'invalid_path');
      }
      if (id !== this.opts.modelName) throw new ApiError(404, `The model '${id}' does not exist; this server serves '${this.opts.modelName}'`, 'model', 'model_not_found');
      return this.json(res, 200, this.modelObject());
    }
    if (path === '/v1/chat/completions') {
      route('POST');
      return this.chat(req, res);
    }
    throw new ApiError(404, `no route ${req.method} ${path} (routes: POST /v1/chat/completions, GET /v1/models, GET /health)`, null, 'not_found');
  }

  private modelObject() {
    return { id: this.opts.modelName, object: 'model', created: this.created, owned_by: 'agent-lab' };
  }

  private async chat(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const body = parseChatRequest(await readJson(req, this.opts.maxBodyBytes ?? DEFAULT_BODY_LIMIT));
    if (body.model && body.model !== this.opts.modelName) {
      throw new ApiError(404, `The model '${body.model}' does not exist; this server serves '${this.opts.modelName}'`, 'model', 'model_not_found');
    }
    this.opts.onRequest?.(body);
    const { prompt, droppedImages } = renderChatPrompt(body.messages);
    const notes: string[] = [];
    if (droppedImages) notes.push(`${droppedImages} image part(s) dropped: this model reads text only`);
    const gen = generationParams(body, this.opts.worker.info.ctx);
    const id = `chatcmpl-${randomBytes(12).toString('hex')}`;
    const created = Math.floor(Date.now() / 1000);
    const model = this.opts.modelName;

    // A client that goes away mid-request frees the model for the next one.
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });

    const finishNotes = (g: Generation) => {
      if (g.droppedPromptTokens) notes.push(`prompt too long for the model's context of ${this.opts.worker.info.ctx} tokens: its first ${g.droppedPromptTokens} tokens were dropped`);
      if (notes.length) this.log(`note: ${notes.join('; ')}`);
      this.served++;
      this.log(`chat ${id} ${g.finishReason} prompt=${g.promptTokens} cached=${g.cachedPromptTokens} completion=${g.completionTokens} ${Math.round(performance.now() - started)}ms`);
    };

    if (!body.stream) {
      let g: Generation;
      try {
        g = await this.opts.worker.generate({ prompt, ...gen }, undefined, abort.signal);
      } catch (err) {
        if (err instanceof CancelledGeneration) return;
        throw err;
      }
      finishNotes(g);
      return this.json(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: g.text }, logprobs: null, finish_reason: g.finishReason }],
        usage: usageOf(g.promptTokens, g.completionTokens, g.cachedPromptTokens),
        ...(notes.length ? { lab_notes: notes } : {}),
      });
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`);
    chunk([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]);
    try {
      const g = await this.opts.worker.generate({ prompt, ...gen }, (text) => chunk([{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }]), abort.signal);
      finishNotes(g);
      chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: g.finishReason }], notes.length ? { lab_notes: notes } : {});
      if (body.stream_options?.include_usage) chunk([], { usage: usageOf(g.promptTokens, g.completionTokens, g.cachedPromptTokens) });
      res.end('data: [DONE]\n\n');
    } catch (err) {
      if (err instanceof CancelledGeneration) return;
      // Headers are gone: report the error as an event, as OpenAI-compatible servers do.
      const e = err instanceof ApiError ? err : new ApiError(500, err instanceof Error ? err.message : String(err), null, 'server_error');
      res.end(`data: ${JSON.stringify(e.body())}\n\n`);
      this.log(`chat ${id} failed: ${e.message}`);
    }
  }

  private json(res: ServerResponse, status: number, value: unknown): void {
    const text = JSON.stringify(value);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  private fail(res: ServerResponse, err: unknown): void {
    // A crashed model worker will not come back by itself: 503 says so to clients and balancers.
    const status = this.opts.worker.failure ? 503 : 500;
    const e = err instanceof ApiError ? err : new ApiError(status, err instanceof Error ? err.message : String(err), null, 'server_error');
    if (e.status >= 500) this.log(`error: ${e.message}`);
    if (res.headersSent) {
      res.end();
      return;
    }
    this.json(res, e.status, e.body());
  }

  private log(line: string): void {
    this.opts.log?.(line);
  }
}

/** Request fields -> generation settings: OpenAI's defaults (temperature 1, top_p 1), 0 = greedy. */
export function generationParams(body: ChatCompletionRequest, ctx: number) {
  const stop = body.stop == null ? [] : typeof body.stop === 'string' ? [body.stop] : body.stop;
  return {
    // Without a limit, answer until the end of text or the context is full.
    maxTokens: Math.min(body.max_completion_tokens ?? body.max_tokens ?? ctx, ctx),
    temperature: body.temperature ?? 1,
    topP: body.top_p ?? 1,
    seed: body.seed ?? randomInt(0, 2 ** 31),
    stop: [...stop, TURN_STOP],
  };
}

/** Compare in constant time (over digests, so lengths do not leak either). */
function sameSecret(a: string, b: string): boolean {
  const h = (x: string) => createHash('sha256').update(x).digest();
  return timingSafeEqual(h(a), h(b));
}

async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > limit) throw new ApiError(413, `request body exceeds ${limit} bytes`, null, 'body_too_large');
    chunks.push(c);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) throw new ApiError(400, 'body: a JSON object is required', null, 'invalid_json');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, `body: invalid JSON (${(err as Error).message})`, null, 'invalid_json');
  }
}
