/** Content-addressed files (screenshots): stored once by sha256, written atomically. */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class BlobStore {
  constructor(readonly dir: string) {}

  pathOf(hash: string): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`not a sha256 blob id: ${hash}`);
    return join(this.dir, hash.slice(0, 2), `${hash}.png`);
  }

  put(data: Buffer): string {
    const hash = createHash('sha256').update(data).digest('hex');
    const path = this.pathOf(hash);
    if (existsSync(path)) return hash;
    mkdirSync(join(this.dir, hash.slice(0, 2)), { recursive: true });
    // Write beside, then rename: a reader never sees half a file.
    const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(tmp, data);
    renameSync(tmp, path);
    return hash;
  }

  get(hash: string): Buffer {
    return readFileSync(this.pathOf(hash));
  }

  has(hash: string): boolean {
    return existsSync(this.pathOf(hash));
  }
}
