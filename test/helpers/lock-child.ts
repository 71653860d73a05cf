/**
 * Child process for the file-lock tests: a second process on the same lab files.
 *
 *   hold FILE MS          take FILE's lock, say "held", keep it MS milliseconds, release, exit
 *   append FILE N BYTES   say "ready", wait for a line on stdin, append N records of about BYTES each
 */
import { appendJsonlLine } from '../../main/store/jsonl.ts';
import { withFileLock } from '../../main/store/file-lock.ts';

const [mode, file, a, b] = process.argv.slice(2);
if (mode === 'hold') {
  withFileLock(file, () => {
    process.stdout.write('held\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(a));
  });
  process.exit(0);
} else if (mode === 'append') {
  process.stdout.write('ready\n');
  process.stdin.once('data', () => {
    for (let i = 0; i < Number(a); i++) appendJsonlLine(file, { writer: process.pid, i, pad: 'x'.repeat(Number(b)) });
    process.exit(0);
  });
} else {
  throw new Error(`unknown mode ${mode}`);
}
