import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '@tensorflow/tfjs';
import { batchLosses } from '../../main/models/train.ts';
import { sftBatch } from '../../main/policy/sft.ts';
import { randomIds, tinyModel } from './tiny.ts';

test('training with gathered embeddings gives the same loss and gradients as one-hot products', async () => {
  const model = await tinyModel({ copy: true, satTokens: 0 });
  const seqs = [0, 1, 2].map((s) => {
    const ids = randomIds(20 + 5 * s, 61, 40 + s);
    return { ids, mask: ids.map(() => 1), promptLength: 0 };
  });
  const batch = sftBatch(seqs);
  const vars = [...model.params.values()];
  const run = (mode: 'gather' | 'one-hot') => {
    model.trainEmbedding = mode;
    return tf.tidy(() => {
      const { value, grads } = tf.variableGrads(() => batchLosses(model, batch).std, vars);
      return { loss: value.dataSync()[0], grads: vars.map((v) => grads[v.name].dataSync() as Float32Array) };
    });
  };
  const a = run('one-hot');
  const b = run('gather');
  assert.ok(Math.abs(a.loss - b.loss) < 1e-5, `loss ${a.loss} vs ${b.loss}`);
  vars.forEach((v, i) => {
    let m = 0;
    for (let j = 0; j < a.grads[i].length; j++) m = Math.max(m, Math.abs(a.grads[i][j] - b.grads[i][j]));
    assert.ok(m < 1e-4, `${v.name}: gradients differ by ${m}`);
  });
  model.dispose();
});
