import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LlmReflector, REFLECTOR_SYSTEM_PROMPT } from '../../main/collection/llm-reflector.ts';
import { RuleReflector } from '../../main/collection/reflect.ts';
import { parseReflectionHints } from '../../main/agents/noisy-expert.ts';
import type { EpisodeData } from '../../main/store/lab.ts';
import type { ObservationRecord } from '../../main/store/schema.ts';
import { useScriptedEndpoint, type ScriptedEndpoint } from '../llm/helpers.ts';

let scripted: ScriptedEndpoint;
useScriptedEndpoint((e) => (scripted = e));

const at = '2026-01-01T00:00:00.000Z';
const page = (title: string): ObservationRecord => ({
  url: `http://shop.test/${title.toLowerCase()}`,
  title,
  elements: [{ id: '12', role: 'searchbox', name: 'Search', tag: 'input', box: { x: 0, y: 0, width: 10, height: 10 }, visible: true, inViewport: true }],
  screenshot: null,
  lastActionError: null,
});
const timing = { agentMs: 1, actionMs: 1, settleMs: 1, observeMs: 1, totalMs: 4 };
/** A failed attempt: a typo in the search, then an answer while the key point was unmet. */
const episode: EpisodeData = {
  header: {
    type: 'episode', version: 1, id: 'ep-typo', createdAt: at,
    task: { family: 'shop', seed: 10000, tier: 1, instruction: 'Add the blue tent to the cart', startUrl: 'http://shop.test/', split: 'test' },
    agent: { name: 'endpoint' }, env: { viewport: { width: 1280, height: 720 }, screenshots: false, browser: 'chromium' }, links: {},
  },
  steps: [
    { type: 'step', index: 0, observation: page('Home'), thought: 'Search for it.', action: "fill('12', 'blue tnet')", error: null, timing, at },
    { type: 'step', index: 1, observation: page('Results'), action: "send_msg_to_user('done')", error: null, timing, at },
  ],
  end: { type: 'end', success: false, reason: 'checker', keyPoints: [{ name: 'blue tent in the cart', met: false }], steps: 2, messages: ['done'], finalObservation: page('Results'), durationMs: 10, at },
  warnings: [],
  path: '/dev/null',
};

const reflector = () => new LlmReflector({ endpoint: { baseUrl: scripted.baseUrl, model: 'scripted', maxWaitMs: 0 } });

test('the LLM reflector sends a compact trace with the rule findings, keeps the model\'s diagnosis and the rule hints', async () => {
  scripted.bodies.length = 0;
  scripted.replies.push({ status: 200, text: 'You searched for a misspelled product and answered before adding the tent.\nAvoid: wrong_option' });
  const r = await reflector().reflect(episode);
  const rules = await new RuleReflector().reflect(episode);
  assert.equal(r.reflector, 'llm');
  assert.equal(r.id, 'refl-ep-typo');
  assert.deepEqual(r.hints, rules.hints);
  assert.deepEqual(r.hints.mistakes.sort(), ['premature_answer', 'typo']);
  const lines = r.text.split('\n');
  assert.equal(lines[0], 'You searched for a misspelled product and answered before adding the tent.');
  // The model's own "Avoid:" line is dropped: the machine-readable lines are the rules' only.
  assert.deepEqual(lines.slice(1), rules.text.split('\n').slice(-2));
  assert.deepEqual(parseReflectionHints(r.text).sort(), ['premature_answer', 'typo']);
  assert.deepEqual(r.llm, { model: 'scripted', promptTokens: 100, completionTokens: 7, latencyMs: r.llm!.latencyMs, attempts: 1 });

  const [req] = scripted.bodies;
  assert.equal(req.messages[0].content, REFLECTOR_SYSTEM_PROMPT);
  assert.equal(req.temperature, 0);
  const user: string = req.messages[1].content;
  for (const part of [
    'Task: Add the blue tent to the cart',
    'Outcome: failed (the checker rejected the result) after 2 steps.',
    'Not achieved: blue tent in the cart',
    'Answers sent to the user: "done"',
    `0. on "Home": fill('12', 'blue tnet') (thought: Search for it.)`,
    `1. on "Results": send_msg_to_user('done')`,
    'Notes from automatic checks:',
    "typed 'blue tnet'",
  ]) {
    assert.ok(user.includes(part), `the prompt holds ${JSON.stringify(part)}`);
  }
  assert.doesNotMatch(user, /Avoid:|Unmet:/);
});

test('a request the endpoint refuses falls back to the rule reflection, marked; a wrong model name stops the run', async () => {
  scripted.replies.push({ status: 400, text: 'trace too long for the context' });
  const r = await reflector().reflect(episode);
  const rules = await new RuleReflector().reflect(episode);
  assert.equal(r.reflector, 'llm-fallback-rules');
  assert.deepEqual(r.hints, rules.hints);
  assert.match(r.text.split('\n')[0], /the endpoint refused the reflection request: .*400: trace too long/);
  assert.deepEqual(r.text.split('\n').slice(1), rules.text.split('\n').slice(1));
  scripted.replies.push({ status: 404, text: 'no such model' });
  await assert.rejects(reflector().reflect(episode), /404: no such model/);
});
