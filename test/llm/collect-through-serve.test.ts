/**
 * A full `lab collect --agent endpoint --reflect llm` run through `lab serve` over HTTP, with the
 * shipped model (a code LM: its "actions" are mostly malformed, which is the point here: they
 * must be counted and recorded, and the run must complete and resume without duplicates). The
 * server records every request body, so the agent's prompts are checked where they arrive.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabStore, type EpisodeData } from '../../main/store/lab.ts';
import { SYSTEM_PROMPT, renderElementLine } from '../../main/policy/observation-text.ts';
import { REFLECTIONS_HEADER } from '../../main/agents/endpoint-prompt.ts';
import { REFLECTOR_SYSTEM_PROMPT } from '../../main/collection/llm-reflector.ts';
import { RuleReflector, reflectionSchema } from '../../main/collection/reflect.ts';
import type { ChatCompletionRequest } from '../../main/llm/openai-wire.ts';
import { MODEL_NAME, useServedModel, type ServedModel } from './helpers.ts';
import { runLab as lab, spawnLab } from '../helpers/lab-cli.ts';

let served: ServedModel;
useServedModel((s) => (served = s));

const userText = (b: ChatCompletionRequest): string => {
  const c = b.messages.find((m) => m.role === 'user')!.content;
  return typeof c === 'string' ? c : (c ?? []).map((p) => ('text' in p ? p.text : '')).join('\n');
};

test('lab collect --agent endpoint --reflect llm through lab serve: malformed outputs counted and recorded, prompts hold task, elements, history and reflections, resume adds nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-endpoint-collect-'));
  const args = ['--lab', dir, 'collect', '--tasks', 'shop,webmail:test', '--seeds', '1', '--agent', 'endpoint', '--endpoint', served.baseUrl, '--model', MODEL_NAME];
  const { stdout } = await lab(...args, '--retries', '1', '--reflect', 'llm', '--temperature', '0', '--max-tokens', '24', '--max-malformed', '2', '--endpoint-wait', '20', '--json');
  const s = JSON.parse(stdout);
  assert.equal(s.tasks, 2);
  assert.equal(s.tasksDone, 2);
  assert.deepEqual(s.arms.map((a: { arm: string }) => a.arm), ['reflect', 'blind']);

  const store = new LabStore(dir);
  const episodes: EpisodeData[] = store.episodeIds().map((id) => store.readEpisode(id));
  const log = readFileSync(join(s.run, 'progress.jsonl'), 'utf8');
  const attempts = log.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'attempt');
  // Every episode in the lab is one logged attempt, complete, and no attempt was logged twice.
  assert.deepEqual(episodes.map((e) => e.header.id).sort(), attempts.map((a) => a.episodeId).sort());
  assert.equal(new Set(attempts.map((a) => `${a.task}/${a.attempt}/${a.arms.join('+')}`)).size, attempts.length);
  for (const e of episodes) assert.ok(e.end, `${e.header.id} is complete`);

  // Malformed outputs: recorded on the step, rejected by the environment, counted in the summary.
  const steps = episodes.flatMap((e) => e.steps);
  assert.ok(steps.length > 0);
  for (const st of steps) {
    assert.ok(st.llm, 'every step records its model call');
    assert.ok(st.llm.promptTokens > 0 && st.llm.completionTokens > 0 && st.llm.attempts >= 1 && st.llm.latencyMs >= 0);
    if (st.llm.malformed !== undefined) {
      assert.equal(st.error?.code, 'malformed_action');
      assert.equal(typeof st.llm.output, 'string');
    }
  }
  const malformed = steps.filter((st) => st.llm?.malformed !== undefined).length;
  assert.ok(malformed >= 1);
  assert.equal(s.llm.calls, steps.length);
  assert.equal(s.llm.malformed, malformed);
  assert.equal(s.llm.promptTokens, steps.reduce((n, st) => n + st.llm!.promptTokens, 0));
  // The documented rule: two malformed outputs in a row end the episode as an agent error.
  for (const e of episodes) {
    const last2 = e.steps.slice(-2);
    if (last2.length === 2 && last2.every((st) => st.llm?.malformed !== undefined) && e.end!.reason === 'agent_error') {
      assert.match(e.end!.agentError ?? '', /2 malformed model outputs in a row/);
    }
  }
  assert.ok(episodes.some((e) => e.end!.reason === 'agent_error'), 'the malformed rule ended at least one episode');

  // The prompts, as the server received them.
  const bodies = served.bodies as ChatCompletionRequest[];
  const agentCalls = bodies.filter((b) => typeof b.messages[0].content === 'string' && b.messages[0].content.startsWith(SYSTEM_PROMPT));
  const reflectorCalls = bodies.filter((b) => b.messages[0].content === REFLECTOR_SYSTEM_PROMPT);
  assert.equal(agentCalls.length, steps.length);
  assert.equal(agentCalls.every((b) => b.model === MODEL_NAME && b.temperature === 0 && b.max_tokens === 24), true);
  for (const e of episodes) {
    const first = e.steps[0];
    const prompt = agentCalls.map(userText).find((t) => t.includes(`Task: ${e.header.task.instruction}`) && t.includes('Previous steps: none'));
    assert.ok(prompt, `a first-step prompt for ${e.header.task.instruction}`);
    const el = first.observation.elements.find((x) => x.visible && x.inViewport && x.role !== 'text')!;
    assert.ok(prompt.includes(renderElementLine(el)), 'the element list is in the prompt');
    if (e.steps.length > 1) {
      const second = agentCalls.map(userText).find((t) => t.includes(`Task: ${e.header.task.instruction}`) && t.includes(`action: ${first.action.replace(/\s+/g, ' ').trim().slice(0, 40)}`));
      assert.ok(second, 'the next prompt lists the previous action');
      if (first.error) assert.ok(second.includes(`error ${first.error.code}`), 'and its error');
    }
  }

  // Reflections: written by the LLM through the endpoint, with the rule reflector's hints.
  const reflectionFiles = readdirSync(join(dir, 'reflections'));
  assert.equal(reflectionFiles.length, attempts.filter((a) => a.reflections.length).length);
  assert.equal(reflectorCalls.length, reflectionFiles.length);
  for (const f of reflectionFiles) {
    const r = reflectionSchema.parse(JSON.parse(readFileSync(join(dir, 'reflections', f), 'utf8')));
    assert.equal(r.reflector, 'llm');
    assert.ok(r.llm && r.llm.completionTokens > 0);
    const rules = await new RuleReflector().reflect(store.readEpisode(r.episodeId));
    assert.deepEqual(r.hints, rules.hints);
    assert.deepEqual(r.text.split('\n').slice(-2), rules.text.split('\n').slice(-2));
    // The retry that was given this reflection had it in every prompt; the blind retries never.
    const instruction = store.readEpisode(r.episodeId).header.task.instruction;
    const retryPrompts = agentCalls.map(userText).filter((t) => t.includes(`Task: ${instruction}`) && t.includes(REFLECTIONS_HEADER));
    assert.ok(retryPrompts.length >= 1);
    assert.ok(retryPrompts.every((t) => t.includes(r.text.split('\n')[0])));
    assert.ok(reflectorCalls.some((b) => userText(b).includes(`Task: ${instruction}`)));
  }
  const withReflection = agentCalls.filter((b) => userText(b).includes(REFLECTIONS_HEADER)).length;
  const reflectSteps = episodes.filter((e) => (e.header.agent.config?.reflectionIds as string[] | undefined)?.length).reduce((n, e) => n + e.steps.length, 0);
  assert.equal(withReflection, reflectSteps);

  // Resume of the finished run: nothing rerun, nothing appended, the same summary.
  const before = served.bodies.length;
  const again = JSON.parse((await lab('--lab', dir, 'collect', '--resume', s.runId, '--json')).stdout);
  assert.deepEqual(again.arms, s.arms);
  assert.deepEqual(again.llm, s.llm);
  assert.equal(readFileSync(join(s.run, 'progress.jsonl'), 'utf8'), log);
  assert.equal(served.bodies.length, before);
});

test('lab episode --agent endpoint runs one episode through lab serve and records the endpoint (no key) and each model call', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-endpoint-episode-'));
  const { stdout } = await spawnLab(['--lab', dir, 'episode', '--task', 'webmail', '--seed', '10001', '--agent', 'endpoint', '--endpoint', served.baseUrl, '--model', MODEL_NAME, '--json'], {
    env: { ...process.env, LAB_ENDPOINT_KEY: 'sk-secret-test' },
  });
  const out = JSON.parse(stdout);
  const e = new LabStore(dir).readEpisode(out.id);
  assert.equal(e.header.agent.name, 'endpoint');
  assert.equal(e.header.agent.config?.baseUrl, served.baseUrl);
  assert.equal(e.header.agent.config?.model, MODEL_NAME);
  assert.doesNotMatch(readFileSync(e.path, 'utf8'), /sk-secret-test/);
  assert.ok(e.steps.length >= 1);
  assert.ok(e.steps.every((s) => s.llm && s.llm.promptTokens > 0));
  assert.equal(out.llm.calls, e.steps.length);
});
