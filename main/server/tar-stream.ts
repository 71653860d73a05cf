/**
 * A folder as a tar archive, streamed: how the web server hands a finished export to the browser
 * as one file. Every tool reads tar (tar, 7-Zip, Python's tarfile, Windows' tar), it needs no
 * compression, and streaming keeps memory flat for exports with many images. Written by node-tar
 * (the archiver npm itself uses). Only regular files and folders are archived; links are left
 * out, so nothing outside the folder can be reached through one.
 */
import { readdirSync, Stats } from 'node:fs';
import { create } from 'tar';

/** The archive's bytes: every file under `dir`, named `<root>/<path>`, without owner or host metadata. */
export function tarFolder(dir: string, root: string): AsyncIterable<Buffer> {
  // When creating, the filter sees each entry's lstat (a ReadEntry only when reading an archive).
  const plain = (_path: string, entry: Stats | object) => entry instanceof Stats && (entry.isFile() || entry.isDirectory());
  return create({ cwd: dir, prefix: root, portable: true, filter: plain }, readdirSync(dir).sort());
}
