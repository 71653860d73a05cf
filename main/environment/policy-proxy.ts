/**
 * The network guard (issue 43): a forwarding proxy outside the browser that every request of an
 * episode's browser context is forced through (Target.createBrowserContext's `proxyServer` with
 * `<-loopback>`, or Electron's session.setProxy). The page, frames of any site, dedicated, shared
 * and service workers, WebSockets (tunnelled with CONNECT), beacons, prefetches and forms all
 * arrive here, where the page's scripts cannot reach; the in-browser guards (./loopback-guard.ts)
 * each missed some of them.
 *
 * For each request the proxy resolves the host itself, once, and decides on the addresses: one
 * that is this machine (loopback, unspecified, any address of its interfaces, in any IPv6 form)
 * is refused unless the host and port are one of the task's origins; anything else passes, and
 * the proxy connects to exactly the address it judged (a name that resolves differently a second
 * time, DNS rebinding, finds no second lookup to exploit). The spelling of the URL does not
 * matter: 0x7f.1, 2130706433, [::ffff:127.0.0.1] and foo.localhost all resolve to loopback.
 *
 * One listener per browser context: Chromium connects to the proxy from its network service with
 * nothing that says which context a connection belongs to, so the port is the only key a policy
 * can have; a listener costs a socket and a closure, and goes with its context.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { BlockList, connect, isIP, type Socket } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import type { Duplex } from 'node:stream';

/** Requests the guard refused in a window (a step): how many, and the first few as request lines. */
export interface RefusedRequests {
  count: number;
  /** `GET http://127.0.0.1:8000/v1/models`, `CONNECT 127.0.0.1:8000`: at most MAX_REFUSED_LISTED, clipped. */
  requests: string[];
}

export const MAX_REFUSED_LISTED = 20;
const MAX_LINE_CHARS = 300;
const CONNECT_TIMEOUT_MS = 15_000;

/**
 * Addresses that are this machine: loopback and unspecified (0.0.0.0 and :: reach local services
 * on Linux and macOS), with their IPv4-mapped forms (BlockList checks ::ffff:a.b.c.d against the
 * IPv4 rules), the deprecated IPv4-compatible ones (::/96) and NAT64's, plus every address of the
 * given interfaces (os.networkInterfaces(): a LAN, VPN or container bridge address of this host).
 * Link-local addresses count too: no web page lives there, but a cloud machine's metadata service
 * (169.254.169.254, fd00:ec2::254) hands out its credentials there.
 */
export const ALWAYS_LOCAL = ['127.0.0.0/8', '0.0.0.0/8', '::/96', '64:ff9b::7f00:0/104', '64:ff9b::/104', '169.254.0.0/16', 'fe80::/10', 'fd00:ec2::254'];

