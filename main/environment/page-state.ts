/**
 * Watches one page's CDP events (navigation, network, dialogs, popups, crashes) and knows when
 * the page has settled. Faults seen while a step runs are collected as named StepErrors.
 */
import { POPUP_EVENT, type CdpSession } from './cdp.ts';
import type { StepError } from './types.ts';

export type DialogPolicy = 'dismiss' | 'accept';

/** Requests that finish; long-lived streams never do and must not hold the settle wait. */
const TRACKED_TYPES = new Set(['Document', 'Stylesheet', 'Script', 'XHR', 'Fetch', 'Image', 'Font']);

/** How far back the page looks for timers the action started; a little slack for the round trip. */
function sinceMs(since: number | undefined): number {
  return since === undefined ? 0 : Math.max(1, Date.now() - since + 50);
}

export class PageState {
  mainFrameId = '';
  loading = false;
  crashed = false;
  /** Increments on every main-frame navigation start; tells a settle loop that the document changed. */
  navigations = 0;
  private inflight = new Map<string, string>(); // requestId -> frame id
  private documentUrls = new Map<string, string>();
  private faults: StepError[] = [];
  private lastWindowOpen = 0;
  /** Windows the page opened that the host has not closed yet. */
  private popupsOpen = 0;
  private waiters = new Set<() => void>();
  private unsubscribe: () => void;
  readonly crashedSignal: Promise<void>;
  private signalCrash!: () => void;

  constructor(
    private session: CdpSession,
    private dialogPolicy: DialogPolicy,
  ) {
    this.crashedSignal = new Promise((resolve) => (this.signalCrash = resolve));
    this.unsubscribe = session.onEvent((method, params) => {
      this.onEvent(method, params);
      for (const w of [...this.waiters]) w();
    });
    session.closed.then(() => {
      if (!this.crashed) {
        this.crashed = true;
        this.faults.push({ code: 'renderer_crashed', message: 'the page target closed' });
        this.signalCrash();
      }
    });
  }

  dispose(): void {
    this.unsubscribe();
  }

  /** Faults recorded since the last call, oldest first. */
  takeFaults(): StepError[] {
    const out = this.faults;
    this.faults = [];
    return out;
  }

  private onEvent(method: string, p: any): void {
    switch (method) {
      case 'Page.frameStartedLoading':
        if (p.frameId === this.mainFrameId) {
          this.loading = true;
          this.navigations++;
        }
        break;
      case 'Page.frameStoppedLoading':
        if (p.frameId === this.mainFrameId) this.loading = false;
        break;
      case 'Page.frameNavigated':
        if (!p.frame.parentId) this.mainFrameId = p.frame.id;
        break;
      case 'Page.frameDetached':
        // A frame that moved to a process of its own (another site): its document's load ends
        // there, out of this session's sight, so it must not hold this page's settle wait.
        if (p.reason === 'swap') for (const [id, frameId] of this.inflight) if (frameId === p.frameId) this.inflight.delete(id);
        break;
      case 'Network.requestWillBeSent':
        if (TRACKED_TYPES.has(p.type)) this.inflight.set(p.requestId, p.frameId);
        if (p.type === 'Document' && p.frameId === this.mainFrameId) this.documentUrls.set(p.requestId, p.request.url);
        break;
      case 'Network.loadingFinished':
        this.inflight.delete(p.requestId);
        this.documentUrls.delete(p.requestId);
        break;
      case 'Network.loadingFailed': {
        this.inflight.delete(p.requestId);
        const url = this.documentUrls.get(p.requestId);
        this.documentUrls.delete(p.requestId);
        // A navigation replaced by another one is cancelled, not failed.
        if (url !== undefined && !p.canceled && p.errorText !== 'net::ERR_ABORTED') {
          this.faults.push({ code: 'navigation_failed', message: `${p.errorText} loading ${url}` });
        }
        break;
      }
      case 'Page.javascriptDialogOpening': {
        // beforeunload must be accepted or the navigation that raised it never completes.
        const accept = p.type === 'beforeunload' || this.dialogPolicy === 'accept';
        this.session.send('Page.handleJavaScriptDialog', { accept }).catch(() => {});
        const text = String(p.message ?? '').slice(0, 200);
        this.faults.push({ code: 'dialog_opened', message: `${p.type} dialog ${accept ? 'accepted' : 'dismissed'}: ${JSON.stringify(text)}` });
        break;
      }
      // Page.windowOpen arrives on the page's own session, in order with its other events, so
      // the step that caused it sees it; the host's report (the popup target, which it closes)
      // comes from the browser and can be later, so it only counts when windowOpen was missed.
      case 'Page.windowOpen':
        this.lastWindowOpen = Date.now();
        this.popupsOpen++;
        this.faults.push({ code: 'popup_blocked', message: `the page tried to open a new window${p.url && p.url !== 'about:blank' ? ` at ${p.url}` : ''}; it was closed` });
        break;
      case POPUP_EVENT:
        this.popupsOpen = Math.max(0, this.popupsOpen - 1);
        if (Date.now() - this.lastWindowOpen > 2000) {
          this.faults.push({ code: 'popup_blocked', message: `the page tried to open a new window${p.url && p.url !== 'about:blank' ? ` at ${p.url}` : ''}; it was closed` });
        }
        break;
      case 'Inspector.targetCrashed':
        this.crashed = true;
        this.faults.push({ code: 'renderer_crashed', message: 'the page renderer crashed' });
        this.signalCrash();
        break;
    }
  }

  /** Resolve when pred() holds or after ms; returns whether it held. Re-checked on every event. */
  waitUntil(pred: () => boolean, ms: number): Promise<boolean> {
    if (pred()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(ok);
      };
      const check = () => {
        if (pred()) done(true);
      };
      const timer = setTimeout(() => done(pred()), Math.max(0, ms));
      this.waiters.add(check);
    });
  }

  /**
   * Wait until the main document has loaded, tracked requests are done, the short timers and
   * animations started since `since` (the action, as a Date.now() time) have run, and the DOM has
   * been quiet for quietMs; or until the deadline. Not settling in time is not an error: some
   * pages animate.
   */
  async settle(deadline: number, quietMs: number, since?: number): Promise<'settled' | 'busy' | 'loading'> {
    const navigationsAtStart = this.navigations;
    for (let round = 0; round < 20; round++) {
      const remaining = deadline - Date.now();
      if (this.crashed) return 'settled';
      if (remaining <= 0) return this.loading ? 'loading' : 'busy';
      if (this.loading) {
        await this.waitUntil(() => !this.loading || this.crashed, remaining);
        continue;
      }
      if (this.popupsOpen) {
        // A step is over only once the window it opened is gone again.
        await this.waitUntil(() => this.popupsOpen === 0 || this.crashed, Math.min(remaining, 1000));
        this.popupsOpen = 0;
      }
      if (this.inflight.size) {
        // Long polls would hold us forever: give requests at most a second per round.
        await this.waitUntil(() => this.inflight.size === 0 || this.crashed, Math.min(remaining, 1000));
      }
      const before = this.navigations;
      try {
        await this.session.send('Runtime.evaluate', {
          expression: `window.__lab ? window.__lab.settle(${quietMs}, ${Math.max(0, deadline - Date.now())}, ${this.navigations === navigationsAtStart}, ${sinceMs(since)}) : true`,
          awaitPromise: true,
          returnByValue: true,
        });
      } catch {
        // The document went away under the evaluation (a navigation): settle the new one.
        continue;
      }
      if (this.loading || this.navigations !== before || this.inflight.size) continue;
      return 'settled';
    }
    return this.loading ? 'loading' : 'busy';
  }
}
