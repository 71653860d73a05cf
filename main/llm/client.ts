/**
 * The one client for OpenAI-compatible chat-completions endpoints (vLLM, Ollama, llama.cpp
 * server, hosted providers, and the workbench's own `lab serve`). The endpoint agent, the LLM
 * reflector and the judge all talk through it.
 *
 * Built on the `openai` SDK for the protocol (request shapes, SSE streaming, error classes). The
 * SDK's own retries are count-based; a collection run needs "wait while the server is down, then
 * carry on", so retries here are bounded by time instead (maxWaitMs), with exponential backoff and
 * the server's Retry-After honoured. Everything that is not worth retrying (a 400 naming a bad
 * field, a 401) throws at once as an EndpointError with the status and the server's message.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { DEFAULT_MAX_WAIT_MS, DEFAULT_TIMEOUT_MS } from './defaults.ts';

export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string; detail?: 'low' | 'high' | 'auto' } };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | ContentPart[];
}

export interface ChatRequest {
  messages: ChatMessage[];
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  stop?: string[];
  seed?: number;
  signal?: AbortSignal;
}

export interface ChatResult {
  text: string;
  finishReason: string | null;
  usage: { promptTokens: number; completionTokens: number };
  /** Wall time of the successful attempt, in ms (waits between retries excluded). */
  latencyMs: number;
  model: string;
  /** 1 when the first try succeeded. */
  attempts: number;
}

export interface RetryInfo {
  attempt: number;
  delayMs: number;
  error: string;
}

export interface EndpointOptions {
  /** Base URL up to and including /v1, e.g. http://127.0.0.1:8000/v1. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Longest one request may take (default 120 s); a request that runs out is retried like an outage. */
  timeoutMs?: number;
  /**
   * How long to keep retrying, counted from a call's first failure, while the endpoint is
   * unreachable, times out, or answers 408/409/429/5xx (default 5 min). A retry's own timeout is
   * cut to what is left of this window, so a call that fails never runs much past timeout + wait.
   */
  maxWaitMs?: number;
  /** First backoff delay (default 500 ms); doubles per retry up to maxDelayMs (default 15 s). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  onRetry?: (info: RetryInfo) => void;
}

/** A failure that retrying will not fix, or the retry window ran out. */
export class EndpointError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryable: boolean,
    /** The endpoint answered (200) but not with a usable chat completion: not JSON, no choices. */
    readonly badResponse = false,
  ) {
    super(message);
    this.name = 'EndpointError';
  }
}

export { DEFAULT_MAX_WAIT_MS, DEFAULT_TIMEOUT_MS } from './defaults.ts';
/** A retry near the end of the wait window still gets this long, or it could not succeed at all. */
const MIN_RETRY_TIMEOUT_MS = 250;

const RETRYABLE_STATUS = new Set([408, 409, 429]);
/** Outages show as refused connections, 502/503/504 or 429 and are waited out; a 500 gets this many tries. */
const MAX_TRIES_ON_500 = 3;

/**
 * Endpoint settings from the environment: LAB_ENDPOINT_URL, LAB_ENDPOINT_MODEL and LAB_ENDPOINT_KEY
 * (or OPENAI_API_KEY); flags passed as overrides win.
 */
export function endpointFromEnv(overrides: Partial<EndpointOptions> = {}): EndpointOptions {
  const baseUrl = overrides.baseUrl ?? process.env.LAB_ENDPOINT_URL;
  const model = overrides.model ?? process.env.LAB_ENDPOINT_MODEL;
  if (!baseUrl) throw new Error('no endpoint: pass --endpoint URL or set LAB_ENDPOINT_URL (e.g. http://127.0.0.1:8000/v1)');
  if (!model) throw new Error('no model name: pass --model NAME or set LAB_ENDPOINT_MODEL');
  return { ...overrides, baseUrl, model, apiKey: overrides.apiKey ?? process.env.LAB_ENDPOINT_KEY ?? process.env.OPENAI_API_KEY };
}

