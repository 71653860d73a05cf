/**
 * A page that an episode is done with must be collectable: the soak bench found the workbench's
 * heap growing ~400 MB/h because every closed page stayed reachable from the browser connection
 * (its event listeners, and reactions on a `closed` promise that never settled), screenshots included.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ChromiumHost } from '../../main/environment/chromium.ts';
import type { BrowserEnv } from '../../main/environment/environment.ts';
import type { CdpSession } from '../../main/environment/cdp.ts';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import { useEnvironment } from '../helpers/environment.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let host: ChromiumHost;
let server: FixtureServer;
let env: BrowserEnv;
useEnvironment({ screenshots: true }, (f) => ({ host, server, env } = f));

const episode = async () => {
  await env.reset({ instruction: '', startUrl: `${server.url}/form.html` });
  await env.step('noop(10)');
};

test('pages of finished episodes leave nothing behind in the connection', async () => {
  for (let i = 0; i < 6; i++) await episode();
  const live = host.liveSessions();
  // The running episode's page and the spare prepared for the next one, nothing more.
  assert.ok(live.pages <= 2, `host holds ${live.pages} pages after 6 episodes`);
  assert.ok(live.listened <= 2, `connection routes events to ${live.listened} sessions after 6 episodes`);
});

test('a finished episode\'s page session is garbage collected', async () => {
  await episode();
  let first: WeakRef<CdpSession> | null = new WeakRef(env.session);
  for (let i = 0; i < 3; i++) await episode();
  // The old page is disposed in the background: give it a moment, then collect.
  for (let tries = 0; tries < 20 && first?.deref(); tries++) {
    await new Promise((r) => setTimeout(r, 100));
    gc();
  }
  assert.equal(first.deref(), undefined, 'the first episode\'s session is still reachable');
  first = null;
});
