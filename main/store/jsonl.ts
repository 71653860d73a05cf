/**
 * Append-only JSON Lines with crash semantics: every line is written with one write() call, so a
 * crash can only leave the last line incomplete; the reader skips such a tail with a warning and
 * names file and line for anything else that is wrong.
 */
import { closeSync, openSync, readFileSync, writeSync, fsyncSync } from 'node:fs';
import type { z } from 'zod';

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

export class JsonlAppender {
  private fd: number | null;

  constructor(
    readonly path: string,
    /** fsync after every line: slower, but a power cut cannot lose a written step. */
    private durable = false,
  ) {
    this.fd = openSync(path, 'a');
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
  const text = readFileSync(path, 'utf8');
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
      const issue = parsed.error.issues[0];
      const field = issue.path.length ? issue.path.join('.') : '(record)';
      throw new JsonlFormatError(path, lineNo, `field ${field}: ${issue.message}`);
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
