/**
 * Every append-only JSONL writer against a torn last line (what a kill mid-write leaves): the next
 * append must start a line of its own, so the file stays readable and the new record is in it.
 * A tail that is complete JSON and lacks only its newline is a record, and is kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { JsonlAppender, appendJsonlLine, readJsonl, readJsonlStrict, repairTornTail } from '../../main/store/jsonl.ts';
import { LabelStore, labelEventSchema } from '../../main/store/labels.ts';
import { JudgmentStore, judgmentSchema, type Judgment } from '../../main/store/judgments.ts';
import { RunFolder, progressEventSchema } from '../../main/collection/collect-run.ts';
import { ExperimentFolder, StageEvent } from '../../main/experiment/folder.ts';
import { experimentConfig } from '../../main/experiment/config.ts';
import { RegistryLine, registerTrainingRun, registeredRuns } from '../../main/policy/registry.ts';
import { TrainLogLine, appendTrainLog } from '../../main/policy/train-log.ts';
import { labPaths } from '../../main/store/layout.ts';
import { modelFiles } from '../../main/store/lab-files.ts';

const tmp = (name: string) => mkdtempSync(join(tmpdir(), `lab-jsonl-${name}-`));
const anyRecord = z.record(z.string(), z.unknown());

/** One good line, then the first bytes of a second one, as a SIGKILL mid-write leaves it. */
function tear(path: string, good: unknown): void {
  const line = JSON.stringify(good);
  writeFileSync(path, line + '\n' + line.slice(0, line.length - 2));
}

interface Writer {
  name: string;
  /** Prepare a file with a torn tail (via tear), append one record through the writer, return the file and the schema it is read with. */
  run(): { path: string; schema: z.ZodType; expectLast: (r: any) => void };
}

const judgment = (episodeId: string, verdict: 'success' | 'failure'): Judgment => ({
  type: 'judgment', version: 1, episodeId, at: new Date().toISOString(),
  judge: { method: 'webjudge', model: 'm', baseUrl: 'http://127.0.0.1:1/v1' }, verdict, reasons: 'r', keyPoints: [],
  scores: [], keyScreenshots: [], raw: { keyPoints: '', verdict: null }, usage: { calls: 1, promptTokens: 1, completionTokens: 1 },
});

const writers: Writer[] = [
  {
    name: 'JsonlAppender (episode files)',
    run() {
      const path = join(tmp('appender'), 'e.jsonl');
      tear(path, { n: 1 });
      const out = new JsonlAppender(path);
      out.append({ n: 2 });
      out.close();
      assert.deepEqual(out.repaired, { kind: 'cut', bytes: '{"n":'.length });
      return { path, schema: anyRecord, expectLast: (r) => assert.equal(r.n, 2) };
    },
  },
  {
    name: 'appendJsonlLine',
    run() {
      const path = join(tmp('line'), 'x.jsonl');
      tear(path, { n: 1 });
      appendJsonlLine(path, { n: 2 });
      return { path, schema: anyRecord, expectLast: (r) => assert.equal(r.n, 2) };
    },
  },
  {
    name: 'LabelStore.append (lab/labels)',
    run() {
      const lab = tmp('labels');
      const labels = new LabelStore(lab);
      const path = join(lab, 'labels', 'ep1.jsonl');
      tear(path, { type: 'step', step: 0, label: 'ok', at: new Date().toISOString() });
      // The edit is written and reported as written: no error from reading the file back.
      const after = labels.append('ep1', { type: 'step', step: 1, label: 'wrong' });
      assert.deepEqual(after.steps, { 0: 'ok', 1: 'wrong' });
      return { path, schema: labelEventSchema, expectLast: (r) => assert.equal(r.label, 'wrong') };
    },
  },
  {
    name: 'JudgmentStore.append (lab/judgments)',
    run() {
      const lab = tmp('judgments');
      const store = new JudgmentStore(lab);
      store.append(judgment('ep1', 'failure'));
      const path = store.path('ep1');
      tear(path, judgment('ep1', 'failure'));
      store.append(judgment('ep1', 'success'));
      assert.equal(store.latest('ep1')?.verdict, 'success');
      return { path, schema: judgmentSchema, expectLast: (r) => assert.equal(r.verdict, 'success') };
    },
  },
  {
    name: 'RunFolder.append (runs/<id>/progress.jsonl)',
    run() {
      const lab = tmp('run');
      const run = RunFolder.create(lab, { tasks: 'shop:test', agent: 'noisy', agentSeed: 1, retries: 0, reflect: 'none', shorten: false, parallel: 1, seeds: 1 });
      const path = join(run.dir, 'progress.jsonl');
      tear(path, { type: 'task_done', task: 'shop/10000' });
      // Appending without reopening (a second writer on a file another one tore) repairs too.
      run.append({ type: 'task_done', task: 'shop/10001' });
      const reopened = RunFolder.open(lab, run.config.runId);
      assert.deepEqual(reopened.events.map((e) => e.type === 'task_done' && e.task), ['shop/10000', 'shop/10001']);
      return { path, schema: progressEventSchema, expectLast: (r) => assert.equal(r.task, 'shop/10001') };
    },
  },
  {
    name: 'ExperimentFolder.log (experiments/<id>/stages.jsonl)',
    run() {
      const lab = tmp('experiment');
      const folder = ExperimentFolder.create(lab, experimentConfig('tiny', 'torn'));
      const path = join(folder.dir, 'stages.jsonl');
      tear(path, { stage: 'collect', status: 'started', at: new Date().toISOString() });
      folder.log({ stage: 'collect', status: 'stopped' });
      return { path, schema: StageEvent, expectLast: (r) => assert.equal(r.status, 'stopped') };
    },
  },
  {
    name: 'registerTrainingRun (policies.jsonl)',
    run() {
      const lab = tmp('registry');
      const path = labPaths.trainingRegistry(lab);
      tear(path, { time: new Date().toISOString(), kind: 'sft', dir: '/tmp/a' });
      registerTrainingRun(lab, 'salvage', '/tmp/b');
      assert.deepEqual(registeredRuns(lab).map((r) => r.dir), ['/tmp/a', '/tmp/b']);
      return { path, schema: RegistryLine, expectLast: (r) => assert.equal(r.kind, 'salvage') };
    },
  },
  {
    name: 'appendTrainLog (train-log.jsonl)',
    run() {
      const dir = tmp('train-log');
      const path = modelFiles(dir).trainLog;
      tear(path, { step: 1, loss: 2.5, lr: 0.001, tokensPerSec: 100 });
      appendTrainLog(dir, { step: 2, loss: 2.4, lr: 0.001, tokensPerSec: 100 });
      return { path, schema: TrainLogLine, expectLast: (r) => assert.equal(r.step, 2) };
    },
  },
];

