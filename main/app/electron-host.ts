/**
 * Transport (b): environment pages in Electron WebContentsViews, driven through
 * webContents.debugger. Thin glue: the environment code is the same as with Chromium.
 * Cannot run on the build machines (no Electron binary); policies live in ./policy.ts.
 */
import { randomBytes } from 'node:crypto';
import type { BaseWindow, WebContentsView as WebContentsViewType } from 'electron';
import { POPUP_EVENT, type BrowserHost, type CdpEventListener, type CdpSession, type PageHandle } from '../environment/cdp.ts';
import { PolicyProxy } from '../environment/policy-proxy.ts';
import { ENVIRONMENT_WEBRTC_POLICY, environmentPermission, environmentProxyConfig, environmentViewPreferences, environmentWindowOpen, isAllowedEnvironmentNavigation } from './policy.ts';

export class ElectronHost implements BrowserHost {
  readonly kind = 'electron' as const;
  // main.ts calls app.enableSandbox() and every environment view sets sandbox: true (policy.ts).
  readonly sandbox = { enabled: true };

  constructor(
    private electron: typeof import('electron'),
    private window: BaseWindow,
    private allowedOrigins: () => readonly string[],
  ) {}

  async newPage(viewport: { width: number; height: number }): Promise<PageHandle> {
    const { WebContentsView, session: sessions } = this.electron;
    const partition = `lab-env-${randomBytes(6).toString('hex')}`;
    const ses = sessions.fromPartition(partition);
    ses.setPermissionRequestHandler((_wc, permission, callback) => callback(environmentPermission(permission)));
    ses.setPermissionCheckHandler((_wc, permission) => environmentPermission(permission));
    ses.on('will-download', (event) => event.preventDefault());
    // All of the view's traffic through its own policy proxy (the network guard, ../environment/policy-proxy.ts).
    const proxy = await PolicyProxy.start();
    await ses.setProxy(environmentProxyConfig(proxy.proxyServer)).catch(async (err) => {
      await proxy.close();
      throw err;
    });
    const view: WebContentsViewType = new WebContentsView({ webPreferences: environmentViewPreferences(partition) });
    view.setBounds({ x: 0, y: 0, width: viewport.width, height: viewport.height });
    this.window.contentView.addChildView(view);
    const wc = view.webContents;
    wc.setWebRTCIPHandlingPolicy(ENVIRONMENT_WEBRTC_POLICY);
    const dbg = wc.debugger;
    dbg.attach('1.3');
    // Listeners per flat session: '' is the page's, others are its cross-origin frames'.
    const listeners = new Map<string, Set<CdpEventListener>>();
    const emit = (sessionId: string, method: string, params: unknown) => listeners.get(sessionId)?.forEach((l) => l(method, params));
    dbg.on('message', (_event, method, params, sessionId) => emit(sessionId ?? '', method, params));
    wc.setWindowOpenHandler(({ url }) => {
      emit('', POPUP_EVENT, { url });
      return environmentWindowOpen();
    });
    wc.on('will-navigate', (event, url) => {
      if (!isAllowedEnvironmentNavigation(url, this.allowedOrigins())) event.preventDefault();
    });
    let markClosed!: () => void;
    const closed = new Promise<void>((r) => (markClosed = r));
    wc.once('destroyed', () => markClosed());
    dbg.once('detach', () => markClosed());
    const sessionOf = (sessionId: string): CdpSession => ({
      send: (method, ...[params]) => (sessionId ? dbg.sendCommand(method, params ?? {}, sessionId) : dbg.sendCommand(method, params ?? {})),
      onEvent: (l) => {
        let set = listeners.get(sessionId);
        if (!set) listeners.set(sessionId, (set = new Set()));
        set.add(l);
        return () => set!.delete(l);
      },
      closed,
      attached: sessionOf,
    });
    const session = sessionOf('');
    return {
      session,
      network: proxy,
      dispose: async () => {
        if (dbg.isAttached()) dbg.detach();
        this.window.contentView.removeChildView(view);
        wc.close();
        await ses.clearStorageData();
        await proxy.close();
      },
    };
  }

  async close(): Promise<void> {}
}
