/**
 * The minimal Chrome DevTools Protocol surface the environment is written against.
 * Two transports implement it: a WebSocket to a Chromium process (./chromium.ts) and
 * Electron's `webContents.debugger` (../app/electron-host.ts).
 */

import type { ProtocolMapping } from 'devtools-protocol/types/protocol-mapping.js';
import type { RefusedRequests } from './policy-proxy.ts';

/** Every CDP command by name, with its parameters and result (the devtools-protocol package, generated from Chromium's protocol definition). */
type Commands = ProtocolMapping.Commands;
export type CdpMethod = keyof Commands;
/** A command's parameters as a tuple: [] for none, [P?] where they are optional, [P] where required. */
export type CdpParams<M extends CdpMethod> = Commands[M]['paramsType'];
export type CdpResult<M extends CdpMethod> = Commands[M]['returnType'];

export type CdpEventListener = (method: string, params: any) => void;

/** A CDP session scoped to one page target. */
export interface CdpSession {
  /** A command, its parameters and its result typed by the protocol: a misspelt method or a missing parameter is a compile error. */
  send<M extends CdpMethod>(method: M, ...params: CdpParams<M>): Promise<CdpResult<M>>;
  /** Subscribe to all events of this session; returns an unsubscribe function. */
  onEvent(listener: CdpEventListener): () => void;
  /** Resolves when the target goes away (closed or crashed). */
  readonly closed: Promise<void>;
  /**
   * The session of a target auto-attached through this one in flat mode (a cross-origin frame,
   * ./remote-frames.ts). Hosts without flat sessions leave it out; such frames then stay unread.
   */
  attached?(sessionId: string): CdpSession;
}

/** A fresh, isolated page (own cookies, storage and cache) for one episode. */
export interface PageHandle {
  session: CdpSession;
  /** Close the page and its isolated context. */
  dispose(): Promise<void>;
  /**
   * The browser that holds the page, where the host can tell: its endpoint, and why its
   * connection closed (null while it lives). A lost browser is not the page's fault (./browser-lost.ts).
   */
  browser?: { endpoint: string; lost(): string | null };
  /**
   * The proxy outside the browser that all of the page's traffic goes through (./policy-proxy.ts),
   * where the host forces it there; absent where it cannot (a browser on another machine).
   */
  network?: NetworkGuard;
}

/** What the environment tells the page's network guard, and what it hears back. */
export interface NetworkGuard {
  /** The task's origins: these may be reached even where they are this machine. Until called, none. */
  allow(origins: readonly string[]): void;
  /** Requests refused since the last take (null when none); starts the next window. */
  takeRefused(): RefusedRequests | null;
  /** Why the guard could not reach this URL's host (no such name, nothing listening), if it tried; else null. */
  whyUnreachable(url: string): string | null;
}

/** Something that hands out isolated pages: a Chromium process or an Electron window. */
export interface BrowserHost {
  readonly kind: 'chromium' | 'remote' | 'electron';
  /** Whether the browser runs its pages sandboxed, and why not; undefined where unknown (remote). */
  readonly sandbox?: { enabled: boolean; reason?: string };
  newPage(viewport: { width: number; height: number }): Promise<PageHandle>;
  close(): Promise<void>;
}

/**
 * Synthetic event a host delivers on the opener's session when the page tried to open a
 * window or tab. The host has already closed or refused it; the environment records the error.
 */
export const POPUP_EVENT = 'Lab.popupBlocked';

export class CdpError extends Error {
  constructor(
    readonly method: string,
    readonly cdpMessage: string,
  ) {
    super(`${method}: ${cdpMessage}`);
    this.name = 'CdpError';
  }
}

export class CdpClosedError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'CdpClosedError';
  }
}
