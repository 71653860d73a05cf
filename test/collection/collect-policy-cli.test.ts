// The compact policy as the agent of `lab episode` and `lab collect` (--agent policy --policy DIR).
import { test } from 'node:test';
import { LabStore } from '../../main/store/lab.ts';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selectBackend } from '../../main/models/backend.ts';
import { saveModel } from '../../main/models/checkpoint.ts';
import { TransformerLM } from '../../main/models/model.ts';
import { trainTokenizer } from '../../main/models/tokenizer.ts';
import { runLab as lab } from '../helpers/lab-cli.ts';

test('`lab episode` and `lab collect` run the compact policy from its folder; without --policy they say what is missing', async () => {
  // An untrained policy: every output is an invalid action, which is what the run must record.
  await selectBackend('wasm');
  const tokenizer = trainTokenizer(["click('12') fill('3', 'x')"], 280);
  const model = new TransformerLM({ vocabSize: tokenizer.vocabSize, satTokens: 0, ctx: 320, dModel: 16, nLayer: 1, nHead: 2, dFF: 32, initStd: 0.02, seed: 5 });
  const policy = mkdtempSync(join(tmpdir(), 'lab-policy-cli-model-'));
  await saveModel(policy, { model, tokenizer, sat: null });
  const dir = mkdtempSync(join(tmpdir(), 'lab-policy-cli-'));

  const ep = JSON.parse((await lab('--lab', dir, 'episode', '--task', 'webmail', '--seed', '10', '--agent', 'policy', '--policy', policy, '--max-steps', '2', '--json')).stdout);
  assert.equal(ep.steps, 2);
  assert.equal(ep.reason, 'max_steps');

  const s = JSON.parse((await lab('--lab', dir, 'collect', '--tasks', 'webmail:test', '--seeds', '1', '--agent', 'policy', '--policy', policy,
    '--retries', '1', '--reflect', 'rules', '--max-steps', '2', '--json')).stdout);
  assert.equal(s.tasksDone, 1);
  const attempts = readFileSync(join(s.run, 'progress.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'attempt');
  assert.ok(attempts.length >= 2, 'a failed first attempt and its retries');
  assert.equal(JSON.parse(readFileSync(join(s.run, 'config.json'), 'utf8')).policy.dir, policy);

  // Without --policy the agent is the shipped policy; a folder with no model is refused by name.
  const shipped = JSON.parse((await lab('--lab', dir, 'episode', '--task', 'webmail', '--seed', '10', '--agent', 'policy', '--max-steps', '1', '--json')).stdout);
  assert.equal(shipped.steps, 1);
  assert.match(JSON.stringify(new LabStore(dir).readEpisode(shipped.id).header), /resources\/models\/web-policy/);
  await assert.rejects(lab('--lab', dir, 'episode', '--task', 'webmail', '--seed', '10', '--agent', 'policy', '--policy', join(dir, 'nothing')), /no policy model in .*nothing/);
});
