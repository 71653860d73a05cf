/**
 * What the page did between two observations: its console messages (and uncaught exceptions) and
 * its network requests, read from CDP events on the page's own session, for the step record.
 *
 * The page is untrusted: this only copies strings and numbers out of the events (never evaluates
 * anything the page wrote), clips every string, and keeps at most a fixed number of entries per
 * step, counting what it dropped, so a page that logs in a loop cannot grow an episode file.
 */
import type { CdpSession } from './cdp.ts';
import type { RefusedRequests } from './policy-proxy.ts';

export const MAX_CONSOLE = 50;
export const MAX_REQUESTS = 100;
export const MAX_TEXT_CHARS = 500;
export const MAX_URL_CHARS = 500;

export interface ConsoleEntry {
  /** console.log → 'log', console.error → 'error', uncaught exception → 'error' with source 'exception'; Log domain entries keep their level. */
  level: string;
  /** 'console' (console API), 'exception' (uncaught), or the Log domain's source (network, violation, intervention…). */
  source: string;
  text: string;
}

export interface RequestEntry {
  method: string;
  url: string;
  /** CDP resource type: Document, Script, Fetch, XHR, Image… */
  type: string;
  /** HTTP status; null when no response came (failed, blocked, or still pending when the step ended). */
  status: number | null;
  /** From request to the end of loading; null while still pending at the end of the step. */
  durationMs: number | null;
  /** Why it failed (net::ERR_…, blocked reason) when it did. */
  failed?: string;
}

export interface StepActivity {
  console: ConsoleEntry[];
  requests: RequestEntry[];
  /** Entries over the bounds, left out. */
  droppedConsole: number;
  droppedRequests: number;
  /**
   * Requests the network guard refused (./policy-proxy.ts): those of the page, its frames and
   * workers, which the page's own network events do not all show. Absent when none were.
   */
  refused?: RefusedRequests;
}

interface OpenRequest {
  entry: RequestEntry;
  /** CDP monotonic timestamp (seconds) of requestWillBeSent. */
  start: number;
  /** Index in `requests`, or -1 when it was dropped. */
  slot: number;
}

export class PageActivity {
  private console: ConsoleEntry[] = [];
  private requests: RequestEntry[] = [];
  private droppedConsole = 0;
  private droppedRequests = 0;
  private open = new Map<string, OpenRequest>();
  private readonly unsubscribe: () => void;

  constructor(session: CdpSession) {
    this.unsubscribe = session.onEvent((method, params) => {
      try {
        this.onEvent(method, params);
      } catch {
        // A malformed event is the page's or the browser's problem, never the step's.
      }
    });
  }

  /** Everything since the last take (or since the page was attached); starts the next window. */
  take(): StepActivity {
    const out: StepActivity = { console: this.console, requests: this.requests, droppedConsole: this.droppedConsole, droppedRequests: this.droppedRequests };
    this.console = [];
    this.requests = [];
    this.droppedConsole = 0;
    this.droppedRequests = 0;
    // Requests still loading stay listed in this step as pending; their end is not followed further.
    this.open.clear();
    return out;
  }

  dispose(): void {
    this.unsubscribe();
  }

  private addConsole(entry: ConsoleEntry): void {
    if (this.console.length >= MAX_CONSOLE) this.droppedConsole++;
    else this.console.push(entry);
  }

  private onEvent(method: string, p: any): void {
    switch (method) {
      case 'Runtime.consoleAPICalled':
        this.addConsole({ level: consoleLevel(String(p.type)), source: 'console', text: clip((p.args ?? []).map(describeArg).join(' '), MAX_TEXT_CHARS) });
        break;
      case 'Runtime.exceptionThrown': {
        const d = p.exceptionDetails ?? {};
        const text = d.exception?.description ?? d.text ?? 'uncaught exception';
        this.addConsole({ level: 'error', source: 'exception', text: clip(String(text), MAX_TEXT_CHARS) });
        break;
      }
      case 'Log.entryAdded': {
        const e = p.entry ?? {};
        const url = e.url ? ` (${clip(String(e.url), MAX_URL_CHARS)})` : '';
        this.addConsole({ level: String(e.level ?? 'info'), source: String(e.source ?? 'other'), text: clip(`${String(e.text ?? '')}${url}`, MAX_TEXT_CHARS) });
        break;
      }
      case 'Network.requestWillBeSent': {
        const id = String(p.requestId);
        // A redirect reuses the request id: the hop that redirected ends here with its status.
        const prior = this.open.get(id);
        if (prior && p.redirectResponse) this.finish(prior, Number(p.timestamp), Number(p.redirectResponse.status));
        const entry: RequestEntry = {
          method: String(p.request?.method ?? 'GET'),
          url: clip(String(p.request?.url ?? ''), MAX_URL_CHARS),
          type: String(p.type ?? 'Other'),
          status: null,
          durationMs: null,
        };
        let slot = -1;
        if (this.requests.length >= MAX_REQUESTS) this.droppedRequests++;
        else slot = this.requests.push(entry) - 1;
        this.open.set(id, { entry, start: Number(p.timestamp), slot });
        break;
      }
      case 'Network.responseReceived': {
        const r = this.open.get(String(p.requestId));
        if (r) r.entry.status = Number(p.response?.status) || null;
        break;
      }
      case 'Network.loadingFinished': {
        const r = this.open.get(String(p.requestId));
        if (r) this.finish(r, Number(p.timestamp), r.entry.status);
        this.open.delete(String(p.requestId));
        break;
      }
      case 'Network.loadingFailed': {
        const r = this.open.get(String(p.requestId));
        if (r) {
          r.entry.failed = clip(String(p.blockedReason ? `blocked: ${p.blockedReason}` : p.canceled ? 'canceled' : (p.errorText ?? 'failed')), 200);
          this.finish(r, Number(p.timestamp), r.entry.status);
        }
        this.open.delete(String(p.requestId));
        break;
      }
    }
  }

  private finish(r: OpenRequest, end: number, status: number | null): void {
    r.entry.status = status;
    if (Number.isFinite(end) && Number.isFinite(r.start)) r.entry.durationMs = Math.max(0, Math.round((end - r.start) * 10_000) / 10);
  }
}

function consoleLevel(type: string): string {
  // console.warn arrives as 'warning'; assert and trace are errors and debug output as a console shows them.
  if (type === 'assert') return 'error';
  if (type === 'trace' || type === 'dir' || type === 'dirxml' || type === 'table') return 'log';
  return type;
}

/** A console argument as text, from the RemoteObject's own fields (no call into the page). */
function describeArg(arg: any): string {
  if (!arg || typeof arg !== 'object') return String(arg);
  if (arg.unserializableValue !== undefined) return String(arg.unserializableValue);
  if (arg.type === 'string') return String(arg.value ?? '');
  if ('value' in arg && (arg.type === 'number' || arg.type === 'boolean')) return String(arg.value);
  if (arg.type === 'undefined') return 'undefined';
  if (arg.subtype === 'null') return 'null';
  return String(arg.description ?? arg.className ?? arg.type ?? '');
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
