import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { AutoregressiveDecoder, SdsatDecoder, SdsatOnePassDecoder } from '../../main/decode/index.ts';
import { loadModel } from '../../main/models/checkpoint.ts';
import { resourcePath } from '../../main/paths.ts';
import { randomIds, tinyModel } from '../models/tiny.ts';

test('SDSAT greedy equals AR greedy on a tiny random model (shared and distinct SATs, k = 1..4)', async () => {
  const model = await tinyModel();
  const ar = new AutoregressiveDecoder(model);
  for (const mode of ['shared', 'distinct'] as const) {
    for (let k = 1; k <= 4; k++) {
      for (const sd of [new SdsatDecoder(model, { mode, k: 4 }, k), new SdsatOnePassDecoder(model, { mode, k: 4 }, k), new SdsatOnePassDecoder(model, { mode, k: 4 }, k, true)]) {
        for (let p = 0; p < 4; p++) {
          // The last prompts repeat themselves, so sdsat-lookup mixes copied and SAT drafts.
          const unit = randomIds(3 + p * 5, 61, 100 * k + p);
          const prompt = p < 2 ? unit : [...unit, ...unit.slice(0, 3)];
          const a = await ar.generate(prompt, { maxNew: 30 });
          const b = await sd.generate(prompt, { maxNew: 30 });
          assert.deepEqual(b.tokens, a.tokens, `${sd.mode} SAT ${mode} k ${k} prompt ${p}`);
          assert.equal(b.tokens.length, 30);
        }
      }
    }
  }
  model.dispose();
});

test('SDSAT greedy equals AR greedy up to the end of the context and with stop tokens', async () => {
  const model = await tinyModel();
  const ar = new AutoregressiveDecoder(model);
  const prompt = randomIds(20, 61, 5);
  const a = await ar.generate(prompt, { maxNew: 1000 });
  assert.equal(a.stoppedBy, 'context');
  assert.equal(a.tokens.length, 64 - 20 + 1);
  const stop = a.tokens[10];
  const a2 = await ar.generate(prompt, { maxNew: 1000, stopTokens: [stop] });
  assert.equal(a2.stoppedBy, 'stopToken');
  for (const sd of [new SdsatDecoder(model, { mode: 'distinct', k: 4 }, 4), new SdsatOnePassDecoder(model, { mode: 'distinct', k: 4 }, 4), new SdsatOnePassDecoder(model, { mode: 'distinct', k: 4 }, 4, true)]) {
    const b = await sd.generate(prompt, { maxNew: 1000 });
    assert.deepEqual(b.tokens, a.tokens, sd.mode);
    const b2 = await sd.generate(prompt, { maxNew: 1000, stopTokens: [stop] });
    assert.deepEqual(b2.tokens, a2.tokens, sd.mode);
  }
  model.dispose();
});

const shipped = resourcePath('models', 'sdsat-ts');
test('SDSAT greedy equals AR greedy on the shipped model, many prompts, several k', { skip: !existsSync(shipped) && 'no shipped model' }, async () => {
  const { model, tokenizer, sat } = loadModel(shipped);
  assert.ok(sat);
  const prompts = ['interface ', 'function foo(', '    /**\n     * Returns', 'readonly ', '}\n\ninterface Array<T> {\n', 'type X = '];
  const ar = new AutoregressiveDecoder(model);
  for (const k of [1, 3, sat.k] as number[]) {
    for (const sd of [new SdsatDecoder(model, sat, k), new SdsatOnePassDecoder(model, sat, k), new SdsatOnePassDecoder(model, sat, k, true)]) {
      for (const text of prompts) {
        const ids = tokenizer.encode(text);
        const a = await ar.generate(ids, { maxNew: 40 });
        const b = await sd.generate(ids, { maxNew: 40 });
        assert.deepEqual(b.tokens, a.tokens, `${sd.mode} k ${k} prompt ${JSON.stringify(text)}`);
      }
    }
  }
  model.dispose();
});
