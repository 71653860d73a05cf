/**
 * Transport (a): a Chromium process the workbench launches, or one it attaches to over ws://.
 * Every episode page lives in its own browser context (Target.createBrowserContext), which gives
 * it fresh cookies, storage and cache, and is disposed with the page. The context's traffic all
 * goes through a policy proxy of its own (./policy-proxy.ts) wherever the browser can reach one
 * on this machine's loopback.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import {
  CdpClosedError,
  CdpError,
  POPUP_EVENT,
  type BrowserHost,
  type CdpEventListener,
  type CdpMethod,
  type CdpParams,
  type CdpResult,
  type CdpSession,
  type PageHandle,
} from './cdp.ts';
import { decideSandbox, sandboxFacts, sandboxStartFailure, type SandboxState } from './sandbox.ts';
import { PolicyProxy } from './policy-proxy.ts';

const CANDIDATES: Record<string, string[]> = {
  linux: [
    '/usr/lib/chromium/chromium', // Debian's binary; the /usr/bin wrapper starts slower
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome-stable',
    '/usr/bin/google-chrome',
    '/snap/bin/chromium',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ],
  win32: [
    'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
  ],
};

/** The Chromium to launch: $LAB_CHROMIUM, then the usual install locations. */
export function findChromium(configured?: string): string {
  const explicit = configured ?? process.env.LAB_CHROMIUM;
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`Chromium not found at ${explicit} (from --chromium or LAB_CHROMIUM)`);
    return explicit;
  }
  for (const path of CANDIDATES[process.platform] ?? []) if (existsSync(path)) return path;
  throw new Error(
    'No Chromium or Chrome found. Install one (Debian: apt-get install chromium), ' +
      'set LAB_CHROMIUM=/path/to/chrome, or attach to a running browser with --browser ws://...',
  );
}

