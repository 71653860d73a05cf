/** Hashes used by datasets: file fingerprints for freezing, and instance hashing for splits. */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readLabFile } from '../store/json-file.ts';

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** sha256 of a file's bytes, or null when the file does not exist (an episode without labels); a lab file that is not a regular file is refused, named. */
export function fileSha256(path: string): string | null {
  return existsSync(path) ? sha256(readLabFile(path, null)) : null;
}
