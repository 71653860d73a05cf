/**
 * Issue 43: a task page must not reach any other service on this machine, whichever way it asks.
 * Written as an attacker would: a hostile task page on loopback (and a hostile frame of a second,
 * allowed site) tries every route a page has to a canary, an HTTP + WebSocket + UDP service on
 * another port that listens on all interfaces: fetch, XHR, images, scripts, frames, forms,
 * beacons, prefetch, EventSource, a redirect from its own origin, the WebSocket constructor got
 * around any wrapper, a sandboxed srcdoc frame, dedicated, blob, shared and service workers
 * (reading the answer back), WebRTC (STUN over UDP, TURN over TCP), WebTransport, every spelling
 * of loopback, and this machine's own non-loopback addresses. The canary must see nothing at all
 * (not a TCP connection, not a datagram); the page's own origin, its workers, its own WebSocket and
 * the allowed frame must still work (positive controls, so the test cannot pass by blocking
 * everything). Before the policy proxy, workers, the sandboxed frame and the machine's own
 * address reached the canary and read its answer.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { connect, type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { WebSocketServer } from 'ws';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { isLocalAddress, localAddresses, PolicyProxy } from '../../main/environment/policy-proxy.ts';

const SECRET = 'CANARY-SECRET-7f3a';

/** A service the page must never reach: every TCP connection, request, upgrade and datagram is recorded. */
interface Canary {
  port: number;
  hits: string[];
  close(): Promise<void>;
}

async function startCanary(): Promise<Canary> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.headers.host} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end(SECRET);
  });
  server.on('connection', (socket) => hits.push(`tcp from ${socket.remoteAddress}`));
  server.on('upgrade', (req, socket) => {
    hits.push(`upgrade ${req.url}`);
    socket.destroy();
  });
  server.on('connect', (req, socket) => {
    hits.push(`connect ${req.url}`);
    socket.destroy();
  });
  // '::' without ipv6Only: every interface, IPv4 and IPv6, loopback and not.
  await new Promise<void>((r) => server.listen({ port: 0, host: '::' }, () => r()));
  const port = (server.address() as AddressInfo).port;
  // The same port number over UDP: STUN, TURN's UDP and WebTransport (QUIC) would land here.
  const udp: UdpSocket = createSocket({ type: 'udp6' });
  udp.on('message', (_msg, from) => hits.push(`udp from ${from.address}`));
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(port, '::', () => resolve());
  });
  return {
    port,
    hits,
    close: () =>
      new Promise<void>((r) => {
        udp.close();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A site the test serves: records what it is asked, answers `routes`, and collects POSTed /report bodies. */
interface Site {
  url: string;
  hits: string[];
  reports: string[];
  close(): Promise<void>;
}

type Route = (url: URL) => { type?: string; body: string; status?: number; headers?: Record<string, string> } | undefined;

async function startSite(address: string, route: Route): Promise<Site> {
  const hits: string[] = [];
  const reports: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.push(url.pathname);
    if (url.pathname === '/report') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        reports.push(body || url.search);
        res.writeHead(204, { 'access-control-allow-origin': '*' }).end();
      });
      return;
    }
    const r = route(url);
    if (!r) return void res.writeHead(404).end('not found');
    res.writeHead(r.status ?? 200, { 'content-type': r.type ?? 'text/html', 'cache-control': 'no-store', ...r.headers }).end(r.body);
  });
  // Its own WebSocket: the page must still reach that (through the proxy's tunnel).
  const wss = new WebSocketServer({ server, path: '/ws' });
  wss.on('connection', (ws) => ws.send('hello'));
  await new Promise<void>((r) => server.listen(0, address, () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    hits,
    reports,
    close: () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** This machine's addresses outside loopback, as URL hosts (link-local ones cannot be written in a URL). */
function ownAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && !a.internal && !a.address.startsWith('fe80:'))
    .map((a) => (a!.family === 'IPv6' ? `[${a!.address}]` : a!.address));
}

