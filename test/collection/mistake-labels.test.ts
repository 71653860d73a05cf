/**
 * Recovery data: `lab collect --agent noisy --label-mistakes` labels each injected mistake on its
 * step, so a dataset of the run leaves the mistakes out and keeps the steps after them (the page a
 * wrong click or a detour led to, then the expert's way back or on). Real collection in Chromium.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLab as lab } from '../helpers/lab-cli.ts';
import { LabStore } from '../../main/store/lab.ts';
import { LabelStore } from '../../main/store/labels.ts';
import { createDataset } from '../../main/datasets/curate.ts';
import { buildSamples } from '../../main/datasets/samples.ts';

test('`lab collect --agent noisy --label-mistakes` labels the injected mistakes; a dataset keeps the recoveries after them and leaves the mistakes out', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-mistake-labels-'));
  const { stdout } = await lab('--lab', dir, 'collect', '--tasks', 'shop,jobs:train', '--seeds', '3', '--tier', '1', '--agent', 'noisy', '--retries', '0', '--reflect', 'none',
    '--rate', 'detour=0.5', '--rate', 'wrong_element=0.3', '--label-mistakes', '--json');
  const s = JSON.parse(stdout);
  assert.equal(JSON.parse(readFileSync(join(s.run, 'config.json'), 'utf8')).labelMistakes, true);
  const store = new LabStore(dir);
  const labels = new LabelStore(dir);
  const episodes = store.listEpisodes().episodes.map((e) => ({ id: e.id, steps: store.readEpisode(e.id).steps, labels: labels.read(e.id) }));
  const labelled = episodes.flatMap((e) => Object.entries(e.labels.steps).map(([step, label]) => ({ e, step: Number(step), label })));
  assert.ok(labelled.length >= 2, `mistakes were injected and labelled (${labelled.length})`);
  for (const { e, step, label } of labelled) {
    assert.ok(label === 'wrong' || label === 'detour');
    assert.match(e.labels.comments[step], /^injected mistake \((detour|wrong_element|typo|wrong_option|premature_answer)\); the expert meant: /);
    // A detour's label sits on the step that took it: a click on a link, or a scroll for nothing.
    if (label === 'detour') assert.match(e.steps[step].action, /^(click|scroll)\(/);
  }

  // A dataset of the successful episodes: mistakes out, the steps after them in.
  const ok = episodes.filter((e) => store.readEpisode(e.id).end?.success);
  const recovered = ok.filter((e) => Object.keys(e.labels.steps).length);
  assert.ok(recovered.length >= 1, 'at least one successful episode holds a mistake and its recovery');
  const { manifest } = createDataset(store, { name: 'recoveries', filter: { ids: ok.map((e) => e.id) }, ratios: { train: 1, validation: 0, test: 0 } });
  const { samples } = buildSamples(store, manifest);
  for (const e of recovered) {
    const kept = new Set(samples.filter((x) => x.episodeId === e.id).map((x) => x.step));
    for (const step of Object.keys(e.labels.steps).map(Number)) {
      assert.ok(!kept.has(step), `${e.id} step ${step}: the mistake is left out`);
      // The step after it is kept, unless it is a mistake too (mistakes may come in a row).
      if (step + 1 < e.steps.length && !(step + 1 in e.labels.steps)) assert.ok(kept.has(step + 1), `${e.id} step ${step + 1}: the recovery after it is kept`);
    }
  }
  await assert.rejects(lab('--lab', dir, 'collect', '--agent', 'oracle', '--label-mistakes'), /--label-mistakes labels the noisy expert's injected mistakes: it needs --agent noisy/);
});
