import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModel } from '../../main/models/checkpoint.ts';
import { readPolicySettings } from '../../main/policy/settings.ts';
import { runLab as lab } from '../helpers/lab-cli.ts';
import { modelFiles } from '../../main/store/lab-files.ts';

test('`lab train policy --preset quick` goes from an empty lab to a copying policy, a rerun resumes instead of starting over, and the no-copy ablation reuses its episodes', async () => {
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
    const samples = readFileSync(modelFiles(out.policy).sftSamples, 'utf8').trim().split('\n');
    assert.equal(samples.length, out.sft.trainSamples);
    model.dispose();

    const again = JSON.parse((await lab('--lab', dir, 'train', 'policy', '--preset', 'quick', '--json')).stdout);
    assert.equal(again.sft.resumedFrom, 6, 'the finished SFT run is found again');
    assert.deepEqual(again.dataset, out.dataset, 'no second dataset is frozen');
    assert.ok(existsSync(join(dir, 'runs', 'policy-recipe-quick', 'config.json')));

    // The ablation trains on the same frozen episodes: no second collection, no second dataset.
    const nocopy = JSON.parse((await lab('--lab', dir, 'train', 'policy', '--preset', 'quick', '--no-copy', '--json')).stdout);
    assert.notEqual(nocopy.policy, out.policy);
    assert.deepEqual(nocopy.dataset, out.dataset);
    assert.equal(nocopy.run, out.run);
    assert.equal(nocopy.sft.stepsDone, 6);
    const ablation = loadModel(nocopy.policy);
    assert.equal(ablation.model.config.copy, false);
    ablation.model.dispose();
    assert.equal(readdirSync(join(dir, 'datasets', 'policy-recipe-quick')).filter((f) => /^v\d+/.test(f)).length, 1);

    // With the noisy expert's recoveries: the oracle run is reused, a noisy run of its own is added
    // (mistakes labelled), and the dataset holding both has a name of its own.
    const noisy = JSON.parse((await lab('--lab', dir, 'train', 'policy', '--preset', 'quick', '--noisy-seeds', '2', '--json')).stdout);
    assert.match(noisy.policy, /recipe-quick-noisy2$/);
    assert.equal(noisy.dataset.name, 'policy-recipe-quick-noisy2');
    assert.ok(noisy.episodes > out.episodes, `oracle and noisy episodes (${noisy.episodes})`);
    assert.equal(JSON.parse(readFileSync(join(dir, 'runs', 'policy-recipe-quick-noisy2', 'config.json'), 'utf8')).labelMistakes, true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