/** Script shared by the page and the hostile frame: helpers that report to the document's own origin. */
const HELPERS = `
  const report = (what, detail = '') => fetch('/report', { method: 'POST', body: JSON.stringify({ what, detail: String(detail).slice(0, 300) }) }).catch(() => {});
  const settle = (p, ms = 3000) => Promise.race([Promise.resolve(p).then(() => {}, () => {}), new Promise((r) => setTimeout(r, ms))]);
  const read = (url, what) => fetch(url).then((r) => r.text()).then((t) => report(what || 'read', url + ' -> ' + t), () => {});
  const wsTry = (what, make) => new Promise((resolve) => {
    try {
      const ws = make();
      ws.onopen = () => report('ws-open', what);
      ws.onmessage = (e) => report('ws-message', what + ' ' + e.data);
      ws.onerror = ws.onclose = () => resolve();
    } catch (e) { resolve(); }
    setTimeout(resolve, 2500);
  });
`;

/** A dedicated worker: fetch (read), XHR-free WebSocket; reports with its own fetch too. */
const workerScript = (c: number) => `
  const report = (what, detail) => fetch('/report', { method: 'POST', body: JSON.stringify({ what, detail: String(detail).slice(0, 300) }) }).catch(() => {});
  report('worker-ran', self.location.href);
  fetch('http://127.0.0.1:${c}/from-worker').then((r) => r.text()).then((t) => { report('worker-read', t); postMessage('read ' + t); }, () => postMessage('fetch failed'));
  try { const ws = new WebSocket('ws://127.0.0.1:${c}/worker-ws'); ws.onopen = () => report('ws-open', 'worker'); } catch (e) {}
`;

const sharedWorkerScript = (c: number) => `
  onconnect = (e) => {
    const port = e.ports[0];
    fetch('/report', { method: 'POST', body: JSON.stringify({ what: 'shared-ran' }) });
    fetch('http://127.0.0.1:${c}/from-shared-worker').then((r) => r.text()).then((t) => port.postMessage('read ' + t), () => port.postMessage('fetch failed'));
    try { const ws = new WebSocket('ws://127.0.0.1:${c}/shared-ws'); ws.onopen = () => port.postMessage('ws open'); } catch (e) {}
  };
`;

const serviceWorkerScript = (c: number) => `
  const report = (what, detail) => fetch('/report', { method: 'POST', body: JSON.stringify({ what, detail: String(detail).slice(0, 300) }) }).catch(() => {});
  self.addEventListener('install', (e) => e.waitUntil((async () => {
    await report('sw-ran', '');
    await fetch('http://127.0.0.1:${c}/from-service-worker').then((r) => r.text()).then((t) => report('sw-read', t), () => report('sw-fetch-failed', ''));
  })()));
`;

