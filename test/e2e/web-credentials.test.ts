/**
 * Web mode's credentials against other local servers, as an attacker would try them (issue 43):
 * a real Chromium opens the app, then visits servers of its own on other ports and names; requests
 * name hosts that are not the app's; tickets are tried on other resources and after they expire.
 * Browsers do not separate cookies by port, so the session cookie, which used to be the token
 * itself on 127.0.0.1, went to every server on 127.0.0.1 the browser visited.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { LabStore } from '../../main/store/lab.ts';
import { LabService } from '../../main/server/service.ts';
import { startWebServer, type WebServer } from '../../main/server/web.ts';
import { buildRenderer, openWebApp, type WebApp } from '../helpers/web-app.ts';
import { apiSocket, requestAs } from '../helpers/web-client.ts';
import { makePng, writeEpisode } from '../datasets/helpers.ts';

let app: WebApp | undefined;
let web: WebServer;
let page: Page;
let store: LabStore;
let episode = '';
let rendererDir = '';

/** A server of someone else's on 127.0.0.1: it serves a page and keeps every request it gets. */
interface Canary {
  port: number;
  seen: Array<{ url: string; headers: IncomingHttpHeaders }>;
  server: Server;
}
let canary: Canary;

async function startCanary(): Promise<Canary> {
  const seen: Canary['seen'] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>canary</title><p>another local server</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { port: (server.address() as AddressInfo).port, seen, server };
}

before(async () => {
  const renderer = buildRenderer();
  store = new LabStore(mkdtempSync(join(tmpdir(), 'lab-e2e-credentials-')));
  episode = writeEpisode(store, { family: 'shop', seed: 1, screenshots: [makePng(40, 30, [200, 0, 0]), makePng(40, 30, [0, 200, 0]), makePng(40, 30, [0, 0, 200])] });
  canary = await startCanary();
  await renderer.done;
  rendererDir = renderer.dir;
  app = await openWebApp(new LabService({ store, families: new Map(), mode: 'web', startBrowser: () => Promise.reject(new Error('no browser in this test')) }), renderer.dir, { width: 1200, height: 800 });
  ({ web, page } = app);
});

after(async () => {
  await app?.close();
  canary?.server.close();
});

const leaks = (headers: IncomingHttpHeaders, url: string) => {
  const text = `${url}\n${JSON.stringify(headers)}`;
  return [text.includes(web.token) && 'the token', /lab-session/.test(text) && 'the lab-session cookie'].filter(Boolean);
};

test('after the app is opened, other local servers the same browser visits get neither its session cookie nor its token', async () => {
  await page.goto(web.openUrl);
  await page.locator('.episode-row').first().waitFor();
  const { port } = new URL(web.url);
  // Another port of 127.0.0.1 and of localhost, another *.localhost name: what an attacker can serve and lure the browser to.
  const elsewhere = [`http://127.0.0.1:${canary.port}/`, `http://localhost:${canary.port}/`, `http://lab-${randomBytes(8).toString('hex')}.localhost:${canary.port}/`];
  for (const url of elsewhere) {
    const res = await page.goto(url);
    assert.equal(res?.status(), 200, url);
  }
  assert.deepEqual([...new Set(canary.seen.map((r) => `http://${r.headers.host}/`))].sort(), elsewhere.sort(), 'the canary saw every visit (and a favicon request or two)');
  for (const r of canary.seen) assert.deepEqual(leaks(r.headers, r.url), [], `${r.headers.host}${r.url}`);
  // And the browser holds no cookie for any other address, this server's port at other names included.
  for (const url of [...elsewhere, `http://127.0.0.1:${port}/`, `http://localhost:${port}/`, `http://lab-other.localhost:${port}/`]) {
    assert.deepEqual(await page.context().cookies(url), [], url);
  }
  const [cookie, ...others] = await page.context().cookies(web.url);
  assert.deepEqual(others, []);
  assert.equal(cookie.name, 'lab-session');
  assert.equal(cookie.domain, new URL(web.url).hostname, 'host-only: the app\'s own name, no Domain');
  assert.notEqual(cookie.value, web.token, 'the cookie holds a session id, not the token');
});

