/**
 * Following an append-only JSONL file another process writes: read from a byte offset to the last
 * newline, hand over the complete lines, keep the offset there. A torn last line (being written, or
 * left by a killed writer) stays unread until its newline arrives. A file shorter than the offset
 * was rewritten (a resumed run trims its log): the tail starts over from 0 and says so.
 *
 * fs.watch on the folder reports changes at once where the platform can; a slow poll covers file
 * systems where it cannot, and a file that does not exist yet.
 */
import { closeSync, existsSync, openSync, readSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

export interface TailChunk {
  lines: string[];
  /** The byte offset after the last complete line read. */
  offset: number;
  /** The file was rewritten: the lines start from its beginning. */
  reset: boolean;
}

/** The complete lines from `offset` on, and the offset after them. */
export function readCompleteLines(path: string, offset: number): TailChunk {
  if (!existsSync(path)) return { lines: [], offset: 0, reset: offset > 0 };
  const size = statSync(path).size;
  const reset = size < offset;
  const from = reset ? 0 : offset;
  if (size === from) return { lines: [], offset: from, reset };
  const buf = Buffer.alloc(size - from);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buf, 0, buf.length, from);
  } finally {
    closeSync(fd);
  }
  const end = buf.lastIndexOf(0x0a);
  if (end < 0) return { lines: [], offset: from, reset };
  const lines = buf.subarray(0, end).toString('utf8').split('\n').filter((l) => l.trim() !== '');
  return { lines, offset: from + end + 1, reset };
}

export class JsonlTail {
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout;
  private closed = false;

  constructor(
    readonly path: string,
    private offset: number,
    private readonly onChunk: (chunk: TailChunk) => void,
    pollMs = 1000,
  ) {
    try {
      this.watcher = watch(dirname(path), (_event, name) => {
        if (!name || name === basename(path)) this.check();
      });
      this.watcher.on('error', () => this.watcher?.close());
    } catch {
      this.watcher = null; // the folder may not exist yet: the poll finds the file when it appears
    }
    this.timer = setInterval(() => this.check(), pollMs);
    this.timer.unref();
  }

  /** Read what is new now (also called by the watcher and the poll). */
  check(): void {
    if (this.closed) return;
    let chunk: TailChunk;
    try {
      chunk = readCompleteLines(this.path, this.offset);
    } catch {
      return; // mid-rewrite or gone for a moment: the next check sees it
    }
    this.offset = chunk.offset;
    if (chunk.lines.length || chunk.reset) this.onChunk(chunk);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.watcher?.close();
  }
}