/** The hostile task page. `frame`: the allowed second site; `stranger`: a loopback site the task does not allow. */
function attackPage(c: number, frame: string, stranger: string, own: string[]): string {
  const spellings = ['127.0.0.1', 'localhost', 'localhost.', 'foo.localhost', '127.0.0.2', '127.1', '2130706433', '0x7f.1', '0177.0.0.1', '0x7f000001', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '0.0.0.0', '[::]', ...own];
  return `<!doctype html><title>task</title>
<img src="http://127.0.0.1:${c}/img">
<script src="http://127.0.0.1:${c}/script"></script>
<link rel="prefetch" href="http://127.0.0.1:${c}/prefetch">
<link rel="stylesheet" href="http://127.0.0.1:${c}/style">
<iframe src="http://localhost:${c}/frame"></iframe>
<iframe name="sink"></iframe>
<form id="form" action="http://127.0.0.1:${c}/form" method="post" target="sink"><input name="x" value="1"></form>
<iframe src="${frame}/frame"></iframe>
<iframe src="${stranger}/frame"></iframe>
<iframe sandbox="allow-scripts" srcdoc="<script>
  fetch('http://127.0.0.1:${c}/srcdoc-fetch', { mode: 'no-cors' }).catch(() => {});
  try { new WebSocket('ws://127.0.0.1:${c}/srcdoc-ws'); } catch (e) {}
</script>"></iframe>
<script>
${HELPERS}
const C = ${c};
const tries = [];
const at = (path) => 'http://127.0.0.1:' + C + path;
// Positive controls: the page's own origin, over HTTP and WebSocket.
tries.push(read('/self', 'self-read'));
tries.push(wsTry('own', () => new WebSocket('ws://' + location.host + '/ws')));
// Plain requests.
tries.push(read(at('/fetch')));
tries.push(fetch(at('/fetch-no-cors'), { mode: 'no-cors' }));
tries.push(new Promise((resolve) => { const x = new XMLHttpRequest(); x.open('GET', at('/xhr')); x.onload = () => { report('read', 'xhr ' + x.responseText); resolve(); }; x.onerror = resolve; x.send(); }));
tries.push(new Promise((resolve) => { const i = new Image(); i.onload = i.onerror = resolve; i.src = at('/img-js'); }));
tries.push(Promise.resolve(navigator.sendBeacon(at('/beacon'), 'x')));
tries.push(new Promise((resolve) => { const es = new EventSource(at('/sse')); es.onmessage = (e) => report('read', 'sse ' + e.data); es.onerror = () => { es.close(); resolve(); }; setTimeout(resolve, 2500); }));
tries.push(read('/redirect', 'read'));
document.getElementById('form').submit();
// Every spelling of this machine.
for (const h of ${JSON.stringify(spellings)}) {
  tries.push(read('http://' + h + ':' + C + '/spelling/' + encodeURIComponent(h)));
  tries.push(wsTry('spelling ' + h, () => new WebSocket('ws://' + h + ':' + C + '/spelling-ws/' + encodeURIComponent(h))));
}
// WebSockets, around any wrapper of the constructor.
tries.push(wsTry('plain', () => new WebSocket(at('/ws-plain').replace('http:', 'ws:'))));
tries.push(wsTry('prototype.constructor', () => new WebSocket.prototype.constructor(at('/ws-proto').replace('http:', 'ws:'))));
tries.push(wsTry('getPrototypeOf', () => { const P = Object.getPrototypeOf(WebSocket); return new (P === EventTarget ? WebSocket : P)(at('/ws-getproto').replace('http:', 'ws:')); }));
tries.push(wsTry('fresh iframe', () => { const f = document.createElement('iframe'); document.body.append(f); return new f.contentWindow.WebSocket(at('/ws-iframe').replace('http:', 'ws:')); }));
// Workers of every kind, reading the answer back.
tries.push(new Promise((resolve) => { const w = new Worker('/worker.js'); w.onmessage = (e) => { report('worker-said', e.data); resolve(); }; setTimeout(resolve, 3000); }));
tries.push(new Promise((resolve) => {
  const src = "fetch('" + at('/from-blob-worker') + "').then((r) => r.text()).then((t) => postMessage('read ' + t), () => postMessage('fetch failed')); try { new WebSocket('" + at('/blob-ws').replace('http:', 'ws:') + "'); } catch (e) {}";
  const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
  w.onmessage = (e) => { report('blob-worker-said', e.data); resolve(); };
  setTimeout(resolve, 3000);
}));
tries.push(new Promise((resolve) => { const s = new SharedWorker('/shared-worker.js'); s.port.onmessage = (e) => report('shared-said', e.data); s.port.start(); setTimeout(resolve, 3000); }));
tries.push(settle(navigator.serviceWorker.register('/sw.js').then((r) => report('sw-registered', r.scope)), 3000).then(() => new Promise((r) => setTimeout(r, 1500))));
// WebRTC: STUN over UDP and TURN over TCP to the canary's port.
tries.push(settle((async () => {
  const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:' + C }, { urls: 'turn:127.0.0.1:' + C + '?transport=tcp', username: 'u', credential: 'p' }, { urls: 'turn:127.0.0.1:' + C + '?transport=udp', username: 'u', credential: 'p' }] });
  pc.createDataChannel('x');
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((r) => setTimeout(r, 2500));
  report('rtc-ran', pc.iceGatheringState);
  pc.close();
})(), 3500));
// WebTransport (QUIC over UDP).
if (typeof WebTransport === 'function') tries.push(settle((async () => { const t = new WebTransport('https://127.0.0.1:' + C + '/wt'); await t.ready; report('wt-open', ''); })(), 2500));
Promise.allSettled(tries.map((t) => settle(t, 6000))).then(() => setTimeout(() => fetch('/done'), 300));
</script>`;
}