/** Flags that keep a headless Chromium quiet on a machine with no network (the sandbox: ./sandbox.ts). */
const CHROMIUM_FLAGS = [
  '--headless=new',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-extensions',
  // The omnibox popup WebUIs load in every new window (two renderers per browser context) in
  // recent headless Chrome: pure cost for automation (Puppeteer disables them too). Without the
  // back/forward cache (as Playwright, hence BrowserGym, runs) a page left is not frozen and kept,
  // and go_back reloads it as BrowserGym's does; without RenderDocument a same-site navigation
  // keeps its frame host instead of building a new one. Together a navigating step settles about
  // 5 ms sooner (docs/benchmarks.md, Environment).
  '--disable-features=Translate,MediaRouter,OptimizationHints,WebUIOmniboxPopup,WebUIOmniboxAimPopup,BackForwardCache,RenderDocument',
  '--disable-dev-shm-usage',
  '--mute-audio',
  '--hide-scrollbars',
  // Background tabs must not be throttled: parallel environments are all "background".
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

/**
 * The profile's preferences, written before the first start. WebRTC sends UDP (STUN, TURN) and
 * TCP (TURN) straight from the browser, past any proxy: this policy keeps it to TCP through the
 * context's proxy, where the network guard judges it (Chrome has no flag for it any more; the
 * contexts made over CDP inherit the profile's preferences).
 */
const PROFILE_PREFERENCES = { webrtc: { ip_handling_policy: 'disable_non_proxied_udp' } };

interface Pending {
  resolve: (v: any) => void;
  reject: (e: Error) => void;
  method: string;
}

/** A message channel to the browser: a WebSocket (remote) or a pipe pair (launched). */
interface Wire {
  send(text: string): void;
  onMessage(cb: (text: string) => void): void;
  onClose(cb: (reason: string) => void): void;
  close(): void;
}

function webSocketWire(ws: WebSocket): Wire {
  return {
    send: (text) => ws.send(text),
    onMessage: (cb) => ws.on('message', (data) => cb(String(data))),
    onClose: (cb) => {
      ws.on('close', () => cb('browser connection closed'));
      ws.on('error', (err) => cb(`browser connection error: ${err.message}`));
    },
    close: () => ws.close(),
  };
}

/**
 * --remote-debugging-pipe: NUL-terminated JSON on fds 3 (to Chromium) and 4 (from it).
 * Chromium exits when the pipe closes, so a killed workbench never leaves a browser behind.
 */
function pipeWire(proc: ChildProcess): Wire {
  const out = proc.stdio[3] as NodeJS.WritableStream;
  const input = proc.stdio[4] as NodeJS.ReadableStream;
  let buffer = '';
  // A browser that died leaves a broken pipe: that must surface as a closed connection, never as
  // an unhandled stream error that takes the workbench down.
  (out as NodeJS.WritableStream & { on(e: 'error', l: () => void): void }).on('error', () => {});
  (input as NodeJS.ReadableStream).on('error', () => {});
  return {
    send: (text) => void out.write(text + '\0'),
    onMessage: (cb) =>
      input.on('data', (chunk) => {
        buffer += String(chunk);
        let end;
        while ((end = buffer.indexOf('\0')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 1);
          cb(message);
        }
      }),
    onClose: (cb) => {
      input.on('close', () => cb('browser pipe closed'));
      proc.on('exit', (code) => cb(`browser exited (code ${code})`));
    },
    close: () => {
      (out as any).end?.();
    },
  };
}

/** One connection to the browser, multiplexing flat sessions by sessionId. */
class BrowserConnection {
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private listeners = new Map<string, Set<CdpEventListener>>();
  private closedReason: string | null = null;
  readonly closed: Promise<void>;

  constructor(private wire: Wire) {
    this.closed = new Promise((resolve) => {
      wire.onClose((reason) => {
        this.fail(reason);
        resolve();
      });
    });
    wire.onMessage((text) => this.onMessage(text));
  }

  static async open(url: string, timeoutMs = 10_000): Promise<BrowserConnection> {
    const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 512 * 1024 * 1024 });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`could not connect to ${url} within ${timeoutMs} ms`)), timeoutMs);
      ws.once('open', () => (clearTimeout(timer), resolve()));
      ws.once('error', (err) => (clearTimeout(timer), reject(new Error(`could not connect to ${url}: ${err.message}`))));
    });
    return new BrowserConnection(webSocketWire(ws));
  }

  send<M extends CdpMethod>(method: M, params: CdpParams<M>[0] = {}, sessionId?: string): Promise<CdpResult<M>> {
    if (this.closedReason) return Promise.reject(new CdpClosedError(this.closedReason));
    const id = this.nextId++;
    const message = sessionId ? { id, method, params, sessionId } : { id, method, params };
    return new Promise<CdpResult<M>>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.wire.send(JSON.stringify(message));
    });
  }

  /** Listen to events of one session ('' for browser-level events). */
  on(sessionId: string, listener: CdpEventListener): () => void {
    let set = this.listeners.get(sessionId);
    if (!set) this.listeners.set(sessionId, (set = new Set()));
    set.add(listener);
    return () => {
      set!.delete(listener);
      if (set!.size === 0 && this.listeners.get(sessionId) === set) this.listeners.delete(sessionId);
    };
  }

  /** Sessions that still have listeners: bounded by the open pages, never by the episodes run (tests hold it). */
  get listenedSessions(): number {
    return [...this.listeners.keys()].filter((k) => k !== '').length;
  }

  /** Forget every listener of a session that is gone: a listener nobody removed would keep its page's state alive. */
  forget(sessionId: string): void {
    this.listeners.delete(sessionId);
  }

  emit(sessionId: string, method: string, params: any): void {
    for (const l of [...(this.listeners.get(sessionId) ?? [])]) l(method, params);
  }

  private onMessage(text: string): void {
    const msg = JSON.parse(text);
    if (typeof msg.id === 'number') {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new CdpError(p.method, msg.error.message ?? JSON.stringify(msg.error)));
      else p.resolve(msg.result);
      return;
    }
    this.emit(msg.sessionId ?? '', msg.method, msg.params);
  }

  /** Why the connection closed; null while it is open. */
  get lostReason(): string | null {
    return this.closedReason;
  }

  private fail(reason: string): void {
    if (this.closedReason) return;
    this.closedReason = reason;
    for (const p of this.pending.values()) p.reject(new CdpClosedError(reason));
    this.pending.clear();
  }

  close(): void {
    this.wire.close();
  }
}

