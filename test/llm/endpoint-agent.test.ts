/**
 * The endpoint agent's rules, against a real HTTP server that answers with scripted completions
 * (outputs the shipped code model cannot write: well-formed actions with thoughts, and errors).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { useScriptedEndpoint, type ScriptedEndpoint } from './helpers.ts';
import { EndpointAgent } from '../../main/agents/endpoint-agent.ts';
import { REFLECTIONS_HEADER } from '../../main/agents/endpoint-prompt.ts';
import { SYSTEM_PROMPT } from '../../main/policy/observation-text.ts';
import { ACTION_SET_NAMES, DEFAULT_ACTION_SETS } from '../../main/environment/action-sets.ts';
import { AgentUnavailableError } from '../../main/tasks/agent.ts';
import type { Observation } from '../../main/environment/types.ts';
import type { TaskSpec } from '../../main/tasks/types.ts';

let scripted: ScriptedEndpoint;
useScriptedEndpoint((e) => (scripted = e));
const body = (i: number) => scripted.bodies[i];

const task = { family: 'shop', seed: 10000, instruction: 'Buy the blue tent', startUrl: 'http://x/' } as TaskSpec;
const obs = (over: Partial<Observation> = {}): Observation => ({
  url: 'http://x/',
  title: 'Shop',
  instruction: task.instruction,
  elements: [{ id: '12', role: 'searchbox', name: 'Search', tag: 'input', box: { x: 0, y: 0, width: 10, height: 10 }, visible: true, inViewport: true }],
  lastActionError: null,
  messages: [],
  ...over,
});
const agent = (over: Partial<ConstructorParameters<typeof EndpointAgent>[0]> = {}) =>
  new EndpointAgent({ baseUrl: scripted.baseUrl, model: 'scripted', temperature: 0.5, maxTokens: 64, seed: 9, maxWaitMs: 0, ...over });
const userOf = (b: any): string => (typeof b.messages[1].content === 'string' ? b.messages[1].content : b.messages[1].content[0].text);

test('a thought and an action are parsed; the next prompt lists the thought, the action and the error it got; reflections are in every prompt', async () => {
  scripted.bodies.length = 0;
  scripted.replies.push({ status: 200, text: 'I should search first.\nfill(\'12\', \'blue tent\')' }, { status: 200, text: "Now press enter.\npress('12', 'Enter')" });
  const a = agent({ reflections: ['You typed the wrong product.\nAvoid: typo\nUnmet: none'] });
  a.reset(task);
  const t1 = await a.act(obs());
  assert.equal(t1.thought, 'I should search first.');
  assert.equal(t1.action, "fill('12', 'blue tent')");
  assert.deepEqual({ ...t1.llm, latencyMs: 0 }, { promptTokens: 100, completionTokens: 7, latencyMs: 0, attempts: 1 });
  // The step keeps the prompt (role by role) and the raw answer, with the endpoint's token counts.
  assert.equal(t1.io!.output, "I should search first.\nfill('12', 'blue tent')");
  assert.match(t1.io!.prompt, /^\[system\]\n[\s\S]*\n\n\[user\]\nTask: Buy the blue tent/);
  assert.deepEqual([t1.io!.promptTokens, t1.io!.outputTokens], [100, 7]);
  const t2 = await a.act(obs({ lastActionError: { code: 'element_not_interactable', message: 'covered by a banner' } }));
  assert.equal(t2.action, "press('12', 'Enter')");
  const [b1, b2] = [body(0), body(1)];
  assert.equal(b1.model, 'scripted');
  assert.equal(b1.temperature, 0.5);
  assert.equal(b1.max_tokens, 64);
  assert.notEqual(b1.seed, b2.seed, 'each step samples with its own seed');
  assert.match(userOf(b1), /^Task: Buy the blue tent/);
  assert.match(userOf(b1), /\[12\] searchbox "Search"/);
  assert.match(userOf(b1), /Previous steps: none/);
  for (const b of [b1, b2]) assert.ok(userOf(b).includes(`${REFLECTIONS_HEADER}\nAttempt 1:\nYou typed the wrong product.`));
  assert.match(userOf(b2), /1\. thought: I should search first\.\n\s+action: fill\('12', 'blue tent'\)  -> error element_not_interactable: covered by a banner/);
  assert.match(userOf(b2), /Last action failed: element_not_interactable/);
});

test('malformed outputs are recorded on the turn, and after maxMalformed in a row the episode ends without another call', async () => {
  scripted.bodies.length = 0;
  scripted.replies.push({ status: 200, text: 'function f() {\n  return 1;\n}' }, { status: 200, text: "click('12')" }, { status: 200, text: 'clik(3)' }, { status: 200, text: '' });
  const a = agent({ maxMalformed: 2 });
  a.reset(task);
  const t1 = await a.act(obs());
  assert.match(t1.llm!.malformed!, /./);
  assert.equal(t1.llm!.output, 'function f() {\n  return 1;\n}');
  assert.equal((await a.act(obs())).llm!.malformed, undefined, 'a good output resets the count');
  assert.ok((await a.act(obs())).llm!.malformed);
  const t4 = await a.act(obs());
  assert.ok(t4.llm!.malformed);
  assert.equal(t4.action, '');
  await assert.rejects(a.act(obs()), /2 malformed model outputs in a row \(limit 2\)/);
  assert.equal(scripted.bodies.length, 4);
});

test('a refused request ends the episode (plain error); an unknown model or an unreachable endpoint makes the agent unavailable', async () => {
  scripted.replies.push({ status: 400, text: 'prompt too long' });
  const a = agent();
  a.reset(task);
  await assert.rejects(a.act(obs()), (e: unknown) => !(e instanceof AgentUnavailableError) && /refused the request: .*400: prompt too long/.test((e as Error).message));
  scripted.replies.push({ status: 404, text: 'model scripted not found' });
  await assert.rejects(a.act(obs()), AgentUnavailableError);
  // A port that was free a moment ago: nothing listens, connections are refused at once.
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const down = new EndpointAgent({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', maxWaitMs: 300, baseDelayMs: 50, maxDelayMs: 100 });
  down.reset(task);
  await assert.rejects(down.act(obs()), (e: unknown) => e instanceof AgentUnavailableError && /cannot reach/.test((e as Error).message));
});

test('vision: the set-of-marks screenshot goes as an image part, and the system prompt says what its labels are', async () => {
  scripted.bodies.length = 0;
  scripted.replies.push({ status: 200, text: "click('12')" }, { status: 200, text: "click('12')" });
  const png = Buffer.from('89504e470d0a1a0a', 'hex');
  const a = agent({ vision: true });
  a.reset(task);
  await a.act(obs({ screenshot: { png, width: 1, height: 1 } }));
  const content = body(0).messages[1].content;
  assert.equal(content[1].type, 'image_url');
  assert.equal(content[1].image_url.url, `data:image/png;base64,${png.toString('base64')}`);
  assert.match(body(0).messages[0].content, /labelled with its id/);
  const blind = agent({ vision: false });
  blind.reset(task);
  await blind.act(obs({ screenshot: { png, width: 1, height: 1 } }));
  assert.equal(typeof body(1).messages[1].content, 'string');
});

test('the system prompt lists the coordinate actions where the environment allows coord, and is SYSTEM_PROMPT byte for byte where it does not', async () => {
  scripted.bodies.length = 0;
  for (let i = 0; i < 3; i++) scripted.replies.push({ status: 200, text: 'noop()' });
  const a = agent();
  a.reset(task); // a caller that says nothing of the action space
  await a.act(obs());
  a.reset(task, { actionSets: DEFAULT_ACTION_SETS, viewport: { width: 1024, height: 768 } });
  await a.act(obs());
  a.reset(task, { actionSets: [...ACTION_SET_NAMES], viewport: { width: 1280, height: 720 } });
  await a.act(obs());
  assert.equal(body(0).messages[0].content, SYSTEM_PROMPT);
  assert.equal(body(1).messages[0].content, SYSTEM_PROMPT);
  const lines = SYSTEM_PROMPT.split('\n');
  const coord: string = body(2).messages[0].content;
  assert.equal(coord, [
    ...lines.slice(0, -1),
    '  mouse_click(x, y)  mouse_dblclick(x, y)  mouse_move(x, y)  mouse_down(x, y)  mouse_up(x, y)  mouse_drag_and_drop(x1, y1, x2, y2)',
    "  keyboard_type('text') types into the focused element; x, y: CSS pixels from the top-left corner of the 1280x720 page view the screenshot shows",
    lines.at(-1),
  ].join('\n'), 'two lines before the closing instruction, with the viewport they are measured in');
});
