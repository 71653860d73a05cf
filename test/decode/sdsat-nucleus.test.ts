import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AutoregressiveDecoder, SdsatDecoder, SdsatOnePassDecoder, summarize } from '../../main/decode/index.ts';
import type { Decoder, Sampling } from '../../main/decode/index.ts';
import { randomIds, tinyModel } from '../models/tiny.ts';

test('SDSAT nucleus sampling runs both acceptance rules, is reproducible per seed and reports acceptance', async () => {
  const model = await tinyModel();
  const prompt = randomIds(8, 61, 3);
  for (const acceptance of ['speculative', 'match'] as const) {
    const sampling: Sampling = { kind: 'nucleus', topP: 0.9, temperature: 1, acceptance };
    const decoders: Decoder[] = [new SdsatDecoder(model, { mode: 'shared', k: 3 }, 3), new SdsatOnePassDecoder(model, { mode: 'shared', k: 3 }, 3)];
    for (const sd of decoders) {
      const a = await sd.generate(prompt, { maxNew: 25, sampling, seed: 42 });
      const b = await sd.generate(prompt, { maxNew: 25, sampling, seed: 42 });
      assert.equal(a.tokens.length, 25);
      assert.deepEqual(a.tokens, b.tokens);
      assert.ok(a.tokens.every((t) => t >= 0 && t < 61));
      const s = summarize(a.stats);
      assert.ok(s.meanAcceptanceLength !== null && s.meanAcceptanceLength >= 1);
      assert.equal(a.stats.acceptedPerPosition.reduce((x, y) => x + y, 0), a.stats.accepted);
    }
  }
  // With top-p that keeps a single token, sampling is greedy: every decoder must agree with AR.
  const sharp: Sampling = { kind: 'nucleus', topP: 1e-9, temperature: 1 };
  const ar = await new AutoregressiveDecoder(model).generate(prompt, { maxNew: 20, sampling: sharp, seed: 1 });
  const greedy = await new AutoregressiveDecoder(model).generate(prompt, { maxNew: 20 });
  assert.deepEqual(ar.tokens, greedy.tokens);
  const sd = await new SdsatDecoder(model, { mode: 'shared', k: 3 }, 3).generate(prompt, { maxNew: 20, sampling: sharp, seed: 9 });
  assert.deepEqual(sd.tokens, greedy.tokens);
  model.dispose();
});
