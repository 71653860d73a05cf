/**
 * A folder as a tar archive (POSIX ustar), streamed: how the web server hands a finished export to
 * the browser as one file. Every tool reads ustar (tar, 7-Zip, Python's tarfile, Windows' tar), it
 * needs no compression library, and streaming keeps memory flat for exports with many images.
 * Only regular files and folders are archived; links are left out, so nothing outside the folder
 * can be reached through one.
 */
import { createReadStream } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

const BLOCK = 512;

/** The archive's bytes: every file under `dir`, named `<root>/<path>`, in a stable (sorted) order. */
export async function* tarFolder(dir: string, root: string): AsyncGenerator<Buffer> {
  for await (const entry of walk(dir, '')) {
    const name = `${root}/${entry.rel}`;
    if (entry.kind === 'dir') {
      yield header(`${name}/`, 0, entry.mtime, '5', 0o755);
      continue;
    }
    yield header(name, entry.size, entry.mtime, '0', 0o644);
    let written = 0;
    for await (const chunk of createReadStream(join(dir, entry.rel))) {
      const buf = chunk as Buffer;
      // A file that grew after lstat must not overrun its declared size (the archive would be corrupt).
      const take = buf.subarray(0, Math.max(0, entry.size - written));
      written += take.length;
      if (take.length) yield take;
    }
    if (written < entry.size) throw new Error(`${entry.rel} shrank while it was archived`);
    const pad = (BLOCK - (entry.size % BLOCK)) % BLOCK;
    if (pad) yield Buffer.alloc(pad);
  }
  yield Buffer.alloc(BLOCK * 2);
}

type Entry = { kind: 'file'; rel: string; size: number; mtime: number } | { kind: 'dir'; rel: string; mtime: number };

async function* walk(base: string, rel: string): AsyncGenerator<Entry> {
  const names = (await readdir(join(base, rel))).sort();
  for (const n of names) {
    const r = rel ? `${rel}/${n}` : n;
    const st = await lstat(join(base, r));
    if (st.isDirectory()) {
      yield { kind: 'dir', rel: r, mtime: st.mtimeMs };
      yield* walk(base, r);
    } else if (st.isFile()) yield { kind: 'file', rel: r, size: st.size, mtime: st.mtimeMs };
  }
}

function header(name: string, size: number, mtimeMs: number, type: '0' | '5', mode: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  const [prefix, base] = splitName(name);
  h.write(base, 0, 100, 'utf8');
  h.write(octal(mode, 7), 100);
  h.write(octal(0, 7), 108); // uid
  h.write(octal(0, 7), 116); // gid
  h.write(octal(size, 11), 124);
  h.write(octal(Math.floor(mtimeMs / 1000), 11), 136);
  h.fill(' ', 148, 156); // checksum field counts as spaces while summing
  h.write(type, 156);
  h.write('ustar\u000000', 257, 'latin1');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${octal(sum, 6)}\u0000 `, 148, 'latin1');
  return h;
}

/** ustar keeps names in a 100-byte field plus a 155-byte prefix, split at a slash. */
function splitName(name: string): [string, string] {
  if (Buffer.byteLength(name) <= 100) return ['', name];
  for (let i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100) return [prefix, rest];
  }
  throw new Error(`path too long for a tar archive: ${name}`);
}

function octal(n: number, width: number): string {
  if (n >= 8 ** width) throw new Error(`${n} does not fit a tar header field`);
  return n.toString(8).padStart(width, '0');
}
