import { test } from 'node:test';
import assert from 'node:assert/strict';
import { actionMeaning, findCriticalState, miningReport, type MinedFailure } from '../../main/policy/mining.ts';
import type { PageElement } from '../../main/environment/types.ts';

const el = (id: string, role: string, name: string): PageElement => ({ id, role, name, tag: 'a', box: { x: 0, y: 0, width: 9, height: 9 }, visible: true, inViewport: true });
const page = [el('3', 'link', 'Inbox'), el('4', 'link', 'Archive'), el('7', 'textbox', 'Search'), el('8', 'button', 'Star'), el('9', 'button', 'Star')];
const step = (action: string, error: string | null = null, elements = page) => ({
  index: 0, action, error: error ? { code: error, message: '' } : null, observation: { url: 'u', title: 't', elements, screenshot: null, lastActionError: null },
  timing: { agentMs: 0, actionMs: 0, settleMs: 0, observeMs: 0, totalMs: 0 },
});
const traj = (...steps: ReturnType<typeof step>[]) => ({ steps: steps.map((s, i) => ({ ...s, index: i })) }) as never;
const reference = traj(step("click('4')"), step("fill('7', 'Atlas')"), step("click('8')"), step("send_msg_to_user('Room 4')"));

test('action meaning compares elements by role, name and rank (not id), and text after normalisation', () => {
  const shifted = [el('30', 'link', 'Inbox'), el('40', 'link', 'Archive')];
  assert.deepEqual(actionMeaning("click('4')", page), actionMeaning("click('40')", shifted));
  assert.notDeepEqual(actionMeaning("click('8')", page), actionMeaning("click('9')", page)); // second "Star"
  assert.deepEqual(actionMeaning("fill('7', ' atlas ')", page).text, 'atlas');
  assert.equal(actionMeaning("click('99')", page).target, 'missing');
  assert.notDeepEqual(actionMeaning("keyboard_press('Enter')", page), actionMeaning("keyboard_press('Tab')", page), 'the key is what a key press means');
  assert.equal(actionMeaning('click(', page).type, 'invalid');
});

test('the critical state is the first departure in meaning, classified by how it departs', () => {
  const cases: [ReturnType<typeof traj>, number, string][] = [
    [traj(step("click('4')"), step("fill('7', 'Atlsa')")), 1, 'wrong_text'],
    [traj(step("click('3')")), 0, 'wrong_element'],
    [traj(step("click('4')"), step("click('7')")), 1, 'wrong_action_type'],
    [traj(step("click('4')"), step("send_msg_to_user('Done')")), 1, 'premature_answer'],
    [traj(step("click('4')"), step('fill(7'), step('fill(7')), 1, 'invalid_action'],
    [traj(step("click('55')", 'unknown_element')), 0, 'invalid_action'],
    [traj(step("click('3')"), step("click('3')"), step("click('3')")), 0, 'loop'],
    [traj(step("click('4')"), step("fill('7', 'Atlas')")), 2, 'timeout'],
  ];
  for (const [rollout, at, mode] of cases) {
    const c = findCriticalState(rollout, reference);
    assert.deepEqual([c.step, c.mode], [at, mode], JSON.stringify(c));
  }
  const c = findCriticalState(traj(step("click('4')"), step("fill('7', 'Atlsa')")), reference);
  assert.equal(c.referenceAction, "fill('7', 'Atlas')");
});

test('the mining report counts failures per mode and family and keeps a few examples per mode', () => {
  const f = (family: string, mode: MinedFailure['mode'], id: string): MinedFailure => ({ episodeId: id, referenceId: 'r', family, seed: 1, tier: 1, step: 0, mode, action: null, referenceAction: null });
  const r = miningReport([f('shop', 'loop', 'a'), f('shop', 'loop', 'b'), f('webmail', 'wrong_text', 'c'), f('shop', 'loop', 'd')], 2);
  assert.equal(r.failures, 4);
  assert.equal(r.byMode.loop, 3);
  assert.equal(r.byMode.timeout, 0);
  assert.deepEqual(r.byFamily, { shop: { loop: 3 }, webmail: { wrong_text: 1 } });
  assert.deepEqual(r.examples.loop.map((x) => x.episodeId), ['a', 'b']);
});