class FlatSession implements CdpSession {
  readonly closed: Promise<void>;
  private markClosed!: () => void;

  constructor(
    private conn: BrowserConnection,
    readonly sessionId: string,
  ) {
    // The host marks it closed (on detach, dispose or a lost connection); a reaction on the
    // connection's own promise here would keep every session ever opened alive until the browser quits.
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
  }

  send<M extends CdpMethod>(method: M, ...[params]: CdpParams<M>): Promise<CdpResult<M>> {
    return this.conn.send(method, params, this.sessionId);
  }

  onEvent(listener: CdpEventListener): () => void {
    return this.conn.on(this.sessionId, listener);
  }

  attached(sessionId: string): CdpSession {
    return new FlatSession(this.conn, sessionId);
  }

  detached(): void {
    this.markClosed();
  }
}

export interface ChromiumOptions {
  /** Attach to this browser endpoint (ws://host:port/devtools/browser/...) instead of launching. */
  browserUrl?: string;
  executable?: string;
  /** Extra command-line flags for a launched browser. */
  args?: string[];
  headless?: boolean;
  /** How to name a remote browser in errors (default: browserUrl), e.g. the grid URL it was resolved from. */
  endpointName?: string;
  /**
   * Force every page's traffic through a policy proxy on this machine (./policy-proxy.ts). Default:
   * always for a launched browser; for a remote one, when a probe finds it can reach this machine's
   * loopback (it runs here). false leaves pages with the in-browser guards only (./loopback-guard.ts).
   */
  policyProxy?: boolean;
}

export class ChromiumHost implements BrowserHost {
  readonly kind: 'chromium' | 'remote';
  /** How errors and summaries name this browser: the endpoint it was reached at, or the launched process. */
  readonly endpoint: string;
  private sessions = new Map<string, FlatSession>(); // by sessionId
  private sessionByTarget = new Map<string, string>(); // targetId -> sessionId
  /** Whether each page's context goes through a policy proxy (decided once, at start). */
  private proxied = false;

  private constructor(
    private conn: BrowserConnection,
    private proc: ChildProcess | null,
    private userDataDir: string | null,
    /** A launched browser's sandbox; undefined for a remote one (its own business). */
    readonly sandbox?: SandboxState,
    endpoint?: string,
  ) {
    this.kind = proc ? 'chromium' : 'remote';
    this.endpoint = endpoint ?? (proc ? `launched Chromium (pid ${proc.pid})` : 'remote browser');
    conn.on('', (method, params) => this.onBrowserEvent(method, params));
    conn.closed.then(() => {
      for (const session of this.sessions.values()) session.detached();
    });
  }

  static async start(options: ChromiumOptions = {}): Promise<ChromiumHost> {
    if (options.browserUrl) {
      if (!/^wss?:\/\//.test(options.browserUrl)) {
        throw new Error(`--browser must be a ws:// or wss:// DevTools endpoint, got "${options.browserUrl}"`);
      }
      const conn = await BrowserConnection.open(options.browserUrl);
      return ChromiumHost.init(new ChromiumHost(conn, null, null, undefined, options.endpointName ?? options.browserUrl), options.policyProxy);
    }
    const executable = findChromium(options.executable);
    let sandbox = decideSandbox(sandboxFacts(executable, options.args));
    let launched;
    try {
      launched = await ChromiumHost.launch(executable, options, sandbox.enabled);
    } catch (err) {
      // The system checks can miss a sandbox that cannot start (a seccomp filter, a container):
      // run without it rather than not at all, and say why in every episode header.
      const why = sandbox.enabled ? sandboxStartFailure((err as Error).message) : null;
      if (!why) throw err;
      sandbox = { enabled: false, reason: `Chromium could not start its sandbox: ${why}` };
      launched = await ChromiumHost.launch(executable, options, false);
    }
    return ChromiumHost.init(new ChromiumHost(launched.conn, launched.proc, launched.userDataDir, sandbox), options.policyProxy ?? true);
  }

