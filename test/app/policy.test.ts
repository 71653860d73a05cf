import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  APP_CSP,
  REPORT_CSP,
  REPORT_WINDOW_PREFERENCES,
  appWindowOpen,
  appWindowPreferences,
  isAllowedAppNavigation,
  cspFor,
  ENVIRONMENT_WEBRTC_POLICY,
  environmentPermission,
  environmentProxyConfig,
  environmentViewPreferences,
  environmentWindowOpen,
  isAllowedEnvironmentNavigation,
  isTrustedSender,
} from '../../main/app/policy.ts';

test('environment views are sandboxed, isolated, without Node or preload, in their own partition', () => {
  const p = environmentViewPreferences('lab-env-abc');
  assert.equal(p.sandbox, true);
  assert.equal(p.contextIsolation, true);
  assert.equal(p.nodeIntegration, false);
  assert.equal(p.nodeIntegrationInSubFrames, false);
  assert.equal(p.webSecurity, true);
  assert.equal(p.webviewTag, false);
  assert.equal('preload' in p, false);
  assert.equal(p.allowRunningInsecureContent, false);
  assert.equal(p.experimentalFeatures, false);
  assert.equal('enableBlinkFeatures' in p, false);
  assert.equal(p.partition, 'lab-env-abc');
  assert.ok(!p.partition.startsWith('persist:'), 'nothing persists across episodes');
});

test('environment views send all their traffic to their policy proxy, loopback included, and no WebRTC UDP past it', () => {
  const c = environmentProxyConfig('http://127.0.0.1:4567');
  assert.equal(c.mode, 'fixed_servers');
  // No "scheme=" prefix: one proxy for every scheme (http, https, ws, wss), not http only.
  assert.equal(c.proxyRules, 'http://127.0.0.1:4567');
  // Without '<-loopback>' Chromium goes straight to localhost, 127/8 and [::1]: past the guard.
  assert.equal(c.proxyBypassRules, '<-loopback>');
  assert.equal(ENVIRONMENT_WEBRTC_POLICY, 'disable_non_proxied_udp');
});

test('environment pages get no permissions and cannot open windows', () => {
  for (const perm of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen']) {
    assert.equal(environmentPermission(perm), false, perm);
  }
  assert.deepEqual(environmentWindowOpen(), { action: 'deny' });
});

test('environment navigation stays on http(s) within the task origins; never file:// or app URLs', () => {
  const origins = ['http://127.0.0.1:4000'];
  assert.equal(isAllowedEnvironmentNavigation('http://127.0.0.1:4000/i/x/cart', origins), true);
  assert.equal(isAllowedEnvironmentNavigation('http://127.0.0.1:4001/', origins), false);
  assert.equal(isAllowedEnvironmentNavigation('https://evil.example/', origins), false);
  assert.equal(isAllowedEnvironmentNavigation('file:///etc/passwd', origins), false);
  assert.equal(isAllowedEnvironmentNavigation('file:///etc/passwd', []), false);
  assert.equal(isAllowedEnvironmentNavigation('chrome://settings', []), false);
  assert.equal(isAllowedEnvironmentNavigation('javascript:alert(1)', []), false);
  assert.equal(isAllowedEnvironmentNavigation('not a url', []), false);
  assert.equal(isAllowedEnvironmentNavigation('https://any.example/', []), true, 'live-web tasks name no origins');
});

test('IPC answers only the app renderer, never an environment page', () => {
  const app = 'file:///opt/agent-lab/out/renderer/index.html';
  assert.equal(isTrustedSender(app, app), true);
  assert.equal(isTrustedSender('file:///tmp/other.html', app), false);
  assert.equal(isTrustedSender('http://127.0.0.1:4000/i/x/', app), false);
  assert.equal(isTrustedSender('http://127.0.0.1:5173/', 'http://127.0.0.1:5173/index.html'), true);
  assert.equal(isTrustedSender('http://127.0.0.1:5174/', 'http://127.0.0.1:5173/'), false);
  assert.equal(isTrustedSender('garbage', app), false);
});

test('the app window is sandboxed and its CSP allows only its own code', () => {
  const p = appWindowPreferences('/x/preload.cjs');
  assert.equal(p.sandbox, true);
  assert.equal(p.contextIsolation, true);
  assert.equal(p.nodeIntegration, false);
  assert.equal(p.webSecurity, true);
  assert.equal(p.webviewTag, false);
  assert.equal(p.allowRunningInsecureContent, false);
  assert.equal('experimentalFeatures' in p || 'enableBlinkFeatures' in p, false);
  assert.match(APP_CSP, /default-src 'self'/);
  assert.match(APP_CSP, /script-src 'self'(;|$)/);
  assert.doesNotMatch(APP_CSP, /unsafe-eval/);
  assert.match(APP_CSP, /object-src 'none'/);
});

test('an experiment report is served under a CSP that runs no script and fetches nothing', () => {
  const directives = new Map(REPORT_CSP.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v.join(' ')]));
  assert.equal(directives.get('default-src'), "'none'");
  assert.equal(directives.get('style-src'), "'unsafe-inline'"); // the report's own <style>
  assert.equal(directives.get('img-src'), 'data:');
  assert.equal(directives.get('sandbox'), ''); // no allow-scripts, no allow-same-origin
  assert.ok(!directives.has('script-src') && !directives.has('connect-src'));
  assert.equal(directives.get('frame-ancestors'), "'none'");
  // The session's header hook keeps it for the report and gives everything else the app's.
  assert.equal(cspFor('lab-report://experiments/demo1/report.html'), REPORT_CSP);
  assert.equal(cspFor('http://127.0.0.1:5173/'), APP_CSP);
});

test('the app window never navigates away from its UI', () => {
  const app = 'file:///opt/agent-lab/out/renderer/index.html';
  assert.equal(isAllowedAppNavigation(app, app), true);
  assert.equal(isAllowedAppNavigation('https://evil.example/', app), false);
  assert.equal(isAllowedAppNavigation('file:///opt/agent-lab/out/renderer/other.html', app), false);
});

test('window.open from the app: reports in a locked window, https links to the OS browser, nothing else', () => {
  assert.deepEqual(appWindowOpen('lab-report://experiments/demo_1/report.html'), { action: 'allow', reportWindow: true });
  assert.equal(REPORT_WINDOW_PREFERENCES.javascript, false);
  assert.equal(REPORT_WINDOW_PREFERENCES.sandbox, true);
  assert.deepEqual(appWindowOpen('https://example.com/docs?q=1'), { action: 'deny', openExternally: 'https://example.com/docs?q=1' });
  for (const url of ['http://example.com/', 'file:///etc/passwd', 'smb://host/share', 'javascript:alert(1)', 'https://user:pw@example.com/', 'lab-report://experiments/../x', 'not a url']) {
    assert.deepEqual(appWindowOpen(url), { action: 'deny', openExternally: null }, url);
  }
});
