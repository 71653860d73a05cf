import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCollectSummary } from '../../main/cli/commands/collect.ts';
import { figure } from '../../main/cli/runtime.ts';
import type { ArmSummary } from '../../main/collection/retries.ts';
import type { CollectSummary } from '../../main/collection/collect-run.ts';

/** A cell that is only a dash (or an em dash): a figure with no word on why it is missing. */
const BARE_DASH = /(^|\s)[-—](\s|$)/m;

const arm = (over: Partial<ArmSummary>): ArmSummary => ({
  arm: 'reflect', tasks: 2, successes: 0, yield: 0, firstAttemptSuccesses: 0, attempts: 4,
  attemptsPerSuccess: null, stepsPerSuccess: null, stepsPerSuccessShortened: null, stepsPerSuccessCommon: null, ...over,
});

test('figure: a value as it is, a missing one as n/a with the reason', () => {
  assert.equal(figure(2.5, 'no success'), '2.5');
  assert.equal(figure(0, 'no success'), '0');
  assert.equal(figure(null, 'no success'), 'n/a (no success)');
  assert.equal(figure(undefined, 'not run'), 'n/a (not run)');
});

test('the collect summary of a run with no success says why each figure is missing, in aligned columns, with no bare dash', () => {
  const s: CollectSummary = {
    runId: 'r1', tasks: 2, tasksDone: 2, retries: 1, attemptBudget: 2,
    arms: [arm({}), arm({ arm: 'blind', successes: 1, yield: 0.5, attemptsPerSuccess: 3, stepsPerSuccess: 7, stepsPerSuccessShortened: null })],
    shortening: null, browsers: { lost: [], reruns: 0, rerunTasks: [] },
    llm: { calls: 0, malformed: 0, malformedRate: 0, promptTokens: 0, completionTokens: 0, meanLatencyMs: null },
  };
  const text = formatCollectSummary(s, '/lab/runs/r1', false);
  assert.doesNotMatch(text, BARE_DASH, text);
  const lines = text.split('\n');
  const header = lines.find((l) => l.startsWith('arm'))!;
  const reflect = lines.find((l) => l.startsWith('reflect'))!;
  const blind = lines.find((l) => l.startsWith('blind'))!;
  assert.match(reflect, /n\/a \(no success\)/);
  assert.match(blind, /n\/a \(not shortened\)/, 'a solved task without a shortened trajectory says so');
  // Columns line up: each header word starts where its column's cells do.
  const col = header.indexOf('steps/success');
  assert.equal(reflect.slice(col, col + 3), 'n/a');
  assert.equal(blind.slice(col, col + 1), '7');
  assert.match(text, /steps\/success on tasks every arm solved: reflect n\/a \(no task solved by every arm\)/);
  assert.doesNotMatch(text, /latency/, 'no latency clause without model calls');
});
