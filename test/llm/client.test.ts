import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChatEndpoint, EndpointError, endpointFromEnv } from '../../main/llm/client.ts';

type Handler = (body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server speaking enough of /v1/chat/completions; each request takes the next handler. */
async function scriptedServer(handlers: Handler[], port = 0): Promise<{ server: Server; url: string; bodies: Record<string, unknown>[] }> {
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      bodies.push(body);
      const handler = handlers.shift() ?? ((_b, _q, r) => r.writeHead(500).end('{"error":{"message":"script exhausted"}}'));
      handler(body, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, bodies };
}

const completion = (text: string): Handler => (body, _req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({
    id: 'c1', object: 'chat.completion', created: 0, model: body.model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
  }));
};

const failure = (status: number, message: string, headers: Record<string, string> = {}): Handler => (_b, _q, res) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
};

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
const fast = { baseDelayMs: 10, maxDelayMs: 50 };

test('chat sends the request fields and returns text, usage and latency', async () => {
  const { server, url, bodies } = await scriptedServer([completion("click('3')")]);
  try {
    const endpoint = new ChatEndpoint({ baseUrl: url, model: 'tiny', ...fast });
    const result = await endpoint.chat({ messages: [{ role: 'user', content: 'hi' }], temperature: 0, maxTokens: 8, stop: ['\n'], seed: 3 });
    assert.equal(result.text, "click('3')");
    assert.equal(result.finishReason, 'stop');
    assert.deepEqual(result.usage, { promptTokens: 11, completionTokens: 3 });
    assert.equal(result.attempts, 1);
    assert.ok(result.latencyMs >= 0);
    assert.deepEqual(bodies[0], { model: 'tiny', messages: [{ role: 'user', content: 'hi' }], temperature: 0, max_tokens: 8, stop: ['\n'], seed: 3, stream: false });
  } finally {
    await close(server);
  }
});

test('5xx and 429 are retried (Retry-After honoured); the attempt count is reported', async () => {
  const { server, url } = await scriptedServer([failure(503, 'loading'), failure(429, 'slow down', { 'retry-after': '0' }), completion('ok')]);
  try {
    const retries: string[] = [];
    const endpoint = new ChatEndpoint({ baseUrl: url, model: 'm', ...fast, onRetry: (i) => retries.push(i.error) });
    const result = await endpoint.chat({ messages: [{ role: 'user', content: 'x' }] });
    assert.equal(result.text, 'ok');
    assert.equal(result.attempts, 3);
    assert.equal(retries.length, 2);
    assert.match(retries[0], /503: loading/);
  } finally {
    await close(server);
  }
});

test('a 400 is not retried and names the server message', async () => {
  const { server, url, bodies } = await scriptedServer([failure(400, "messages[0].role: must be 'user'"), completion('never')]);
  try {
    const endpoint = new ChatEndpoint({ baseUrl: url, model: 'm', ...fast });
    await assert.rejects(endpoint.chat({ messages: [{ role: 'user', content: 'x' }] }), (error: unknown) => {
      assert.ok(error instanceof EndpointError);
      assert.equal(error.status, 400);
      assert.equal(error.retryable, false);
      assert.match(error.message, /messages\[0\]\.role/);
      return true;
    });
    assert.equal(bodies.length, 1);
  } finally {
    await close(server);
  }
});

