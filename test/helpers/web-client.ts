/**
 * Clients of web mode (main/server/web.ts) in Node: an API client with the token as a bearer
 * header, and requests that name the app's own host as a browser at its address does. Node does not
 * resolve *.localhost names on every machine, so both connect to 127.0.0.1; the server goes by the
 * Host header.
 */
import { request } from 'node:http';
import { WebSocket } from 'ws';
import type { WebServer } from '../../main/server/web.ts';

/** The API socket as scripts open it: 127.0.0.1, `Authorization: Bearer <token>`. */
export function apiSocket(web: WebServer, token = web.token): WebSocket {
  return new WebSocket(`${web.apiUrl.replace(/^http/, 'ws')}/api`, { headers: { authorization: `Bearer ${token}` } });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request to the server, naming `host` (default: the app's own) in its Host header. */
export function requestAs(web: WebServer, path: string, opts: { host?: string; method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  const { port } = new URL(web.apiUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(port), path, method: opts.method ?? 'GET', headers: { host: opts.host ?? web.host, ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}
