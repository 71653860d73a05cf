/**
 * Cross-origin frames. Chromium runs a frame of another site in a process of its own (site
 * isolation); the page's CDP session sees its <iframe> element but neither its document nor its
 * network. Without this module such a frame is blank to the agent, and, worse, the loopback guard
 * set on the page does not cover it: a frame of another site could reach any port on this machine.
 *
 * Every such frame is auto-attached (flat sessions) and held paused until it is guarded like the
 * page, then released. Its elements are listed with ids that carry a frame prefix (`a12`, as
 * BrowserGym's bids do), so an action names the frame its element lives in.
 */
import type { CdpSession } from './cdp.ts';
import { callExpression, installSettleTracker } from './page-scripts.ts';

export interface RemoteFrame {
  /** The frame's id, which is also its target id. */
  frameId: string;
  /** Lowercase letters put before the frame's element ids: a, b, ..., z, aa, ab, ... */
  prefix: string;
  session: CdpSession;
  /** The session whose document holds this frame's <iframe> element (the page's or another frame's). */
  parent: CdpSession;
}

/** What a frame needs before its document runs: the page's loopback guard, at least. */
export type FrameSetup = (frame: CdpSession) => Promise<unknown>;

interface AttachedEvent {
  sessionId: string;
  targetInfo: { targetId: string; type: string };
  waitingForDebugger: boolean;
}

export class RemoteFrames {
  /** By sessionId, in the order they attached (a frame before the frames inside it); set up or not yet. */
  private frames = new Map<string, RemoteFrame & { ready: boolean }>();
  private unsubscribe: Array<() => void> = [];
  private created = 0;

  /** Only for sessions that can open flat child sessions (Chromium and Electron hosts can). */
  static supported(page: CdpSession): boolean {
    return typeof page.attached === 'function';
  }

  constructor(
    private page: CdpSession,
    private setup: FrameSetup,
  ) {}

  /** Start attaching: call before the page navigates, so no frame runs unguarded. */
  async start(): Promise<void> {
    await this.watch(this.page);
  }

  /** Frames attached now, each after the frame that holds it. */
  list(): RemoteFrame[] {
    return [...this.frames.values()].filter((f) => f.ready);
  }

  /** The frame whose prefix an element id carries; undefined for the page's own ids. */
  frameOfId(id: string): RemoteFrame | undefined {
    const prefix = /^([a-z]+)\d+$/.exec(id)?.[1];
    return prefix ? this.list().find((f) => f.prefix === prefix) : undefined;
  }

  /**
   * Where the frame's viewport starts in the page's viewport (CSS pixels): its <iframe>'s content
   * box, summed up through the frames that hold it.
   */
  async offset(frame: RemoteFrame): Promise<{ x: number; y: number }> {
    const owner = await this.ownerBackendId(frame);
    const box = await frame.parent.send('DOM.getBoxModel', { backendNodeId: owner });
    const holder = [...this.frames.values()].find((f) => f.session === frame.parent);
    const base = holder ? await this.offset(holder) : { x: 0, y: 0 };
    return { x: base.x + box.model.content[0], y: base.y + box.model.content[1] };
  }

  /** The backend node id of the frame's <iframe> element, in its parent's document. */
  async ownerBackendId(frame: RemoteFrame): Promise<number> {
    const owner = await frame.parent.send('DOM.getFrameOwner', { frameId: frame.frameId });
    return owner.backendNodeId;
  }

  dispose(): void {
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    this.frames.clear();
  }

  private async watch(session: CdpSession): Promise<void> {
    this.unsubscribe.push(
      session.onEvent((method, params) => {
        if (method === 'Target.attachedToTarget') void this.onAttached(session, params as AttachedEvent);
        else if (method === 'Target.detachedFromTarget') this.frames.delete(params.sessionId);
      }),
    );
    await session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
  }

  private async onAttached(parent: CdpSession, event: AttachedEvent): Promise<void> {
    const child = parent.attached!(event.sessionId);
    if (event.targetInfo.type !== 'iframe') {
      // A worker: nothing to list; the page's guard covers its requests.
      if (event.waitingForDebugger) await child.send('Runtime.runIfWaitingForDebugger').catch(() => {});
      return;
    }
    const frame = { frameId: event.targetInfo.targetId, prefix: framePrefix(this.created++), session: child, parent, ready: false };
    this.frames.set(event.sessionId, frame);
    try {
      await Promise.all([
        this.setup(child),
        child.send('Page.enable').catch(() => {}),
        child.send('Runtime.enable').catch(() => {}),
        child.send('Page.addScriptToEvaluateOnNewDocument', { source: callExpression(installSettleTracker) }).catch(() => {}),
        // Frames of a third site inside this one.
        this.watch(child),
      ]);
    } catch {
      // The frame went away while it was being set up, or could not be guarded: it stays paused
      // (blank) rather than run unguarded.
      return;
    }
    frame.ready = true;
    if (event.waitingForDebugger) await child.send('Runtime.runIfWaitingForDebugger').catch(() => {});
  }
}

/** 0 -> a, 25 -> z, 26 -> aa, ...: letters only, so a prefixed id stays one word. */
export function framePrefix(n: number): string {
  let s = '';
  for (let k = n + 1; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(97 + ((k - 1) % 26)) + s;
  return s;
}
