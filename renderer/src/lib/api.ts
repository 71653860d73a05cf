/**
 * The renderer's handle on the workbench: the same typed contract in the desktop app (window.lab,
 * from the preload) and in web mode (a WebSocket to the local server). In web mode the first tab
 * takes the per-run token from the printed URL's fragment, removes it from the address bar and
 * trades it for a session (POST /session): a cookie of the app's own host name, holding a session
 * id, not the token (main/server/web-auth.ts). The token is then dropped; the socket, screenshots,
 * reports and downloads are plain same-origin URLs, and a tab opened later (a link, a reload) has
 * the cookie and asks the server whether it is a session (GET /session).
 */
import type { LabApi, LabEventName, LabEvents } from '../../../preload/api.ts';

export type Api = LabApi & {
  on<E extends LabEventName>(event: E, listener: (data: LabEvents[E]) => void): () => void;
  blobUrl(hash: string): string;
  /** An experiment's report.html, served read-only by the main process (web: to the app's session). */
  reportUrl(experimentId: string): string;
  /** A finished export as one .tar download (web mode, to the app's session); null in the desktop app, where the folder is on this machine. */
  exportDownloadUrl(exportId: string): string | null;
};

declare global {
  interface Window {
    lab?: LabApi & { on: Api['on'] };
  }
}

function electronApi(bridge: NonNullable<Window['lab']>): Api {
  return Object.assign(Object.create(null), bridge, { blobUrl: (hash: string) => `lab-blob://${hash}`, reportUrl: (id: string) => `lab-report://experiments/${encodeURIComponent(id)}/report.html`, exportDownloadUrl: () => null }) as Api;
}

function webApi(): Api {
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Map<string, Set<(data: unknown) => void>>();
  let nextId = 1;
  let socket: Promise<WebSocket> | null = null;

  const connect = (): Promise<WebSocket> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/api`);
      ws.onopen = () => resolve(ws);
      ws.onerror = () => reject(new Error('cannot reach the workbench server (is `npm run web` still running?)'));
      ws.onclose = () => {
        socket = null;
        for (const p of pending.values()) p.reject(new Error('connection to the workbench server closed'));
        pending.clear();
      };
      ws.onmessage = (ev) => {
        const msg = JSON.parse(String(ev.data));
        if (msg.event) {
          for (const l of listeners.get(msg.event) ?? []) l(msg.data);
          return;
        }
        const p = pending.get(msg.id);
        if (!p) return;
        pending.delete(msg.id);
        if (msg.error !== undefined) p.reject(new Error(msg.error));
        else p.resolve(msg.result);
      };
    });

  const call = async (method: string, params: unknown[]) => {
    socket ??= connect();
    const ws = await socket;
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
  };

  const api = new Proxy(
    {
      on: (event: string, listener: (data: unknown) => void) => {
        socket ??= connect();
        let set = listeners.get(event);
        if (!set) listeners.set(event, (set = new Set()));
        set.add(listener);
        return () => set!.delete(listener);
      },
      blobUrl: (hash: string) => `/blob/${hash}.png`,
      reportUrl: (id: string) => `/experiments/${encodeURIComponent(id)}/report.html`,
      exportDownloadUrl: (id: string) => `/exports/${encodeURIComponent(id)}.tar`,
    } as Record<string, unknown>,
    {
      get: (target, prop: string) => (prop in target ? target[prop] : (...params: unknown[]) => call(prop, params)),
    },
  );
  return api as unknown as Api;
}

/**
 * The handle every view uses: null until initApi has run (main.ts awaits it before mounting the
 * app), and after it where this tab has no session (the app then says how to open it).
 */
export let api: Api | null = null;

export async function initApi(): Promise<void> {
  if (window.lab) {
    api = electronApi(window.lab);
    return;
  }
  const token = takeTokenFromFragment();
  // A token this server does not know (a URL from an earlier run), or a tab without a session cookie
  // of this server (another browser, a server started since): no API, and the app says how to open it.
  const session = await fetch('/session', token ? { method: 'POST', headers: { authorization: `Bearer ${token}` } } : {}).catch(() => null);
  if (!session?.ok) return;
  api = webApi();
}

/** `#token=…` from the printed URL, removed from the address bar (and so from history and copied links). */
function takeTokenFromFragment(): string | null {
  const m = location.hash.match(/(?:^#|&)token=([^&]+)/);
  if (!m) return null;
  const rest = location.hash.replace(/(^#|&)token=[^&]+&?/, '$1').replace(/^#$/, '');
  history.replaceState(history.state, '', `${location.pathname}${location.search}${rest}`);
  return decodeURIComponent(m[1]);
}