  private static async launch(executable: string, options: ChromiumOptions, sandbox: boolean): Promise<{ conn: BrowserConnection; proc: ChildProcess; userDataDir: string }> {
    const userDataDir = mkdtempSync(join(tmpdir(), 'lab-chromium-'));
    mkdirSync(join(userDataDir, 'Default'));
    writeFileSync(join(userDataDir, 'Default', 'Preferences'), JSON.stringify(PROFILE_PREFERENCES));
    const flags = [...CHROMIUM_FLAGS, ...(sandbox ? [] : ['--no-sandbox']), `--user-data-dir=${userDataDir}`, '--remote-debugging-pipe', ...(options.args ?? [])];
    if (options.headless === false) flags.splice(flags.indexOf('--headless=new'), 1);
    // Its own process group: a Ctrl-C in the terminal asks the workbench to stop (it finishes or
    // checkpoints what runs in the browser) instead of killing the browser under it. It still
    // cannot outlive the workbench: it exits when the debugging pipe closes.
    const proc = spawn(executable, [...flags, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true });
    await new Promise<void>((resolve, reject) => {
      proc.once('spawn', () => resolve());
      proc.once('error', (err) => reject(new Error(`could not start ${executable}: ${err.message}`)));
    });
    let stderr = '';
    proc.stderr!.on('data', (chunk) => (stderr = (stderr + String(chunk)).slice(-4000)));
    const conn = new BrowserConnection(pipeWire(proc));
    // The first answer proves the browser is up; a browser that dies at start says why here.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${executable} did not answer within 20 s:\n${stderr}`)), 20_000);
      conn.send('Browser.getVersion').then(
        () => (clearTimeout(timer), resolve()),
        () => (clearTimeout(timer), reject(new Error(`${executable} exited before it was ready:\n${stderr}`))),
      );
    }).catch((err) => {
      proc.kill('SIGKILL');
      rmSync(userDataDir, { recursive: true, force: true });
      throw err;
    });
    return { conn, proc, userDataDir };
  }

  /** `policyProxy` undefined: probe whether the (remote) browser reaches this machine's loopback. */
  private static async init(host: ChromiumHost, policyProxy: boolean | undefined): Promise<ChromiumHost> {
    await host.conn.send('Target.setDiscoverTargets', { discover: true });
    host.proxied = policyProxy ?? (await host.reachesLoopbackHere());
    return host;
  }

  /**
   * Does the browser reach a proxy on this machine's 127.0.0.1 (it runs here, or shares this
   * network namespace)? One throwaway context whose proxy should see its page's request. A browser
   * elsewhere (another machine, a container behind a port forward) would find nothing at that
   * address, and every page of it would fail; its own loopback is then not this machine's either.
   */
  private async reachesLoopbackHere(timeoutMs = 3000): Promise<boolean> {
    const proxy = await PolicyProxy.start();
    let contextId: string | undefined;
    try {
      ({ browserContextId: contextId } = await this.conn.send('Target.createBrowserContext', {
        disposeOnDetach: true,
        proxyServer: proxy.proxyServer,
        proxyBypassList: '<-loopback>',
      }));
      // A loopback URL: the proxy refuses and records it without resolving or connecting anything.
      await this.conn.send('Target.createTarget', { url: `http://127.0.0.1:${proxy.port}/lab-proxy-probe`, browserContextId: contextId });
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (proxy.takeRefused()) return true;
        await new Promise((r) => setTimeout(r, 50));
      }
      return false;
    } catch {
      return false; // a browser that takes no proxy per context: the in-browser guards only
    } finally {
      if (contextId) await this.conn.send('Target.disposeBrowserContext', { browserContextId: contextId }).catch(() => {});
      await proxy.close();
    }
  }

  /** Whether pages of this browser go through a policy proxy (the episode header can say so). */
  get policyProxy(): boolean {
    return this.proxied;
  }

  /** Pages this host holds and sessions the connection still routes events to; both stay bounded by open pages. */
  liveSessions(): { pages: number; listened: number } {
    return { pages: this.sessions.size, listened: this.conn.listenedSessions };
  }

  /** Resolves when the connection to the browser closes, for any reason (it died, or close() was called). */
  get closed(): Promise<void> {
    return this.conn.closed;
  }

  /** Why the connection closed; null while the browser is there. */
  get lost(): string | null {
    return this.conn.lostReason;
  }

  /** The launched browser's process id; null when attached to a remote one. */
  get pid(): number | null {
    return this.proc?.pid ?? null;
  }

  /** Product and version of the browser, e.g. "Chrome/156.0.8078.73". */
  async version(): Promise<string> {
    const v = await this.conn.send('Browser.getVersion');
    return v.product;
  }

  async newPage(viewport: { width: number; height: number }): Promise<PageHandle> {
    // The context's own proxy; `<-loopback>` takes away Chromium's implicit direct route to
    // localhost, 127/8 and [::1], so those go through the proxy too.
    const proxy = this.proxied ? await PolicyProxy.start() : null;
    let browserContextId: string | undefined;
    try {
      ({ browserContextId } = await this.conn.send('Target.createBrowserContext', {
        disposeOnDetach: true,
        ...(proxy ? { proxyServer: proxy.proxyServer, proxyBypassList: '<-loopback>' } : {}),
      }));
      return await this.pageIn(browserContextId, viewport, proxy);
    } catch (err) {
      // A page half made (the browser went away, say) leaves neither its context nor its proxy behind.
      if (browserContextId) await this.conn.send('Target.disposeBrowserContext', { browserContextId }).catch(() => {});
      await proxy?.close();
      throw err;
    }
  }

  private async pageIn(browserContextId: string, viewport: { width: number; height: number }, proxy: PolicyProxy | null): Promise<PageHandle> {
    const { targetId } = await this.conn.send('Target.createTarget', {
      url: 'about:blank',
      browserContextId,
      width: viewport.width,
      height: viewport.height,
    });
    const { sessionId } = await this.conn.send('Target.attachToTarget', { targetId, flatten: true });
    // Environment pages are untrusted: nothing they start may land on disk.
    await this.conn.send('Browser.setDownloadBehavior', { behavior: 'deny', browserContextId }).catch(() => {});
    const session = new FlatSession(this.conn, sessionId);
    this.sessions.set(sessionId, session);
    this.sessionByTarget.set(targetId, sessionId);
    const dispose = async () => {
      // Closed now, not when the detach event comes (it finds no session then): whatever waits
      // on `closed` lets go of the page, and the connection forgets the session's listeners.
      this.sessions.delete(sessionId);
      this.sessionByTarget.delete(targetId);
      session.detached();
      this.conn.forget(sessionId);
      await this.conn.send('Target.closeTarget', { targetId }).catch(() => {});
      await this.conn.send('Target.disposeBrowserContext', { browserContextId }).catch(() => {});
      await proxy?.close();
    };
    await session
      .send('Emulation.setDeviceMetricsOverride', { width: viewport.width, height: viewport.height, deviceScaleFactor: 1, mobile: false })
      .catch(async (err) => {
        await dispose();
        throw err;
      });
    return {
      session,
      browser: { endpoint: this.endpoint, lost: () => this.conn.lostReason },
      network: proxy ?? undefined,
      dispose,
    };
  }

  private onBrowserEvent(method: string, params: any): void {
    if (method === 'Target.detachedFromTarget') {
      this.sessions.get(params.sessionId)?.detached();
    } else if (method === 'Target.targetCreated') {
      // A page opened by one of ours (window.open, target=_blank): close it and tell the opener.
      const info = params.targetInfo;
      if (info.type !== 'page' || !info.openerId) return;
      const openerSession = this.sessionByTarget.get(info.openerId);
      if (!openerSession) return;
      this.conn.send('Target.closeTarget', { targetId: info.targetId }).catch(() => {});
      this.conn.emit(openerSession, POPUP_EVENT, { url: info.url, targetId: info.targetId });
    }
  }

  async close(): Promise<void> {
    if (this.proc) {
      await this.conn.send('Browser.close').catch(() => {});
      const proc = this.proc;
      await Promise.race([
        new Promise((r) => proc.once('exit', r)),
        new Promise((r) => setTimeout(r, 2000)),
      ]);
      if (proc.exitCode === null) proc.kill('SIGKILL');
    }
    this.conn.close();
    if (this.userDataDir) rmSync(this.userDataDir, { recursive: true, force: true });
  }
}