test('an endpoint that is down is waited for until it comes up', async () => {
  // Reserve a port, free it, and bring the server up there only after a few refused attempts.
  const probe = await scriptedServer([]);
  const port = (probe.server.address() as AddressInfo).port;
  await close(probe.server);
  const retries: number[] = [];
  const endpoint = new ChatEndpoint({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', ...fast, maxWaitMs: 20_000, onRetry: (i) => retries.push(i.attempt) });
  let started: Server | undefined;
  const pending = endpoint.chat({ messages: [{ role: 'user', content: 'x' }] });
  while (retries.length < 2) await new Promise((r) => setTimeout(r, 5));
  started = (await scriptedServer([completion('back')], port)).server;
  try {
    const result = await pending;
    assert.equal(result.text, 'back');
    assert.ok(result.attempts >= 3);
  } finally {
    await close(started);
  }
});

test('a repeating 500 is a server error: three tries, then a non-retryable EndpointError', async () => {
  const { server, url, bodies } = await scriptedServer(Array.from({ length: 10 }, () => failure(500, 'boom')));
  try {
    const endpoint = new ChatEndpoint({ baseUrl: url, model: 'm', ...fast, maxWaitMs: 60_000 });
    await assert.rejects(endpoint.chat({ messages: [{ role: 'user', content: 'x' }] }), (error: unknown) => {
      assert.ok(error instanceof EndpointError);
      assert.equal(error.retryable, false);
      assert.match(error.message, /500: boom .*gave up after 3 attempts/);
      return true;
    });
    assert.equal(bodies.length, 3);
  } finally {
    await close(server);
  }
});

test('the retry window runs out with a retryable EndpointError', async () => {
  const { server, url } = await scriptedServer(Array.from({ length: 50 }, () => failure(503, 'boom')));
  try {
    const endpoint = new ChatEndpoint({ baseUrl: url, model: 'm', baseDelayMs: 20, maxDelayMs: 20, maxWaitMs: 100 });
    await assert.rejects(endpoint.chat({ messages: [{ role: 'user', content: 'x' }] }), (error: unknown) => {
      assert.ok(error instanceof EndpointError);
      assert.equal(error.retryable, true);
      assert.match(error.message, /503: boom .*gave up after \d+ attempts/);
      return true;
    });
  } finally {
    await close(server);
  }
});

test('streaming reassembles the deltas and reads usage from the last chunk', async () => {
  const sse: Handler = (body, _req, res) => {
    assert.equal(body.stream, true);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta: Record<string, unknown>, finish: string | null, usage?: object) =>
      `data: ${JSON.stringify({ id: 's', object: 'chat.completion.chunk', created: 0, model: 'm', choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
    res.write(chunk({ role: 'assistant', content: 'fill(' }, null));
    res.write(chunk({ content: "'2', 'Bos" }, null));
    res.write(chunk({ content: "ton')" }, 'stop'));
    res.write(chunk({}, null, { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 }));
    res.end('data: [DONE]\n\n');
  };
  const { server, url } = await scriptedServer([sse]);
  try {
    const pieces: string[] = [];
    const result = await new ChatEndpoint({ baseUrl: url, model: 'm', ...fast }).chatStream({ messages: [{ role: 'user', content: 'x' }] }, (p) => pieces.push(p));
    assert.equal(result.text, "fill('2', 'Boston')");
    assert.equal(pieces.join(''), result.text);
    assert.equal(result.finishReason, 'stop');
    assert.deepEqual(result.usage, { promptTokens: 5, completionTokens: 3 });
  } finally {
    await close(server);
  }
});

test('endpointFromEnv names what is missing; bad URLs are refused', () => {
  const saved = { url: process.env.LAB_ENDPOINT_URL, model: process.env.LAB_ENDPOINT_MODEL };
  delete process.env.LAB_ENDPOINT_URL;
  delete process.env.LAB_ENDPOINT_MODEL;
  try {
    assert.throws(() => endpointFromEnv(), /--endpoint URL or set LAB_ENDPOINT_URL/);
    assert.throws(() => endpointFromEnv({ baseUrl: 'http://x/v1' }), /--model NAME/);
    assert.equal(endpointFromEnv({ baseUrl: 'http://x/v1', model: 'm' }).model, 'm');
    assert.throws(() => new ChatEndpoint({ baseUrl: 'localhost:8000', model: 'm' }), /must be http or https|is not a URL/);
  } finally {
    if (saved.url !== undefined) process.env.LAB_ENDPOINT_URL = saved.url;
    if (saved.model !== undefined) process.env.LAB_ENDPOINT_MODEL = saved.model;
  }
});
