import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstDivergence } from '../../main/server/review.ts';

const steps = (...xs: Array<[string, string]>) => xs.map(([state, action]) => ({ state, action }));

test('a retry parts from the attempt it retries at the first different page state, else the first different action', () => {
  const a = steps(['home', "click('1')"], ['search', "fill('4', 'Boston')"], ['results', "click('9')"]);
  assert.equal(firstDivergence(a, a), null);
  // Same page, another action: parts there, and says what each did.
  assert.deepEqual(firstDivergence(a, steps(['home', "click('1')"], ['search', "fill('4', 'Bostn')"], ['results', "click('9')"])), {
    step: 1, kind: 'action', before: "fill('4', 'Boston')", after: "fill('4', 'Bostn')",
  });
  // The page itself differs before the step (an earlier action had another effect): a state divergence.
  assert.deepEqual(firstDivergence(a, steps(['home', "click('1')"], ['help', "go_back()"])), { step: 1, kind: 'state', before: "fill('4', 'Boston')", after: 'go_back()' });
  // One trajectory is a prefix of the other: they part where the shorter one ended.
  assert.deepEqual(firstDivergence(a, a.slice(0, 2)), { step: 2, kind: 'length', before: "click('9')", after: null });
  assert.deepEqual(firstDivergence([], a), { step: 0, kind: 'length', before: null, after: "click('1')" });
});
