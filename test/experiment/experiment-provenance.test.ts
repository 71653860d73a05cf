/**
 * Every episode an experiment's stages record names the experiment; its collection episodes name
 * their run, attempt and arm, its evaluation episodes their evaluation and policy.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabStore } from '../../main/store/lab.ts';
import { tinyExperiment } from '../helpers/tiny-experiment.ts';

test('a tiny experiment records itself, and the run or evaluation, in every episode it makes', async () => {
  const labDir = mkdtempSync(join(tmpdir(), 'lab-exp-provenance-'));
  await tinyExperiment(labDir, 'xp1');
  const episodes = new LabStore(labDir).listEpisodes().episodes;
  assert.ok(episodes.length > 0);
  assert.deepEqual(episodes.filter((e) => e.provenance.experiment !== 'xp1').map((e) => e.id), [], 'no episode without the experiment');
  const runs = new Set(episodes.flatMap((e) => (e.provenance.run ? [e.provenance.run] : [])));
  assert.deepEqual([...runs].sort(), ['xp1-plain', 'xp1-reflect']);
  for (const e of episodes.filter((e) => e.provenance.run)) assert.ok(e.provenance.attempt !== null && e.provenance.arm, `${e.id}: attempt and arm`);
  const evaluated = episodes.filter((e) => e.provenance.eval);
  assert.ok(evaluated.length > 0);
  for (const e of evaluated) assert.equal(e.agent, 'policy');
  assert.ok(new Set(evaluated.map((e) => e.provenance.policy)).has('sft-reflect'), 'evaluation episodes name their policy folder');
});
