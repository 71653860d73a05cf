import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '@tensorflow/tfjs';
import { selectBackend } from '../../main/models/backend.ts';
import { TransformerLM, defaultModelConfig } from '../../main/models/model.ts';
import { END_OF_TEXT, trainTokenizer } from '../../main/models/tokenizer.ts';
import { defaultPolicySettings } from '../../main/policy/settings.ts';
import { clipFraction, salvageBatch, salvageObjective, tokenLogp, type SalvageRow } from '../../main/policy/salvage/loss.ts';
import { prepareState } from '../../main/policy/salvage/train.ts';
import type { SalvageState } from '../../main/policy/salvage/states.ts';

const el = (id: string, role: string, name: string) => ({ id, role, name, tag: 'a', box: { x: 0, y: 0, width: 9, height: 9 }, visible: true, inViewport: true });
const state: SalvageState = {
  kind: 'critical', mode: 'wrong_element', family: 'shop', episodeId: 'e', step: 0,
  input: { instruction: 'Open the Tent.', url: 'http://x/i/a/', title: 'Shop', elements: [el('4', 'link', 'Boots'), el('9', 'link', 'Tent')], lastActionError: null, history: [] },
  target: { thought: 'The tent link.', action: "click('9')" },
};
const settings = { ...defaultPolicySettings, reserve: 32 };
const tokenizer = trainTokenizer(['Task: Open the Tent. Page: Shop link Boots link Tent History: none Next:', "The tent link.\nclick('9')"], 300);
const objective = { clipEps: 0.2, beta: 0.04, anchorCoef: 0.5 };

test('the anchor row carries loss on the reference action tokens and the stop token only, never on the prompt or the thought', () => {
  const p = prepareState(state, tokenizer, settings, 192);
  const carried = p.anchor.ids.filter((_, i) => p.anchor.mask[i] === 1);
  assert.equal(tokenizer.decode(carried), `click('9')${END_OF_TEXT}`);
  assert.ok(p.anchor.mask.slice(0, p.prompt.length).every((m) => m === 0));
  const thought = tokenizer.encode('The tent link.\n').length;
  assert.ok(p.anchor.mask.slice(p.prompt.length, p.prompt.length + thought).every((m) => m === 0));
});

test('gradients: the anchor reaches only the action tokens of rejected groups, the policy gradient only the completions of kept groups', () => {
  const p = prepareState(state, tokenizer, settings, 192);
  const completion = tokenizer.encode("x\nclick('4')");
  const rows: SalvageRow[] = [
    { kind: 'pg', ids: [...p.prompt, ...completion], promptLength: p.prompt.length, advantage: 1.5, oldLogp: completion.map(() => -2) },
    { kind: 'anchor', ids: p.anchor.ids, mask: p.anchor.mask },
  ];
  const sb = salvageBatch(rows, 'token');
  const n = sb.batch.batch * sb.batch.len;
  const logp = tf.fill([n], -2) as tf.Tensor1D; // ratio 1 everywhere
  const grad = tf.grad((x: tf.Tensor) => salvageObjective(x as tf.Tensor1D, new Float32Array(n).fill(-2), sb, objective).total)(logp).dataSync();
  const len = sb.batch.len;
  for (let i = 0; i < len; i++) {
    // Row 0 position i predicts token i+1: a completion token when i+1 >= prompt length.
    const inCompletion = i + 1 >= p.prompt.length && i + 1 < rows[0].ids.length;
    if (inCompletion) assert.ok(Math.abs(grad[i] - -1.5 / completion.length) < 1e-6, `pg gradient at ${i}: ${grad[i]}`);
    else assert.equal(grad[i], 0, `pg row position ${i} is not a completion token`);
    const isAction = i + 1 < p.anchor.ids.length && p.anchor.mask[i + 1] === 1;
    const anchorTokens = p.anchor.mask.reduce((a, b) => a + b, 0);
    if (isAction) assert.ok(Math.abs(grad[len + i] - -0.5 / anchorTokens) < 1e-6, `anchor gradient at ${i}: ${grad[len + i]}`);
    else assert.equal(grad[len + i], 0, `anchor row position ${i} is not an action token`);
  }
});

