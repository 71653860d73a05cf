import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useTaskEnvironment, type TaskEnvironmentFixture } from '../helpers/environment.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import { createDataset } from '../../main/datasets/index.ts';
import { policySamples, writePolicyCorpus } from '../../main/policy/sft-data.ts';
import { defaultTrainJob, train } from '../../main/models/train.ts';
import { defaultSftJob, trainSft } from '../../main/policy/sft.ts';
import { defaultPromptSettings } from '../../main/policy/prompt.ts';
import { CompactPolicyAgent, pageKey } from '../../main/agents/compact-policy.ts';
import { makeAgent } from '../../main/agents/registry.ts';
import { TransformerLM } from '../../main/models/model.ts';
import { saveModel } from '../../main/models/checkpoint.ts';
import { trainTokenizer } from '../../main/models/tokenizer.ts';
import { selectBackend } from '../../main/models/backend.ts';
import { INVALID_ACTION_CODES, compareDecoders } from '../../main/evaluation/eval.ts';
import { modelFiles } from '../../main/store/lab-files.ts';

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
  const samplesFile = modelFiles(dir).sftSamples;
  writeFileSync(samplesFile, samples.map((s) => JSON.stringify(s)).join('\n') + '\n');

  const result = await trainSft({
    ...defaultSftJob, outDir: dir, samplesFile, dataset: { name: 'one', version: 1 }, steps: 60, batch: samples.length,
    lr: 2e-2, minLr: 2e-3, warmup: 5, evalEvery: 1000, checkpointEvery: 1000, vocabSize: 400,
    model: { dModel: 32, nLayer: 2, nHead: 2, dFF: 64, ctx: 256 }, prompt: { ...defaultPromptSettings, maxPageChars: 250 },
  });
  assert.ok(result.valLoss < 0.05, `loss on its own samples ${result.valLoss}`);

  // Through the registry, as the CLI builds it: greedy decoding, drafts copied from the prompt by default (exactly AR's output).
  const agent = makeAgent('policy', fx.server.createInstance(task.family, task.seed, { tier: task.tier }), 0, { policy: { dir } }) as CompactPolicyAgent;
  const replay = await runEpisode(deps, { ...task, agent, agentConfig: { ...(await agent.config()) } });
  const taught = fx.store.readEpisode(oracle.id).steps.map((s) => s.action);
  const played = fx.store.readEpisode(replay.id).steps.map((s) => s.action);
  assert.deepEqual(played, taught);
  assert.ok(replay.success);
  assert.equal(agent.totals.invalidOutputs, 0);
  assert.equal((await agent.config()).decode, 'lookup-tree');
  assert.equal((await new CompactPolicyAgent({ dir, sampling: { kind: 'nucleus', topP: 0.9, temperature: 1 } }).config()).decode, 'ar');

  // SAT-tuned on its own text (what `lab train sdsat --base DIR --corpus DIR/corpus` does), the
  // policy still copies drafts by default (measured faster than its SATs' on the shipped policies);
  // with SDSAT it acts as taught, and exactly as the same model under AR.
  const prompt = { ...defaultPromptSettings, maxPageChars: 250 };
  writePolicyCorpus(join(dir, 'corpus'), samples, prompt);
  const satDir = join(dir, 'sat');
  await train({
    ...defaultTrainJob, kind: 'sdsat', outDir: satDir, base: dir, trainFile: join(dir, 'corpus', 'train.txt'), valFile: join(dir, 'corpus', 'train.txt'),
    steps: 5, batch: 2, seqLen: 64, warmup: 1, evalEvery: 1000, evalTokens: 64, checkpointEvery: 1000,
    sat: { mode: 'distinct', k: 3, blocks: 2, weight: 1, distillWindows: 0 },
  });
  assert.equal((await new CompactPolicyAgent({ dir: satDir }).config()).decode, 'lookup-tree');
  const satAgent = makeAgent('policy', fx.server.createInstance(task.family, task.seed, { tier: task.tier }), 0, { policy: { dir: satDir, decode: 'sdsat' } }) as CompactPolicyAgent;
  assert.equal((await satAgent.config()).decode, 'sdsat');
  const satRun = await runEpisode(deps, { ...task, agent: satAgent });
  assert.deepEqual(fx.store.readEpisode(satRun.id).steps.map((s) => s.action), played);
  const satAr = new CompactPolicyAgent({ dir: satDir, decode: 'ar' });
  const arRun = await runEpisode(deps, { ...task, agent: satAr });
  assert.deepEqual(fx.store.readEpisode(arRun.id).steps.map((s) => s.action), played);
  assert.ok(satAgent.totals.forwardPasses > 0 && satAr.totals.newTokens === satAgent.totals.newTokens);
  // Prefix caching on (the default) and off: the same actions; only the cached run reused prompt tokens.
  const fresh = new CompactPolicyAgent({ dir: satDir, decode: 'ar', promptCache: false });
  const freshRun = await runEpisode(deps, { ...task, agent: fresh });
  assert.deepEqual(fx.store.readEpisode(freshRun.id).steps.map((s) => s.action), played);
  assert.equal(fresh.totals.reusedPromptTokens, 0);
  assert.ok(satAr.totals.reusedPromptTokens > 0, 'steps of one episode share their task line');
  assert.equal(fresh.totals.promptTokens, satAr.totals.promptTokens);

  // Side by side on the same episode: SDSAT acts, AR decodes every step too; greedy makes them identical.
  const both = new CompactPolicyAgent({ dir: satDir, decode: 'sdsat', compareDecode: 'ar' });
  const bothRun = await runEpisode(deps, { ...task, agent: both });
  assert.deepEqual(fx.store.readEpisode(bothRun.id).steps.map((s) => s.action), played);
  const c = both.comparison!;
  assert.equal(c.steps, played.length);
  assert.equal(c.identicalSteps, c.steps);
  assert.deepEqual([c.primary.mode, c.other.mode], ['sdsat', 'ar']);
  assert.equal(c.primary.newTokens, c.other.newTokens);
  assert.ok(c.primary.drafted > 0 && c.other.drafted === 0);
  const report = compareDecoders([c]);
  assert.equal(report.decodeSpeedupPerStep.n, c.steps);
  assert.ok(Math.abs(report.decodeSpeedup - c.other.decodeMs / c.primary.decodeMs) < 1e-9);
  assert.ok(report.primary.meanAcceptanceLength! >= 1 && report.other.meanAcceptanceLength === null);
  // The baseline prefills from scratch; the primary starts from the prompt cache.
  assert.equal(c.other.reusedPromptTokens, 0);
  assert.ok(report.primary.reusedPromptShare > 0 && report.other.reusedPromptShare === 0);
  assert.equal(report.stepSpeedupPerStep?.n, c.steps);
});

