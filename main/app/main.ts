/**
 * Electron main process entry: one window for the renderer, locked down per Electron's
 * security checklist; the renderer's API (preload/api.ts) answered by LabService over IPC,
 * only for the app's own frame. Started by `npm start` where Electron is installed.
 */
import { app, BaseWindow, BrowserWindow, ipcMain, protocol, session, shell } from 'electron';
import * as electron from 'electron';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPORT_CSP, REPORT_WINDOW_PREFERENCES, appWindowOpen, appWindowPreferences, cspFor, isAllowedAppNavigation, isTrustedSender } from './policy.ts';
import { ElectronHost } from './electron-host.ts';
import { LabStore } from '../store/lab.ts';
import { defaultLabDir } from '../paths.ts';
import { builtinFamilies } from '../tasks/registry.ts';
import { LabService } from '../server/service.ts';
import { EVENTS, METHODS, channelOf } from '../../preload/api.ts';
import { parseParams } from '../server/params.ts';
import { LAB_ID_PATTERN } from '../store/layout.ts';

const outDir = join(import.meta.dirname, '..');
const rendererUrl = pathToFileURL(join(outDir, 'renderer', 'index.html')).href;

app.enableSandbox();
// Screenshots are served to the renderer by hash through a scheme of our own, read-only; experiment
// reports likewise, each opened in a window of its own (see the window-open handler). One call:
// Electron takes the scheme list once.
protocol.registerSchemesAsPrivileged([
  { scheme: 'lab-blob', privileges: { standard: true, secure: true } },
  { scheme: 'lab-report', privileges: { standard: true, secure: true } },
]);

app.whenReady().then(() => {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [cspFor(details.url)] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));

  const store = new LabStore(process.env.LAB_DIR ?? defaultLabDir());
  protocol.handle('lab-blob', (request) => {
    const hash = new URL(request.url).hostname;
    return new Response(new Uint8Array(store.blobs.get(hash)), { headers: { 'content-type': 'image/png' } });
  });

  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'Agent Lab',
    webPreferences: appWindowPreferences(join(outDir, 'preload', 'index.cjs')),
  });
  // Environment pages open in views of a separate, hidden window: never inside the app's own page.
  const envWindow = new BaseWindow({ show: false, width: 1280, height: 800 });
  const service: LabService = new LabService({
    store,
    families: builtinFamilies(),
    mode: 'electron',
    startBrowser: async () => new ElectronHost(electron, envWindow, () => service.taskOrigins()),
  });

  protocol.handle('lab-report', (request) => {
    // lab-report://experiments/<id>/report.html: the id in the path, which keeps its case (a host is lowercased).
    const m = new URL(request.url).pathname.match(new RegExp(`^/(${LAB_ID_PATTERN})/report\\.html$`));
    const path = m ? service.experiments.reportHtmlPath(m[1]) : null;
    if (!path) return new Response('no such report', { status: 404 });
    return new Response(new Uint8Array(readFileSync(path)), { headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': REPORT_CSP } });
  });

  for (const method of METHODS) {
    ipcMain.handle(channelOf(method), (event, ...args: unknown[]) => {
      if (!event.senderFrame || !isTrustedSender(event.senderFrame.url, rendererUrl)) throw new Error('untrusted sender');
      return (service[method] as (...a: unknown[]) => unknown)(...parseParams(method, args));
    });
  }
  for (const name of EVENTS) service.events.on(name, (data) => win.webContents.send(channelOf(name), data));

  // The app window never navigates away from its UI and never opens windows; links go to the OS browser.
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAllowedAppNavigation(url, rendererUrl)) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    const decision = appWindowOpen(url);
    // A report (no script, strict CSP) opens in a sandboxed window without preload or Node.
    if (decision.action === 'allow') return { action: 'allow', overrideBrowserWindowOptions: { width: 1100, height: 900, webPreferences: REPORT_WINDOW_PREFERENCES } };
    if (decision.openExternally) void shell.openExternal(decision.openExternally);
    return { action: 'deny' };
  });
  void win.loadURL(rendererUrl);
  app.on('before-quit', () => void service.close());
});

app.on('window-all-closed', () => app.quit());
