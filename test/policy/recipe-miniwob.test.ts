/**
 * `lab train policy --miniwob DIR`: which MiniWoB++ tasks the recipe collects oracle episodes of
 * (--miniwob-tasks), the run that records them (training seeds, the checkout), and, on the fixture
 * checkout, that those episodes become SFT samples and a rerun resumes the same run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { miniwobRecipeRun, miniwobTrainingTasks } from '../../main/policy/recipe.ts';
import { findMiniwobRoot, miniwobTaskNames } from '../../main/tasks/miniwob/loader.ts';
import { readManifest } from '../../main/datasets/manifest.ts';
import { LabStore } from '../../main/store/lab.ts';
import { modelFiles } from '../../main/store/lab-files.ts';
import { runLab as lab } from '../helpers/lab-cli.ts';

const CHECKOUT = join(import.meta.dirname, '..', 'fixtures', 'miniwob');
const TASKS = miniwobTaskNames(findMiniwobRoot(CHECKOUT));

test('--miniwob-tasks: oracle and set56 take the checkout\'s tasks with an oracle; names must have one; the run is named by selection and seeds, on training seeds', () => {
  const oracle = miniwobTrainingTasks('oracle', TASKS);
  assert.ok(oracle.tasks.includes('click-button') && !oracle.tasks.includes('click-color'));
  assert.deepEqual(oracle.skipped, [{ task: 'click-color', reason: oracle.skipped[0].reason }]);
  assert.match(oracle.skipped[0].reason, /^no oracle: the answer is a colour/);
  const set56 = miniwobTrainingTasks('set56', TASKS);
  assert.deepEqual(set56.tasks, oracle.tasks.filter((t) => set56.tasks.includes(t)));
  assert.ok(set56.skipped.some((s) => s.task === 'book-flight' && s.reason === 'not a task page of the checkout'));
  assert.deepEqual(miniwobTrainingTasks('miniwob.click-button, enter-text', TASKS), { tasks: ['click-button', 'enter-text'], skipped: [] });
  assert.throws(() => miniwobTrainingTasks('click-color', TASKS), /"click-color" cannot be collected with the oracle: no oracle: the answer is a colour/);
  assert.throws(() => miniwobTrainingTasks('book-flight', TASKS), /"book-flight" cannot be collected with the oracle: not a task page of the checkout/);

  assert.deepEqual(miniwobRecipeRun('quick', 'oracle', oracle.tasks, 3).runId, 'policy-recipe-quick-miniwob-oraclex3');
  const named = miniwobRecipeRun('quick', 'enter-text,click-button', ['enter-text', 'click-button'], 2);
  assert.match(named.runId, /^policy-recipe-quick-miniwob-t[0-9a-f]{8}x2$/);
  assert.equal(miniwobRecipeRun('quick', 'click-button,enter-text', ['click-button', 'enter-text'], 2).runId, named.runId, 'the same tasks in another order: the same run');
  assert.equal(named.tasks, 'miniwob.enter-text,miniwob.click-button:train');
});

test('`lab train policy --miniwob` adds the oracle\'s MiniWoB++ episodes (training seeds) to the data; the run records the checkout and a rerun resumes it', async () => {
  await assert.rejects(lab('train', 'policy', '--preset', 'quick', '--miniwob-tasks', 'set56'), /--miniwob-tasks and --miniwob-seeds need --miniwob DIR/);
  await assert.rejects(lab('train', 'policy', '--preset', 'quick', '--miniwob', CHECKOUT, '--miniwob-tasks', 'click-color'), /"click-color" cannot be collected with the oracle/);
  const dir = mkdtempSync(join(tmpdir(), 'lab-recipe-miniwob-'));
  try {
    const args = ['--lab', dir, 'train', 'policy', '--preset', 'quick', '--miniwob', CHECKOUT, '--miniwob-tasks', 'click-button,enter-text', '--miniwob-seeds', '2', '--json'];
    const out = JSON.parse((await lab(...args)).stdout);
    assert.match(out.policy, /recipe-quick-miniwob-t[0-9a-f]{8}x2$/);
    assert.deepEqual(out.miniwob.tasks, ['miniwob.click-button', 'miniwob.enter-text']);
    assert.equal(out.miniwob.episodes, 4, 'the oracle solves both tasks on both seeds');
    assert.equal(out.episodes, 6 + 4, 'the built-in oracle episodes and the MiniWoB++ ones');
    const config = JSON.parse(readFileSync(join(out.miniwob.run, 'config.json'), 'utf8'));
    assert.equal(config.tasks, 'miniwob.click-button,miniwob.enter-text:train');
    assert.equal(config.miniwob.root, findMiniwobRoot(CHECKOUT));
    assert.equal(config.agent, 'oracle');
    const store = new LabStore(dir);
    const manifest = readManifest(dir, out.dataset);
    assert.equal(out.dataset.name, `policy-recipe-quick${out.policy.slice(out.policy.lastIndexOf('recipe-quick') + 'recipe-quick'.length)}`);
    const mwEpisodes = manifest.episodes.map((e) => store.readEpisode(e.id)).filter((ep) => ep.header.task.family.startsWith('miniwob.'));
    assert.equal(mwEpisodes.length, 4);
    assert.ok(mwEpisodes.every((ep) => ep.header.task.seed < 10000), 'training seeds only');
    const samples = readFileSync(modelFiles(out.policy).sftSamples, 'utf8');
    assert.match(samples, /miniwob\./, 'MiniWoB++ steps are SFT samples');

    // The same command again: the MiniWoB++ run is found (its recorded tasks), nothing is collected twice.
    const again = JSON.parse((await lab(...args)).stdout);
    assert.equal(again.miniwob.run, out.miniwob.run);
    assert.equal(again.miniwob.episodes, 4);
    assert.deepEqual(again.dataset, out.dataset);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('`lab collect --miniwob` records the checkout in the run config; `--resume` serves it again without the flag', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-collect-miniwob-'));
  try {
    const first = JSON.parse((await lab('--lab', dir, 'collect', '--miniwob', CHECKOUT, '--tasks', 'miniwob.click-button:train', '--agent', 'oracle', '--seeds', '1', '--retries', '0', '--reflect', 'none', '--json')).stdout);
    const config = JSON.parse(readFileSync(join(first.run, 'config.json'), 'utf8'));
    assert.deepEqual(config.miniwob, { root: findMiniwobRoot(CHECKOUT) });
    const again = JSON.parse((await lab('--lab', dir, 'collect', '--resume', first.runId, '--json')).stdout);
    assert.equal(again.tasksDone, 1);
    assert.equal(again.arms[0].successes, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
