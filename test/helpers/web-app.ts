// The harness the end-to-end tests share: the renderer built into a temporary folder, web mode
// on a LabService, and a headless Chromium page that records console errors.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { rendererConfig } from '../../electron.config.ts';
import { findChromium } from '../../main/environment/chromium.ts';
import type { LabService } from '../../main/server/service.ts';
import { startWebServer, type WebServer } from '../../main/server/web.ts';

/** Starts the renderer build; await `done` before serving (other set-up can run meanwhile). */
export function buildRenderer(): { dir: string; done: Promise<unknown> } {
  const dir = join(mkdtempSync(join(tmpdir(), 'lab-renderer-')), 'renderer');
  return { dir, done: build({ ...rendererConfig, logLevel: 'silent', build: { ...rendererConfig.build, outDir: dir } }) };
}

export interface WebApp {
  service: LabService;
  web: WebServer;
  browser: Browser;
  page: Page;
  /** Console errors and uncaught page errors, in order. */
  consoleErrors: string[];
  /** Closes the browser, the web server and the service. */
  close(): Promise<void>;
}

export async function openWebApp(service: LabService, rendererDir: string, viewport: { width: number; height: number }): Promise<WebApp> {
  const web = await startWebServer({ service, rendererDir });
  const browser = await chromium.launch({ executablePath: findChromium(), args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const page = await browser.newPage({ viewport });
  const consoleErrors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  return {
    service, web, browser, page, consoleErrors,
    close: async () => {
      await browser.close();
      await web.close();
      await service.close();
    },
  };
}
