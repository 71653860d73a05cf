/**
 * The desktop app's security policies as plain functions, so they are tested in Node
 * (Electron itself cannot run on the build machines). main/app/*.ts only wires them up.
 */
import { APP_CSP, REPORT_CSP } from '../csp.ts';
import { LAB_ID_PATTERN } from '../store/layout.ts';

export { APP_CSP, REPORT_CSP };

/** webPreferences for a view that shows an untrusted environment page. */
export function environmentViewPreferences(partition: string) {
  return {
    partition, // non-persistent ("persist:" absent): own cookies and storage, gone with the view
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    // No preload: the page gets nothing from the app.
  } as const;
}

/**
 * An environment session's proxy settings: everything to the page's policy proxy (every scheme:
 * http directly, https and WebSockets by CONNECT), and `<-loopback>` to take away Chromium's
 * implicit direct route to localhost, 127/8 and [::1], so the proxy judges those too.
 */
export function environmentProxyConfig(proxyServer: string) {
  return { mode: 'fixed_servers', proxyRules: proxyServer, proxyBypassRules: '<-loopback>' } as const;
}

/** WebRTC in environment views: TCP through the proxy only, no UDP straight out (STUN and TURN would pass the proxy by). */
export const ENVIRONMENT_WEBRTC_POLICY = 'disable_non_proxied_udp' as const;

/** webPreferences for the app's own window (the renderer). */
export function appWindowPreferences(preloadPath: string) {
  return {
    preload: preloadPath,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
  } as const;
}

/** May an environment page navigate to this URL? Only http(s) within the task's origins. */
export function isAllowedEnvironmentNavigation(url: string, allowedOrigins: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (url === 'about:blank') return true;
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  return allowedOrigins.length === 0 || allowedOrigins.includes(parsed.origin);
}

/** The app window shows only its own UI: any navigation away from it is refused. */
export function isAllowedAppNavigation(url: string, rendererUrl: string): boolean {
  return url === rendererUrl;
}

/** The locked-down window a report opens in: no preload, no Node, no script at all. */
export const REPORT_WINDOW_PREFERENCES = { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false } as const;

/**
 * window.open and target=_blank from the app window: an experiment report opens in a locked window;
 * a plain https link (no credentials in it) goes to the OS browser; everything else (file:, custom
 * schemes, http, javascript:) is denied, since shell.openExternal would hand it to whatever app claims it.
 */
/** An experiment's report, which opens in a report window of its own. */
const REPORT_URL = new RegExp(`^lab-report://experiments/${LAB_ID_PATTERN}/report\\.html$`);

export function appWindowOpen(url: string): { action: 'allow'; reportWindow: true } | { action: 'deny'; openExternally: string | null } {
  if (REPORT_URL.test(url)) return { action: 'allow', reportWindow: true };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { action: 'deny', openExternally: null };
  }
  const external = parsed.protocol === 'https:' && !parsed.username && !parsed.password ? parsed.href : null;
  return { action: 'deny', openExternally: external };
}

/** Environment pages get no permission: no camera, microphone, notifications, geolocation, clipboard... */
export function environmentPermission(_permission: string): boolean {
  return false;
}

/** Environment pages may never open windows or tabs. */
export function environmentWindowOpen(): { action: 'deny' } {
  return { action: 'deny' };
}

/**
 * IPC is answered only for the app's own renderer: a frame whose URL is the bundled UI,
 * never an environment page (which has no preload anyway) or any other origin.
 */
export function isTrustedSender(frameUrl: string, appUrl: string): boolean {
  let frame: URL;
  let app: URL;
  try {
    frame = new URL(frameUrl);
    app = new URL(appUrl);
  } catch {
    return false;
  }
  if (app.protocol === 'file:') return frame.protocol === 'file:' && frame.pathname === app.pathname;
  return frame.origin === app.origin;
}

/**
 * The CSP the app's session puts on a response: the report's own for lab-report:// (the session
 * hook runs for every response, so one CSP for all would replace the report's stricter one).
 */
export function cspFor(url: string): string {
  return url.startsWith('lab-report://') ? REPORT_CSP : APP_CSP;
}
