/** A real HTTP server for the environment tests' fixture pages (test/fixtures/pages). */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';

const ROOT = join(import.meta.dirname, '..', 'fixtures', 'pages');

export interface FixtureServer {
  url: string;
  close(): Promise<void>;
}

/** `hostAddress`: another loopback address (127.0.0.2) gives a server of another site. */
export async function startFixtureServer(hostAddress = '127.0.0.1'): Promise<FixtureServer> {
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/slow') {
      // Answers after ?ms=N; lets tests hold a request open.
      const ms = Number(url.searchParams.get('ms') ?? 100);
      const timer = setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('slow done'), ms);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    try {
      const body = await readFile(join(ROOT, url.pathname.replace(/^\/+/, '').replace(/\.\./g, '')));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, hostAddress, () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${hostAddress}:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
