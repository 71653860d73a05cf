import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunFolder } from '../../main/collection/collect-run.ts';

test('the review reads a run that `lab collect` is still writing without touching its log (a torn last line is skipped, not trimmed)', () => {
  const lab = mkdtempSync(join(tmpdir(), 'lab-run-reader-'));
  const run = RunFolder.create(lab, { tasks: 'shop:test', agent: 'noisy', agentSeed: 1, retries: 1, reflect: 'rules', shorten: false, parallel: 1, seeds: 1 });
  run.append({ type: 'attempt', task: 'shop:10000', arms: ['reflect', 'blind'], attempt: 0, episodeId: 'e0', success: false, steps: 4, reflections: [] });
  const log = join(run.dir, 'progress.jsonl');
  appendFileSync(log, '{"type":"attempt","task":"shop:10000","ar'); // a line being written
  const before = readFileSync(log, 'utf8');
  const view = RunFolder.read(lab, run.config.runId);
  assert.equal(view.events.length, 1);
  assert.equal(view.config.runId, run.config.runId);
  assert.equal(readFileSync(log, 'utf8'), before, 'the log is untouched');
  assert.throws(() => view.append({ type: 'task_done', task: 'shop:10000' }), /opened for reading only/);
  assert.throws(() => RunFolder.read(lab, '../x'), /invalid run id/);
  assert.throws(() => RunFolder.read(lab, 'nope'), /no run nope in/);
});
