/** A corrected action must be one the recorded page allowed: refused (and not written) otherwise. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LabService } from '../../main/server/service.ts';
import { actionTargetProblem } from '../../main/environment/action-target.ts';
import { PAGE_ELEMENTS, tmpLab, writeEpisode } from '../datasets/helpers.ts';

test('a correction naming an element, or an option, the page did not have is refused and not stored', async () => {
  const lab = tmpLab();
  const id = writeEpisode(lab);
  const service = new LabService({ store: lab, families: new Map(), mode: 'web', startBrowser: () => Promise.reject(new Error('unused')) });
  try {
    await assert.rejects(service.editLabels(id, { type: 'correction', step: 1, action: "click('99')" }), /step 1 .* refused: the page had no element \[99\]/);
    await assert.rejects(service.editLabels(id, { type: 'correction', step: 0, action: "select_option('4', 'Coach')" }), /offers no option "Coach"/);
    await assert.rejects(service.editLabels(id, { type: 'correction', step: 0, action: 'click(' }), /not an action/);
    assert.deepEqual((await service.readLabels(id)).corrections, {}, 'nothing written');
    const labels = await service.editLabels(id, { type: 'correction', step: 1, action: "select_option('4', 'First')" });
    assert.equal(labels.corrections[1], "select_option('4', 'First')");
    // Clearing a correction and actions without an element need no check.
    await service.editLabels(id, { type: 'correction', step: 1, action: null });
    await service.editLabels(id, { type: 'correction', step: 2, action: "send_msg_to_user('done')" });
  } finally {
    await service.close();
  }
});

test('the check reads the step\'s own elements', () => {
  assert.equal(actionTargetProblem("fill('3', 'Paris')", PAGE_ELEMENTS), null);
  assert.match(actionTargetProblem("fill('3', 'Paris')", [])!, /no element \[3\]/);
});

test('actions read with their target named from the step\'s own elements', async () => {
  const { describeAction } = await import('../../main/environment/action-target.ts');
  assert.equal(describeAction("click('6')", PAGE_ELEMENTS), 'click [6] button "Add to cart"');
  assert.equal(describeAction("fill('3', 'Paris')", PAGE_ELEMENTS), 'fill [3] textbox "City" ← "Paris"');
  assert.equal(describeAction("select_option('4', 'First')", PAGE_ELEMENTS), 'select_option [4] combobox "Class" ← "First"');
  assert.equal(describeAction("click('6', 'right')", PAGE_ELEMENTS), 'click [6] button "Add to cart" (right button)');
  // As written: no element, an element the page lacked, not an action.
  assert.equal(describeAction("send_msg_to_user('done')", PAGE_ELEMENTS), "send_msg_to_user('done')");
  assert.equal(describeAction("click('99')", PAGE_ELEMENTS), "click('99')");
  assert.equal(describeAction('click(', PAGE_ELEMENTS), 'click(');
});

test('a comment on a step is stored, replaced, cleared, folded like any label, and refused for a step the episode lacks', async () => {
  const lab = tmpLab();
  const id = writeEpisode(lab);
  const service = new LabService({ store: lab, families: new Map(), mode: 'web', startBrowser: () => Promise.reject(new Error('unused')) });
  try {
    await service.editLabels(id, { type: 'comment', step: 1, text: 'clicked the ad,\nnot the result' });
    await service.editLabels(id, { type: 'comment', step: 2, text: 'fine' });
    await service.editLabels(id, { type: 'comment', step: 2, text: null });
    assert.deepEqual((await service.readLabels(id)).comments, { 1: 'clicked the ad,\nnot the result' });
    // Read back from the lab folder by a fresh reader, as after a restart.
    const again = new LabService({ store: lab, families: new Map(), mode: 'web', startBrowser: () => Promise.reject(new Error('unused')) });
    assert.deepEqual((await again.readLabels(id)).comments, { 1: 'clicked the ad,\nnot the result' });
    await again.close();
    await assert.rejects(service.editLabels(id, { type: 'comment', step: 99, text: 'x' }), /there is no step 99/);
  } finally {
    await service.close();
  }
});
