/** What freezing a dataset asks a person to confirm: empty splits, held-out families and test seeds in train. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freezeChecks, type CheckedEpisode } from '../../main/datasets/freeze-checks.ts';

const ep = (id: string, family: string, seed: number, taskSplit: CheckedEpisode['taskSplit'], split: CheckedEpisode['split']): CheckedEpisode => ({ id, family, seed, taskSplit, split });
const ratios = { train: 0.8, validation: 0.1, test: 0.1 };

test('a clean selection raises nothing', () => {
  assert.deepEqual(freezeChecks([ep('a', 'shop', 1, 'train', 'train'), ep('b', 'shop', 2, 'train', 'validation'), ep('c', 'shop', 3, 'train', 'test')], ratios, new Set(['wiki'])), []);
});

test('a split with a share but no instance is named; a split set to 0 is not', () => {
  const one = [ep('a', 'shop', 1, 'train', 'train')];
  const w = freezeChecks(one, ratios, new Set());
  assert.deepEqual(w.map((x) => x.kind), ['empty-split', 'empty-split']);
  assert.match(w[0].message, /the validation split is empty: its ratio is 0.1, but none of the 1 task instances/);
  assert.deepEqual(freezeChecks(one, { train: 1, validation: 0, test: 0 }, new Set()), []);
  assert.deepEqual(freezeChecks([], ratios, new Set()), [], 'nothing selected: nothing to freeze, no split warning');
});

test('held-out families and test seeds in the train split are named with their episodes; in the other splits they are not', () => {
  const w = freezeChecks([
    ep('h1', 'wiki', 5, 'test', 'train'),
    ep('t1', 'shop', 10001, 'test', 'train'),
    ep('t2', 'shop', 10002, 'test', 'validation'),
    ep('ok', 'shop', 3, 'train', 'test'),
  ], ratios, new Set(['wiki']));
  assert.deepEqual(w.map((x) => [x.kind, x.ids]), [['held-out-family', ['h1']], ['test-seed', ['t1']]]);
  assert.match(w[0].message, /1 episode\(s\) of held-out family wiki would go into the train split/);
  assert.match(w[1].message, /1 episode\(s\) recorded on test seeds \(shop\) would go into the train split/);
});
