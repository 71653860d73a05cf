/** `lab tasks show` and `lab tasks validate`, run through the command tree (in-process). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findChromium } from '../../main/environment/chromium.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { describeTask } from '../../main/cli/commands/tasks.ts';
import { runLab as lab } from '../helpers/lab-cli.ts';

let chromium: string | null = null;
try {
  chromium = findChromium();
} catch {
  chromium = null;
}

test('`lab tasks show` describes the generated task of every family: instruction, tier, start path, key points', async () => {
  for (const f of builtinFamilies().values()) {
    const d = describeTask(f, 10042, 2);
    assert.equal(d.family, f.name);
    assert.equal(d.tier, 2);
    assert.equal(d.split, 'test');
    assert.equal(d.heldOut, !!f.heldOut);
    assert.equal(d.instruction, f.generate(10042, 2).instruction);
    assert.ok(d.startPath.startsWith('/'));
    assert.ok(d.keyPoints.length >= 2 && d.keyPoints.every((k) => typeof k === 'string'), f.name);
    assert.equal(d.goalKind, f.generate(10042, 2).goalKind);
  }
  // The command: JSON, text, and a held-out family's seed outside the test range.
  const json = JSON.parse((await lab('tasks', 'show', 'hotels', '--seed', '10042', '--tier', '2', '--json')).stdout);
  assert.deepEqual(json, JSON.parse(JSON.stringify(describeTask(builtinFamilies().get('hotels')!, 10042, 2))));
  const held = await lab('tasks', 'show', 'restaurants', '--seed', '5');
  assert.match(held.stdout, /^restaurants seed 5 \(other, held-out family\), tier \d/);
  assert.match(held.stdout, /key points:\n {2}- /);
  assert.match(held.stdout, /\ngoal: (a page state|an answer) \(the episode ends /);
  await assert.rejects(lab('tasks', 'show', 'nope'), /unknown task family "nope"/);
});

test('`lab tasks list` marks held-out families', async () => {
  const rows = JSON.parse((await lab('tasks', 'list', '--json')).stdout);
  assert.deepEqual(rows.filter((r: { heldOut: boolean }) => r.heldOut).map((r: { family: string }) => r.family), ['restaurants', 'wiki']);
  assert.match((await lab('tasks', 'list')).stdout, /held out: test seeds 10000-10999 only/);
  assert.match((await lab('tasks', 'list')).stdout, /factbook .*\n\s+drill \(not in eval's default families\): train seeds 0-9999/);
  assert.equal(rows.find((r: { family: string }) => r.family === 'factbook').drill, true);
});

test('`lab tasks validate` runs oracle and random agent in the real environment and reports per family', { skip: chromium ? false : 'no Chromium installed' }, async () => {
  const { stdout } = await lab('tasks', 'validate', '--seeds', '3', '--family', 'wiki', '--no-random', '--json');
  const out = JSON.parse(stdout);
  assert.equal(out.ok, true, stdout);
  assert.deepEqual(out.families.map((f: { family: string }) => f.family), ['wiki']);
  assert.equal(out.families[0].heldOut, true);
  assert.equal(out.endOnGoal, true);
  // Wiki asks questions only: every oracle episode ends with its answer, none by the checker.
  assert.deepEqual(out.families[0].oracle.reasons, { checker: 3 });
  for (const f of out.families) {
    assert.equal(f.oracle.successRate, 1);
    assert.deepEqual(Object.keys(f.oracle.meanStepsByTier), ['1', '2', '3']);
    assert.ok(f.oracle.meanStepsByTier['3'] > f.oracle.meanStepsByTier['1']);
    assert.equal(f.random, null, 'the random agent was skipped');
  }
  const text = await lab('tasks', 'validate', '--seeds', '1', '--family', 'calendar');
  assert.match(text.stdout, /calendar\s+1\/1 \(100%\)\s+[\d.]+ \/ n\/a \/ n\/a\s+\d\/1 \(\d+%\)/);
  assert.match(text.stdout, /Every oracle succeeded/);
  assert.match(text.stdout, /Page-state goals end when the checker passes: \d of 1 oracle episodes ended so/);
});
