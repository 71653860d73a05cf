/**
 * A page whose browser goes away while the environment sets it up (between the host handing it
 * out and its domains being enabled) is released, not dropped: each page holds a browser context
 * and, on a local Chromium, a network proxy listening in this process, and a dropped one kept a
 * `lab collect` run in a test process alive after its browsers were killed
 * (test/collection/browser-pool-collect.test.ts, 2 of 23 runs under load).
 *
 * The host is a stand-in: the moment it plays (a browser dying after Target.attachToTarget and
 * before Page.enable) cannot be timed against a real Chromium.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BrowserEnv } from '../../main/environment/environment.ts';
import type { BrowserHost, CdpSession, PageHandle } from '../../main/environment/cdp.ts';

/** A host whose pages' sessions fail every command, as a browser that has just died does. */
function dyingHost(): BrowserHost & { made: number; disposed: number } {
  const host = {
    kind: 'remote' as const,
    made: 0,
    disposed: 0,
    async newPage(): Promise<PageHandle> {
      host.made++;
      const session = {
        send: () => Promise.reject(new Error('the browser went away')),
        onEvent: () => () => {},
        closed: new Promise<void>(() => {}),
      } as unknown as CdpSession;
      return { session, dispose: async () => void host.disposed++ };
    },
    async close() {},
  };
  return host;
}

test('a page that fails its set-up is disposed, on the first try and on the retry', async () => {
  const host = dyingHost();
  const env = new BrowserEnv(host);
  await assert.rejects(env.reset({ instruction: 'x', startUrl: 'http://127.0.0.1:9/' }), /the browser went away/);
  assert.equal(host.made, 2, 'reset tries a second page');
  assert.equal(host.disposed, 2, 'both pages were released');
  await env.close();
});
