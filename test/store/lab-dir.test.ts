/**
 * Lab folders in kernel pseudo-filesystems are refused with a message (Node's recursive mkdir
 * under /proc never returns, so `lab --lab /proc/x` used to hang), and a --lab folder that did not
 * exist gets one line on stderr saying a new, empty lab was made there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertLabDirUsable } from '../../main/store/lab-dir.ts';
import { LabStore } from '../../main/store/lab.ts';
import { runLab as lab, spawnLab } from '../helpers/lab-cli.ts';

test('paths in /proc, /sys and /dev (also through a symlink) are refused; ordinary folders and /dev/shm are not', { skip: process.platform !== 'linux' && 'Linux paths' }, () => {
  assert.throws(() => assertLabDirUsable('/proc/x'), /--lab \/proc\/x: \/proc\/x is under \/proc, a kernel pseudo-filesystem/);
  assert.throws(() => assertLabDirUsable('/proc/self/new/lab'), /under \/proc/);
  assert.throws(() => assertLabDirUsable('/sys/kernel/lab'), /under \/sys/);
  assert.throws(() => assertLabDirUsable('/dev/lab'), /under \/dev/);
  const link = join(mkdtempSync(join(tmpdir(), 'lab-dir-')), 'to-proc');
  symlinkSync('/proc', link);
  assert.throws(() => assertLabDirUsable(join(link, 'x')), /is under \/proc/);
  assert.throws(() => new LabStore('/proc/x'), /under \/proc/, 'the store refuses before it makes folders');
  assertLabDirUsable(join(tmpdir(), 'some', 'new', 'lab'));
  // A file is not a folder, nor a place to make one under (ENOTDIR used to come through raw).
  const file = join(mkdtempSync(join(tmpdir(), 'lab-dir-')), 'notes.txt');
  writeFileSync(file, 'x');
  assert.throws(() => assertLabDirUsable(file), new RegExp(`--lab ${file}: ${file} is a file, not a folder`));
  assert.throws(() => new LabStore(join(file, 'lab')), /notes\.txt is a file, not a folder/);
  if (existsSync('/dev/shm')) assertLabDirUsable('/dev/shm/agent-lab-test');
});

test('lab --lab /proc/x exits with the reason instead of hanging; a new --lab folder is announced once', { skip: process.platform !== 'linux' && 'Linux paths' }, async () => {
  // A real process, with a time limit: what used to go wrong was that it never exited.
  await assert.rejects(spawnLab(['--lab', '/proc/x', 'episodes', 'list'], { timeout: 120_000 }), (err: Error & { stderr: string; killed: boolean }) => {
    assert.equal(err.killed, false, 'it returned by itself');
    assert.match(err.stderr, /lab: --lab \/proc\/x: \/proc\/x is under \/proc/);
    return true;
  });
  const dir = join(mkdtempSync(join(tmpdir(), 'lab-dir-')), 'typo');
  const first = await lab('--lab', dir, 'episodes', 'list');
  assert.equal(first.stderr, `lab: created a new, empty lab at ${dir}\n`);
  const second = await lab('--lab', dir, 'episodes', 'list');
  assert.equal(second.stderr, '', 'said once, when the folder was made');
  rmSync(dir, { recursive: true, force: true });
});
