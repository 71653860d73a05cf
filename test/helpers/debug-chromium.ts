/**
 * A Chromium started the way a grid node or a user starts one: --remote-debugging-port, reached
 * over ws:// (its DevTools WebSocket) or http:// (its /json/version). Not a child the workbench
 * launched: the pool tests attach to these, and kill them to play a node that dies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium } from '../../main/environment/chromium.ts';

export interface DebugChromium {
  /** ws://127.0.0.1:PORT/devtools/browser/ID */
  wsUrl: string;
  /** http://127.0.0.1:PORT */
  httpUrl: string;
  proc: ChildProcess;
  /** SIGKILL the browser and every child of it, as a node that dies would. */
  kill(): Promise<void>;
  /** Kill if still running and remove its profile. */
  stop(): Promise<void>;
}

export async function startDebugChromium(): Promise<DebugChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'lab-debug-chromium-'));
  const proc = spawn(
    findChromium(),
    [
      '--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update',
      '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup', '--disable-dev-shm-usage',
      `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank',
    ],
    // Its own process group, so a kill takes Chromium's children with it.
    { stdio: ['ignore', 'ignore', 'ignore'], detached: true },
  );
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const kill = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    try {
      process.kill(-proc.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    await exited;
  };
  // Chromium writes the port it chose and the browser's path into DevToolsActivePort.
  const portFile = join(profile, 'DevToolsActivePort');
  const deadline = Date.now() + 20_000;
  let lines: string[] = [];
  while (Date.now() < deadline) {
    if (existsSync(portFile)) {
      lines = readFileSync(portFile, 'utf8').trim().split('\n');
      if (lines.length >= 2) break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  if (lines.length < 2) {
    await kill();
    throw new Error(`Chromium wrote no ${portFile} within 20 s`);
  }
  const httpUrl = `http://127.0.0.1:${lines[0]}`;
  return {
    wsUrl: `ws://127.0.0.1:${lines[0]}${lines[1]}`,
    httpUrl,
    proc,
    kill,
    stop: async () => {
      await kill();
      // A child may still be going down for a moment after the kill.
      rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
    },
  };
}
