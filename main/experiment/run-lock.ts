/**
 * run.lock in an experiment folder: which process runs the experiment now. Two processes running
 * the same stages would write the same files; and the app, which did not start a terminal's
 * `lab experiment`, can tell a run in progress from one that was killed mid-stage.
 */
import { hostname } from 'node:os';
import { rmSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { processAlive } from '../store/file-lock.ts';
import { readJsonFile } from '../store/json-file.ts';
import { experimentFiles } from '../store/lab-files.ts';
import type { RunLock } from '../../preload/views.ts';

const RunLockFile = z.object({ pid: z.number().int().positive(), host: z.string(), startedAt: z.string() }) satisfies z.ZodType<RunLock>;
export type { RunLock };

function readLock(dir: string): RunLock | null {
  try {
    return readJsonFile(experimentFiles(dir).runLock, RunLockFile, 'a run lock');
  } catch {
    return null; // missing or unreadable: treated as stale
  }
}

/**
 * The lock when a live process holds it. A lock from another host (a lab folder on a shared
 * drive) cannot be checked and counts as live; one whose process is gone is stale and ignored.
 */
export function liveRunLock(dir: string): RunLock | null {
  const lock = readLock(dir);
  if (!lock) return null;
  return lock.host !== hostname() || processAlive(lock.pid) ? lock : null;
}

/** Take the lock for this process, or explain who holds it. Returns the release function. */
export function acquireRunLock(dir: string, experimentId: string): () => void {
  const path = experimentFiles(dir).runLock;
  const mine: RunLock = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, JSON.stringify(mine), { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      const held = liveRunLock(dir);
      if (held && !(held.pid === mine.pid && held.host === mine.host)) {
        throw new Error(`experiment ${experimentId} is being run by process ${held.pid} on ${held.host} since ${held.startedAt} (${path}); wait for it or stop it first`);
      }
      rmSync(path, { force: true }); // stale: its process is gone
    }
  }
  return () => {
    const now = readLock(dir);
    if (now && now.pid === mine.pid && now.host === mine.host) rmSync(path, { force: true });
  };
}
