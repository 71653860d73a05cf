/**
 * Who may use web mode, and at which address (main/server/web.ts serves; this decides).
 *
 * Browsers do not separate cookies by port: a cookie of 127.0.0.1 goes to every server on
 * 127.0.0.1 the browser visits, so web mode's session cookie, which used to hold the token itself,
 * went to any local server. The app is therefore served at a host name of its own,
 * `lab-<random>.localhost` (browsers resolve every *.localhost name to loopback without asking
 * DNS), and its credentials are:
 *
 * - the token (per run, printed once in the URL's fragment): API clients send it as
 *   `Authorization: Bearer` at either address; the app trades it once for a session.
 * - a session: a random id (not the token) in a cookie of the app's host only (no Domain),
 *   HttpOnly, SameSite=Strict. Sent to that host name and no other: not to 127.0.0.1, localhost or
 *   another *.localhost name. A cookie's host does not include its port, so a server on another
 *   port reached at the same name would get it; the name is random and shown nowhere but in the
 *   printed URL, so no other server can ask for it. It opens this server's API, and only under the
 *   app's host name, until the server stops.
 * - a ticket: `?ticket=` on one resource URL (a screenshot, a report, an export download) for a
 *   short time, minted by a caller holding one of the two above (POST /ticket), for a link handed to
 *   a tool that can send neither. It opens that path and no other.
 *
 * Every request must name the app's host, or (API clients, which cannot all resolve *.localhost
 * names) 127.0.0.1 or localhost with the server's port: a page of another site whose name was
 * rebound to 127.0.0.1 (DNS rebinding) names its own host and is refused.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { parseCookie, stringifySetCookie } from 'cookie';

/** The session cookie's name: host-only (the app's own *.localhost name), HttpOnly, SameSite=Strict. */
export const SESSION_COOKIE = 'lab-session';
/** How long a ticket opens its resource. */
export const DEFAULT_TICKET_TTL_MS = 60_000;
const MAX_SESSIONS = 256;
const MAX_TICKETS = 4096;

/** Which of the server's addresses a request named: the app's own, or a loopback one (API clients). */
export type HostKind = 'app' | 'loopback';

const random = (bytes: number) => randomBytes(bytes).toString('base64url');

function sameSecret(candidate: string | null | undefined, secret: string): boolean {
  if (!candidate) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

export class WebAuth {
  readonly token: string;
  /** `lab-<random>.localhost`, new for every server. */
  readonly hostName: string;
  private port = 0;
  /** Session ids, oldest first. */
  private readonly sessions = new Set<string>();
  private readonly tickets = new Map<string, { path: string; expiresAt: number }>();
  private readonly ticketTtlMs: number;
  private readonly now: () => number;

  constructor(opts: { token?: string; ticketTtlMs?: number; now?: () => number } = {}) {
    this.token = opts.token ?? random(24);
    this.hostName = `lab-${randomBytes(8).toString('hex')}.localhost`;
    this.ticketTtlMs = opts.ticketTtlMs ?? DEFAULT_TICKET_TTL_MS;
    this.now = opts.now ?? Date.now;
  }

  listeningOn(port: number): void {
    this.port = port;
  }

  /** `lab-<random>.localhost:<port>`: the Host header of the app's requests. */
  get appHost(): string {
    return `${this.hostName}:${this.port}`;
  }

  get appOrigin(): string {
    return `http://${this.appHost}`;
  }

  hostKind(host: string | undefined): HostKind | null {
    const h = (host ?? '').toLowerCase();
    if (h === this.appHost) return 'app';
    if (h === `127.0.0.1:${this.port}` || h === `localhost:${this.port}`) return 'loopback';
    return null;
  }

  /** A browser's request names its page's origin; only the app's own may act (API clients send none). */
  originOk(req: IncomingMessage): boolean {
    return !req.headers.origin || req.headers.origin === this.appOrigin;
  }

  bearerOk(req: IncomingMessage): boolean {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    return sameSecret(m?.[1], this.token);
  }

  newSession(): { id: string; setCookie: string } {
    const id = random(32);
    this.sessions.add(id);
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.values().next().value!);
    return { id, setCookie: stringifySetCookie({ name: SESSION_COOKIE, value: id, httpOnly: true, sameSite: 'strict', path: '/' }) };
  }

  /** The request's session cookie names a live session, and the request was made to the app's host (the only one the cookie is for). */
  sessionOk(req: IncomingMessage): boolean {
    if (this.hostKind(req.headers.host) !== 'app') return false;
    const id = parseCookie(req.headers.cookie ?? '')[SESSION_COOKIE];
    return !!id && this.sessions.has(id);
  }

  /** The token as a bearer header, or the app's session. */
  authorized(req: IncomingMessage): boolean {
    return this.bearerOk(req) || this.sessionOk(req);
  }

  issueTicket(path: string): { ticket: string; expiresAt: number } {
    const t = this.now();
    for (const [k, v] of this.tickets) if (v.expiresAt <= t) this.tickets.delete(k);
    if (this.tickets.size >= MAX_TICKETS) this.tickets.delete(this.tickets.keys().next().value!);
    const ticket = random(24);
    const expiresAt = t + this.ticketTtlMs;
    this.tickets.set(ticket, { path, expiresAt });
    return { ticket, expiresAt };
  }

  /** `?ticket=` names a ticket for exactly this path that has not expired. */
  ticketOk(url: URL): boolean {
    const ticket = url.searchParams.get('ticket');
    const entry = ticket ? this.tickets.get(ticket) : undefined;
    return !!entry && entry.path === url.pathname && entry.expiresAt > this.now();
  }
}
