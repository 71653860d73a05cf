// The harness the end-to-end tests share: the renderer built once per change of its inputs (in a
// temporary folder), web mode on a LabService, and a headless Chromium page that records console errors.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { rendererInputsHash, viteBuildRenderer } from '../../main/renderer-build.ts';
import { findChromium } from '../../main/environment/chromium.ts';
import type { LabService } from '../../main/server/service.ts';
import { startWebServer, type WebServer } from '../../main/server/web.ts';

const CACHE = join(tmpdir(), 'lab-renderer-cache');

/**
 * The renderer, built into a folder named by the hash of its inputs: each e2e file used to build
 * it anew (seconds of vite each); now the first one in a run builds it and the rest reuse it, until
 * a source changes. Await `done` before serving (other set-up can run meanwhile).
 */
export function buildRenderer(): { dir: string; done: Promise<unknown> } {
  const dir = join(CACHE, rendererInputsHash());
  if (existsSync(join(dir, 'index.html'))) return { dir, done: Promise.resolve() };
  return { dir, done: buildInto(dir) };
}

async function buildInto(dir: string): Promise<void> {
  // Built beside and renamed into place, so a folder with index.html is always a whole build.
  const staging = `${dir}.${process.pid}`;
  await viteBuildRenderer(staging, 'silent');
  mkdirSync(CACHE, { recursive: true });
  // Older builds go; this build's folder and other processes' staging of it stay (another test file
  // may be serving from the one, or about to rename the other into place).
  const current = basename(dir);
  for (const old of readdirSync(CACHE)) if (!old.startsWith('.') && !old.startsWith(current)) rmSync(join(CACHE, old), { recursive: true, force: true });
  try {
    renameSync(staging, dir);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another process put the same build there first
  }
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
  // Other test files run beside this one (scripts/test.mjs): a wait may take longer than
  // Playwright's 30 s default on a loaded machine without anything being wrong.
  page.setDefaultTimeout(90_000);
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