test('an untrained policy writes no valid action: each step is recorded as an invalid action and the episode runs to its step limit', async () => {
  await selectBackend('wasm');
  const tokenizer = trainTokenizer(['click(\'12\') fill(\'3\', \'x\')'], 280);
  const model = new TransformerLM({ vocabSize: tokenizer.vocabSize, satTokens: 0, ctx: 320, dModel: 16, nLayer: 1, nHead: 2, dFF: 32, initStd: 0.02, seed: 5 });
  const dir = mkdtempSync(join(tmpdir(), 'lab-policy-untrained-'));
  await saveModel(dir, { model, tokenizer, sat: null });
  const agent = new CompactPolicyAgent({ dir, maxNew: 12, sampling: { kind: 'nucleus', topP: 1, temperature: 1 }, seed: 3 });
  const deps = { env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind };
  const out = await runEpisode(deps, { family: 'webmail', seed: 10, tier: 1, agent, maxSteps: 3 });
  assert.equal(out.reason, 'max_steps');
  assert.equal(out.success, false);
  const steps = fx.store.readEpisode(out.id).steps;
  assert.equal(steps.length, 3);
  assert.equal(agent.totals.invalidOutputs, 3);
  for (const s of steps) assert.ok(s.error && INVALID_ACTION_CODES.has(s.error.code), `step ${s.index}: ${s.action} -> ${s.error?.code}`);
  // Each step keeps the prompt the model read and what it wrote, with their token counts.
  for (const s of steps) {
    assert.ok(s.io, `step ${s.index} records its prompt and output`);
    assert.ok(s.io.prompt.length > 0 && s.io.output !== undefined);
    assert.ok(s.io.promptTokens! > 0 && s.io.promptTokens! <= 320);
    assert.ok(s.io.outputTokens! >= 1 && s.io.outputTokens! <= 12);
  }
});