export class ChatEndpoint {
  private readonly client: OpenAI;
  private readonly timeoutMs: number;
  private readonly maxWaitMs: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(readonly options: EndpointOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new Error(`endpoint URL "${options.baseUrl}" is not a URL (expected e.g. http://127.0.0.1:8000/v1)`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`endpoint URL "${options.baseUrl}" must be http or https`);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 15_000;
    this.client = new OpenAI({
      baseURL: options.baseUrl.replace(/\/+$/, ''),
      // Local servers take any key; the SDK insists on one.
      apiKey: options.apiKey || 'no-key',
      timeout: this.timeoutMs,
      maxRetries: 0,
    });
  }

  get model(): string {
    return this.options.model;
  }

  /** One completion, waiting out outages up to maxWaitMs. */
  chat(request: ChatRequest): Promise<ChatResult> {
    return this.withRetries(request.signal, async (timeout) => {
      const t0 = performance.now();
      const response = await this.client.chat.completions.create(
        { ...this.body(request), stream: false },
        { signal: request.signal, timeout },
      );
      const choice = usableChoice(response, this.options.baseUrl);
      return {
        text: choice.message?.content ?? '',
        finishReason: choice.finish_reason ?? null,
        usage: { promptTokens: response.usage?.prompt_tokens ?? 0, completionTokens: response.usage?.completion_tokens ?? 0 },
        latencyMs: performance.now() - t0,
        model: response.model ?? this.options.model,
      };
    });
  }

  /**
   * A streamed completion: onDelta sees each piece of text as it arrives. A stream that breaks
   * midway is retried from the start (the pieces already delivered are not repeated: onDelta only
   * sees text past what it was given before).
   */
  chatStream(request: ChatRequest, onDelta: (text: string) => void): Promise<ChatResult> {
    let delivered = 0;
    return this.withRetries(request.signal, async (timeout) => {
      const t0 = performance.now();
      const stream = await this.client.chat.completions.create(
        { ...this.body(request), stream: true, stream_options: { include_usage: true } },
        { signal: request.signal, timeout },
      );
      let text = '';
      let finishReason: string | null = null;
      let model = this.options.model;
      let usage = { promptTokens: 0, completionTokens: 0 };
      for await (const chunk of stream) {
        if (chunk.model) model = chunk.model;
        if (chunk.usage) usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens };
        const choice = chunk.choices[0];
        if (!choice) continue;
        const piece = choice.delta?.content ?? '';
        if (piece) {
          text += piece;
          if (text.length > delivered) {
            onDelta(text.slice(delivered));
            delivered = text.length;
          }
        }
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
      return { text, finishReason, usage, latencyMs: performance.now() - t0, model };
    });
  }

  private body(request: ChatRequest) {
    return {
      model: this.options.model,
      messages: request.messages as OpenAI.Chat.ChatCompletionMessageParam[],
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.topP !== undefined ? { top_p: request.topP } : {}),
      ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
      ...(request.stop?.length ? { stop: request.stop } : {}),
      ...(request.seed !== undefined ? { seed: request.seed } : {}),
    };
  }

  private async withRetries(signal: AbortSignal | undefined, attempt: (timeoutMs: number) => Promise<Omit<ChatResult, 'attempts'>>): Promise<ChatResult> {
    // The wait window opens at the first failure: a slow answer that arrives is not an outage.
    let start: number | null = null;
    for (let n = 1; ; n++) {
      const timeout = start === null ? this.timeoutMs : Math.max(MIN_RETRY_TIMEOUT_MS, Math.min(this.timeoutMs, start + this.maxWaitMs - Date.now()));
      try {
        return { ...(await attempt(timeout)), attempts: n };
      } catch (error) {
        const why = timeout < this.timeoutMs
          ? `what was left of the --endpoint-wait window; --endpoint-timeout is ${formatSeconds(this.timeoutMs)}`
          : 'the per-request timeout, --endpoint-timeout';
        const failure = classify(error, this.options.baseUrl, `within ${formatSeconds(timeout)} (${why})`);
        start ??= Date.now();
        if (!failure.retryable) throw failure.error;
        // A plain 500 is usually a server bug, not an outage: a few tries, not the whole window.
        if (failure.error.status === 500 && n >= MAX_TRIES_ON_500) {
          throw new EndpointError(`${failure.error.message} (gave up after ${n} attempts: a 500 that repeats is a server error, not an outage)`, 500, false);
        }
        const backoff = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (n - 1));
        // Jitter keeps parallel environments from hammering a recovering server in lockstep.
        const delayMs = Math.round(failure.retryAfterMs ?? backoff * (0.75 + Math.random() * 0.5));
        if (Date.now() - start + delayMs > this.maxWaitMs) {
          throw new EndpointError(
            `${failure.error.message} (gave up after ${n} attempt${n === 1 ? '' : 's'}: retrying stops ${formatSeconds(this.maxWaitMs)} after the first failure, --endpoint-wait)`,
            failure.error.status,
            true,
          );
        }
        this.options.onRetry?.({ attempt: n, delayMs, error: failure.error.message });
        await sleep(delayMs, signal);
      }
    }
  }
}

