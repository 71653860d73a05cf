/**
 * Web mode: the built renderer and the same API contract over a WebSocket, on 127.0.0.1 only,
 * protected by a per-run token (in the URL fragment, so it never reaches logs or Referer headers).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, extname, join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { parseCookie, stringifySetCookie } from 'cookie';
import { EVENTS, METHODS, type LabMethod } from '../../preload/api.ts';
import { parseParams } from '../../preload/params.ts';
import { APP_CSP, REPORT_CSP } from '../csp.ts';
import type { LabService } from './service.ts';
import { tarFolder } from './tar-stream.ts';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

export interface WebServer {
  url: string;
  /** URL with the token, to open in a browser. */
  openUrl: string;
  token: string;
  close(): Promise<void>;
}

/** The session cookie's name (HttpOnly, SameSite=Strict, this origin only: a random port per server). */
export const SESSION_COOKIE = 'lab-session';

function sessionCookie(header: string | undefined): string | null {
  return parseCookie(header ?? '')[SESSION_COOKIE] ?? null;
}

function bearer(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return m ? m[1] : null;
}

export async function startWebServer(opts: { service: LabService; rendererDir: string; port?: number; token?: string }): Promise<WebServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  let origin = '';
  const tokenOk = (candidate: string | null | undefined): boolean => {
    if (!candidate) return false;
    const a = Buffer.from(candidate);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  /**
   * A request carries the token in one of three places: the session cookie (what the app uses,
   * so no URL it writes ever holds the token), an `Authorization: Bearer` header, or `?token=`
   * (for scripts and command-line clients).
   */
  const authorized = (req: IncomingMessage, url: URL): boolean =>
    tokenOk(sessionCookie(req.headers.cookie)) || tokenOk(bearer(req.headers.authorization)) || tokenOk(url.searchParams.get('token'));

  const server: Server = createServer((req, res) => {
    handleHttp(req, res).catch((err) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err instanceof Error ? err.message : err));
    });
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    const security = { 'content-security-policy': APP_CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
    // The app trades the token (held in its tab, never in a URL) for an HttpOnly cookie of this origin.
    if (url.pathname === '/session') {
      if (req.method !== 'POST') return void res.writeHead(405, { ...security, allow: 'POST' }).end();
      const originOk = !req.headers.origin || req.headers.origin === origin;
      if (!originOk || !tokenOk(bearer(req.headers.authorization))) return void res.writeHead(403, security).end('bad token');
      res.writeHead(204, { ...security, 'set-cookie': stringifySetCookie({ name: SESSION_COOKIE, value: token, httpOnly: true, sameSite: 'strict', path: '/' }), 'cache-control': 'no-store' }).end();
      return;
    }
    const blob = url.pathname.match(/^\/blob\/([0-9a-f]{64})\.png$/);
    if (blob) {
      if (!authorized(req, url)) return void res.writeHead(403, security).end('bad token');
      try {
        const data = opts.service.blobs.get(blob[1]);
        res.writeHead(200, { ...security, 'content-type': 'image/png', 'cache-control': 'private, max-age=31536000, immutable' }).end(data);
      } catch {
        res.writeHead(404, security).end('no such screenshot');
      }
      return;
    }
    // An experiment's report.html: self-contained (inline SVG and styles, no script), so it is served
    // under a CSP that allows nothing else, sandboxed, and only with the token, like screenshots.
    const report = url.pathname.match(/^\/experiments\/([A-Za-z0-9_-]+)\/report\.html$/);
    if (report) {
      if (!authorized(req, url)) return void res.writeHead(403, security).end('bad token');
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
    // A finished export as one tar file: only exports this process finished, by their id, with the token.
    const download = url.pathname.match(/^\/exports\/([0-9a-f]{12})\.tar$/);
    if (download) {
      if (!authorized(req, url)) return void res.writeHead(403, security).end('bad token');
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
    const url = new URL(req.url ?? '/', origin);
    // Only our own page may connect: right path, right token, and (when a browser sends one) our Origin.
    const originOk = !req.headers.origin || req.headers.origin === origin;
    if (url.pathname !== '/api' || !authorized(req, url) || !originOk) {
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
  origin = `http://127.0.0.1:${port}`;
  return {
    url: origin,
    openUrl: `${origin}/#token=${token}`,
    token,
    close: async () => {
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
