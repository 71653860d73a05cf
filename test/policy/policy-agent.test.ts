import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useTaskEnvironment, type TaskEnvironmentFixture } from '../helpers/environment.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import { createDataset } from '../../main/datasets/index.ts';
import { policySamples } from '../../main/policy/sft-data.ts';
import { defaultSftJob, trainSft } from '../../main/policy/sft.ts';
import { defaultPromptSettings } from '../../main/policy/prompt.ts';
import { CompactPolicyAgent } from '../../main/agents/compact-policy.ts';
import { makeAgent } from '../../main/agents/registry.ts';

let fx: TaskEnvironmentFixture;
useTaskEnvironment('lab-policy-agent-', (f) => (fx = f));

test('a tiny policy SFT-trained on one oracle episode reproduces its actions through the agent in Chromium and solves the task', async () => {
  const deps = { env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind };
  const task = { family: 'calendar', seed: 3, tier: 1 as const };
  const oracle = await runEpisode(deps, { ...task, agent: (i) => i.family.oracle(i.ctx) });
  assert.ok(oracle.success);
  const { manifest } = createDataset(fx.store, { name: 'one', filter: { ids: [oracle.id] }, ratios: { train: 1, validation: 0, test: 0 } });
  const samples = policySamples(fx.store, manifest);
  assert.equal(samples.length, oracle.steps);
  const dir = mkdtempSync(join(tmpdir(), 'lab-policy-model-'));
  const samplesFile = join(dir, 'sft-samples.jsonl');
  writeFileSync(samplesFile, samples.map((s) => JSON.stringify(s)).join('\n') + '\n');

  const result = await trainSft({
    ...defaultSftJob, outDir: dir, samplesFile, dataset: { name: 'one', version: 1 }, steps: 60, batch: samples.length,
    lr: 2e-2, minLr: 2e-3, warmup: 5, evalEvery: 1000, checkpointEvery: 1000, vocabSize: 400, backend: 'wasm',
    model: { dModel: 32, nLayer: 2, nHead: 2, dFF: 64, ctx: 256 }, prompt: { ...defaultPromptSettings, maxPageChars: 250 },
  });
  assert.ok(result.valLoss < 0.05, `loss on its own samples ${result.valLoss}`);

  // Through the registry, as the CLI builds it: greedy decoding through the shared AR decoder.
  const agent = makeAgent('policy', fx.server.createInstance(task.family, task.seed, { tier: task.tier }), 0, { policy: { dir } }) as CompactPolicyAgent;
  const replay = await runEpisode(deps, { ...task, agent, agentConfig: { ...(await agent.config()) } });
  const taught = fx.store.readEpisode(oracle.id).steps.map((s) => s.action);
  const played = fx.store.readEpisode(replay.id).steps.map((s) => s.action);
  assert.deepEqual(played, taught);
  assert.ok(replay.success);
  assert.equal(agent.totals.invalidOutputs, 0);
  assert.equal((await agent.config()).decode, 'ar');
});
