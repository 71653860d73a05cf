import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserPool, endpointLabel, parseEndpointList, readEndpointFile, resolveEndpoint } from '../../main/environment/browser-pool.ts';
import { BrowserLostError, NoBrowserLeftError, rerunOnLostBrowser } from '../../main/environment/browser-lost.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { startDebugChromium } from '../helpers/debug-chromium.ts';
import { startFixtureServer } from '../helpers/fixture-server.ts';

test('an endpoint list: one URL per line, # comments and blank lines skipped, repeats kept; a bad line is named by file and line', () => {
  const text = '# the grid\nws://10.0.0.5:9222/devtools/browser/abc\n\n  http://chrome-2:9222   # second node\nhttps://grid.example/?token=s3cret\nhttp://chrome-2:9222\n';
  assert.deepEqual(parseEndpointList(text, 'browsers.txt'), [
    'ws://10.0.0.5:9222/devtools/browser/abc',
    'http://chrome-2:9222',
    'https://grid.example/?token=s3cret',
    'http://chrome-2:9222',
  ]);
  assert.throws(() => parseEndpointList('ws://a:1\nchrome-3:9222\n', 'browsers.txt'), /browsers\.txt:2: "chrome-3:9222" is not a browser endpoint/);
  assert.throws(() => parseEndpointList('ftp://a/\n', 'list'), /list:1: "ftp:\/\/a\/" is not a browser endpoint/);
  assert.throws(() => parseEndpointList('# nothing here\n\n', 'empty.txt'), /empty\.txt lists no browser endpoint/);
  assert.throws(() => readEndpointFile('/nonexistent/browsers.txt'), /cannot read the browser list \/nonexistent\/browsers\.txt/);
  const file = join(mkdtempSync(join(tmpdir(), 'lab-pool-list-')), 'browsers.txt');
  writeFileSync(file, 'ws://127.0.0.1:9/devtools/browser/x\n');
  assert.deepEqual(readEndpointFile(file), ['ws://127.0.0.1:9/devtools/browser/x']);
});

test('an endpoint is named with its query values and password hidden (a grid token must not reach logs)', () => {
  assert.equal(endpointLabel('wss://chrome.browserless.io/?token=s3cret&stealth=1'), 'wss://chrome.browserless.io/?token=***&stealth=***');
  assert.equal(endpointLabel('ws://user:pw@host:3000/'), 'ws://user:***@host:3000/');
  assert.equal(endpointLabel('ws://127.0.0.1:9222/devtools/browser/abc'), 'ws://127.0.0.1:9222/devtools/browser/abc');
});

test('endpoints that cannot be reached fail the start, each one named', async () => {
  await assert.rejects(BrowserPool.start({ endpoints: ['ws://127.0.0.1:1/devtools/browser/x'] }), /browser ws:\/\/127\.0\.0\.1:1\/devtools\/browser\/x: could not connect/);
  await assert.rejects(
    BrowserPool.start({ endpoints: ['ws://127.0.0.1:1/a', 'http://127.0.0.1:1'] }),
    (err: Error) => /2 of 2 browsers could not be reached/.test(err.message) && err.message.includes('ws://127.0.0.1:1/a') && /http:\/\/127\.0\.0\.1:1\/json\/version/.test(err.message),
  );
  await assert.rejects(resolveEndpoint('chrome:9222'), /--browser: "chrome:9222" is not a browser endpoint/);
  // An HTTP server that is no DevTools endpoint.
  const site = await startFixtureServer();
  try {
    await assert.rejects(resolveEndpoint(site.url), /could not read .*\/json\/version: HTTP 404/);
  } finally {
    await site.close();
  }
});

test('rerunOnLostBrowser runs the work again after a lost browser, and lets every other error through', async () => {
  let calls = 0;
  const lost: string[] = [];
  const out = await rerunOnLostBrowser(async () => {
    if (++calls < 3) throw new BrowserLostError(`ws://b${calls}`, 'browser connection closed', `ep${calls}`);
    return 'done';
  }, (e) => lost.push(e.endpoint));
  assert.equal(out, 'done');
  assert.deepEqual(lost, ['ws://b1', 'ws://b2']);
  await assert.rejects(rerunOnLostBrowser(async () => { throw new NoBrowserLeftError([{ endpoint: 'ws://a', reason: 'gone' }]); }, () => assert.fail('not a lost browser')), /every browser went away: ws:\/\/a \(gone\)/);
});

test('a pool spreads pages over its browsers, takes a killed one out, and says which went away when none is left', async () => {
  const [a, b] = await Promise.all([startDebugChromium(), startDebugChromium()]);
  const site = await startFixtureServer();
  // b is reached through its /json/version, as a grid URL would be.
  const pool = await BrowserPool.start({ endpoints: [a.wsUrl, b.httpUrl] });
  try {
    assert.equal(pool.kind, 'remote');
    assert.deepEqual(pool.endpoints, [a.wsUrl, b.httpUrl]);
    const envs = [new BrowserEnv(pool, { prefetchPage: false }), new BrowserEnv(pool, { prefetchPage: false })];
    await Promise.all(envs.map((e) => e.reset({ instruction: '', startUrl: `${site.url}/form.html` })));
    const on = envs.map((e) => (e as unknown as { page: { browser: { endpoint: string } } }).page.browser.endpoint).sort();
    assert.deepEqual(on, [a.wsUrl, b.httpUrl].sort(), 'one page on each browser');
    const losses: string[] = [];
    pool.onLost((l) => losses.push(l.endpoint));
    await a.kill();
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(losses, [a.wsUrl]);
    assert.equal(pool.liveCount, 1);
    const onA = envs.find((e) => e.lostBrowser())!;
    assert.equal(onA.lostBrowser()!.endpoint, a.wsUrl, 'the environment on the killed browser knows it');
    // Its next episode goes to the browser left.
    const obs = await onA.reset({ instruction: '', startUrl: `${site.url}/form.html` });
    assert.equal(obs.title, 'Form fixture');
    assert.equal(onA.lostBrowser(), null);
    await Promise.all(envs.map((e) => e.close()));
    await b.kill();
    await new Promise((r) => setTimeout(r, 200));
    await assert.rejects(pool.newPage({ width: 800, height: 600 }), (err: Error) => err instanceof NoBrowserLeftError && err.message.includes(a.wsUrl) && err.message.includes(b.httpUrl));
  } finally {
    await pool.close();
    await Promise.all([a.stop(), b.stop(), site.close()]);
  }
});
