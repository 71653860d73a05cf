/**
 * Provenance in the episode list: what new headers record, what older headers already said in
 * their agent config, and null ("unknown") where neither says anything.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabStore } from '../../main/store/lab.ts';
import { describeProvenance, UNKNOWN_PROVENANCE } from '../../main/store/provenance.ts';
import type { ObservationRecord } from '../../main/store/schema.ts';

const obs: ObservationRecord = { url: 'http://x/', title: 't', elements: [], screenshot: null, lastActionError: null };
const base = {
  task: { family: 'shop', seed: 1, tier: 1, instruction: 'Buy', startUrl: 'http://x/', split: 'train' as const },
  env: { viewport: { width: 10, height: 10 }, screenshots: false, browser: 'chromium' },
  links: {},
};

test('recorded provenance is listed; older headers fall back to their agent config; the rest is unknown', () => {
  const lab = new LabStore(mkdtempSync(join(tmpdir(), 'lab-provenance-')));
  const recorded = lab.createEpisode({ ...base, id: 'a-recorded', agent: { name: 'noisy', config: { attempt: 9 } }, provenance: { run: 'r1', attempt: 2, arm: 'reflect', experiment: 'x1' } });
  const oldCollect = lab.createEpisode({ ...base, id: 'b-old-collect', agent: { name: 'noisy', config: { attempt: 1, arm: 'blind' } } });
  const oldEval = lab.createEpisode({ ...base, id: 'c-old-eval', agent: { name: 'policy', config: { evalId: 'e1', run: 0, dir: '/lab/experiments/x/policies/sft-reflect/' } } });
  const plain = lab.createEpisode({ ...base, id: 'd-plain', agent: { name: 'oracle' } });
  for (const w of [recorded, oldCollect, oldEval, plain]) w.end({ success: false, reason: 'max_steps', keyPoints: [], messages: [], finalObservation: obs, durationMs: 1 });

  const byId = new Map(lab.listEpisodes().episodes.map((e) => [e.id, e.provenance]));
  assert.deepEqual(byId.get('a-recorded'), { run: 'r1', attempt: 2, arm: 'reflect', eval: null, experiment: 'x1', policy: null }, 'the header wins over the agent config');
  assert.deepEqual(byId.get('b-old-collect'), { ...UNKNOWN_PROVENANCE, attempt: 1, arm: 'blind' });
  assert.deepEqual(byId.get('c-old-eval'), { ...UNKNOWN_PROVENANCE, eval: 'e1', policy: 'sft-reflect' });
  assert.deepEqual(byId.get('d-plain'), UNKNOWN_PROVENANCE);
  assert.equal(describeProvenance(byId.get('a-recorded')!), 'run r1, attempt 2 (reflect), experiment x1');
  assert.equal(describeProvenance(UNKNOWN_PROVENANCE), '');
});

test('an episode stopped by a person is cancelled, one stopped by its step budget a failure', () => {
  const lab = new LabStore(mkdtempSync(join(tmpdir(), 'lab-provenance-')));
  const stopped = lab.createEpisode({ ...base, agent: { name: 'human' } });
  stopped.end({ success: false, reason: 'cancelled', keyPoints: [], messages: [], finalObservation: obs, durationMs: 1 });
  const ran = lab.createEpisode({ ...base, agent: { name: 'random' } });
  ran.end({ success: false, reason: 'max_steps', keyPoints: [], messages: [], finalObservation: obs, durationMs: 1 });
  const status = new Map(lab.listEpisodes().episodes.map((e) => [e.id, e.status]));
  assert.equal(status.get(stopped.id), 'cancelled');
  assert.equal(status.get(ran.id), 'failure');
});