export function localAddresses(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(), extra: readonly string[] = ALWAYS_LOCAL): BlockList {
  const list = new BlockList();
  for (const cidr of extra) {
    const [address, bits] = cidr.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  for (const infos of Object.values(interfaces)) {
    for (const info of infos ?? []) list.addAddress(stripZone(info.address), info.family === 'IPv6' ? 'ipv6' : 'ipv4');
  }
  return list;
}

/** Is this address this machine (or its link)? What is not an address at all counts as local: refused, never passed. */
export function isLocalAddress(address: string, local: BlockList = localAddresses()): boolean {
  const a = stripZone(address);
  const family = isIP(a);
  if (!family) return true;
  return local.check(a, family === 6 ? 'ipv6' : 'ipv4');
}

function stripZone(address: string): string {
  const i = address.indexOf('%');
  return i < 0 ? address : address.slice(0, i);
}

/** `host:port` of an origin as the proxy sees a request for it (default ports filled in). */
export function hostPort(origin: string): string | null {
  try {
    const u = new URL(origin);
    const port = u.port || ({ 'http:': '80', 'ws:': '80', 'https:': '443', 'wss:': '443' } as Record<string, string>)[u.protocol];
    return port ? `${u.hostname}:${port}` : null;
  } catch {
    return null;
  }
}

/** A request target: the canonical hostname (IPv6 in brackets, as the URL parser writes it) and port. */
interface Target {
  hostname: string;
  port: number;
}

/** `host:port` of a CONNECT, canonicalised the way a URL's host is (0x7f.1 becomes 127.0.0.1). */
function connectTarget(authority: string): Target | null {
  const m = /^(\[[^\]\s]+\]|[^\s:/?#@[\]]+):(\d{1,5})$/.exec(authority);
  if (!m) return null;
  try {
    const port = Number(m[2]);
    return port > 0 && port < 65536 ? { hostname: new URL(`http://${m[1]}`).hostname, port } : null;
  } catch {
    return null;
  }
}

export interface PolicyProxyOptions {
  /** Resolve a name to all its addresses (default: the system resolver, as the browser would). */
  lookup?: (hostname: string) => Promise<string[]>;
  /** This machine's addresses, read per request (interfaces come and go). */
  localAddresses?: () => BlockList;
}

async function systemLookup(hostname: string): Promise<string[]> {
  return (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);
}

type Decision = { ok: true; addresses: string[] } | { ok: false; status: number; why: string };

/** Hop-by-hop headers (RFC 9110 7.6.1) and the proxy's own: never forwarded either way. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function forwardedHeaders(raw: string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].toLowerCase() === 'connection') for (const n of raw[i + 1].split(',')) named.add(n.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) out.push(raw[i], raw[i + 1]);
  }
  return out;
}

export class PolicyProxy {
  private allowed = new Set<string>();
  private refusedCount = 0;
  private readonly unreachableWhy = new Map<string, string>();
  private refusedListed: string[] = [];
  private sockets = new Set<Duplex>();
  private closing: Promise<void> | null = null;
  private readonly lookup: (hostname: string) => Promise<string[]>;
  private readonly local: () => BlockList;

  private constructor(
    private server: Server,
    options: PolicyProxyOptions,
  ) {
    this.lookup = options.lookup ?? systemLookup;
    this.local = options.localAddresses ?? (() => localAddresses());
    server.on('connection', (socket) => this.track(socket));
    server.on('request', (req, res) => void this.forward(req, res));
    server.on('connect', (req, socket, head) => void this.tunnel(req, socket, head));
    // Chromium tunnels WebSockets with CONNECT; an Upgrade sent to the proxy is not one of its requests.
    server.on('upgrade', (_req, socket) => socket.end('HTTP/1.1 501 Not Implemented\r\ncontent-length: 0\r\n\r\n'));
    server.on('clientError', (_err, socket) => socket.destroy());
  }

  /** A proxy on a free loopback port; nothing is allowed on this machine until allow() says so. */
  static async start(options: PolicyProxyOptions = {}): Promise<PolicyProxy> {
    const server = createServer({ requestTimeout: 0 });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return new PolicyProxy(server, options);
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  /** For Chromium's proxy settings: every scheme (http, https and WebSockets) to this proxy. */
  get proxyServer(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The task's origins (and its start page's): these host:port pairs pass even where they are this machine. */
  allow(origins: readonly string[]): void {
    this.allowed = new Set(origins.map(hostPort).filter((x): x is string => x !== null));
  }

  /**
   * A host the proxy could not reach (no such name, nothing listening): the connection is closed
   * unanswered, so the browser fails the request as it would without a proxy (a navigation ends
   * in navigation_failed, not on an error page the proxy wrote), and why is kept for the step.
   */
  private unreachable(url: URL, why: string, res: ServerResponse): void {
    this.unreachableWhy.set(url.host, why);
    if (this.unreachableWhy.size > 64) this.unreachableWhy.delete(this.unreachableWhy.keys().next().value!);
    res.socket?.destroy();
  }

  /** Why the proxy could not reach this URL's host, if it tried and could not; else null. */
  whyUnreachable(url: string): string | null {
    try {
      return this.unreachableWhy.get(new URL(url).host) ?? null;
    } catch {
      return null;
    }
  }

  /** Refused requests since the last take; null when there were none. Starts the next window. */
  takeRefused(): RefusedRequests | null {
    if (!this.refusedCount) return null;
    const out = { count: this.refusedCount, requests: this.refusedListed };
    this.refusedCount = 0;
    this.refusedListed = [];
    return out;
  }

  /** Stop listening and cut every connection, tunnels too; a second call waits for the first. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((r) => {
      this.server.close(() => r());
      for (const s of this.sockets) s.destroy();
    });
    return this.closing;
  }

  /** Where a request may go: the addresses to connect to, or why not. */
  async decide({ hostname, port }: Target): Promise<Decision> {
    const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    let addresses: string[];
    if (isIP(bare)) addresses = [bare];
    else if (/(^|\.)localhost\.?$/i.test(bare)) addresses = ['127.0.0.1', '::1']; // RFC 6761: never asked of DNS
    else {
      try {
        addresses = await this.lookup(bare);
      } catch (err) {
        return { ok: false, status: 502, why: `cannot resolve ${bare}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
      }
      if (!addresses.length) return { ok: false, status: 502, why: `${bare} has no address` };
    }
    if (this.allowed.has(`${hostname}:${port}`)) return { ok: true, addresses };
    const local = this.local();
    // A name with any local address is refused whole: which one a connection would take is not ours to guess.
    const hit = addresses.find((a) => isLocalAddress(a, local));
    if (hit !== undefined) return { ok: false, status: 403, why: `${hostname}:${port} is this machine (${hit}), outside the task's origins: refused by the workbench` };
    return { ok: true, addresses };
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => {}); // a reset by either end ends that connection, nothing more
  }

  private refuse(line: string): void {
    this.refusedCount++;
    if (this.refusedListed.length < MAX_REFUSED_LISTED) this.refusedListed.push(line.length <= MAX_LINE_CHARS ? line : `${line.slice(0, MAX_LINE_CHARS - 1)}…`);
  }

  /** The first address that accepts a connection, in the resolver's order. */
  private async open(addresses: string[], port: number): Promise<Socket> {
    let last: Error = new Error('no address');
    for (const address of addresses) {
      try {
        return await new Promise<Socket>((resolve, reject) => {
          const socket = connect({ host: address, port });
          socket.setTimeout(CONNECT_TIMEOUT_MS, () => socket.destroy(new Error(`connecting to ${address}:${port} timed out`)));
          socket.once('connect', () => (socket.setTimeout(0), resolve(socket)));
          socket.once('error', reject);
        });
      } catch (err) {
        last = err as Error;
      }
    }
    throw last;
  }

  /** An absolute-URI request (plain http): decided, then sent on to the judged address. */
  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return void res.writeHead(400, { 'content-type': 'text/plain' }).end('a proxy request names an absolute http:// URL');
    }
    if (url.protocol !== 'http:') return void res.writeHead(400, { 'content-type': 'text/plain' }).end(`the proxy forwards http:// only (https goes through CONNECT), not ${url.protocol}`);
    const line = `${req.method} ${url.href}`;
    const decision = await this.decide({ hostname: url.hostname, port: Number(url.port || 80) });
    if (!decision.ok) {
      req.resume();
      if (decision.status === 403) {
        this.refuse(line);
        return void res.writeHead(decision.status, { 'content-type': 'text/plain' }).end(decision.why);
      }
      return this.unreachable(url, decision.why, res);
    }
    let upstream: Socket;
    try {
      upstream = await this.open(decision.addresses, Number(url.port || 80));
    } catch (err) {
      req.resume();
      return this.unreachable(url, `cannot connect to ${url.host}: ${(err as Error).message}`, res);
    }
    this.track(upstream);
    const out = httpRequest({
      method: req.method,
      path: url.pathname + url.search,
      headers: forwardedHeaders(req.rawHeaders) as unknown as Record<string, string>,
      setHost: false, // the browser's Host header goes as it was
      createConnection: () => upstream,
    });
    out.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardedHeaders(answer.rawHeaders));
      answer.pipe(res);
    });
    out.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`${url.host}: ${err.message}`);
      else res.destroy();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(out);
  }

  /** CONNECT host:port (https, ws, wss): decided, then a byte tunnel to the judged address. */
  private async tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const target = connectTarget(req.url ?? '');
    if (!target) return void client.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n');
    const decision = await this.decide(target);
    if (!decision.ok) {
      if (decision.status === 403) this.refuse(`CONNECT ${target.hostname}:${target.port}`);
      return void client.end(`HTTP/1.1 ${decision.status} ${decision.status === 403 ? 'Forbidden' : 'Bad Gateway'}\r\ncontent-length: 0\r\n\r\n`);
    }
    let upstream: Socket;
    try {
      upstream = await this.open(decision.addresses, target.port);
    } catch {
      return void client.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
    }
    if (client.destroyed) return void upstream.destroy();
    this.track(upstream);
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  }
}
