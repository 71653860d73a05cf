/**
 * Ctrl-C in a real process: one keypress delivered twice (as the tsx CLI relays a signal its child
 * has not confirmed within 30 ms) stops cleanly instead of aborting; a later press aborts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPEAT_WINDOW_MS } from '../../main/cli/runtime.ts';

const SCRIPT = `
import { onInterrupt } from './main/cli/runtime.ts';
onInterrupt(() => console.log('first'), () => { console.log('again'); process.exit(130); });
console.log('ready');
setInterval(() => {}, 1000);
`;

test('a Ctrl-C delivered twice at once counts as one; a second press after the window aborts', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = once(child, 'exit');
  while (!out.includes('ready')) await sleep(20);
  child.kill('SIGINT');
  while (!out.includes('first')) await sleep(5);
  // The relayed copy: after the first was handled (pending signals would merge into one), well inside the window.
  child.kill('SIGINT');
  await sleep(REPEAT_WINDOW_MS + 200);
  assert.deepEqual(out.trim().split('\n'), ['ready', 'first'], 'the duplicate did not abort');
  child.kill('SIGINT');
  const [code] = await exited;
  assert.equal(code, 130);
  assert.deepEqual(out.trim().split('\n'), ['ready', 'first', 'again']);
});