/** The second site's frame: allowed to load, hostile in its turn. */
const framePage = (c: number) => `<!doctype html><title>frame</title>
<script>
${HELPERS}
Promise.allSettled([
  read('/self', 'frame-self-read'),
  read('http://127.0.0.1:${c}/from-frame'),
  wsTry('frame', () => new WebSocket('ws://127.0.0.1:${c}/frame-ws')),
  wsTry('frame prototype.constructor', () => new WebSocket.prototype.constructor('ws://127.0.0.1:${c}/frame-ws-proto')),
  new Promise((resolve) => { const w = new Worker('/worker.js'); w.onmessage = (e) => { report('frame-worker-said', e.data); resolve(); }; setTimeout(resolve, 3000); }),
].map((t) => settle(t, 4000))).then(() => fetch('/frame-done'));
</script>`;

let host: ChromiumHost;
let canary: Canary;
let task: Site;
let frameSite: Site;
let stranger: Site;
const own = ownAddresses();

function routes(c: number): Route {
  return (url) => {
    switch (url.pathname) {
      case '/page':
        return { body: attackPage(c, frameSite.url, stranger.url, own) };
      case '/frame':
        return { body: framePage(c) };
      case '/self':
        return { type: 'text/plain', body: 'own origin' };
      case '/redirect':
        return { status: 302, body: '', headers: { location: `http://127.0.0.1:${c}/redirected` } };
      case '/worker.js':
        return { type: 'text/javascript', body: workerScript(c) };
      case '/shared-worker.js':
        return { type: 'text/javascript', body: sharedWorkerScript(c) };
      case '/sw.js':
        return { type: 'text/javascript', body: serviceWorkerScript(c) };
      case '/done':
      case '/frame-done':
        return { type: 'text/plain', body: 'ok' };
    }
    return undefined;
  };
}

before(async () => {
  canary = await startCanary();
  const route: Route = (url) => routes(canary.port)(url);
  [task, frameSite, stranger, host] = await Promise.all([startSite('127.0.0.1', route), startSite('127.0.0.2', route), startSite('127.0.0.3', route), ChromiumHost.start()]);
});

after(async () => {
  await host?.close();
  await Promise.all([canary?.close(), task?.close(), frameSite?.close(), stranger?.close()]);
});

async function until(ok: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const reported = (site: Site, what: string) => site.reports.some((r) => r.includes(`"what":"${what}"`));

test('loopback, unspecified, link-local and this machine\'s own addresses are local in every form; the open web is not', () => {
  const local = localAddresses({
    eth0: [{ address: '192.0.2.2', netmask: '255.255.255.0', family: 'IPv4', mac: '02:00:00:00:00:01', internal: false, cidr: '192.0.2.2/24' }],
    eth1: [{ address: 'fd00::2', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: '02:00:00:00:00:01', internal: false, cidr: 'fd00::2/64', scopeid: 0 }],
  });
  const yes = [
    '127.0.0.1', '127.0.0.2', '127.255.255.254', '0.0.0.0', '0.1.2.3', '::1', '::', '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:0.0.0.0', '::127.0.0.1', '64:ff9b::127.0.0.1',
    '192.0.2.2', '::ffff:192.0.2.2', 'fd00::2', 'fd00:0:0::2', 'fd00::2%eth1',
    // Link-local: a cloud machine's metadata service, with its credentials.
    '169.254.169.254', '::ffff:169.254.169.254', 'fe80::1', 'fe80::1%eth0', 'fd00:ec2::254',
  ];
  const no = ['93.184.216.34', '192.0.2.3', '10.0.0.1', '128.0.0.1', '::2:0:0', 'fd00::3', '2606:4700::6810:84e5', '::ffff:93.184.216.34'];
  for (const a of yes) assert.ok(isLocalAddress(a, local), `${a} is this machine`);
  assert.ok(isLocalAddress('not an address', local), 'what is not an address is refused, not passed');
  for (const a of no) assert.ok(!isLocalAddress(a, local), `${a} is not this machine`);
  // This machine's real interfaces are local too, whichever they are.
  for (const a of Object.values(networkInterfaces()).flat()) if (a) assert.ok(isLocalAddress(a.address), a.address);
});

/** One request through the proxy, as a browser sends it: an absolute URI, or CONNECT for a tunnel. */
function viaProxy(proxy: PolicyProxy, target: string, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: proxy.port, method, path: target, headers: method === 'CONNECT' ? { host: target } : {} });
    req.on('response', (res: IncomingMessage) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('connect', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode!, body: '' });
    });
    req.on('error', reject);
    req.end();
  });
}

