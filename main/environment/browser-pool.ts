/**
 * A pool of browsers that environments share: several CDP endpoints (remote Chromes, a grid's
 * sessions) or, when none is given, one Chromium launched here. The pool is itself a BrowserHost:
 * each new page goes to the live browser holding the fewest pages, so N parallel environments
 * spread over the browsers by themselves. A browser whose connection closes is taken out of the
 * pool; the episode that ran on it ends with BrowserLostError (./browser-lost.ts) and its caller
 * runs it again, on a browser that is still there.
 */
import { readFileSync } from 'node:fs';
import type { BrowserHost, PageHandle } from './cdp.ts';
import { ChromiumHost, type ChromiumOptions } from './chromium.ts';
import { NoBrowserLeftError } from './browser-lost.ts';

const ENDPOINT_SCHEMES = /^(wss?|https?):\/\//i;

/**
 * Endpoints from a list: one per line, `#` starts a comment, blank lines are skipped. The same
 * URL may stand several times (a grid that hands out a new browser per connection). `source`
 * names the list in errors (a file path).
 */
export function parseEndpointList(text: string, source: string): string[] {
  const out: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) return;
    checkEndpoint(line, `${source}:${i + 1}`);
    out.push(line);
  });
  if (!out.length) throw new Error(`${source} lists no browser endpoint (one ws://, wss://, http:// or https:// URL per line, # for comments)`);
  return out;
}

/** Read an endpoint list file (--browsers FILE). */
export function readEndpointFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the browser list ${path}: ${(err as Error).message}`);
  }
  return parseEndpointList(text, path);
}

/** Refuse what is not a DevTools endpoint, naming where it came from. */
export function checkEndpoint(url: string, where = '--browser'): void {
  if (!ENDPOINT_SCHEMES.test(url)) throw new Error(`${where}: "${url}" is not a browser endpoint (want ws://, wss:// for a DevTools WebSocket, http:// or https:// for a server answering /json/version)`);
  try {
    new URL(url);
  } catch {
    throw new Error(`${where}: "${url}" is not a valid URL`);
  }
}

/**
 * How an endpoint is named in messages, summaries and the run log: its URL with query values
 * hidden, since grids (browserless) carry their access token there.
 */
export function endpointLabel(url: string): string {
  try {
    const u = new URL(url);
    if (!u.search && !u.password) return url; // as the user wrote it
    for (const key of [...u.searchParams.keys()]) u.searchParams.set(key, '***');
    if (u.password) u.password = '***';
    return u.toString().replace(/%2A%2A%2A/g, '***');
  } catch {
    return url;
  }
}

/**
 * The DevTools WebSocket of an endpoint. ws:// and wss:// are used as they are; for http(s)://
 * the server's /json/version says it (`webSocketDebuggerUrl`), as Chrome's
 * --remote-debugging-port does. A Chrome behind a port forward (a container) reports its own
 * loopback address there; that host is replaced by the one the user gave.
 */
