import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChromiumHost, findChromium } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { startFixtureServer } from '../helpers/fixture-server.ts';

test('attaches to a browser that is already running, over ws://', async () => {
  const profile = mkdtempSync(join(tmpdir(), 'lab-remote-'));
  const proc = spawn(
    findChromium(),
    ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'],
    // Its own process group, so that the cleanup kills Chromium's children too (they write to the profile).
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  const server = await startFixtureServer();
  try {
    const wsUrl = await new Promise<string>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`no DevTools URL:\n${err}`)), 20_000);
      proc.stderr.on('data', (c) => {
        err += String(c);
        const m = err.match(/DevTools listening on (ws:\/\/\S+)/);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    const host = await ChromiumHost.start({ browserUrl: wsUrl });
    assert.equal(host.kind, 'remote');
    // It runs on this machine, so it reaches a proxy here: its pages go through the network guard.
    assert.equal(host.policyProxy, true, 'a remote browser on this machine is not proxied');
    const env = new BrowserEnv(host);
    const obs = await env.reset({ instruction: '', startUrl: `${server.url}/form.html` });
    assert.equal(obs.title, 'Form fixture');
    const book = obs.elements.find((e) => e.name === 'Book')!;
    const r = await env.step(`click('${book.id}')`);
    assert.equal(r.error, null);
    await env.close();
    await host.close();
    assert.equal(proc.exitCode, null, 'closing the workbench leaves a remote browser running');
  } finally {
    const exited = new Promise((r) => proc.once('exit', r));
    process.kill(-proc.pid!, 'SIGKILL');
    await exited;
    await server.close();
    // A child may still be going down for a moment after the kill.
    rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  }
});

test('a wrong endpoint fails fast with a message naming it', async () => {
  await assert.rejects(ChromiumHost.start({ browserUrl: 'ws://127.0.0.1:1/devtools/browser/x' }), /could not connect to ws:\/\/127\.0\.0\.1:1/);
  await assert.rejects(ChromiumHost.start({ executable: '/nonexistent/chrome' }), /Chromium not found at \/nonexistent\/chrome/);
});
