/**
 * A lock per lab file, across processes: every read-modify-write of a file that two processes may
 * change (a dataset's review draft, a JSONL file appended by several writers) runs inside
 * withFileLock(path), so two web servers, or the app and the CLI, on one lab take turns instead of
 * overwriting each other's changes.
 *
 *   <file>.lock   created exclusively ('wx'), holding { pid, host, nonce, at }
 *
 * Why not proper-lockfile (already in node_modules, through electron-builder): it tells a crashed
 * holder from a live one by the lock's age, kept fresh by a timer, and the lab's critical sections
 * are synchronous, so that timer never runs while one holds the lock; a long freeze would look
 * stale and be taken over. Here a holder is stale when its process is gone (same host), which is
 * known at once and never true of a live holder however long it takes; a lock from another host (a
 * lab on a shared drive) cannot be checked that way and is stale only after STALE_OTHER_HOST_MS.
 *
 * The wait is synchronous (Atomics.wait) because the callers are: critical sections are a read, a
 * decision and a rename, milliseconds long. Within one process the lock is re-entrant, so a locked
 * section may call another function that takes the same lock.
 */
import { linkSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { threadId } from 'node:worker_threads';
import { z } from 'zod';

const LockRecord = z.object({ pid: z.number().int().positive(), thread: z.number().int().min(0), host: z.string(), nonce: z.string(), at: z.string() });
type LockRecord = z.infer<typeof LockRecord>;

/** How long a waiter waits for a live holder before it gives up with an error naming it. */
export const DEFAULT_WAIT_MS = 30_000;
/** A lock of another host, whose process cannot be checked, counts as abandoned after this long. */
const STALE_OTHER_HOST_MS = 5 * 60_000;
/** A lock file that is empty or unreadable is one being written; after this long, one left by a crash. */
const STALE_UNREADABLE_MS = 10_000;

export class FileLockTimeout extends Error {
  constructor(readonly lockPath: string, holder: LockRecord | null, waitedMs: number) {
    super(`${lockPath}: still held after ${Math.round(waitedMs / 1000)} s${holder ? ` by process ${holder.pid} on ${holder.host} since ${holder.at}` : ''}; if no lab process is running, remove the file`);
    this.name = 'FileLockTimeout';
  }
}

/** Locks this process holds, by lock path, with how many nested sections hold each. */
const held = new Map<string, { nonce: string; depth: number }>();
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);

/** The lock's file: beside the file, by its absolute path (two spellings of one file are one lock). */
export const lockPathOf = (path: string) => `${resolve(path)}.lock`;

/** Run `fn` holding the lock of `path` (the file itself need not exist; its folder must). */
export function withFileLock<T>(path: string, fn: () => T, opts: { waitMs?: number } = {}): T {
  const lockPath = lockPathOf(path);
  const mine = held.get(lockPath);
  if (mine) {
    mine.depth++;
    try {
      return fn();
    } finally {
      mine.depth--;
    }
  }
  const nonce = acquire(lockPath, opts.waitMs ?? DEFAULT_WAIT_MS);
  held.set(lockPath, { nonce, depth: 1 });
  try {
    return fn();
  } finally {
    held.delete(lockPath);
    release(lockPath, nonce);
  }
}

function acquire(lockPath: string, waitMs: number): string {
  const record: LockRecord = { pid: process.pid, thread: threadId, host: hostname(), nonce: randomBytes(8).toString('hex'), at: new Date().toISOString() };
  const text = JSON.stringify(record);
  const start = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lockPath, text, { flag: 'wx' });
      return record.nonce;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(lockPath);
    if (holder !== 'gone' && isStale(lockPath, holder)) {
      breakStale(lockPath, holder);
      continue;
    }
    const waited = Date.now() - start;
    if (waited >= waitMs) throw new FileLockTimeout(lockPath, holder === 'gone' ? null : holder, waited);
    // Short sleeps first (sections are milliseconds long), with jitter so two waiters do not move in step.
    sleep(Math.min(50, 1 + attempt) * (0.5 + Math.random()));
  }
}

/** The lock's record; null when it is there but empty or not a record; 'gone' when it was released meanwhile. */
function readHolder(lockPath: string): LockRecord | null | 'gone' {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw err;
  }
  try {
    const r = LockRecord.safeParse(JSON.parse(text));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** Is a process with this id running on this machine? (Also what the experiment's run lock asks.) */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by another user
  }
}

function ageMs(lockPath: string): number {
  try {
    return Date.now() - statSync(lockPath).mtimeMs;
  } catch {
    return 0;
  }
}

function isStale(lockPath: string, holder: LockRecord | null): boolean {
  if (!holder) return ageMs(lockPath) > STALE_UNREADABLE_MS;
  if (holder.host !== hostname()) return ageMs(lockPath) > STALE_OTHER_HOST_MS;
  // This thread would hold it in `held` (a re-entry never gets here): one of its own is a leftover.
  // Another thread of this process (a training worker) may hold it live.
  if (holder.pid === process.pid) return holder.thread === threadId;
  return !processAlive(holder.pid);
}

/**
 * Take a stale lock out of the way. Two waiters may judge the same lock stale; removing it by name
 * could then remove the fresh lock the faster one has just made. So it is moved aside (only one
 * rename of a given file succeeds), and if what was moved is not the stale lock that was judged,
 * it is put back.
 */
function breakStale(lockPath: string, judged: LockRecord | null): void {
  const aside = `${lockPath}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(lockPath, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // another waiter moved it first
    throw err;
  }
  const moved = readHolder(aside);
  const wasJudged = moved === 'gone' || (judged ? moved !== null && moved.nonce === judged.nonce : moved === null);
  if (!wasJudged) {
    try {
      linkSync(aside, lockPath); // back where it was, unless someone has taken the lock meanwhile
    } catch {
      /* the lock is taken again: its new holder goes on, as does the one whose lock was moved */
    }
  }
  rmSync(aside, { force: true });
}

function release(lockPath: string, nonce: string): void {
  const holder = readHolder(lockPath);
  if (holder && holder !== 'gone' && holder.nonce === nonce) {
    try {
      unlinkSync(lockPath);
    } catch {
      /* already gone */
    }
  }
}
