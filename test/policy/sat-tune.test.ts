// SAT tuning of a policy on its samples: blocks are cut inside the target, see only what decoding shows them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { satSftBatch } from '../../main/policy/sat-tune.ts';
import { MASKED } from '../../main/models/model.ts';
import { Rng } from '../../main/common/rng.ts';

test('satSftBatch: standard loss on the target only, every SAT cut inside the target, each SAT sees the prefix and its own block', () => {
  const ids = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19];
  const promptLength = 6;
  const mask = ids.map((_, i) => (i >= promptLength ? 1 : 0));
  const short = { ids: ids.slice(0, 8), mask: mask.slice(0, 8), promptLength };
  const k = 3;
  const blocks = 4;
  const vocab = 100;
  const b = satSftBatch([{ ids, mask, promptLength }, short], { mode: 'distinct', k }, vocab, blocks, new Rng(7));
  const std = ids.length - 1;
  assert.equal(b.len, std + blocks * k);
  assert.equal(b.biasShared, false);
  for (const [row, seq] of [[0, ids], [1, short.ids]] as const) {
    const at = (i: number) => row * b.len + i;
    // Standard rows: the label is the next token; only target labels carry loss.
    for (let i = 0; i < std; i++) assert.equal(b.stdWeight[at(i)], i + 1 < seq.length && i + 1 >= promptLength ? 1 : 0);
    for (let blk = 0; blk < blocks; blk++) {
      for (let i = 1; i <= k; i++) {
        const r = std + blk * k + i - 1;
        assert.equal(b.ids[at(r)], vocab + i - 1);
        const c = b.pos[at(r)] - i;
        assert.ok(c >= promptLength - 1 && c <= seq.length - 3, `cut ${c} inside the target`);
        if (c + i + 1 < seq.length) {
          assert.equal(b.labels[at(r)], seq[c + i + 1]);
          assert.equal(b.satWeight[at(r)], 1);
        } else assert.equal(b.satWeight[at(r)], 0, 'no label past the end of the target');
        const visible = Array.from({ length: b.len }, (_, j) => b.bias[row * b.len * b.len + r * b.len + j] !== MASKED);
        const expected = Array.from({ length: b.len }, (_, j) => j <= c || (j >= std + blk * k && j <= r));
        assert.deepEqual(visible, expected, `SAT ${i} of block ${blk} sees standard 0..${c} and its own block`);
      }
    }
  }
});