test("a page of another local server that knows the app's address cannot use the session: no screenshot, no API socket", async () => {
  await page.goto(web.openUrl);
  await page.locator('.episode-row').first().waitFor();
  const hash = store.readEpisode(episode).steps[0].observation.screenshot!;
  await page.goto(`http://127.0.0.1:${canary.port}/attack`);
  const tried = await page.evaluate(async ({ appUrl, hash }) => {
    const img = await new Promise<string>((resolve) => {
      const el = document.createElement('img');
      el.onload = () => resolve(`loaded ${el.naturalWidth}x${el.naturalHeight}`);
      el.onerror = () => resolve('refused');
      el.src = `${appUrl}/blob/${hash}.png`;
      document.body.append(el);
    });
    const socket = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`${appUrl.replace(/^http/, 'ws')}/api`);
      ws.onopen = () => resolve('open');
      ws.onerror = () => resolve('refused');
    });
    const session = await fetch(`${appUrl}/session`, { credentials: 'include', mode: 'no-cors' }).then((r) => r.type, () => 'refused');
    return { img, socket, session };
  }, { appUrl: web.url, hash });
  assert.equal(tried.img, 'refused', 'the screenshot is not served to another site: the cookie is SameSite=Strict');
  assert.equal(tried.socket, 'refused');
  assert.notEqual(tried.session, 'basic', 'no readable answer');
});

test('a request naming a host that is not the app\'s is refused, whatever it carries (DNS rebinding, another *.localhost name)', async () => {
  const { port } = new URL(web.apiUrl);
  const session = await requestAs(web, '/session', { method: 'POST', headers: { authorization: `Bearer ${web.token}` } });
  const cookie = String(session.headers['set-cookie']).split(';')[0];
  const appName = new URL(web.url).hostname;
  for (const host of [`evil.example:${port}`, `lab-other.localhost:${port}`, `${appName}:1`, appName, `127.0.0.2:${port}`]) {
    for (const [path, opts] of [
      ['/', {}],
      ['/session', { method: 'POST', headers: { authorization: `Bearer ${web.token}` } }],
      [`/blob/${'0'.repeat(64)}.png`, { headers: { authorization: `Bearer ${web.token}`, cookie } }],
    ] as const) {
      const res = await requestAs(web, path, { host, ...opts });
      assert.equal(res.status, 421, `${host} ${path}`);
      assert.ok(!res.body.includes(appName), 'the refusal does not name the app\'s host');
    }
  }
  // The API socket too, with the token.
  const refused = await new Promise<string>((resolve) => {
    const ws = apiSocket(web);
    ws.on('open', () => resolve('open'));
    ws.on('error', () => resolve('refused'));
  });
  assert.equal(refused, 'open', 'control: 127.0.0.1 with the bearer token opens');
  const { WebSocket } = await import('ws');
  const rebound = await new Promise<string>((resolve) => {
    const ws = new WebSocket(`${web.apiUrl.replace(/^http/, 'ws')}/api`, { headers: { authorization: `Bearer ${web.token}`, host: `evil.example:${port}` } });
    ws.on('open', () => resolve('open'));
    ws.on('error', () => resolve('refused'));
  });
  assert.equal(rebound, 'refused');
  // In the browser: a rebound name reaches this server and gets nothing.
  const res = await page.goto(`http://evil.localhost:${port}/`);
  assert.equal(res?.status(), 421);
  // The app itself is not served at 127.0.0.1 either, where it could get no session.
  assert.equal((await requestAs(web, '/', { host: `127.0.0.1:${port}` })).status, 421);
  assert.equal((await requestAs(web, '/session', { host: `127.0.0.1:${port}`, method: 'POST', headers: { authorization: `Bearer ${web.token}` } })).status, 421);
});

