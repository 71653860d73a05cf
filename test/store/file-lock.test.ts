/** The lock per lab file (main/store/file-lock.ts), with real second processes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { FileLockTimeout, lockPathOf, withFileLock } from '../../main/store/file-lock.ts';
import { readJsonl } from '../../main/store/jsonl.ts';

const CHILD = join(import.meta.dirname, '..', 'helpers', 'lock-child.ts');
const tmp = () => mkdtempSync(join(tmpdir(), 'lab-file-lock-'));

function child(args: string[]) {
  const p = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: p.stdout! })[Symbol.asyncIterator]();
  const exited = new Promise<number | null>((resolve) => p.on('exit', resolve));
  return { p, next: async () => (await lines.next()).value as string, exited };
}

test('a live holder in another process is waited for, and named when the wait runs out', { timeout: 60_000 }, async () => {
  const file = join(tmp(), 'draft.json');
  const holder = child(['hold', file, '1500']);
  assert.equal(await holder.next(), 'held');
  const heldAt = Date.now();
  assert.throws(() => withFileLock(file, () => assert.fail('ran without the lock'), { waitMs: 200 }), (err: Error) => {
    assert.ok(err instanceof FileLockTimeout);
    assert.match(err.message, new RegExp(`held after 0 s by process ${holder.p.pid} on `));
    return true;
  });
  // A longer wait gets it once the holder lets go, and not before.
  const gotAt = withFileLock(file, () => Date.now(), { waitMs: 30_000 });
  assert.ok(gotAt - heldAt >= 1_400, `taken ${gotAt - heldAt} ms after the holder took it for 1,500 ms`);
  assert.equal(await holder.exited, 0);
  assert.equal(existsSync(lockPathOf(file)), false, 'released');
});

test('a lock left by a process that is gone is taken at once; one of another host only once it is old', () => {
  const dir = tmp();
  const file = join(dir, 'labels.jsonl');
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  writeFileSync(lockPathOf(file), JSON.stringify({ pid: dead, thread: 0, host: hostname(), nonce: 'abc', at: '2026-01-01T00:00:00.000Z' }));
  const t0 = Date.now();
  assert.equal(withFileLock(file, () => 'ran', { waitMs: 5_000 }), 'ran');
  assert.ok(Date.now() - t0 < 2_000, 'no waiting for a dead holder');
  assert.deepEqual(readdirSync(dir), [], 'the stale lock and the one taken are both gone');

  writeFileSync(lockPathOf(file), JSON.stringify({ pid: 1, thread: 0, host: 'another-host', nonce: 'def', at: new Date().toISOString() }));
  assert.throws(() => withFileLock(file, () => 'ran', { waitMs: 100 }), /by process 1 on another-host/);
});

test('re-entrant within a process, and released when the section throws', () => {
  const file = join(tmp(), 'draft.json');
  const inner = withFileLock(file, () => withFileLock(file, () => existsSync(lockPathOf(file))));
  assert.equal(inner, true);
  assert.equal(existsSync(lockPathOf(file)), false);
  assert.throws(() => withFileLock(file, () => { throw new Error('boom'); }), /boom/);
  assert.equal(existsSync(lockPathOf(file)), false, 'released after a throw');
  assert.equal(withFileLock(file, () => 'again', { waitMs: 100 }), 'again');
});

test('two processes appending long lines to one JSONL file at once: every line of both is whole', { timeout: 120_000 }, async () => {
  const file = join(tmp(), 'review.jsonl');
  // Lines of 500 KB: such a line lands a page at a time, so a tail repair run beside the append saw
  // a torn line and cut it (this failed every time before appends took the file's lock).
  const writers = [child(['append', file, '40', '500000']), child(['append', file, '40', '500000'])];
  for (const w of writers) assert.equal(await w.next(), 'ready');
  for (const w of writers) w.p.stdin!.write('go\n');
  for (const w of writers) assert.equal(await w.exited, 0);
  const { records, warnings } = readJsonl(file, z.object({ writer: z.number(), i: z.number(), pad: z.string() }));
  assert.deepEqual(warnings, []);
  for (const w of writers) {
    const mine = records.filter((r) => r.writer === w.p.pid).map((r) => r.i);
    assert.deepEqual(mine, Array.from({ length: 40 }, (_, i) => i), `writer ${w.p.pid}: all its lines, in order`);
  }
  rmSync(dirname(file), { recursive: true, force: true });
});
