import { test } from 'node:test';
import assert from 'node:assert/strict';
import { progressBar } from '../../main/cli/progress.ts';

test('no bar with --json or without a terminal: the command prints lines instead', async () => {
  assert.equal((await progressBar('x [{bar}] {value}/{total}', { quiet: true })).drawn, false);
  const tty = process.stderr.isTTY;
  try {
    (process.stderr as { isTTY?: boolean }).isTTY = false;
    const bar = await progressBar('x [{bar}] {value}/{total}');
    assert.equal(bar.drawn, false);
    bar.update(1, 2);
    bar.stop();
  } finally {
    (process.stderr as { isTTY?: boolean }).isTTY = tty;
  }
});

test('on a terminal the bar starts at the first report, follows a changing total, and stops twice safely', async () => {
  const tty = process.stderr.isTTY;
  const write = process.stderr.write;
  let out = '';
  try {
    (process.stderr as { isTTY?: boolean }).isTTY = true;
    process.stderr.write = ((chunk: string | Uint8Array) => ((out += String(chunk)), true)) as typeof process.stderr.write;
    const bar = await progressBar('stage {stage} [{bar}] {value}/{total}');
    assert.equal(bar.drawn, true);
    bar.update(1, 4, { stage: 'collect' });
    bar.update(3, 9, { stage: 'collect' });
    bar.stop();
    bar.stop();
    bar.update(1, 2, { stage: 'sft' });
    bar.stop();
  } finally {
    process.stderr.write = write;
    (process.stderr as { isTTY?: boolean }).isTTY = tty;
  }
  assert.match(out, /stage collect \[[^\]]*\] 3\/9/);
  assert.match(out, /stage sft \[[^\]]*\] 1\/2/);
});
