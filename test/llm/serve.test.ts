import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderChatPrompt, TURN_STOP } from '../../main/llm/chat-template.ts';
import { StopScanner } from '../../main/llm/stop-scanner.ts';
import { ChatServer } from '../../main/llm/serve.ts';
import { ChatEndpoint } from '../../main/llm/client.ts';
import { MODEL_NAME, readSse, useServedModel, type ServedModel } from './helpers.ts';

let s: ServedModel;
useServedModel((x) => (s = x));

const post = (body: unknown, path = '/chat/completions') =>
  fetch(`${s.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

const PROMPT = [{ role: 'system', content: 'Complete the code.' }, { role: 'user', content: 'export function add(a: number, b: number' }];

test('the chat template renders roles as headers and ends with the assistant header; image parts are dropped and counted', () => {
  const r = renderChatPrompt([
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'Look:' }, { type: 'image_url' }, { type: 'text', text: 'what is it?' }] },
    { role: 'assistant', content: 'A cat.' },
    { role: 'user', content: 'Sure?' },
  ]);
  assert.equal(r.prompt, '### System\nBe brief.\n\n### User\nLook:\nwhat is it?\n\n### Assistant\nA cat.\n\n### User\nSure?\n\n### Assistant\n');
  assert.equal(r.droppedImages, 1);
  assert.ok(r.prompt.endsWith(`${TURN_STOP.slice(1)}Assistant\n`));
});

test('stop scanner: finds the earliest stop string and holds back a partial one', () => {
  const sc = new StopScanner(['END', '\n### ']);
  assert.equal(sc.find('abc END x'), 4);
  assert.equal(sc.find('abc'), null);
  assert.equal(sc.safeLength('abc EN'), 4);
  assert.equal(sc.safeLength('abc\n##'), 3);
  assert.equal(sc.safeLength('abc'), 3);
});

test('non-streamed greedy completion: OpenAI response shape, usage counts, deterministic text', async () => {
  const res = await post({ model: MODEL_NAME, messages: PROMPT, temperature: 0, max_tokens: 24 });
  assert.equal(res.status, 200);
  const a = await res.json();
  assert.equal(a.object, 'chat.completion');
  assert.match(a.id, /^chatcmpl-/);
  assert.equal(a.model, MODEL_NAME);
  assert.equal(a.choices.length, 1);
  assert.equal(a.choices[0].message.role, 'assistant');
  assert.ok(a.choices[0].message.content.length > 0);
  assert.ok(['stop', 'length'].includes(a.choices[0].finish_reason));
  assert.ok(a.usage.prompt_tokens > 10);
  assert.ok(a.usage.completion_tokens >= 1 && a.usage.completion_tokens <= 24);
  assert.equal(a.usage.total_tokens, a.usage.prompt_tokens + a.usage.completion_tokens);
  const b = await (await post({ messages: PROMPT, temperature: 0, max_tokens: 24 })).json();
  assert.equal(b.choices[0].message.content, a.choices[0].message.content);
});

test('streaming: SSE chunks in OpenAI chunk format reassemble to the non-streamed greedy text, then usage and [DONE]', async () => {
  const plain = await (await post({ messages: PROMPT, temperature: 0, max_tokens: 40 })).json();
  const res = await post({ messages: PROMPT, temperature: 0, max_tokens: 40, stream: true, stream_options: { include_usage: true } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
  const events = await readSse(res);
  assert.equal(events[events.length - 1], '[DONE]');
  const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
  for (const c of chunks) {
    assert.equal(c.object, 'chat.completion.chunk');
    assert.equal(c.id, chunks[0].id);
  }
  assert.equal(chunks[0].choices[0].delta.role, 'assistant');
  const contentChunks = chunks.filter((c) => c.choices[0]?.delta?.content);
  assert.ok(contentChunks.length > 1, 'text arrives in several chunks');
  const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
  assert.equal(text, plain.choices[0].message.content);
  const finish = chunks.filter((c) => c.choices[0]?.finish_reason);
  assert.equal(finish.length, 1);
  assert.equal(finish[0].choices[0].finish_reason, plain.choices[0].finish_reason);
  const usage = chunks[chunks.length - 1];
  assert.deepEqual(usage.choices, []);
  assert.deepEqual(usage.usage, plain.usage);
});

test('stop strings cut the text before the stop string, in both modes; seeded nucleus sampling repeats', async () => {
  const full = (await (await post({ messages: PROMPT, temperature: 0, max_tokens: 40 })).json()).choices[0].message.content as string;
  // A stop string taken from the middle of the greedy text: the answer must end right before it.
  const cut = Math.floor(full.length / 2);
  const stop = full.slice(cut, cut + 3);
  assert.ok(stop.length === 3);
  const expected = full.slice(0, full.indexOf(stop));
  const a = await (await post({ messages: PROMPT, temperature: 0, max_tokens: 40, stop: [stop] })).json();
  assert.equal(a.choices[0].message.content, expected);
  assert.equal(a.choices[0].finish_reason, 'stop');
  const streamed = (await readSse(await post({ messages: PROMPT, temperature: 0, max_tokens: 40, stop, stream: true })))
    .slice(0, -1)
    .map((e) => JSON.parse(e).choices[0]?.delta?.content ?? '')
    .join('');
  assert.equal(streamed, expected);

  const n1 = (await (await post({ messages: PROMPT, temperature: 0.9, top_p: 0.9, seed: 7, max_tokens: 20 })).json()).choices[0].message.content;
  const n2 = (await (await post({ messages: PROMPT, temperature: 0.9, top_p: 0.9, seed: 7, max_tokens: 20 })).json()).choices[0].message.content;
  assert.equal(n1, n2);
});

test('bad requests get OpenAI error JSON with the right status, naming the field', async () => {
  const cases: Array<[unknown, number, RegExp, string | null]> = [
    [{ messages: [] }, 400, /messages/, 'messages'],
    [{ messages: [{ role: 'robot', content: 'hi' }] }, 400, /messages\[0\]\.role/, 'messages[0].role'],
    [{ messages: [{ role: 'user', content: 3 }] }, 400, /messages\[0\]\.content: must be a string, an array of content parts/, 'messages[0].content'],
    [{ messages: PROMPT, temperature: 3 }, 400, /temperature/, 'temperature'],
    [{ messages: PROMPT, max_tokens: 0 }, 400, /max_tokens/, 'max_tokens'],
    [{ messages: PROMPT, n: 2 }, 400, /n: only n=1/, 'n'],
    ['{not json', 400, /invalid JSON/, null],
    [{ model: 'gpt-9', messages: PROMPT }, 404, /gpt-9/, 'model'],
  ];
  for (const [body, status, message, param] of cases) {
    const res = await post(body);
    assert.equal(res.status, status, JSON.stringify(body));
    const e = await res.json();
    assert.match(e.error.message, message);
    assert.equal(e.error.param, param);
    assert.equal(typeof e.error.type, 'string');
  }
  const wrongMethod = await fetch(`${s.baseUrl}/chat/completions`);
  assert.equal(wrongMethod.status, 405);
  assert.equal((await fetch(`${s.baseUrl}/nothing`)).status, 404);
});

test('image parts are dropped with a note; a prompt longer than the context keeps its end and says so', async () => {
  const res = await post({
    messages: [{ role: 'user', content: [{ type: 'text', text: 'const x = ' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] }],
    temperature: 0,
    max_tokens: 4,
  });
  const a = await res.json();
  assert.equal(res.status, 200);
  assert.match(a.lab_notes.join(' '), /1 image part\(s\) dropped/);
  const long = await (await post({ messages: [{ role: 'user', content: 'let a = 1;\n'.repeat(400) }], temperature: 0, max_tokens: 8 })).json();
  assert.ok(long.usage.prompt_tokens <= 256 - 8);
  assert.match(long.lab_notes.join(' '), /first \d+ tokens were dropped/);
});

test('GET /v1/models and /health; concurrent requests are queued and all answered', async () => {
  const models = await (await fetch(`${s.baseUrl}/models`)).json();
  assert.deepEqual(models.data.map((m: { id: string }) => m.id), [MODEL_NAME]);
  const health = await (await fetch(`${s.baseUrl.replace(/\/v1$/, '')}/health`)).json();
  assert.equal(health.status, 'ok');
  assert.equal(health.ctx, 256);
  const before = health.served as number;
  const answers = await Promise.all([1, 2, 3].map((i) => post({ messages: PROMPT, temperature: 0, max_tokens: 6 + i }).then((r) => r.json())));
  assert.deepEqual(answers.map((a) => a.usage.completion_tokens <= 9), [true, true, true]);
  const after = await (await fetch(`${s.baseUrl.replace(/\/v1$/, '')}/health`)).json();
  assert.equal(after.served - before, 3);
  assert.equal(after.queue, 0);
});

test('a client that disconnects mid-stream stops its generation; the next request is served', async () => {
  const health = async () => (await fetch(`${s.baseUrl.replace(/\/v1$/, '')}/health`)).json();
  // Precondition: left alone, this request runs long (no early end-of-text), so a stop is visible.
  const full = await (await post({ messages: PROMPT, temperature: 0, max_tokens: 200 })).json();
  assert.equal(full.choices[0].finish_reason, 'length');
  assert.ok(full.usage.completion_tokens > 100);
  const before = (await health()).served as number;
  const abort = new AbortController();
  const res = await fetch(`${s.baseUrl}/chat/completions`, {
    method: 'POST',
    body: JSON.stringify({ messages: PROMPT, temperature: 0, max_tokens: 200, stream: true }),
    signal: abort.signal,
  });
  const reader = res.body!.getReader();
  await reader.read();
  abort.abort();
  await reader.closed.catch(() => undefined);
  const next = await (await post({ messages: PROMPT, temperature: 0, max_tokens: 4 })).json();
  assert.ok(next.usage.completion_tokens <= 4);
  const h = await health();
  // Only the second request finished: the abandoned one was stopped, not completed.
  assert.equal(h.served - before, 1);
  assert.equal(h.queue, 0);
});

test('with an API key, /v1 routes answer 401 in the OpenAI shape without it and serve the client that sends it; /health stays open', async () => {
  const keyed = new ChatServer({ worker: s.worker, modelName: MODEL_NAME, apiKey: 'sesame' });
  const url = await keyed.listen(0);
  try {
    const res = await fetch(`${url}/v1/models`);
    assert.equal(res.status, 401);
    assert.equal((await res.json()).error.code, 'invalid_api_key');
    assert.equal((await fetch(`${url}/health`)).status, 200);
    const client = new ChatEndpoint({ baseUrl: `${url}/v1`, model: MODEL_NAME, apiKey: 'sesame', maxWaitMs: 0 });
    const r = await client.chat({ messages: [{ role: 'user', content: 'let x' }], temperature: 0, maxTokens: 3 });
    assert.ok(r.usage.completionTokens >= 1);
    const wrong = new ChatEndpoint({ baseUrl: `${url}/v1`, model: MODEL_NAME, apiKey: 'guess', maxWaitMs: 0 });
    await assert.rejects(wrong.chat({ messages: [{ role: 'user', content: 'x' }] }), /401: missing or wrong API key/);
  } finally {
    await keyed.close();
  }
});

test('prefix caching: a request that starts like an earlier one reports the shared tokens as cached, as OpenAI does', async () => {
  const system = { role: 'system', content: 'You complete TypeScript declarations for a standard library, one line at a time.' };
  const first = await (await post({ messages: [system, { role: 'user', content: 'interface Map<K, V> {' }], temperature: 0, max_tokens: 4 })).json();
  const second = await (await post({ messages: [system, { role: 'user', content: 'interface Set<T> {' }], temperature: 0, max_tokens: 4 })).json();
  const cached = second.usage.prompt_tokens_details.cached_tokens;
  assert.ok(cached >= 15, `the system text is read from the cache (${cached} tokens)`);
  assert.ok(cached < second.usage.prompt_tokens, 'the differing user turn is not');
  assert.ok(first.usage.prompt_tokens_details.cached_tokens < cached);
});
