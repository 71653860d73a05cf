/**
 * Append-only JSON Lines with crash semantics: every line is written with one write() call, so a
 * crash can only leave the last line incomplete; the reader skips such a tail with a warning and
 * names file and line for anything else that is wrong. Every writer repairs a torn tail before it
 * appends (repairTornTail), or the next line would be glued onto it and both be lost for good.
 * Append through JsonlAppender or appendJsonlLine, never appendFileSync.
 */
import { closeSync, openSync, writeSync, fsyncSync, fstatSync, readSync, ftruncateSync } from 'node:fs';
import type { z } from 'zod';
import { fieldIssue } from './schema-error.ts';
import { readLabFile } from './json-file.ts';
import { withFileLock } from './file-lock.ts';

export class JsonlFormatError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly detail: string,
  ) {
    super(`${file}:${line}: ${detail}`);
    this.name = 'JsonlFormatError';
  }
}

/** What repairTornTail did to a file's last line. */
export type TailRepair =
  /** The tail was complete JSON that only lacked its newline (cut just before it): kept, newline added. */
  | { kind: 'newline-added' }
  /** The tail was a fragment of a line (the write was cut short): removed. */
  | { kind: 'cut'; bytes: number };

/**
 * Make a file opened for appending ('a+') safe to append to: a kill mid-write leaves at most a last
 * line without its newline. Reads only the tail, so it is cheap enough to run before every append.
 * Returns null when the file was already clean (empty, or ending in a newline).
 */
export function repairTornTailFd(fd: number): TailRepair | null {
  const size = fstatSync(fd).size;
  if (size === 0) return null;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  if (last[0] === 0x0a) return null;
  // Find where the torn line starts: just after the previous newline, scanning back in chunks.
  const chunk = Buffer.alloc(64 * 1024);
  let start = 0;
  for (let end = size; end > 0 && start === 0; ) {
    const from = Math.max(0, end - chunk.length);
    const n = readSync(fd, chunk, 0, end - from, from);
    const nl = chunk.subarray(0, n).lastIndexOf(0x0a);
    if (nl >= 0) start = from + nl + 1;
    end = from;
  }
  const tail = Buffer.alloc(size - start);
  readSync(fd, tail, 0, tail.length, start);
  // Complete JSON cut just before its newline is a record the readers count already: keep it.
  if (parsesAsJson(tail.toString('utf8'))) {
    writeSync(fd, '\n', size); // at the end also on an fd not opened for appending
    return { kind: 'newline-added' };
  }
  ftruncateSync(fd, start);
  return { kind: 'cut', bytes: size - start };
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** repairTornTailFd for a path; a missing file needs no repair. */
export function repairTornTail(path: string): TailRepair | null {
  let fd: number;
  try {
    fd = openSync(path, 'r+');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    return repairTornTailFd(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Append one record as one line to a JSONL file (created if missing), repairing a torn tail first.
 * Under the file's lock: the repair reads the tail and may cut it, and a line another process is
 * writing at that moment (a long one spans several pages, which land one at a time) looks torn.
 */
export function appendJsonlLine(path: string, record: unknown, opts: { durable?: boolean } = {}): TailRepair | null {
  return withFileLock(path, () => {
    const out = new JsonlAppender(path, opts.durable);
    try {
      out.append(record);
    } finally {
      out.close();
    }
    return out.repaired;
  });
}

/**
 * A file held open for appending by its one writer (an episode being recorded). Files that several
 * processes append to go through appendJsonlLine, which holds the file's lock.
 */
export class JsonlAppender {
  private fd: number | null;
  /** What opening the file had to repair (a torn last line left by a crash), or null. */
  readonly repaired: TailRepair | null;

  constructor(
    readonly path: string,
    /** fsync after every line: slower, but a power cut cannot lose a written step. */
    private durable = false,
  ) {
    // 'a+': appends always land at the end, and the tail can be read and truncated first.
    this.fd = openSync(path, 'a+');
    try {
      this.repaired = repairTornTailFd(this.fd);
    } catch (err) {
      closeSync(this.fd);
      throw err;
    }
  }

  append(record: unknown): void {
    if (this.fd === null) throw new Error(`${this.path} is closed`);
    writeSync(this.fd, JSON.stringify(record) + '\n');
    if (this.durable) fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

export interface ReadResult<T> {
  records: T[];
  warnings: string[];
}

/** Read and validate every line. A torn final line (no newline, bad JSON) is dropped with a warning. */
export function readJsonl<S extends z.ZodType>(path: string, schema: S): ReadResult<z.infer<S>> {
  const text = readLabFile(path);
  const lines = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  if (endsWithNewline) lines.pop();
  const records: z.infer<S>[] = [];
  const warnings: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = lines[i];
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      if (i === lines.length - 1 && !endsWithNewline) {
        warnings.push(`${path}:${lineNo}: incomplete last line (${line.length} bytes) skipped; the writer probably stopped mid-write`);
        break;
      }
      throw new JsonlFormatError(path, lineNo, `not valid JSON (${(err as Error).message})`);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      throw new JsonlFormatError(path, lineNo, fieldIssue(parsed.error, '(record)'));
    }
    records.push(parsed.data);
  }
  return { records, warnings };
}

/**
 * For files written whole (not appended), where a torn last line means a damaged file: every line
 * must parse and validate, or the error names file, line and field.
 */
export function readJsonlStrict<S extends z.ZodType>(path: string, schema: S): z.infer<S>[] {
  const { records, warnings } = readJsonl(path, schema);
  if (warnings.length) throw new Error(warnings[0]);
  return records;
}