test('a ticket opens its one resource, not another, and not once it has expired', async () => {
  const ticketWeb = await startWebServer({ service: app!.service, rendererDir, ticketTtlMs: 1500 });
  try {
    const [a, b] = store.readEpisode(episode).steps.map((s) => s.observation.screenshot!);
    const mint = (path: string, headers: Record<string, string> = { authorization: `Bearer ${ticketWeb.token}` }) =>
      fetch(`${ticketWeb.apiUrl}/ticket`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ path }) });
    assert.equal((await mint(`/blob/${a}.png`, {})).status, 403, 'no ticket without the token or a session');
    assert.equal((await mint(`/blob/${a}.png`, { authorization: 'Bearer wrong' })).status, 403);
    for (const path of ['/session', '/api', '/index.html', `/blob/${a}.png/../x`]) assert.equal((await mint(path)).status, 400, path);
    const res = await mint(`/blob/${a}.png`);
    assert.equal(res.status, 200);
    const { url, expiresAt } = (await res.json()) as { url: string; expiresAt: string };
    assert.match(url, new RegExp(`^/blob/${a}\\.png\\?ticket=[A-Za-z0-9_-]{32}$`));
    assert.doesNotMatch(url, new RegExp(ticketWeb.token), 'the ticket is not the token');
    assert.ok(Date.parse(expiresAt) - Date.now() <= 1500);
    const ticket = new URL(url, ticketWeb.apiUrl).searchParams.get('ticket')!;

    // Its resource, at either address, for a tool with no cookie and no token: a browser context of its own.
    const png = await fetch(`${ticketWeb.apiUrl}${url}`);
    assert.equal(png.status, 200);
    assert.equal(png.headers.get('content-type'), 'image/png');
    const context = await app!.browser.newContext();
    const stranger = await context.newPage();
    assert.equal((await stranger.goto(`${ticketWeb.url}${url}`))?.status(), 200);
    assert.deepEqual(await context.cookies(), [], 'a ticket makes no session');
    // Another resource with the same ticket: nothing.
    for (const other of [`/blob/${b}.png`, '/experiments/x/report.html', '/exports/000000000000.tar']) {
      assert.equal((await fetch(`${ticketWeb.apiUrl}${other}?ticket=${ticket}`)).status, 403, other);
    }
    assert.equal((await stranger.goto(`${ticketWeb.url}/blob/${b}.png?ticket=${ticket}`))?.status(), 403);
    // Nor the API, nor a session.
    assert.equal((await requestAs(ticketWeb, `/session?ticket=${ticket}`)).status, 403);
    await context.close();

    // Expired: nothing.
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(expiresAt) - Date.now()) + 100));
    assert.equal((await fetch(`${ticketWeb.apiUrl}${url}`)).status, 403, 'expired');

    // The app's session may mint one too (a link to hand to another tool).
    const session = await requestAs(ticketWeb, '/session', { method: 'POST', headers: { authorization: `Bearer ${ticketWeb.token}` } });
    const cookie = String(session.headers['set-cookie']).split(';')[0];
    const viaSession = await requestAs(ticketWeb, '/ticket', { method: 'POST', headers: { cookie, 'content-type': 'application/json', origin: ticketWeb.url }, body: JSON.stringify({ path: `/blob/${b}.png` }) });
    assert.equal(viaSession.status, 200);
    assert.equal((await fetch(`${ticketWeb.apiUrl}${(JSON.parse(viaSession.body) as { url: string }).url}`)).status, 200);
    // ...but not from a page of another site.
    const crossSite = await requestAs(ticketWeb, '/ticket', { method: 'POST', headers: { cookie, origin: `http://127.0.0.1:${canary.port}` }, body: JSON.stringify({ path: `/blob/${b}.png` }) });
    assert.equal(crossSite.status, 403);
  } finally {
    await ticketWeb.close();
  }
});

test('the app works at its own address: the API socket, a screenshot through the session, a reload and a second tab', async () => {
  // A second tab of the same browser profile: a context holding the same cookies (the harness's page owns its own).
  const context = await app!.browser.newContext();
  await context.addCookies(await page.context().cookies());
  const tab = await context.newPage();
  for (const p of [page, tab]) {
    await p.goto(`${web.url}/#/episode/${episode}`);
    await p.getByTestId('episode-title').waitFor();
    const img = p.getByTestId('screenshot').locator('img').first();
    await img.waitFor();
    await p.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await img.elementHandle());
    assert.doesNotMatch(p.url(), /token/);
  }
  await page.reload();
  await page.getByTestId('episode-title').waitFor();
  await context.close();
  // The refusals above log as failed loads; nothing else may.
  assert.deepEqual(app!.consoleErrors.filter((e) => !/status of 4(03|21)|WebSocket connection to .* failed/.test(e)), []);
});