for (const w of writers) {
  test(`${w.name}: a torn last line is cut before the next append`, () => {
    const { path, schema, expectLast } = w.run();
    // Strict: every line parses and validates, and no torn tail is left.
    const records = readJsonlStrict(path, schema);
    assert.equal(records.length >= 2, true, `${path}: ${readFileSync(path, 'utf8')}`);
    expectLast(records.at(-1));
  });
}

test('a tail that is complete JSON without its newline is kept, and the next line starts after it', () => {
  const path = join(tmp('complete'), 'x.jsonl');
  writeFileSync(path, '{"n":1}\n{"n":2}');
  assert.deepEqual(repairTornTail(path), { kind: 'newline-added' });
  appendJsonlLine(path, { n: 3 });
  assert.equal(readFileSync(path, 'utf8'), '{"n":1}\n{"n":2}\n{"n":3}\n');
});

test('repair finds the start of a torn line longer than one read chunk, and leaves clean files alone', () => {
  const path = join(tmp('long'), 'x.jsonl');
  const good = JSON.stringify({ n: 1 }) + '\n';
  writeFileSync(path, good + '{"big":"' + 'x'.repeat(200_000));
  assert.deepEqual(repairTornTail(path), { kind: 'cut', bytes: 200_008 });
  assert.equal(readFileSync(path, 'utf8'), good);
  assert.equal(repairTornTail(path), null);
  assert.equal(repairTornTail(join(tmp('missing'), 'none.jsonl')), null);
  const whole = join(tmp('whole'), 'x.jsonl');
  writeFileSync(whole, '{"n":');
  appendJsonlLine(whole, { n: 2 });
  assert.deepEqual(readJsonl(whole, anyRecord).records, [{ n: 2 }]);
});

test('no code under main/ appends to a file except through main/store/jsonl.ts', () => {
  // appendFileSync, or an 'a' stream, would skip the torn-tail repair the writers above rely on.
  const offenders: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts') && p !== join('main', 'store', 'jsonl.ts')) {
        readFileSync(p, 'utf8').split('\n').forEach((line, i) => {
          if (/appendFileSync|flags:\s*'a\+?'|openSync\([^)]*'a\+?'\)/.test(line)) offenders.push(`${p}:${i + 1}: ${line.trim()}`);
        });
      }
    }
  };
  walk('main');
  assert.deepEqual(offenders, []);
});
