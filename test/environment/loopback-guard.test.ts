/**
 * A task page must not reach other ports on this machine's loopback interface (the web-mode API,
 * `lab serve`, a model endpoint). In real Chromium: a page served by one local HTTP server tries
 * a second local server on another port every way a page can (fetch, image, iframe, WebSocket,
 * by 127.0.0.1 and by localhost); the second server must receive nothing, while the page's own
 * origin still answers. Both CDP mechanisms are tested: the blocked-URL patterns and the Fetch
 * fallback for browsers without them (WebSockets, which neither sees, by the in-page guard).
 * This is the in-browser layer alone, as a browser that cannot reach a policy proxy here gets it:
 * the browser runs without one. The guard that holds is the proxy (network-guard.test.ts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { allowedLoopbackOrigins, guardLoopback, isBlockedRequest, isLoopbackHost } from '../../main/environment/loopback-guard.ts';

interface Recorder {
  url: string;
  port: number;
  hits: string[];
  server: Server;
}

async function recorder(page?: (other: Recorder) => string, other?: Recorder): Promise<Recorder> {
  const r: Recorder = { url: '', port: 0, hits: [], server: null as unknown as Server };
  r.server = createServer((req, res) => {
    r.hits.push(req.url ?? '');
    if (req.url === '/page' && page && other) return void res.writeHead(200, { 'content-type': 'text/html' }).end(page(other));
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('ok');
  });
  r.server.on('upgrade', (req, socket) => {
    r.hits.push(`upgrade ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((res) => r.server.listen(0, '127.0.0.1', () => res()));
  r.port = (r.server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}`;
  return r;
}

/** Every way a page reaches another port; when all have settled, it tells its own origin. */
const attackPage = (b: Recorder) => `<!doctype html><title>task</title>
<img src="http://127.0.0.1:${b.port}/img"><iframe src="http://localhost:${b.port}/frame"></iframe>
<script>
  const tries = [
    fetch('http://127.0.0.1:${b.port}/fetch', { mode: 'no-cors' }),
    fetch('http://localhost:${b.port}/fetch-localhost', { mode: 'no-cors' }),
    fetch('http://[::ffff:127.0.0.1]:${b.port}/fetch-mapped', { mode: 'no-cors' }),
    fetch('http://2130706433:${b.port}/fetch-decimal', { mode: 'no-cors' }),
    navigator.sendBeacon('http://127.0.0.1:${b.port}/beacon', 'x') ? Promise.resolve() : Promise.reject(),
    new Promise((resolve) => { const ws = new WebSocket('ws://127.0.0.1:${b.port}/ws'); ws.onerror = ws.onclose = resolve; setTimeout(resolve, 1500); }),
    fetch('/self'),
  ];
  Promise.allSettled(tries).then(() => setTimeout(() => fetch('/done'), 500));
</script>`;

let host: ChromiumHost;
let task: Recorder;
let other: Recorder;

before(async () => {
  host = await ChromiumHost.start({ policyProxy: false });
  other = await recorder();
  task = await recorder(attackPage, other);
});

after(async () => {
  await host?.close();
  for (const r of [task, other]) await new Promise<void>((res) => (r.server.closeAllConnections(), r.server.close(() => res())));
});

async function until(ok: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('loopback hosts and what is blocked, by URL', () => {
  for (const h of ['localhost', 'LOCALHOST', 'app.localhost', '127.0.0.1', '127.1.2.3', '0.0.0.0', '[::1]', '[::]', '[::ffff:7f00:1]']) assert.ok(isLoopbackHost(h), h);
  for (const h of ['example.com', '10.0.0.1', '128.0.0.1', '[::2]', 'localhost.example.com']) assert.ok(!isLoopbackHost(h), h);
  const allowed = allowedLoopbackOrigins('http://127.0.0.1:4000/i/x/', ['http://127.0.0.1:4000']);
  assert.deepEqual(allowed, ['http://127.0.0.1:4000']);
  assert.ok(!isBlockedRequest('http://127.0.0.1:4000/a', allowed));
  assert.ok(!isBlockedRequest('ws://127.0.0.1:4000/a', allowed));
  assert.ok(isBlockedRequest('http://127.0.0.1:8000/v1/chat/completions', allowed));
  assert.ok(isBlockedRequest('http://localhost:4000/', allowed), 'another name for the same port is another origin');
  assert.ok(isBlockedRequest('http://0x7f.1:8000/', allowed), 'the URL parser normalises odd IPv4 forms');
  assert.ok(!isBlockedRequest('https://example.com/', allowed));
  assert.deepEqual(allowedLoopbackOrigins('https://example.com/', []), [], 'a live-web task reaches no loopback origin');
});

test('a task page in BrowserEnv cannot reach another local port; its own origin still answers', async () => {
  const env = new BrowserEnv(host, { prefetchPage: false });
  try {
    await env.reset({ instruction: 'x', startUrl: `${task.url}/page`, allowedOrigins: [task.url] });
    await until(() => task.hits.includes('/done'), 'the page to finish its tries');
    assert.ok(task.hits.includes('/self'), 'the task origin is reachable');
    assert.deepEqual(other.hits, [], 'the other local server received nothing');
  } finally {
    await env.close();
  }
});

test('the Fetch-domain fallback blocks the same requests', async () => {
  task.hits.length = 0;
  other.hits.length = 0;
  const page = await host.newPage({ width: 800, height: 600 });
  try {
    await page.session.send('Page.enable'); // as BrowserEnv's pages have it: new-document scripts need it
    const guard = await guardLoopback(page.session, [task.url], { prefer: 'fetch' });
    assert.equal(guard.via, 'fetch');
    await page.session.send('Page.navigate', { url: `${task.url}/page` });
    await until(() => task.hits.includes('/done'), 'the page to finish its tries');
    assert.ok(task.hits.includes('/self'));
    assert.deepEqual(other.hits, []);
  } finally {
    await page.dispose();
  }
});
