/**
 * Whole JSON files the lab reads and replaces (reports, configs, checkpoints' metadata): read
 * against a schema with an error naming the file and the field, and written in one rename so a
 * reader sees the old content or the whole new one, never a torn file.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { z } from 'zod';
import { fieldIssue } from './schema-error.ts';

/** Parse a JSON file against a schema; `what` names the kind of file in the error when it is not JSON. */
export function readJsonFile<S extends z.ZodType>(path: string, schema: S, what = 'valid JSON'): z.infer<S> {
  if (!existsSync(path)) throw new Error(`${path}: missing`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
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
