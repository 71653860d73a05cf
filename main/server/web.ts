/**
 * Web mode: the built renderer and the same API contract over a WebSocket, listening on 127.0.0.1
 * only and served at a host name of its own (`lab-<random>.localhost`). Who may use it, and at which
 * address: web-auth.ts (the per-run token, the app's session, tickets).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { basename, extname, join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { EVENTS, METHODS, type LabMethod } from '../../preload/api.ts';
import { parseParams } from './params.ts';
import { REPORT_CSP, webAppCsp } from '../csp.ts';
import type { LabService } from './service.ts';
import { tarFolder } from './tar-stream.ts';
import { WebAuth } from './web-auth.ts';
import { LAB_ID_PATTERN } from '../store/layout.ts';

export { SESSION_COOKIE } from './web-auth.ts';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

export interface WebServer {
  /** The app's address, `http://lab-<random>.localhost:<port>`, for browsers (they resolve *.localhost to loopback). */
  url: string;
  /** The app's address with the token in its fragment, to open in a browser. */
  openUrl: string;
  /** `http://127.0.0.1:<port>`: the same server for API clients, with the token as a bearer header. */
  apiUrl: string;
  /** The Host header the app's requests carry (`lab-<random>.localhost:<port>`). */
  host: string;
  token: string;
  close(): Promise<void>;
}

/** The URLs a ticket can open: a screenshot, an experiment's report, a finished export. */
const RESOURCE = {
  blob: /^\/blob\/([0-9a-f]{64})\.png$/,
  report: new RegExp(`^/experiments/(${LAB_ID_PATTERN})/report\\.html$`),
  download: /^\/exports\/([0-9a-f]{12})\.tar$/,
};
const isResource = (path: string) => Object.values(RESOURCE).some((re) => re.test(path));

