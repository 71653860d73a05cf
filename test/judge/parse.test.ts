/** Reading judge answers: the usual variations parse; what cannot be read is null, never a guess. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseKeyPoints, parseScore, parseVerdict } from '../../main/judge/parse.ts';

test('key points: numbered or bulleted lines after "Key Points:"; none is null', () => {
  assert.deepEqual(parseKeyPoints('Sure.\nKey Points:\n1. Vegetarian lasagna\n2) **4+ stars**\n- over 100 reviews'), ['Vegetarian lasagna', '4+ stars', 'over 100 reviews']);
  assert.deepEqual(parseKeyPoints('1. only a list'), ['only a list']);
  assert.equal(parseKeyPoints('I cannot determine the key points.'), null);
});

test('scores: "Score: N", "N/5", bold, the last one wins; out of range or absent is null', () => {
  assert.equal(parseScore('It shows the cart.\nScore: 4'), 4);
  assert.equal(parseScore('Scale is 1-5. **Score:** 2/5'), 2);
  assert.equal(parseScore('Score: 1 at first glance, but on reflection Score: 5'), 5);
  assert.equal(parseScore('5'), 5);
  assert.equal(parseScore('Score: 7'), null);
  assert.equal(parseScore('very relevant'), null);
});

test('verdicts: "Status: success|failure" in the usual spellings, with the reasons; none or two that disagree is null', () => {
  assert.deepEqual(parseVerdict('Thoughts: The cart holds the backpack.\nStatus: success'), { status: 'success', reasons: 'The cart holds the backpack.' });
  assert.deepEqual(parseVerdict('Thoughts: No review filter.\n**Status:** "failure"'), { status: 'failure', reasons: 'No review filter.' });
  assert.equal(parseVerdict('status: Successful')!.status, 'success');
  assert.equal(parseVerdict('The agent did well.'), null);
  assert.equal(parseVerdict('Status: success\nStatus: failure'), null);
});