function classify(error: unknown, baseUrl: string, timeoutNote: string): { error: EndpointError; retryable: boolean; retryAfterMs?: number } {
  if (error instanceof EndpointError) return { error, retryable: error.retryable };
  if (error instanceof APIUserAbortError) throw error;
  if (error instanceof APIConnectionTimeoutError) {
    // Its cause is the AbortError DOMException, whose numeric code (20) once made the whole message.
    return { error: new EndpointError(`${baseUrl} did not answer ${timeoutNote}`, null, true), retryable: true };
  }
  if (error instanceof APIConnectionError) {
    // Refused connections, resets, DNS failures: the server is down or restarting.
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' && cause.message ? cause.message : error.message;
    return { error: new EndpointError(`cannot reach ${baseUrl}: ${detail}`, null, true), retryable: true };
  }
  // The SDK parses a 200's body itself; a body that is not JSON surfaces as a SyntaxError.
  if (error instanceof SyntaxError) {
    return { error: new EndpointError(`${baseUrl} answered 200 with a body that is not valid JSON (${error.message})`, 200, false, true), retryable: false };
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const retryable = RETRYABLE_STATUS.has(status) || status >= 500;
    const message = `${baseUrl} answered ${status}: ${serverMessage(error)}`;
    return { error: new EndpointError(message, status, retryable), retryable, retryAfterMs: retryAfter(error.headers) };
  }
  // A stream cut mid-body surfaces as a plain error from the body reader.
  if (error instanceof Error && /terminated|socket|ECONNRESET|other side closed/i.test(`${error.message} ${String((error as { cause?: unknown }).cause ?? '')}`)) {
    return { error: new EndpointError(`connection to ${baseUrl} broke: ${error.message}`, null, true), retryable: true };
  }
  throw error;
}

/** The first choice of a 200 answer, or an error saying what the answer was instead. */
function usableChoice(response: unknown, baseUrl: string): { message?: { content?: string | null }; finish_reason?: string | null } {
  const bad = (what: string) => new EndpointError(`${baseUrl} answered 200 ${what}: ${preview(response)}`, 200, false, true);
  if (typeof response !== 'object' || response === null) throw bad('with something that is not a chat completion');
  const choices = (response as { choices?: unknown }).choices;
  if (!Array.isArray(choices)) throw bad('without a choices array');
  if (!choices.length) throw bad('with an empty choices array');
  const choice = choices[0] as { message?: { content?: unknown } } | null;
  const content = choice?.message?.content;
  if (content !== undefined && content !== null && typeof content !== 'string') throw bad('with a message content that is not text');
  return choice as { message?: { content?: string | null }; finish_reason?: string | null };
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}… (${text.length} characters)` : text;
}

const formatSeconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

function serverMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : error.message;
}

function retryAfter(headers: Headers | undefined): number | undefined {
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
