/**
 * Whole JSON files the lab reads and replaces (reports, configs, checkpoints' metadata): read
 * against a schema with an error naming the file and the field, and written in one rename so a
 * reader sees the old content or the whole new one, never a torn file.
 */
import { existsSync, readFileSync, renameSync, statSync, writeFileSync, type Stats } from 'node:fs';
import type { z } from 'zod';
import { fieldIssue } from './schema-error.ts';

function kindOf(st: Stats): string {
  return st.isFIFO() ? 'named pipe' : st.isSocket() ? 'socket' : st.isDirectory() ? 'folder' : st.isCharacterDevice() || st.isBlockDevice() ? 'device' : 'special file';
}

/**
 * A lab file's text. Only regular files are read: a named pipe put where an episode or labels file
 * belongs would block the reader (and the web server with it) until something wrote to it, so it
 * is refused, named, without being opened.
 */
export function readLabFile(path: string): string;
export function readLabFile(path: string, encoding: null): Buffer;
export function readLabFile(path: string, encoding: 'utf8' | null = 'utf8'): string | Buffer {
  const st = statSync(path);
  if (!st.isFile()) throw new Error(`${path}: a ${kindOf(st)}, not a regular file; a lab holds only regular files`);
  return encoding ? readFileSync(path, encoding) : readFileSync(path);
}

/** Parse a JSON file against a schema; `what` names the kind of file in the error when it is not JSON. */
export function readJsonFile<S extends z.ZodType>(path: string, schema: S, what = 'valid JSON'): z.infer<S> {
  if (!existsSync(path)) throw new Error(`${path}: missing`);
  const text = readLabFile(path);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${path}: not ${what} (${(err as Error).message})`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new Error(`${path}: ${fieldIssue(parsed.error)}`);
  return parsed.data;
}

/** Write a file through a temporary sibling and a rename. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}
