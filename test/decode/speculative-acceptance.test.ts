import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rng } from '../../main/common/rng.ts';
import { nucleusDistribution, sample, verifyDraft } from '../../main/decode/sampling.ts';

/** Pearson chi-square statistic of observed counts against probabilities p (bins with p = 0 must be empty). */
function chiSquare(counts: number[], p: number[], n: number): { stat: number; dof: number } {
  let stat = 0;
  let dof = -1;
  counts.forEach((c, i) => {
    if (p[i] === 0) {
      assert.equal(c, 0, `token ${i} has probability 0 but was drawn`);
      return;
    }
    const e = n * p[i];
    stat += ((c - e) ** 2) / e;
    dof++;
  });
  return { stat, dof };
}

// Critical values of chi-square at significance 0.001 (fixed seeds: the test is deterministic).
const CRIT_0001: Record<number, number> = { 4: 18.47, 5: 20.52, 6: 22.46, 7: 24.32 };

const cases: { name: string; p: number[]; q: number[] }[] = [
  { name: 'overlapping', p: [0.4, 0.25, 0.15, 0.1, 0.06, 0.04], q: [0.1, 0.1, 0.3, 0.3, 0.1, 0.1] },
  { name: 'q misses a token p needs', p: [0.3, 0.3, 0.2, 0.1, 0.1, 0, 0, 0], q: [0.5, 0, 0.1, 0.1, 0.1, 0.1, 0.05, 0.05] },
  { name: 'near-identical', p: [0.2, 0.2, 0.2, 0.2, 0.1, 0.1], q: [0.21, 0.19, 0.2, 0.2, 0.1, 0.1] },
];

test('speculative acceptance (accept with min(1,p/q), else resample from the residual) reproduces p', () => {
  const N = 40_000;
  for (const c of cases) {
    const rng = new Rng(2024);
    const counts = new Array<number>(c.p.length).fill(0);
    let accepted = 0;
    for (let i = 0; i < N; i++) {
      const draft = sample(c.q, rng);
      const v = verifyDraft(draft, c.p, c.q, rng);
      counts[v.token]++;
      if (v.accepted) accepted++;
    }
    const { stat, dof } = chiSquare(counts, c.p, N);
    assert.ok(stat < CRIT_0001[dof], `${c.name}: chi-square ${stat.toFixed(2)} with ${dof} dof`);
    // The acceptance rate of speculative sampling is sum(min(p, q)).
    const expected = c.p.reduce((s, pi, i) => s + Math.min(pi, c.q[i]), 0);
    assert.ok(Math.abs(accepted / N - expected) < 0.01, `${c.name}: acceptance ${accepted / N} vs ${expected}`);
  }
});

test('a sampler that ignores the rule (always accept the draft) is caught by the same test', () => {
  const N = 40_000;
  const c = cases[0];
  const rng = new Rng(7);
  const counts = new Array<number>(c.p.length).fill(0);
  for (let i = 0; i < N; i++) counts[sample(c.q, rng)]++;
  const { stat, dof } = chiSquare(counts, c.p, N);
  assert.ok(stat > CRIT_0001[dof]);
});

test('nucleus distribution keeps the smallest top set reaching top-p, renormalised', () => {
  const logits = Float32Array.from([Math.log(0.5), Math.log(0.3), Math.log(0.15), Math.log(0.05)]);
  const p = nucleusDistribution(logits, 0.75, 1);
  assert.deepEqual(Array.from(p).map((x) => Number(x.toFixed(6))), [0.625, 0.375, 0, 0]);
  const all = nucleusDistribution(logits, 1, 1);
  assert.ok(Math.abs(all[3] - 0.05) < 1e-6);
});
