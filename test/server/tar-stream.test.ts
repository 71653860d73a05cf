/** A finished export streams as a ustar archive that the system's tar unpacks to the same files. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tarFolder } from '../../main/server/tar-stream.ts';

async function archive(dir: string, root: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const b of tarFolder(dir, root)) parts.push(b);
  return Buffer.concat(parts);
}

test('files, nested folders and names past 100 bytes come back byte for byte; links are left out', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-tar-src-'));
  const deep = join(dir, 'images', 'x'.repeat(40));
  mkdirSync(deep, { recursive: true });
  writeFileSync(join(dir, 'train.json'), '[{"a":1}]\n');
  writeFileSync(join(dir, 'empty.txt'), '');
  const big = Buffer.alloc(70_000, 7);
  big.write('end', 69_997);
  const longName = `${'f'.repeat(90)}.png`;
  writeFileSync(join(deep, longName), big);
  symlinkSync('/etc/passwd', join(dir, 'passwd'));
  const root = 'shop-v1-sharegpt-20250101T000000';
  const tar = await archive(dir, root);
  assert.equal(tar.length % 512, 0);

  const out = mkdtempSync(join(tmpdir(), 'lab-tar-out-'));
  const file = join(out, 'x.tar');
  writeFileSync(file, tar);
  execFileSync('tar', ['-xf', file, '-C', out]);
  assert.equal(readFileSync(join(out, root, 'train.json'), 'utf8'), '[{"a":1}]\n');
  assert.equal(readFileSync(join(out, root, 'empty.txt'), 'utf8'), '');
  assert.ok(readFileSync(join(out, root, 'images', 'x'.repeat(40), longName)).equals(big));
  assert.equal(existsSync(join(out, root, 'passwd')), false, 'a link is not followed or archived');
});