test('the proxy decides on the resolved address: every spelling of this machine is refused, allowed origins pass', async () => {
  canary.hits.length = 0;
  task.hits.length = 0;
  const proxy = await PolicyProxy.start();
  try {
    proxy.allow([task.url]);
    const c = canary.port;
    const own = ownAddresses();
    for (const h of ['127.0.0.1', 'localhost', 'localhost.', 'LocalHost', 'foo.localhost', '127.1', '2130706433', '0x7f.1', '0177.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::]', '0.0.0.0', ...own]) {
      const r = await viaProxy(proxy, `http://${h}:${c}/spelling`);
      assert.equal(r.status, 403, `GET ${h}`);
      assert.equal((await viaProxy(proxy, `${h}:${c}`, 'CONNECT')).status, 403, `CONNECT ${h}`);
    }
    // The proxy itself is a local port like any other.
    assert.equal((await viaProxy(proxy, `http://127.0.0.1:${proxy.port}/`)).status, 403);
    // Not a proxy request at all (a page cannot send one, but a local program could).
    assert.equal((await viaProxy(proxy, '/direct')).status, 400);
    assert.deepEqual(canary.hits, [], 'the canary was reached through the proxy');
    // The task's own origin passes, over both ways.
    const ok = await viaProxy(proxy, `${task.url}/self`);
    assert.deepEqual(ok, { status: 200, body: 'own origin' });
    assert.equal((await viaProxy(proxy, new URL(task.url).host, 'CONNECT')).status, 200);
    // Another loopback name for the task's port is another origin: refused.
    assert.equal((await viaProxy(proxy, `http://localhost:${new URL(task.url).port}/self`)).status, 403);
    const refused = proxy.takeRefused();
    assert.ok(refused && refused.count >= 30, JSON.stringify(refused));
    assert.ok(refused.requests.includes(`GET http://127.0.0.1:${c}/spelling`), JSON.stringify(refused.requests));
    assert.ok(refused.requests.includes(`CONNECT 127.0.0.1:${c}`), JSON.stringify(refused.requests));
    assert.equal(proxy.takeRefused(), null, 'a take starts the next window');
  } finally {
    await proxy.close();
  }
  // Closed with its context: nothing listens there any more.
  await assert.rejects(new Promise((resolve, reject) => connect(proxy.port, '127.0.0.1').on('connect', resolve).on('error', reject)));
});

test('the proxy resolves a name once and connects to that address (DNS rebinding finds nothing)', async () => {
  // Here 127.0.0.2 plays the open web: the proxy's idea of "this machine" is 127.0.0.1 alone.
  const web = await startSite('127.0.0.2', () => ({ type: 'text/plain', body: 'the web' }));
  const port = Number(new URL(web.url).port);
  // The canary on 127.0.0.1 at the same port number, where a second resolution would lead.
  const rebound: string[] = [];
  const trap = createServer((req, res) => (rebound.push(req.url ?? ''), res.end(SECRET)));
  const listening = await new Promise<boolean>((r) => trap.once('error', () => r(false)).listen(port, '127.0.0.1', () => r(true)));
  const answers = ['127.0.0.2'];
  let lookups = 0;
  const proxy = await PolicyProxy.start({
    localAddresses: () => localAddresses({}, ['127.0.0.1']),
    lookup: async () => (lookups++, [answers[lookups - 1] ?? '127.0.0.1']),
  });
  try {
    assert.deepEqual(await viaProxy(proxy, `http://rebind.example:${port}/a`), { status: 200, body: 'the web' });
    assert.equal(lookups, 1, 'one resolution per request');
    // The next resolution says 127.0.0.1: refused on that answer, before any connection.
    assert.equal((await viaProxy(proxy, `http://rebind.example:${port}/b`)).status, 403);
    assert.equal((await viaProxy(proxy, `rebind.example:${port}`, 'CONNECT')).status, 403);
    assert.deepEqual(rebound, [], 'a second resolution reached 127.0.0.1');
    assert.ok(listening, 'the trap could not listen; the check above proved less');
  } finally {
    await proxy.close();
    await web.close();
    await new Promise<void>((r) => trap.close(() => r()));
  }
});

