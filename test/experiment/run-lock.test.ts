/**
 * run.lock with real processes: a live child process holding an experiment's lock keeps a second
 * runner out and shows in the app's Experiments service as running elsewhere; once it has exited
 * the lock is stale, the stage reads as interrupted (started) and a new runner takes the lock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireRunLock, liveRunLock } from '../../main/experiment/run-lock.ts';
import { experimentFiles } from '../../main/store/lab-files.ts';
import { experimentConfig } from '../../main/experiment/config.ts';
import { ExperimentFolder } from '../../main/experiment/folder.ts';
import { experimentStages } from '../../main/experiment/stages.ts';
import { ExperimentsLab } from '../../main/server/experiments.ts';
import { LabStore } from '../../main/store/lab.ts';

function lockFor(dir: string, pid: number): void {
  writeFileSync(experimentFiles(dir).runLock, JSON.stringify({ pid, host: hostname(), startedAt: '2026-12-03T07:00:00.000Z' }));
}

test('an experiment held by a live process is refused to a second runner and shown as running elsewhere; a dead holder\'s lock is taken over', async () => {
  const labDir = mkdtempSync(join(tmpdir(), 'lab-run-lock-'));
  const store = new LabStore(labDir);
  const folder = ExperimentFolder.create(labDir, experimentConfig('tiny', 'held'));
  folder.log({ stage: experimentStages(folder.config)[0].name, status: 'started' });
  const lab = new ExperimentsLab({ store, runtime: async () => { throw new Error('not used'); }, emit: () => {} });

  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  try {
    lockFor(folder.dir, child.pid!);
    assert.equal(liveRunLock(folder.dir)?.pid, child.pid);
    assert.throws(() => acquireRunLock(folder.dir, 'held'), new RegExp(`experiment held is being run by process ${child.pid} on .* since 2026-12-03T07:00:00.000Z`));
    const info = lab.read('held');
    assert.equal(info.state, 'running');
    assert.equal(info.runBy?.pid, child.pid);
    assert.equal(info.stages[0].status, 'running');
  } finally {
    child.kill();
    await once(child, 'exit');
  }

  // Its process is gone: the stage was interrupted, and the next runner takes the lock.
  assert.equal(liveRunLock(folder.dir), null);
  const info = lab.read('held');
  assert.equal(info.runBy, null);
  assert.equal(info.stages[0].status, 'started');
  assert.equal(info.state, 'stopped');
  const release = acquireRunLock(folder.dir, 'held');
  assert.equal(liveRunLock(folder.dir)?.pid, process.pid);
  release();
  assert.equal(existsSync(experimentFiles(folder.dir).runLock), false);
});