test('the clipped objective stops the gradient once the ratio leaves [1-eps, 1+eps] in the advantage\'s direction', () => {
  const rows: SalvageRow[] = [
    { kind: 'pg', ids: [1, 2, 3, 4, 5], promptLength: 2, advantage: 1, oldLogp: [-2, -2, -2] },
    { kind: 'pg', ids: [1, 2, 3, 4, 5], promptLength: 2, advantage: -1, oldLogp: [-2, -2, -2] },
  ];
  const sb = salvageBatch(rows, 'token');
  const len = sb.batch.len;
  const up = Math.log(1.5); // ratio 1.5 > 1.2
  const down = Math.log(0.5); // ratio 0.5 < 0.8
  const values = new Float32Array(2 * len);
  // Row 0 (A > 0): token 1 pushed up past the clip, token 2 inside it, token 3 down (the clip does not hold a worse ratio).
  values.set([0, -2 + up, -2 + 0.1, -2 + down], 0);
  // Row 1 (A < 0): token 1 pushed down past the clip, token 2 up (unclipped: still penalised).
  values.set([0, -2 + down, -2 + up, -2], len);
  const x = tf.tensor1d(values);
  const g = tf.grad((t: tf.Tensor) => salvageObjective(t as tf.Tensor1D, values, sb, { ...objective, beta: 0, anchorCoef: 0 }).pg)(x).dataSync();
  const w = 1 / 6;
  assert.equal(g[1], 0);
  assert.ok(Math.abs(g[2] - -Math.exp(0.1) * w) < 1e-6);
  assert.ok(Math.abs(g[3] - -0.5 * w) < 1e-6);
  assert.equal(g[len + 1], 0);
  assert.ok(Math.abs(g[len + 2] - 1.5 * w) < 1e-5);
  const pg = salvageObjective(x, values, sb, objective).pg.dataSync()[0];
  // min(rA, clip(r)A) per token: 1.2, e^0.1, 0.5 (row 0); -0.8, -1.5, -1 (row 1).
  const expected = -w * (1.2 + Math.exp(0.1) + 0.5 - 0.8 - 1.5 - 1);
  assert.ok(Math.abs(pg - expected) < 1e-5, `${pg} vs ${expected}`);
  assert.equal(clipFraction(values, sb, 0.2), 2 / 6);
});

test('the KL penalty is zero when the policy equals the SFT reference and positive once it moves', async () => {
  await selectBackend('cpu');
  const config = { ...defaultModelConfig, vocabSize: tokenizer.vocabSize, ctx: 192, dModel: 16, nLayer: 1, nHead: 2, dFF: 32 };
  const a = new TransformerLM(config);
  const b = new TransformerLM(config); // same seed: the same weights
  const p = prepareState(state, tokenizer, settings, 192);
  const completion = tokenizer.encode("x\nclick('4')");
  const sb = salvageBatch([{ kind: 'pg', ids: [...p.prompt, ...completion], promptLength: p.prompt.length, advantage: 1, oldLogp: completion.map(() => -2) }], 'token');
  const ref = tf.tidy(() => tokenLogp(b, sb.batch).dataSync() as Float32Array);
  const kl = () => tf.tidy(() => salvageObjective(tokenLogp(a, sb.batch), ref, sb, objective).kl.dataSync()[0]);
  assert.equal(kl(), 0);
  a.p('head.w').assign(tf.add(a.p('head.w'), tf.randomNormal(a.p('head.w').shape, 0, 0.5, 'float32', 7)));
  assert.ok(kl() > 1e-4, `KL after moving the policy: ${kl()}`);
  a.dispose();
  b.dispose();
});