/**
 * A policy with all-zero weights: every token equally likely, so greedy decoding takes the first
 * token the guide allows, and on an unchanged page it writes the same action again unless that
 * action is banned.
 */
async function zeroWeightPolicy(): Promise<string> {
  await selectBackend('wasm');
  const tokenizer = trainTokenizer(['click(\'12\') fill(\'3\', \'x\') go_back()'], 280);
  const model = new TransformerLM({ vocabSize: tokenizer.vocabSize, satTokens: 0, ctx: 512, dModel: 16, nLayer: 1, nHead: 2, dFF: 32, initStd: 0, seed: 5 });
  const dir = mkdtempSync(join(tmpdir(), 'lab-policy-stall-'));
  await saveModel(dir, { model, tokenizer, sat: null });
  return dir;
}

test('the stall ban: an action that left the page unchanged is not written again at the next step (and is, without the ban)', async () => {
  const dir = await zeroWeightPolicy();
  const deps = { env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind };
  /** Pairs of steps where the page before each was the same, with both actions. */
  const stalls = async (stallBan: boolean) => {
    const agent = new CompactPolicyAgent({ dir, maxNew: 48, seed: 3, stallBan });
    assert.equal((await agent.config()).stallBan, stallBan);
    const out = await runEpisode(deps, { family: 'webmail', seed: 10, tier: 1, agent, maxSteps: 6 });
    const steps = fx.store.readEpisode(out.id).steps;
    return steps.slice(1).flatMap((s, i) => (pageKey(s.observation) === pageKey(steps[i].observation) ? [[steps[i].action, s.action]] : []));
  };
  const without = await stalls(false);
  assert.ok(without.some(([a, b]) => a === b), `without the ban the untrained policy repeats an action that changed nothing: ${JSON.stringify(without)}`);
  const banned = await stalls(true);
  for (const [a, b] of banned) assert.notEqual(b, a, 'the same action after it changed nothing');
});

test('the stall ban on the whole episode: an action that left a page unchanged is never written on that page again', async () => {
  const dir = await zeroWeightPolicy();
  const deps = { env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind };
  /** Actions written again on a page where they had changed nothing before. */
  const repeats = async (stallBanAll: boolean) => {
    const agent = new CompactPolicyAgent({ dir, maxNew: 48, seed: 3, stallBan: true, stallBanAll });
    assert.equal((await agent.config()).stallBanAll, stallBanAll ? true : undefined);
    const out = await runEpisode(deps, { family: 'webmail', seed: 10, tier: 1, agent, maxSteps: 8 });
    const steps = fx.store.readEpisode(out.id).steps;
    const stalledOn = new Map<string, Set<string>>();
    const found: string[] = [];
    for (const [i, s] of steps.entries()) {
      // An output the budget cut before the call closed is no action the guide could ban (nor one it allowed).
      if (s.error && INVALID_ACTION_CODES.has(s.error.code)) continue;
      const page = pageKey(s.observation);
      if (stalledOn.get(page)?.has(s.action)) found.push(`step ${i}: ${s.action}`);
      if (i + 1 < steps.length && pageKey(steps[i + 1].observation) === page) stalledOn.set(page, (stalledOn.get(page) ?? new Set()).add(s.action));
    }
    return found;
  };
  // Banned only at the next step, the untrained policy alternates between actions that change nothing.
  assert.ok((await repeats(false)).length > 0, 'without the whole-episode ban an action comes back');
  assert.deepEqual(await repeats(true), []);
});