export async function resolveEndpoint(url: string, timeoutMs = 10_000): Promise<string> {
  checkEndpoint(url);
  if (/^wss?:/i.test(url)) return url;
  const given = new URL(url);
  const versionUrl = new URL('json/version', given.href.endsWith('/') ? given.href : given.href + '/');
  let body: { webSocketDebuggerUrl?: unknown };
  try {
    const res = await fetch(versionUrl, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    body = (await res.json()) as typeof body;
  } catch (err) {
    throw new Error(`could not read ${endpointLabel(versionUrl.href)}: ${(err as Error).message}`);
  }
  if (typeof body.webSocketDebuggerUrl !== 'string') throw new Error(`${endpointLabel(versionUrl.href)} has no webSocketDebuggerUrl: not a Chrome DevTools endpoint`);
  const ws = new URL(body.webSocketDebuggerUrl);
  if (isLoopback(ws.hostname) && !isLoopback(given.hostname)) {
    ws.hostname = given.hostname;
    ws.port = given.port;
    if (given.protocol === 'https:') ws.protocol = 'wss:';
  }
  return ws.href;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '0.0.0.0' || host === '[::1]' || host.startsWith('127.');
}

export interface BrowserLoss {
  endpoint: string;
  reason: string;
  at: string;
}

interface Member {
  host: ChromiumHost;
  pages: number;
  lost: string | null;
}

export interface PoolOptions {
  /** DevTools endpoints (ws://, wss://, or http(s):// answering /json/version); none: launch Chromium here. */
  endpoints?: readonly string[];
  /** Launch this many local Chromium processes when no endpoint is given (default 1). */
  launch?: number;
  /** For launched browsers: executable and extra flags. */
  executable?: ChromiumOptions['executable'];
  args?: ChromiumOptions['args'];
}

export class BrowserPool implements BrowserHost {
  readonly losses: BrowserLoss[] = [];
  private members: Member[];
  private listeners = new Set<(loss: BrowserLoss) => void>();
  private closing = false;

  private constructor(hosts: ChromiumHost[], private owned: boolean) {
    this.members = hosts.map((host) => ({ host, pages: 0, lost: null }));
    for (const m of this.members) {
      void m.host.closed.then(() => this.markLost(m, m.host.lost ?? 'browser connection closed'));
    }
  }

  /** Connect to every endpoint (or launch), all at once; one that fails fails the start, named. */
  static async start(options: PoolOptions = {}): Promise<BrowserPool> {
    const endpoints = options.endpoints ?? [];
    const starts = endpoints.length
      ? endpoints.map(async (url) => {
          const label = endpointLabel(url);
          try {
            return await ChromiumHost.start({ browserUrl: await resolveEndpoint(url), endpointName: label });
          } catch (err) {
            throw new Error(`browser ${label}: ${(err as Error).message}`);
          }
        })
      : Array.from({ length: Math.max(1, options.launch ?? 1) }, () => ChromiumHost.start({ executable: options.executable, args: options.args }));
    const settled = await Promise.allSettled(starts);
    const hosts = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failures = settled.flatMap((s) => (s.status === 'rejected' ? [(s.reason as Error).message] : []));
    if (failures.length) {
      await Promise.all(hosts.map((h) => h.close().catch(() => {})));
      throw new Error(failures.length === 1 ? failures[0] : `${failures.length} of ${settled.length} browsers could not be reached:\n  ${failures.join('\n  ')}`);
    }
    return new BrowserPool(hosts, true);
  }

  /** A pool over browsers someone else holds (a benchmark's subsets): closing it leaves them open. */
  static over(hosts: ChromiumHost[]): BrowserPool {
    return new BrowserPool(hosts, false);
  }

  get kind(): 'chromium' | 'remote' {
    return this.members.every((m) => m.host.kind === 'chromium') ? 'chromium' : 'remote';
  }

  /** The launched browser's sandbox when there is one browser (remote ones keep theirs to themselves). */
  get sandbox(): BrowserHost['sandbox'] {
    return this.members.length === 1 ? this.members[0].host.sandbox : undefined;
  }

  /** The launched browser's process id, when the pool is one launched browser (soak counts its processes). */
  get pid(): number | null {
    return this.members.length === 1 ? this.members[0].host.pid : null;
  }

  get hosts(): readonly ChromiumHost[] {
    return this.members.map((m) => m.host);
  }

  get endpoints(): string[] {
    return this.members.map((m) => m.host.endpoint);
  }

  get liveCount(): number {
    return this.members.filter((m) => !m.lost).length;
  }

  /** Called once for every browser that goes away while the pool is open. Returns the unsubscribe. */
  onLost(listener: (loss: BrowserLoss) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async version(): Promise<string> {
    const live = this.members.find((m) => !m.lost);
    if (!live) throw new NoBrowserLeftError(this.losses);
    return live.host.version();
  }

  /** A page on the live browser with the fewest pages; a browser that fails here because it just died is skipped. */
  async newPage(viewport: { width: number; height: number }): Promise<PageHandle> {
    for (;;) {
      const live = this.members.filter((m) => !m.lost);
      if (!live.length) throw new NoBrowserLeftError(this.losses);
      const m = live.reduce((best, x) => (x.pages < best.pages ? x : best));
      m.pages++;
      let page: PageHandle;
      try {
        page = await m.host.newPage(viewport);
      } catch (err) {
        m.pages--;
        const reason = m.host.lost;
        if (reason === null) throw err;
        this.markLost(m, reason);
        continue;
      }
      let disposed = false;
      return {
        ...page,
        dispose: async () => {
          if (!disposed) m.pages--;
          disposed = true;
          await page.dispose();
        },
      };
    }
  }

  private markLost(m: Member, reason: string): void {
    if (m.lost || this.closing) return;
    m.lost = reason;
    const loss = { endpoint: m.host.endpoint, reason, at: new Date().toISOString() };
    this.losses.push(loss);
    for (const l of this.listeners) l(loss);
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.owned) await Promise.all(this.members.map((m) => m.host.close().catch(() => {})));
  }
}
