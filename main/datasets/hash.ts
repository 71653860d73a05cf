/** Hashes used by datasets: file fingerprints for freezing, and instance hashing for splits. */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** sha256 of a file's bytes, or null when the file does not exist (an episode without labels). */
export function fileSha256(path: string): string | null {
  return existsSync(path) ? sha256(readFileSync(path)) : null;
}
