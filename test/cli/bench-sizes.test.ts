// `lab bench sizes`: two SAT-tuned models of one tokenizer at different sizes, measured into one
// size-curve report that the decoding dashboard's service lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLab as lab } from '../helpers/lab-cli.ts';
import { resourcePath } from '../../main/paths.ts';
import { loadTokenizer, saveModel } from '../../main/models/checkpoint.ts';
import { TransformerLM, defaultModelConfig } from '../../main/models/model.ts';
import { selectBackend } from '../../main/models/backend.ts';
import { readSizeCurveReport, type SizeCurveReport } from '../../main/decode/size-curve-report.ts';
import { DecodingLab } from '../../main/server/decoding.ts';
import { modelFiles } from '../../main/store/lab-files.ts';

const TINY = resourcePath('models', 'sdsat-ts');

test('bench sizes measures each model against AR, smallest first, with training figures, acceptance, costs and the winner; the dashboard lists it', async () => {
  const labDir = mkdtempSync(join(tmpdir(), 'lab-sizes-'));
  // A smaller random-weight model with the tiny model's tokenizer, SAT-tuned for k = 2 only, and a run record.
  await selectBackend();
  const tokenizer = loadTokenizer(TINY);
  const small = join(labDir, 'small');
  const model = new TransformerLM({ ...defaultModelConfig, vocabSize: tokenizer.vocabSize, satTokens: 2, ctx: 256, dModel: 16, nLayer: 1, nHead: 2, dFF: 32, seed: 3 });
  await saveModel(small, { model, tokenizer, sat: { mode: 'distinct', k: 2 } });
  model.dispose();
  // The base started twice (the first start abandoned), stopped once and resumed: 10 + 5 seconds count.
  writeFileSync(modelFiles(small).runs, [
    JSON.stringify({ kind: 'lm', valLoss: 4, trainTokens: 1000, elapsedS: 99, resumedFrom: 0 }),
    JSON.stringify({ kind: 'lm', valLoss: 3.9, trainTokens: 1000, elapsedS: 10, resumedFrom: 0, cancelled: true }),
    JSON.stringify({ kind: 'lm', valLoss: 3.5, trainTokens: 1000, elapsedS: 5, resumedFrom: 40 }),
    JSON.stringify({ kind: 'sdsat', valLoss: 3.52, baseValLoss: 3.5, valSatLoss: 6.1, elapsedS: 4, resumedFrom: 0, job: {} }),
  ].join('\n') + '\n');

  const out = join(labDir, 'curve.json');
  const { stdout } = await lab('--lab', labDir, 'bench', 'sizes', '--models', `${TINY},${small}`, '--k', '1,4', '--limit', '2', '--max-new', '8', '--repeats', '2', '--cost-repeats', '2', '--out', out, '--json');
  const report = JSON.parse(stdout) as SizeCurveReport;
  assert.deepEqual(readSizeCurveReport(out), report, '--out holds what was printed');
  const saved = readdirSync(join(labDir, 'bench', 'sizes'));
  assert.equal(saved.length, 1);
  assert.deepEqual(readSizeCurveReport(join(labDir, 'bench', 'sizes', saved[0])), report);

  assert.deepEqual([report.kind, report.prompts, report.maxNew, report.repeats, report.cancelled], ['size-curve', 2, 8, 2, false]);
  assert.deepEqual(report.points.map((p) => p.model), [small, TINY], 'smallest first');
  const [s, t] = report.points;
  assert.ok(s.parameters < t.parameters);
  assert.deepEqual(Object.keys(s.modes).sort(), ['lookup-tree', 'merged-tree', 'sdsat', 'sdsat-tree']);
  for (const p of report.points) {
    for (const m of Object.values(p.modes)) {
      assert.equal(m.identicalOutputs, true, 'greedy outputs stay AR\'s in every mode');
      assert.ok(m.speedup > 0 && m.speedupCi95 !== null);
    }
    assert.ok(p.arTokensPerSec > 0);
    assert.ok(p.passCost.length >= 3 && p.passCost.every((c) => c.ms !== null && c.ms > 0));
    assert.equal(p.passCost[0].positions, 1);
    for (const q of p.predicted) {
      assert.ok(q.ceiling > 0 && q.expected !== null && q.measured !== null);
      // The rate that would pay: null exactly where the all-accepted ceiling misses the target.
      assert.equal(q.neededRate === null, q.ceiling < report.payTarget!, `k=${q.k}: ceiling ${q.ceiling}, needed ${q.neededRate}`);
      if (q.neededRate !== null) assert.ok(q.neededRate! >= 0 && q.neededRate! <= 1);
    }
    assert.ok(p.acceptance.oneCandidate && p.acceptance.threeCandidates, 'sdsat and sdsat-tree measured');
    if (p.best) assert.ok(p.modes[p.best.mode].speedup === p.best.speedup);
  }
  // k = 4 is beyond the small model's SAT block: measured at k = 1 only; the tiny one at both.
  assert.deepEqual(s.predicted.map((q) => q.k), [1]);
  assert.equal(s.acceptance.k, 1);
  assert.deepEqual(t.predicted.map((q) => q.k), [1, 4]);
  assert.equal(t.acceptance.oneCandidate!.length, 4);
  // Training figures: the small model's from its runs.jsonl, the tiny one's from the training-runs.jsonl it ships.
  assert.deepEqual(s.training, { baseValLoss: 3.5, valLoss: 3.52, valSatLoss: 6.1, trainTokens: 1000, baseTrainS: 15, satTuneS: 4 });
  const shipped = readFileSync(join(TINY, 'training-runs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(t.training.valLoss, shipped.filter((r) => r.kind === 'sdsat').at(-1).valLoss);

  const { curves, errors } = new DecodingLab(labDir, () => {}).listSizeCurves();
  assert.deepEqual(errors, []);
  assert.deepEqual(curves.filter((c) => c.source === 'run').map((c) => c.report), [report]);

  // The printed table names each size, its acceptance and the best mode.
  const text = (await lab('--lab', labDir, 'bench', 'sizes', '--models', small, '--k', '1', '--limit', '1', '--max-new', '4', '--repeats', '1', '--cost-repeats', '2')).stdout;
  assert.match(text, /small: 0\.\d\dM parameters \(16 x 1\)/);
  assert.match(text, /SAT acceptance per position \(k = 1\): 1 candidate \d\.\d\d; 3 candidates \d\.\d\d/);
  assert.match(text, /best: /);
  assert.match(text, /sdsat k=1: predicted \d\.\d\dx, ceiling \d\.\d\dx, measured \d\.\d\dx; 1\.2x needs acceptance (0\.\d\d|1\.00|beyond 1 \(out of reach\)) at every position/);
  assert.equal(readdirSync(join(labDir, 'bench', 'sizes')).length, 2);
});

test('bench sizes refuses what it cannot measure, naming it', async () => {
  await assert.rejects(lab('bench', 'sizes', '--models', '/nonexistent/model'), /--models: \/nonexistent\/model is not a model folder/);
  await assert.rejects(lab('bench', 'sizes', '--models', TINY, '--modes', 'ar'), /--modes takes .* not ar/);
  await assert.rejects(lab('bench', 'sizes', '--models', TINY, '--k', '9', '--limit', '1'), /SAT-tuned with k = \d; none of k = 9 fits/);
});

test('a malformed size curve is listed as an error naming the file and the field', () => {
  const labDir = mkdtempSync(join(tmpdir(), 'lab-sizes-bad-'));
  const dir = join(labDir, 'bench', 'sizes');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'bad.json'), JSON.stringify({ kind: 'size-curve', points: 'many' }));
  const { curves, errors } = new DecodingLab(labDir, () => {}).listSizeCurves();
  assert.equal(curves.filter((c) => c.source === 'run').length, 0);
  assert.equal(errors.length, 1);
  assert.match(errors[0], /bad\.json: field /);
});
