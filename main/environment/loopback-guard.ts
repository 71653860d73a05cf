/**
 * Task pages are untrusted and run on this machine's loopback interface, where other things listen
 * too (the web-mode API, `lab serve`, a model endpoint, a database). A page may reach its own
 * origin and the task's origins; every other loopback address is blocked for requests the page
 * makes (fetch, XHR, images, frames, links, WebSockets).
 *
 * This is the in-browser layer. The guard that holds is outside the browser: a policy proxy that
 * all of the page's context's traffic goes through (./policy-proxy.ts). Behind it, only the first
 * way below is kept, as a second layer that costs nothing and fails the page's own requests at
 * once, named `blocked` in the step's network record. A browser that cannot reach a proxy here (one
 * on another machine) gets all of it, with its holes: the in-page WebSocket wrapper is got round
 * (`new WebSocket.prototype.constructor(url)`), and neither CDP way sees sandboxed srcdoc frames,
 * workers, or this machine's non-loopback addresses (issue 43, test/environment/network-guard.test.ts).
 *
 * Two CDP ways, the first one the browser supports:
 * - Network.setBlockedURLs with `urlPatterns` (first match wins, so "allow the task origin, then
 *   block all loopback" is one call, and the browser does the matching: no cost per request);
 * - the Fetch domain: loopback requests pause and are failed or continued here (older browsers).
 * Neither sees WebSocket handshakes, so the page's WebSocket constructor is wrapped too, in every
 * frame before the page's own scripts run (installWebSocketGuard).
 */
import type { CdpSession } from './cdp.ts';
import { callExpression } from './page-scripts.ts';

/** Is this host a loopback name or address (after the URL parser normalised it)? */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (/^127\.\d+\.\d+\.\d+$/.test(h) || h === '0.0.0.0') return true;
  // IPv6 loopback, unspecified, and IPv4-mapped loopback ([::ffff:7f00:1] is 127.0.0.1).
  return h === '[::1]' || h === '[::]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(h);
}

/** The origins a page may reach on loopback: the task's and the start page's own. */
export function allowedLoopbackOrigins(startUrl: string, allowedOrigins: readonly string[]): string[] {
  const origins = new Set<string>();
  for (const o of [...allowedOrigins, startUrl]) {
    try {
      const u = new URL(o);
      if (isLoopbackHost(u.hostname)) origins.add(u.origin);
    } catch {
      // not a URL: nothing to allow
    }
  }
  return [...origins];
}

/** Would a page request to this URL be blocked? (The Fetch fallback asks this per request.) */
export function isBlockedRequest(url: string, allowed: readonly string[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (!isLoopbackHost(u.hostname)) return false;
  // ws:// to an allowed http origin's host and port is the same server.
  const asHttp = u.protocol === 'ws:' ? `http://${u.host}` : u.protocol === 'wss:' ? `https://${u.host}` : u.origin;
  return !allowed.includes(asHttp);
}

/** Loopback hosts as URLPattern hostnames (the URL is canonical when matched: 0x7f.1 is 127.0.0.1). */
const LOOPBACK_HOST_PATTERNS = ['localhost', '*.localhost', '127.*', '0.0.0.0', '[::1]', '[::]'];

/** Network.setBlockedURLs urlPatterns: the allowed origins first (block: false), then every loopback host. */
export function blockPatterns(allowed: readonly string[]): Array<{ urlPattern: string; block: boolean }> {
  const allow = allowed.flatMap((origin) => {
    const u = new URL(origin);
    const port = u.port ? `:${u.port}` : '';
    return [`${u.protocol}//${u.hostname}${port}/*`, `${u.protocol === 'https:' ? 'wss' : 'ws'}://${u.hostname}${port}/*`].map((urlPattern) => ({ urlPattern, block: false }));
  });
  const block = LOOPBACK_HOST_PATTERNS.map((host) => ({ urlPattern: `*://${host}:*/*`, block: true }));
  return [...allow, ...block];
}

/** Fetch.enable patterns that pause every request that may go to loopback (isBlockedRequest decides). */
const FETCH_PATTERNS = ['*://localhost*', '*://*.localhost*', '*://127.*', '*://0.0.0.0*', '*://[*'].map((urlPattern) => ({ urlPattern }));

/**
 * Runs in the page (serialised): `WebSocket` refuses loopback URLs outside `allowed`, as the
 * browser refuses a blocked request (a SecurityError). Keep the host test in step with isLoopbackHost.
 */
export function installWebSocketGuard(allowed: string[]): void {
  const Native = window.WebSocket;
  const loopback = (host: string) => {
    const h = host.toLowerCase().replace(/\.$/, '');
    return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '0.0.0.0' || h === '[::1]' || h === '[::]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(h);
  };
  const Guarded = function (this: unknown, url: string | URL, protocols?: string | string[]) {
    const u = new URL(String(url), location.href);
    const asHttp = `${u.protocol === 'wss:' ? 'https:' : 'http:'}//${u.host}`;
    if (loopback(u.hostname) && !allowed.includes(asHttp)) {
      throw new DOMException(`${u.origin} is a local address outside this task (blocked by the workbench)`, 'SecurityError');
    }
    return new Native(url, protocols);
  } as unknown as typeof WebSocket;
  Object.setPrototypeOf(Guarded, Native);
  Object.defineProperty(Guarded, 'prototype', { value: Native.prototype });
  Object.defineProperty(window, 'WebSocket', { value: Guarded, writable: true, configurable: true });
}

export interface GuardOptions {
  /** 'fetch' skips the first way (to exercise the fallback on a browser that has both). */
  prefer?: 'blocked-urls' | 'fetch';
  /**
   * The page's traffic goes through a policy proxy: the blocked-URL patterns only, no WebSocket
   * wrapper (the proxy refuses the tunnel; the wrapper would only change the page's own objects)
   * and no Fetch fallback (pausing every loopback request buys nothing the proxy does not do).
   */
  behindProxy?: boolean;
}

/**
 * Install the guard on a page before it navigates. Returns which mechanism the browser took
 * ('proxy': none in the browser, the proxy alone); the Fetch one also returns an unsubscribe for its listener.
 */
export async function guardLoopback(
  session: CdpSession,
  allowed: readonly string[],
  { prefer = 'blocked-urls', behindProxy = false }: GuardOptions = {},
): Promise<{ via: 'blocked-urls' | 'fetch' | 'proxy'; dispose: () => void }> {
  if (!behindProxy) await session.send('Page.addScriptToEvaluateOnNewDocument', { source: callExpression(installWebSocketGuard, [...allowed]) });
  if (prefer === 'blocked-urls') {
    try {
      await session.send('Network.setBlockedURLs', { urlPatterns: blockPatterns(allowed) });
      return { via: 'blocked-urls', dispose: () => {} };
    } catch {
      // A browser without urlPatterns (it knows only the plain block list, which cannot allow one port).
    }
  }
  if (behindProxy) return { via: 'proxy', dispose: () => {} };
  const off = session.onEvent((method, params: any) => {
    if (method !== 'Fetch.requestPaused') return;
    const blocked = isBlockedRequest(params.request.url, allowed);
    const answered = blocked
      ? session.send('Fetch.failRequest', { requestId: params.requestId, errorReason: 'BlockedByClient' })
      : session.send('Fetch.continueRequest', { requestId: params.requestId });
    void answered.catch(() => {}); // the page may be gone already
  });
  await session.send('Fetch.enable', { patterns: FETCH_PATTERNS });
  return { via: 'fetch', dispose: off };
}
