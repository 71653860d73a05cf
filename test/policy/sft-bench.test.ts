import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selectBackend } from '../../main/models/backend.ts';
import { SFT_STEP_VARIANTS, benchSftSteps } from '../../main/policy/sft-bench.ts';
import type { EncodedSample } from '../../main/policy/sft-data.ts';
import { randomIds } from '../models/tiny.ts';

test('bench sft times every step variant, and the parsed-samples variants only when it can load them', async () => {
  await selectBackend();
  const seqs: EncodedSample[] = Array.from({ length: 12 }, (_, i) => {
    const ids = randomIds(20 + i, 50, i + 1);
    return { ids, mask: ids.map((_, j) => (j >= 10 ? 1 : 0.1)), promptLength: 10 };
  });
  const model = { vocabSize: 50, dModel: 16, nLayer: 1, nHead: 2, dFF: 32, ctx: 64, copy: true };
  const o = { batch: 4, steps: 1, warmup: 0, repeats: 2 };
  let loads = 0;
  const rows = benchSftSteps(seqs, model, { ...o, holdParsed: () => (loads++, Array.from({ length: 7 }, (_, i) => ({ i }))) });
  assert.deepEqual(rows.map((r) => r.variant), SFT_STEP_VARIANTS.map((v) => v.name));
  assert.equal(loads, SFT_STEP_VARIANTS.filter((v) => v.holdParsed).length);
  for (const r of rows) {
    assert.ok(r.tokensPerSec.mean > 0 && r.tokensPerSec.runs.length === 2, r.variant);
    const v = SFT_STEP_VARIANTS.find((x) => x.name === r.variant)!;
    assert.equal(r.heldSamples, v.holdParsed ? 7 : undefined);
    // A variant's own batch size wins over the caller's, and the row says which ran.
    assert.equal(r.batch, v.batch ?? o.batch, r.variant);
  }
  assert.equal(rows[0].speedup, 1);
  // Without a way to load the parsed samples, the variants that hold them are left out.
  assert.deepEqual(benchSftSteps(seqs, model, o).map((r) => r.variant), SFT_STEP_VARIANTS.filter((v) => !v.holdParsed).map((v) => v.name));
});
