import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { AutoregressiveDecoder, SdsatDecoder, SdsatOnePassDecoder, type GenerateResult, type Sampling, type TokenSource } from '../../main/decode/index.ts';
import { selectBackend } from '../../main/models/backend.ts';
import { loadModel } from '../../main/models/checkpoint.ts';
import { resourcePath } from '../../main/paths.ts';

const shipped = resourcePath('models', 'sdsat-ts');

function counts(p: TokenSource[], k: number) {
  const c = { exact: 0, bonus: 0, resampled: 0, draft: 0, perPosition: new Array<number>(k).fill(0) };
  for (const s of p) {
    if (s.kind === 'draft') {
      c.draft++;
      c.perPosition[s.position]++;
    } else c[s.kind]++;
  }
  return c;
}

/** Every loop's tokens accounted for: the decode ran to the end of the context, nothing was cut off. */
function checkAccounting(r: GenerateResult, k: number, onePass: boolean, label: string) {
  assert.equal(r.stoppedBy, 'context', label);
  assert.equal(r.provenance?.length, r.tokens.length, label);
  const c = counts(r.provenance!, k);
  assert.equal(c.draft, r.stats.accepted, `${label}: draft tokens = stats.accepted`);
  assert.deepEqual(c.perPosition, r.stats.acceptedPerPosition, `${label}: per position`);
  assert.equal(c.bonus + c.resampled, r.stats.verifySteps, `${label}: one bonus or resampled token per verification`);
  // Two-pass: pass 1 gives one exact token per loop; one-pass: only loops without drafts do.
  assert.equal(c.exact, onePass ? r.stats.loops - r.stats.verifySteps : r.stats.loops, `${label}: exact tokens`);
  return c;
}

test('every emitted token has a source, and the sources add up to the decode stats (shipped model, greedy and nucleus)', async () => {
  // wasm: the fastest backend for this 265K-parameter model's short multi-token passes.
  await selectBackend('wasm');
  const { model, tokenizer, sat } = loadModel(shipped);
  assert.ok(sat);
  const ar = new AutoregressiveDecoder(model);
  const samplings: Sampling[] = [{ kind: 'greedy' }, { kind: 'nucleus', topP: 0.9, temperature: 1 }, { kind: 'nucleus', topP: 0.9, temperature: 1, acceptance: 'match' }];
  let drafts = 0;
  // A long prompt leaves ~50 tokens of context: decoding runs to its end (every loop complete) quickly.
  const corpus = readFileSync(resourcePath('corpus', 'typescript-lib', 'validation.txt'), 'utf8');
  for (const start of [0]) {
    const ids = tokenizer.encode(corpus.slice(start, start + 4000)).slice(0, model.config.ctx - 50);
    const text = `validation.txt@${start}`;
    const a = await ar.generate(ids, { maxNew: 1000 });
    assert.ok(a.provenance!.every((s) => s.kind === 'exact'), 'AR emits only exact tokens');
    assert.equal(a.provenance!.length, a.tokens.length);
    for (const k of [2, sat.k]) {
      for (const sampling of k === sat.k ? samplings : samplings.slice(0, 1)) {
        for (const sd of [new SdsatDecoder(model, sat, k), new SdsatOnePassDecoder(model, sat, k)]) {
          const label: string = `${sd.mode} k ${k} ${sampling.kind}${sampling.kind === 'nucleus' ? ` ${sampling.acceptance ?? 'speculative'}` : ''} ${JSON.stringify(text)}`;
          const r: GenerateResult = await sd.generate(ids, { maxNew: 1000, sampling, seed: 3 });
          if (sampling.kind === 'greedy') assert.deepEqual(r.tokens, a.tokens, `${label}: greedy output unchanged`);
          drafts += checkAccounting(r, k, sd.mode === 'sdsat-one-pass', label).draft;
        }
      }
    }
  }
  assert.ok(drafts > 0, 'the shipped model accepts some drafts, so the draft accounting was exercised');
  model.dispose();
});

test('a stop inside a loop cuts its tokens and their sources alike; onToken sees the same sources; onLoop can cancel', async () => {
  await selectBackend('wasm');
  const { model, tokenizer, sat } = loadModel(shipped);
  assert.ok(sat);
  const ids = tokenizer.encode('interface ');
  for (const maxNew of [1, 2, 5, 17]) {
    for (const sd of [new SdsatDecoder(model, sat, sat.k), new SdsatOnePassDecoder(model, sat, sat.k)]) {
      const seen: TokenSource[] = [];
      const r: GenerateResult = await sd.generate(ids, { maxNew, onToken: (_id, s) => seen.push(s) });
      assert.equal(r.tokens.length, maxNew);
      assert.deepEqual(seen, r.provenance);
      const c = counts(r.provenance!, sat.k);
      assert.ok(c.draft <= r.stats.accepted, `${sd.mode} maxNew ${maxNew}`);
    }
  }
  const sd = new SdsatDecoder(model, sat, sat.k);
  let loops = 0;
  await assert.rejects(
    sd.generate(ids, {
      maxNew: 200,
      onLoop: async () => {
        if (++loops === 3) throw new Error('cancelled by the caller');
      },
    }),
    /cancelled by the caller/,
  );
  // The decoder is usable afterwards (its cache was released, not left half-written).
  const again = await sd.generate(ids, { maxNew: 10 });
  assert.equal(again.tokens.length, 10);
  model.dispose();
});
