/**
 * The time a caller spends streaming tokens (onToken, onLoop) is not decoding time: a live decode
 * that sends every token to a UI must not make AR (a loop per token) look slower than a drafting
 * mode (a loop per accepted block) for the UI's sake.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../main/decode/generation.ts';
import { emptyStats } from '../../main/decode/types.ts';

const busyWait = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

test("decodeMs leaves out the caller's onToken and onLoop, awaited or not", async () => {
  const callbackMs = { token: 15, loop: 20 };
  const emitter = new Emitter({ maxNew: 6, onToken: () => busyWait(callbackMs.token), onLoop: () => new Promise((r) => setTimeout(r, callbackMs.loop)) });
  const start = performance.now();
  for (let loop = 0; loop < 3; loop++) {
    emitter.push(loop * 2);
    emitter.push(loop * 2 + 1);
    await emitter.loopEnded();
  }
  const stats = emitter.result(emptyStats('ar', 1), start).stats;
  const elapsed = performance.now() - start;
  const inCallbacks = 6 * callbackMs.token + 3 * callbackMs.loop;
  assert.ok(elapsed >= inCallbacks, 'the callbacks did take their time');
  // Emitting six tokens is microseconds of work: a quarter of the callbacks' time is a wide margin.
  assert.ok(stats.decodeMs >= 0 && stats.decodeMs < inCallbacks / 4, `decodeMs ${stats.decodeMs.toFixed(1)} ms of ${elapsed.toFixed(1)} ms elapsed`);
  assert.equal(stats.newTokens, 6);
});
