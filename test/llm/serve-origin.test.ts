/**
 * `lab serve` and web pages: a page on another origin must not make the model generate (a
 * text/plain POST needs no CORS preflight, so without a check any site open in a browser could
 * use it); the server's own origin and origins allowed with --allow-origin may. A malformed
 * percent-encoding in a path is the client's error (400), not the server's.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { ChatServer } from '../../main/llm/serve.ts';
import { MODEL_NAME, useServedModel, type ServedModel } from './helpers.ts';

let s: ServedModel;
useServedModel((x) => (s = x));
let open: ChatServer | undefined;
const ALLOWED = 'http://127.0.0.1:5173';
/** A second server on the same model worker, started with --allow-origin ALLOWED. */
async function allowingServer(): Promise<string> {
  open = new ChatServer({ worker: s.worker, modelName: MODEL_NAME, allowOrigins: [ALLOWED] });
  return open.listen(0);
}
after(() => open?.close());

/** A raw request, so the test sets the Origin header as a browser would. */
function send(base: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const simplePost = JSON.stringify({ messages: [{ role: 'user', content: 'function f(' }], temperature: 0, max_tokens: 2 });
const root = () => s.baseUrl.replace(/\/v1$/, '');

test('a cross-origin text/plain POST from another web page is refused before any generation', async () => {
  const served = s.server.served;
  const r = await send(root(), 'POST', '/v1/chat/completions', { origin: 'https://evil.example', 'content-type': 'text/plain' }, simplePost);
  assert.equal(r.status, 403);
  assert.match(JSON.parse(r.text).error.message, /origin https:\/\/evil\.example are refused; start lab serve with --allow-origin https:\/\/evil\.example/);
  assert.equal(s.server.served, served, 'nothing was generated');
  assert.equal((await send(root(), 'GET', '/health', { origin: 'null' })).status, 403, 'a sandboxed page (Origin: null) too');
});

test('the server\'s own origin, no Origin (curl, SDKs) and an --allow-origin origin are served', async () => {
  const port = new URL(root()).port;
  for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
    assert.equal((await send(root(), 'POST', '/v1/chat/completions', { origin, 'content-type': 'application/json' }, simplePost)).status, 200, origin);
  }
  assert.equal((await send(root(), 'POST', '/v1/chat/completions', { 'content-type': 'application/json' }, simplePost)).status, 200);
  const openUrl = await allowingServer();
  const pre = await send(openUrl, 'OPTIONS', '/v1/chat/completions', { origin: ALLOWED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers['access-control-allow-origin'], ALLOWED);
  const ok = await send(openUrl, 'POST', '/v1/chat/completions', { origin: ALLOWED, 'content-type': 'application/json' }, simplePost);
  assert.equal(ok.status, 200);
  assert.equal(ok.headers['access-control-allow-origin'], ALLOWED);
  assert.equal((await send(openUrl, 'POST', '/v1/chat/completions', { origin: 'http://127.0.0.1:5174', 'content-type': 'text/plain' }, simplePost)).status, 403, 'only the origin named');
});

test('GET /v1/models/%ZZ is a 400 naming the path', async () => {
  const r = await send(root(), 'GET', '/v1/models/%ZZ', {});
  assert.equal(r.status, 400);
  assert.match(JSON.parse(r.text).error.message, /path \/v1\/models\/%ZZ: malformed percent-encoding/);
  assert.equal((await send(root(), 'GET', `/v1/models/${MODEL_NAME}`, {})).status, 200);
});
