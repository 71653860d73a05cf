/**
 * `npm run web` on an empty lab prints its address at once and records the sample episodes while
 * the app is open (it used to record them first: minutes before the address showed), and Ctrl-C
 * during the sample stops it cleanly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { startLab } from '../helpers/lab-cli.ts';
import { LabStore } from '../../main/store/lab.ts';

test('web on an empty lab prints its address before the sample is recorded, then records it in the background; Ctrl-C stops it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-web-first-'));
  const child = startLab(['--lab', dir, 'web']);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const waitFor = async (what: () => boolean, label: string, ms = 180_000) => {
    const deadline = Date.now() + ms;
    while (!what()) {
      if (child.exitCode !== null) throw new Error(`lab web exited (${child.exitCode}) before ${label}\n${stderr}`);
      if (Date.now() > deadline) throw new Error(`no ${label} in ${ms} ms\n${stdout}\n${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  try {
    await waitFor(() => /Agent Lab web mode: http:\/\/lab-[0-9a-f]+\.localhost:\d+\//.test(stdout), 'address');
    const total = Number(/(\d+)\/(\d+) /.exec(stderr)?.[2] ?? NaN);
    assert.ok(!(new LabStore(dir).episodeIds().length >= total), 'the address came before the sample was done');
    // The sample goes on in the background: an episode lands after the address was printed.
    await waitFor(() => /\n {2}\d+\/\d+ \w+/.test(stderr), 'sample episode');
    assert.ok(new LabStore(dir).episodeIds().length >= 1);
  } finally {
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0, `Ctrl-C during the sample exits cleanly\n${stderr}`);
  }
});
