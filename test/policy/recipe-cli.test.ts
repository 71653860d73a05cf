import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModel } from '../../main/models/checkpoint.ts';
import { readPolicySettings } from '../../main/policy/settings.ts';
import { runLab as lab } from '../helpers/lab-cli.ts';

test('`lab train policy --preset quick` goes from an empty lab to a copying policy, and a rerun resumes instead of starting over', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-recipe-'));
  try {
    const { stdout } = await lab('--lab', dir, 'train', 'policy', '--preset', 'quick', '--json');
    const out = JSON.parse(stdout);
    assert.equal(out.episodes, 6, 'the oracle solves 3 seeds of shop and jobs');
    assert.equal(out.sft.stepsDone, 6);
    const { model, tokenizer } = loadModel(out.policy);
    assert.equal(model.config.copy, true);
    // The tokenizer keeps spaces out of words, and prompts put the id after the name.
    assert.deepEqual(tokenizer.encode(' Boston').slice(1), tokenizer.encode('Boston'));
    assert.equal(readPolicySettings(out.policy).prompt.elementLayout, 'name-first');
    const samples = readFileSync(join(out.policy, 'sft-samples.jsonl'), 'utf8').trim().split('\n');
    assert.equal(samples.length, out.sft.trainSamples);
    model.dispose();

    const again = JSON.parse((await lab('--lab', dir, 'train', 'policy', '--preset', 'quick', '--json')).stdout);
    assert.equal(again.sft.resumedFrom, 6, 'the finished SFT run is found again');
    assert.deepEqual(again.dataset, out.dataset, 'no second dataset is frozen');
    assert.ok(existsSync(join(dir, 'runs', 'policy-recipe-quick', 'config.json')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
