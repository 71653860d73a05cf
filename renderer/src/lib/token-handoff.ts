/**
 * Where a web-mode tab gets the per-run access token, and how a tab opened from the app gets it.
 *
 * `lab web` prints one URL with the token in its fragment (#token=…); the first tab reads it, keeps
 * it in sessionStorage (this tab only, gone with it) and removes it from the address bar, so a URL
 * copied or shared from the app never carries it. A link opened in a new tab (Ctrl-click, middle
 * click, target=_blank, which implies noopener, so the tab gets no copy of sessionStorage) has no
 * token: it asks on a BroadcastChannel and any open workbench tab answers.
 *
 * Why this is not weaker than one token per tab: a BroadcastChannel only connects documents of
 * one origin, and this origin is http://127.0.0.1:<random port> of this server process. The server
 * serves nothing there but the app's own files (screenshots as PNG with nosniff, experiment reports
 * under a CSP that runs no script), so the only code that can ask is the app, which already had
 * the token in the first tab. Pages of other origins (a task site, another local server, the web)
 * cannot open the channel; the token is never written to a URL, localStorage or disk; when the
 * server restarts it has a new port, hence a new origin, and old tabs cannot answer for it.
 */
const STORAGE_KEY = 'lab-token';
const CHANNEL = 'lab-token-handoff';

type HandoffMessage = { kind: 'ask'; nonce: string } | { kind: 'answer'; nonce: string; token: string };

/** The token from the address (then removed from it), this tab's storage, or another open tab. */
export async function findToken(waitMs = 800): Promise<string | null> {
  const fromUrl = takeTokenFromFragment();
  if (fromUrl) {
    sessionStorage.setItem(STORAGE_KEY, fromUrl);
    return fromUrl;
  }
  const stored = sessionStorage.getItem(STORAGE_KEY);
  if (stored) return stored;
  const asked = await askOtherTabs(waitMs);
  if (asked) sessionStorage.setItem(STORAGE_KEY, asked);
  return asked;
}

/** Answer other tabs of this workbench that ask for the token (for as long as this tab lives). */
export function shareToken(token: string): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (ev: MessageEvent<HandoffMessage>) => {
    if (ev.data?.kind === 'ask' && typeof ev.data.nonce === 'string') channel.postMessage({ kind: 'answer', nonce: ev.data.nonce, token } satisfies HandoffMessage);
  };
}

function takeTokenFromFragment(): string | null {
  const m = location.hash.match(/(?:^#|&)token=([^&]+)/);
  if (!m) return null;
  const rest = location.hash.replace(/(^#|&)token=[^&]+&?/, '$1').replace(/^#$/, '');
  history.replaceState(history.state, '', `${location.pathname}${location.search}${rest}`);
  return decodeURIComponent(m[1]);
}

function askOtherTabs(waitMs: number): Promise<string | null> {
  if (typeof BroadcastChannel === 'undefined') return Promise.resolve(null);
  return new Promise((resolve) => {
    const channel = new BroadcastChannel(CHANNEL);
    const nonce = crypto.randomUUID();
    const done = (token: string | null) => {
      clearTimeout(timer);
      channel.close();
      resolve(token);
    };
    const timer = setTimeout(() => done(null), waitMs);
    channel.onmessage = (ev: MessageEvent<HandoffMessage>) => {
      if (ev.data?.kind === 'answer' && ev.data.nonce === nonce && typeof ev.data.token === 'string') done(ev.data.token);
    };
    channel.postMessage({ kind: 'ask', nonce } satisfies HandoffMessage);
  });
}
