/**
 * Environment pages are untrusted: in the Chromium transport they must get nothing from the
 * workbench (no API, no Node, no file://), no permissions, and no new windows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BrowserEnv } from '../../main/environment/environment.ts';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import { useEnvironment } from '../helpers/environment.ts';

let server: FixtureServer;
let env: BrowserEnv;

useEnvironment({}, (f) => ({ server, env } = f));

const inPage = async (expression: string) =>
  (await env.session.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true })).result.value;

test('an environment page sees no workbench API, no Node and no file system', async () => {
  await env.reset({ instruction: '', startUrl: `${server.url}/form.html` });
  assert.deepEqual(await inPage(`[typeof window.lab, typeof require, typeof process, typeof module]`), ['undefined', 'undefined', 'undefined', 'undefined']);
  assert.equal(await inPage(`fetch('file:///etc/hostname').then(() => 'read', () => 'blocked')`), 'blocked');
  const nav = await env.step(`goto('file:///etc/hostname')`);
  assert.equal(nav.error?.code, 'navigation_blocked');
});

test('an environment page gets no permissions', async () => {
  await env.reset({ instruction: '', startUrl: `${server.url}/form.html` });
  assert.equal(await inPage(`Notification.requestPermission()`), 'denied');
  assert.equal(
    await inPage(`new Promise((r) => navigator.geolocation.getCurrentPosition(() => r('granted'), (e) => r('denied:' + e.code), { timeout: 2000 }))`),
    'denied:1',
  );
  assert.equal(await inPage(`navigator.clipboard.readText().then(() => 'read', () => 'blocked')`), 'blocked');
});

test('npm start says in one message that Electron is missing and points to web mode', () => {
  const r = spawnSync(process.execPath, [join(import.meta.dirname, '..', '..', 'scripts', 'start.mjs')], { encoding: 'utf8' });
  // On a machine with the Electron binary this test does not apply; here (and in CI) it is absent.
  assert.equal(r.status, 1);
  assert.match(r.stderr, /Electron binary is not installed[\s\S]*npm run web/);
});
