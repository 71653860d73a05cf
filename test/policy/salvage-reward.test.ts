import { test } from 'node:test';
import assert from 'node:assert/strict';
import { actionMeaning } from '../../main/policy/mining.ts';
import { defaultGateSettings, defaultRewardSettings, gateGroup, groupAdvantages, scaleNegativeAdvantages, scoreAction, type RewardSettings } from '../../main/policy/salvage/reward.ts';
import type { PageElement } from '../../main/environment/types.ts';

const el = (id: string, role: string, name: string): PageElement => ({ id, role, name, tag: 'a', box: { x: 0, y: 0, width: 9, height: 9 }, visible: true, inViewport: true });
const page = [el('3', 'link', 'Inbox'), el('4', 'link', 'Archive'), el('7', 'textbox', 'Search'), el('8', 'button', 'Star'), el('9', 'button', 'Star')];
// The reference was recorded on a page that numbers the same elements differently.
const refPage = [el('30', 'link', 'Inbox'), el('40', 'link', 'Archive'), el('70', 'textbox', 'Search'), el('80', 'button', 'Star'), el('90', 'button', 'Star')];
const graded: RewardSettings = { ...defaultRewardSettings, kind: 'graded' };
const score = (action: string, reference: string, s = defaultRewardSettings, valid = true) => scoreAction(action, valid, actionMeaning(reference, refPage), page, s).reward;

test('polarized reward: +1 for the reference meaning (an equivalent element counts), -1 for another meaning, -2 for invalid actions', () => {
  assert.equal(score("click('4')", "click('40')"), 1);
  assert.equal(score("fill('7', '  ATLAS ')", "fill('70', 'atlas')"), 1); // text compared after normalisation
  assert.equal(score("click('3')", "click('40')"), -1); // wrong element
  assert.equal(score("click('9')", "click('80')"), -1); // same role and name, but the second "Star"
  assert.equal(score("fill('7', 'atlsa')", "fill('70', 'atlas')"), -1); // wrong text
  assert.equal(score("fill('7', 'atlas')", "click('70')"), -1); // wrong type
  assert.equal(score('click(', "click('40')"), -2); // does not parse
  assert.equal(score("click('55')", "click('40')"), -2); // names no element of the page
  assert.equal(score("click('4')", "click('40')", defaultRewardSettings, false), -2); // the output had no parsable action line
});

test('graded reward: partial credit for type, target and text, only when the type matches; invalid keeps its penalty', () => {
  // credit 1 -> +1, 0 -> -1; weights type 0.4, target 0.4, text 0.2.
  assert.equal(score("click('4')", "click('40')", graded), 1);
  assert.ok(Math.abs(score("fill('7', 'atlsa')", "fill('70', 'atlas')", graded) - 0.6) < 1e-9); // type + target
  assert.ok(Math.abs(score("click('3')", "click('40')", graded) - 0.2) < 1e-9); // type + (no) text
  assert.equal(score("fill('7', 'x')", "click('70')", graded), -1); // another type: no credit at all
  assert.equal(score('click(', "click('40')", graded), -2);
});

test('group-relative advantages have mean 0 and unit spread; a group of equal rewards has none', () => {
  const a = groupAdvantages([1, -1, -1, -1]);
  assert.ok(Math.abs(a.reduce((x, y) => x + y, 0)) < 1e-9);
  assert.ok(Math.abs(Math.sqrt(a.reduce((x, y) => x + y * y, 0) / a.length) - 1) < 1e-3);
  assert.ok(a[0] > 0 && a[1] < 0);
  assert.deepEqual(groupAdvantages([-1, -1, -1]), [0, 0, 0]);
});

test('gates: contrast refuses groups without spread, competence refuses groups outside the band; off keeps every group', () => {
  const g = defaultGateSettings; // spread >= 1, share of correct samples in [0.1, 0.9]
  const share = (rewards: number[]) => rewards.filter((r) => r === 1).length / rewards.length;
  const check = (rewards: number[]) => gateGroup(rewards, share(rewards), g);
  assert.deepEqual(check([1, 1, 1, 1, 1, 1, 1, 1]).rejectedBy, ['contrast', 'competence']); // all right: nothing to learn
  assert.deepEqual(check([-1, -1, -1, -1, -1, -1, -1, -1]).rejectedBy, ['contrast', 'competence']);
  assert.deepEqual(check([-1, -2, -1, -1, -1, -1, -1, -1]).rejectedBy, ['competence']); // spread 1, but never right
  assert.equal(check([1, -1, -1, 1, -2, -1, 1, -1]).kept, true);
  assert.deepEqual(gateGroup([1, 1, 1, 1, 1, 1, 1, -1], 7 / 8, g).rejectedBy, []);
  assert.deepEqual(gateGroup([1, 1, 1, 1, 1, 1, 1, -1], 0.95, g).rejectedBy, ['competence']); // probability competence above the band
  assert.equal(gateGroup([1, 1, 1], 1, { ...g, enabled: false }).kept, true);
  assert.equal(gateGroup([0.2, 0.6, 0.2], 0.5, g).rejectedBy[0], 'contrast'); // graded rewards too close together
});

test('negative advantages scale down to nothing at 0, stay as computed at 1; positive ones never change', () => {
  const a = groupAdvantages([1, -1, -1, -2]);
  assert.deepEqual(scaleNegativeAdvantages(a, 1), a);
  const none = scaleNegativeAdvantages(a, 0);
  assert.equal(none[0], a[0]);
  assert.deepEqual(none.slice(1).map((x) => x === 0), [true, true, true]);
  assert.deepEqual(scaleNegativeAdvantages(a, 0.5).slice(1), a.slice(1).map((x) => x / 2));
});
