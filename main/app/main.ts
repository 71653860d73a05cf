/**
 * Electron main process entry: one window for the renderer, locked down per Electron's
 * security checklist. Started by `npm start` (scripts/start.mjs) where Electron is installed.
 */
import { app, BrowserWindow, ipcMain, session, shell } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { APP_CSP, appWindowPreferences, isTrustedSender } from './policy.ts';
import { LabStore } from '../store/lab.ts';
import { defaultLabDir } from '../paths.ts';
import { builtinFamilies } from '../tasks/registry.ts';
import { CHANNELS } from '../../preload/api.ts';

const outDir = join(import.meta.dirname, '..');
const rendererUrl = pathToFileURL(join(outDir, 'renderer', 'index.html')).href;

app.enableSandbox();

app.whenReady().then(() => {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [APP_CSP] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));

  const lab = new LabStore(process.env.LAB_DIR ?? defaultLabDir());
  const guard = <A extends unknown[], R>(fn: (...args: A) => R) =>
    (event: Electron.IpcMainInvokeEvent, ...args: A): R => {
      if (!event.senderFrame || !isTrustedSender(event.senderFrame.url, rendererUrl)) throw new Error('untrusted sender');
      return fn(...args);
    };
  ipcMain.handle(CHANNELS.listEpisodes, guard(() => lab.listEpisodes()));
  ipcMain.handle(CHANNELS.readEpisode, guard((id: string) => lab.readEpisode(String(id))));
  ipcMain.handle(
    CHANNELS.listTasks,
    guard(() => [...builtinFamilies().values()].map((f) => ({ family: f.name, description: f.description }))),
  );

  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'Agent Lab',
    webPreferences: appWindowPreferences(join(outDir, 'preload', 'index.cjs')),
  });
  // The app window never navigates away from its UI and never opens windows; links go to the OS browser.
  win.webContents.on('will-navigate', (event, url) => {
    if (url !== rendererUrl) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  void win.loadURL(rendererUrl);
});

app.on('window-all-closed', () => app.quit());
