/**
 * The one training loop (main/models/loop.ts): the order of a step's parts (step, evaluate,
 * record, checkpoint), evaluation every N steps and at the last, a stop between steps with a
 * checkpoint at the stop, and a resumed run that goes on counting from where it was.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runTrainingLoop } from '../../main/models/loop.ts';

function trace(from: number, steps: number, stopAfter = Infinity) {
  const events: string[] = [];
  let calls = 0;
  const run = runTrainingLoop({
    from, steps, evalEvery: 3, checkpointEvery: 4,
    shouldStop: () => calls >= stopAfter,
    step: (i) => {
      calls++;
      events.push(`step ${i}`);
      return i * 10;
    },
    evaluate: () => {
      events.push('eval');
      return calls;
    },
    record: ({ done, out, evaluated, valLoss }) => events.push(`record ${done} out ${out}${evaluated ? ` val ${valLoss}` : ''}`),
    checkpoint: async (done) => {
      events.push(`checkpoint ${done}`);
    },
  });
  return { run, events };
}

test('each step runs, then evaluates when due (every N and at the last), records, and checkpoints when due; once more at the end', async () => {
  const { run, events } = trace(0, 5);
  const r = await run;
  assert.deepEqual(events, [
    'step 0', 'record 1 out 0',
    'step 1', 'record 2 out 10',
    'step 2', 'eval', 'record 3 out 20 val 3',
    'step 3', 'record 4 out 30', 'checkpoint 4',
    'step 4', 'eval', 'record 5 out 40 val 5',
    'checkpoint 5',
  ]);
  assert.deepEqual({ done: r.done, cancelled: r.cancelled, valLoss: r.valLoss }, { done: 5, cancelled: false, valLoss: 5 });
});

test('a stop is honoured between steps and checkpointed where it stopped; a resume counts on from there', async () => {
  const stopped = trace(0, 10, 2);
  const r = await stopped.run;
  assert.deepEqual(stopped.events.slice(-1), ['checkpoint 2']);
  assert.deepEqual({ done: r.done, cancelled: r.cancelled }, { done: 2, cancelled: true });

  const resumed = trace(2, 4);
  await resumed.run;
  assert.deepEqual(resumed.events, ['step 2', 'eval', 'record 3 out 20 val 1', 'step 3', 'eval', 'record 4 out 30 val 2', 'checkpoint 4', 'checkpoint 4']);
});