test('a hostile task page reaches nothing on this machine by any route; its own origin, workers and allowed frame still work', async (t) => {
  if (!own.length) t.diagnostic('this machine has no non-loopback address: that route is not tried');
  canary.hits.length = 0;
  const env = new BrowserEnv(host, { prefetchPage: false, stepTimeoutMs: 20_000 });
  try {
    await env.reset({ instruction: 'x', startUrl: `${task.url}/page`, allowedOrigins: [task.url, frameSite.url] });
    await until(() => task.hits.includes('/done') && frameSite.hits.includes('/frame-done'), 'the page and its frame to finish their tries');
    await new Promise((r) => setTimeout(r, 1000)); // stragglers: beacons, prefetch, the service worker
    const leaks = [...task.reports, ...frameSite.reports].filter((r) => r.includes(SECRET) || r.includes('"what":"ws-open"') && !r.includes('"own"'));
    assert.deepEqual({ canary: canary.hits, leaks }, { canary: [], leaks: [] }, 'the canary was reached, or its answer read');
    assert.deepEqual(stranger.hits, [], 'a loopback site outside the task loaded in a frame');
    // Positive controls: none of this may be refused.
    assert.ok(reported(task, 'self-read') && task.reports.some((r) => r.includes('own origin')), 'the page reads its own origin');
    assert.ok(task.reports.some((r) => r.includes('"ws-message"') && r.includes('own hello')), `the page's own WebSocket works: ${task.reports.join('\n')}`);
    for (const w of ['worker-ran', 'shared-ran', 'sw-ran', 'sw-registered']) assert.ok(reported(task, w), `${w}: ${task.reports.join('\n')}`);
    assert.ok(reported(frameSite, 'frame-self-read') && reported(frameSite, 'worker-ran'), `the allowed frame and its worker run: ${frameSite.reports.join('\n')}`);
    // The refusals are in the step's record, workers' among them.
    const step = await env.step('noop(0)');
    const refused = step.activity.refused;
    assert.ok(refused && refused.count >= 40, JSON.stringify(refused));
  } finally {
    await env.close();
  }
});

test('a worker\'s refused request is in the step\'s record', async () => {
  const page = `<!doctype html><title>w</title><script>
    new SharedWorker('/shared-worker.js').port.start();
  </script>`;
  const site = await startSite('127.0.0.1', (url) => (url.pathname === '/p' ? { body: page } : url.pathname === '/shared-worker.js' ? { type: 'text/javascript', body: sharedWorkerScript(canary.port) } : undefined));
  const env = new BrowserEnv(host, { prefetchPage: false });
  try {
    await env.reset({ instruction: 'x', startUrl: `${site.url}/p`, allowedOrigins: [site.url] });
    await until(() => site.reports.some((r) => r.includes('shared-ran')), 'the shared worker');
    await new Promise((r) => setTimeout(r, 500));
    const step = await env.step('noop(0)');
    assert.ok(step.activity.refused?.requests.includes(`GET http://127.0.0.1:${canary.port}/from-shared-worker`), JSON.stringify(step.activity.refused));
    assert.ok(step.activity.refused?.requests.includes(`CONNECT 127.0.0.1:${canary.port}`), JSON.stringify(step.activity.refused));
  } finally {
    await env.close();
    await site.close();
  }
});