async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startWebServer(opts: { service: LabService; rendererDir: string; port?: number; token?: string; ticketTtlMs?: number }): Promise<WebServer> {
  const auth = new WebAuth({ token: opts.token, ticketTtlMs: opts.ticketTtlMs });

  const server: Server = createServer((req, res) => {
    handleHttp(req, res).catch((err) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err instanceof Error ? err.message : err));
    });
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const security = { 'content-security-policy': webAppCsp(auth.appHost), 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
    // Another host name (a rebound DNS name, another *.localhost name): not this server's business.
    // The answer does not name the app's host: that name is what keeps its cookie from other servers.
    const kind = auth.hostKind(req.headers.host);
    if (!kind) return void res.writeHead(421, security).end('misdirected request: not an address of this server');
    const url = new URL(req.url ?? '/', auth.appOrigin);
    // The app trades the token (read from the printed URL's fragment, never sent in a URL) for a
    // session cookie of its own host name; a tab opened later asks whether its cookie is a session.
    if (url.pathname === '/session') {
      if (kind !== 'app') return void res.writeHead(421, security).end('sessions are for the app, at the address `lab web` printed');
      if (!auth.originOk(req)) return void res.writeHead(403, security).end('not from the app');
      if (req.method === 'GET') return void res.writeHead(auth.sessionOk(req) ? 204 : 403, { ...security, 'cache-control': 'no-store' }).end();
      if (req.method !== 'POST') return void res.writeHead(405, { ...security, allow: 'GET, POST' }).end();
      if (!auth.bearerOk(req)) return void res.writeHead(403, security).end('bad token');
      res.writeHead(204, { ...security, 'set-cookie': auth.newSession().setCookie, 'cache-control': 'no-store' }).end();
      return;
    }
    // A ticket: a link to one resource for a short time, for a tool that has neither token nor session.
    if (url.pathname === '/ticket') {
      if (req.method !== 'POST') return void res.writeHead(405, { ...security, allow: 'POST' }).end();
      if (!auth.originOk(req) || !auth.authorized(req)) return void res.writeHead(403, security).end('bad token');
      let path: unknown;
      try {
        path = (JSON.parse(await readBody(req, 4096)) as { path?: unknown }).path;
      } catch {
        return void res.writeHead(400, security).end('expected a JSON body {"path": "/blob/<hash>.png"}');
      }
      if (typeof path !== 'string' || !isResource(path)) return void res.writeHead(400, security).end('a ticket opens a screenshot, a report or an export download: /blob/<sha256>.png, /experiments/<id>/report.html, /exports/<id>.tar');
      const { ticket, expiresAt } = auth.issueTicket(path);
      res.writeHead(200, { ...security, 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify({ url: `${path}?ticket=${ticket}`, expiresAt: new Date(expiresAt).toISOString() }));
      return;
    }
    // Resources: for the app's session, the token as a bearer header, or a ticket for this very path.
    const mayRead = () => auth.authorized(req) || auth.ticketOk(url);
    const blob = url.pathname.match(RESOURCE.blob);
    if (blob) {
      if (!mayRead()) return void res.writeHead(403, security).end('bad token');
      try {
        const data = opts.service.blobs.get(blob[1]);
        res.writeHead(200, { ...security, 'content-type': 'image/png', 'cache-control': 'private, max-age=31536000, immutable' }).end(data);
      } catch {
        res.writeHead(404, security).end('no such screenshot');
      }
      return;
    }
    // An experiment's report.html: self-contained (inline SVG and styles, no script), so it is served
    // under a CSP that allows nothing else, sandboxed, and only to those who may read, like screenshots.
    const report = url.pathname.match(RESOURCE.report);
    if (report) {
      if (!mayRead()) return void res.writeHead(403, security).end('bad token');
      const path = opts.service.experiments.reportHtmlPath(report[1]);
      if (!path) return void res.writeHead(404, security).end('no such report');
      res.writeHead(200, {
        ...security,
        'content-security-policy': REPORT_CSP,
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
      }).end(await readFile(path));
      return;
    }
    // A finished export as one tar file: only exports this process finished, by their id.
    const download = url.pathname.match(RESOURCE.download);
    if (download) {
      if (!mayRead()) return void res.writeHead(403, security).end('bad token');
      const dir = opts.service.finishedExportDir(download[1]);
      if (!dir) return void res.writeHead(404, security).end('no such finished export (exports are offered by the server that made them, until it stops)');
      const root = basename(dir).replace(/[^A-Za-z0-9._-]/g, '_') || 'export';
      res.writeHead(200, {
        ...security,
        'content-type': 'application/x-tar',
        'content-disposition': `attachment; filename="${root}.tar"`,
        'cache-control': 'no-store',
      });
      // Headers are out: a failure midway can only cut the stream, which the browser reports as a failed download.
      await pipeline(Readable.from(tarFolder(dir, root)), res).catch(() => res.destroy());
      return;
    }
    // The app itself only at its own address: at 127.0.0.1 it could get no session.
    if (kind !== 'app') return void res.writeHead(421, security).end('the app is served at the address `lab web` printed; this address is for API clients');
    let rel: string;
    try {
      rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
    } catch {
      return void res.writeHead(400, security).end(`malformed percent-encoding in ${url.pathname}`);
    }
    const path = normalize(join(opts.rendererDir, rel));
    if (!path.startsWith(opts.rendererDir + sep)) return void res.writeHead(403, security).end();
    try {
      const data = await readFile(path);
      res.writeHead(200, { ...security, 'content-type': MIME[extname(path)] ?? 'application/octet-stream' }).end(data);
    } catch {
      res.writeHead(404, security).end('not found');
    }
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const kind = auth.hostKind(req.headers.host);
    const url = new URL(req.url ?? '/', auth.appOrigin);
    // Only our own page or an API client may connect: one of our addresses, the right path, the
    // app's session or the token as a bearer header, and (when a browser sends one) the app's Origin.
    if (!kind || url.pathname !== '/api' || !auth.authorized(req) || !auth.originOk(req)) {
      socket.write('HTTP/1.1 403 Forbidden\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws));
  });

  const sockets = new Set<WebSocket>();
  for (const name of EVENTS) {
    opts.service.events.on(name, (data) => {
      const text = JSON.stringify({ event: name, data });
      for (const ws of sockets) ws.send(text);
    });
  }

  function serveSocket(ws: WebSocket): void {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    // A protocol error (an unmasked frame, a message over maxPayload, bad UTF-8) is that client's
    // problem: ws has already sent the close frame with the matching code (1002, 1009, 1007) and
    // drops the connection. Without a listener the 'error' event would throw and end web mode.
    ws.on('error', (err) => {
      const code = (err as Error & { code?: string }).code ?? '';
      process.stderr.write(`web: closed one API connection after a protocol error: ${err.message}${code ? ` (${code})` : ''}\n`);
    });
    ws.on('message', async (raw) => {
      let id: unknown = null;
      try {
        const msg = JSON.parse(String(raw));
        id = msg.id;
        const method = msg.method as LabMethod;
        if (!METHODS.includes(method)) throw new Error(`unknown method ${JSON.stringify(msg.method)}`);
        const params = parseParams(method, msg.params);
        const fn = opts.service[method] as (...args: unknown[]) => Promise<unknown>;
        const result = await fn.apply(opts.service, params);
        ws.send(JSON.stringify({ id, result }));
      } catch (err) {
        ws.send(JSON.stringify({ id, error: err instanceof Error ? err.message : String(err) }));
      }
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  auth.listeningOn(port);
  return {
    url: auth.appOrigin,
    openUrl: `${auth.appOrigin}/#token=${auth.token}`,
    apiUrl: `http://127.0.0.1:${port}`,
    host: auth.appHost,
    token: auth.token,
    close: async () => {
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
