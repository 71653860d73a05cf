/**
 * What happens when a browser goes away under an episode (a grid node restarted, a Chrome killed):
 * the episode is not the agent's failure and must not be recorded as one. The episode runner
 * throws BrowserLostError (and leaves no half episode behind); whoever handed out the work runs
 * it again from scratch, and the pool (./browser-pool.ts) gives the rerun a browser still alive.
 * Kept apart from the pool so that the episode runner can tell this error without loading a browser.
 */

/** The browser that held an episode's page went away; the episode was discarded and must be rerun. */
export class BrowserLostError extends Error {
  constructor(
    /** The endpoint that died, as the user named it (a ws:// or http:// URL, or "launched Chromium (pid N)"). */
    readonly endpoint: string,
    readonly reason: string,
    /** The discarded episode's id, when one had been started. */
    readonly episodeId: string | null = null,
  ) {
    super(`browser ${endpoint} went away (${reason})${episodeId ? `; episode ${episodeId} was discarded` : ''}`);
    this.name = 'BrowserLostError';
  }
}

/** Every browser of the pool went away: nothing can run. Names each one and why. */
export class NoBrowserLeftError extends Error {
  constructor(readonly lost: ReadonlyArray<{ endpoint: string; reason: string }>) {
    super(`every browser went away: ${lost.map((l) => `${l.endpoint} (${l.reason})`).join(', ')}`);
    this.name = 'NoBrowserLeftError';
  }
}

/**
 * Run `work` and run it again from the start while it fails with BrowserLostError. Each rerun gets
 * a live browser (a lost one is out of the pool), so this ends: with the work's result, with
 * NoBrowserLeftError once none is left, or after `maxReruns` as a guard against a pool that keeps
 * handing out dying browsers.
 */
export async function rerunOnLostBrowser<T>(work: () => Promise<T>, onLost: (err: BrowserLostError) => void, maxReruns = 16): Promise<T> {
  for (let reruns = 0; ; reruns++) {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof BrowserLostError) || reruns >= maxReruns) throw err;
      onLost(err);
    }
  }
}
