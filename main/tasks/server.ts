/**
 * The task server: serves every built-in site family on 127.0.0.1 (a free port).
 * Each episode gets its own task instance, with its own generated data and site state,
 * under /i/<instanceId>/; the checker reads that state directly.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { InstanceContext, SiteRequest, SiteResponse, TaskFamily, TaskSpec, Tier } from './types.ts';
import { resourcePath } from '../paths.ts';

const MIME: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

export interface TaskInstance {
  spec: TaskSpec;
  ctx: InstanceContext;
  family: TaskFamily;
}

const MAX_BODY_BYTES = 1 << 20;

export class TaskServer {
  private server: Server | null = null;
  private instances = new Map<string, TaskInstance>();
  private origin = '';
  readonly staticRoot = resourcePath('sites', 'static');

  constructor(private families: Map<string, TaskFamily>) {}

  get url(): string {
    if (!this.origin) throw new Error('task server is not started');
    return this.origin;
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      this.route(req, res).catch((err) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`internal error: ${err instanceof Error ? err.message : String(err)}`);
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', () => resolve());
    });
    const { port: actual } = this.server.address() as AddressInfo;
    this.origin = `http://127.0.0.1:${actual}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  /** Create a fresh instance of a family for a seed; its data and state are new. */
  createInstance(familyName: string, seed: number, options: { tier?: Tier; maxSteps?: number } = {}): TaskInstance {
    const family = this.families.get(familyName);
    if (!family) {
      throw new Error(`unknown task family "${familyName}" (known: ${[...this.families.keys()].join(', ')})`);
    }
    if (!Number.isInteger(seed) || seed < 0) throw new Error(`seed must be a non-negative integer, got ${seed}`);
    const generated = family.generate(seed, options.tier);
    const id = randomBytes(6).toString('hex');
    const baseUrl = `${this.url}/i/${id}`;
    const ctx: InstanceContext = {
      id,
      family: family.name,
      seed,
      tier: generated.tier,
      baseUrl,
      state: generated.state,
      agentMessages: [],
    };
    const spec: TaskSpec = {
      family: family.name,
      seed,
      tier: generated.tier,
      instruction: generated.instruction,
      startUrl: generated.startUrl ?? baseUrl + generated.startPath,
      // A task on the live web may go anywhere; the built-in sites keep to the task server.
      allowedOrigins: generated.startUrl ? [] : [this.url],
      maxSteps: options.maxSteps ?? generated.maxSteps ?? maxStepsForTier(generated.tier),
      goalKind: generated.goalKind,
      ...(family.checker && family.checker !== 'site' ? { checker: family.checker } : {}),
      ...(generated.source ? { source: generated.source } : {}),
      ...(generated.harness ? { harness: generated.harness } : {}),
    };
    const instance = { spec, ctx, family };
    this.instances.set(id, instance);
    return instance;
  }

  familySeeds(name: string): TaskFamily['seeds'] {
    const family = this.families.get(name);
    if (!family) throw new Error(`unknown task family "${name}" (known: ${[...this.families.keys()].join(', ')})`);
    return family.seeds;
  }

  get familyNames(): string[] {
    return [...this.families.keys()];
  }

  releaseInstance(id: string): void {
    this.instances.delete(id);
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    if (url.pathname.startsWith('/static/')) return this.serveStatic(url.pathname.slice('/static/'.length), res);
    if (url.pathname === '/favicon.ico') return void res.writeHead(204).end();
    const m = url.pathname.match(/^\/i\/([0-9a-f]+)(\/.*)?$/);
    const instance = m ? this.instances.get(m[1]) : undefined;
    if (!m || !instance) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such task instance');
    if (req.method !== 'GET' && req.method !== 'POST') return void res.writeHead(405).end();
    const body = req.method === 'POST' ? await readBody(req) : '';
    const isJson = (req.headers['content-type'] ?? '').includes('application/json');
    let json: unknown;
    if (isJson && body) {
      try {
        json = JSON.parse(body);
      } catch {
        return void res.writeHead(400, { 'content-type': 'text/plain' }).end('malformed JSON body');
      }
    }
    const siteReq: SiteRequest = {
      method: req.method,
      path: m[2] || '/',
      query: url.searchParams,
      form: isJson ? new URLSearchParams() : new URLSearchParams(body),
      json,
    };
    send(res, instance.family.handle(siteReq, instance.ctx), instance.ctx.baseUrl);
  }

  private async serveStatic(rel: string, res: ServerResponse): Promise<void> {
    const path = normalize(join(this.staticRoot, rel));
    if (!path.startsWith(this.staticRoot + sep)) return void res.writeHead(403).end();
    await sendFile(res, path, 'max-age=3600');
  }
}

export function maxStepsForTier(tier: Tier): number {
  return tier === 1 ? 10 : tier === 2 ? 20 : 30;
}

function send(res: ServerResponse, out: SiteResponse, baseUrl: string): void {
  const headers = { 'cache-control': 'no-store' };
  switch (out.kind) {
    case 'html':
      res.writeHead(out.status ?? 200, { ...headers, 'content-type': 'text/html; charset=utf-8' }).end(out.body);
      return;
    case 'json':
      res.writeHead(out.status ?? 200, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(out.body));
      return;
    case 'redirect': {
      // Families redirect with instance-relative paths ('/cart'); make them absolute here.
      const location = out.location.startsWith('/') ? baseUrl + out.location : out.location;
      res.writeHead(303, { ...headers, location }).end();
      return;
    }
    case 'file':
      void sendFile(res, out.path, 'no-store');
      return;
    case 'not_found':
      res.writeHead(404, { ...headers, 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Not found</title><h1>Page not found</h1>');
  }
}

async function sendFile(res: ServerResponse, path: string, cacheControl: string): Promise<void> {
  try {
    const data = await readFile(path);
    res.writeHead(200, { 'content-type': MIME[extname(path).toLowerCase()] ?? 'application/octet-stream', 'cache-control': cacheControl }).end(data);
  } catch {
    res.writeHead(404).end();
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
