/**
 * The endpoint agent and client against answers a real server can give but a good one should not:
 * a megabyte of text, a 200 that is no chat completion, a request that never ends, control
 * characters. Every case runs against a real local HTTP server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { EndpointAgent } from '../../main/agents/endpoint-agent.ts';
import { AgentUnavailableError } from '../../main/tasks/agent.ts';
import { ChatEndpoint, EndpointError } from '../../main/llm/client.ts';
import { forTerminal } from '../../main/cli/terminal.ts';
import type { Observation } from '../../main/environment/types.ts';
import type { TaskSpec } from '../../main/tasks/types.ts';
import { tmpLab, writeEpisode } from '../datasets/helpers.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, body: any) => void;

/** A real server whose every request is answered by `handler`; request bodies are kept. */
async function serve(handler: Handler): Promise<{ url: string; bodies: any[]; close: () => Promise<void> }> {
  const bodies: any[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}');
      bodies.push(body);
      handler(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    bodies,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

const completion = (text: string): Handler => (_q, res, body) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
    id: 'c', object: 'chat.completion', created: 0, model: body.model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  }));

const task = { family: 'shop', seed: 1, instruction: 'Buy the tent', startUrl: 'http://x/' } as TaskSpec;
const obs: Observation = {
  url: 'http://x/', title: 'Shop', instruction: task.instruction, lastActionError: null, messages: [],
  elements: [{ id: '12', role: 'button', name: 'Buy', tag: 'button', box: { x: 0, y: 0, width: 10, height: 10 }, visible: true, inViewport: true }],
};

test('a 1 MB answer is clipped in the step with its original length kept, and the next prompt stays small', async () => {
  const thought = 'I think '.repeat(131_072); // 1 MiB
  const replies = [completion(`${thought}\nclick('12')`), completion('x'.repeat(1_000_000))];
  const server = await serve((q, r, b) => replies.shift()!(q, r, b));
  try {
    const agent = new EndpointAgent({ baseUrl: server.url, model: 'm', maxWaitMs: 0 });
    agent.reset(task);
    const t1 = await agent.act(obs);
    assert.equal(t1.action, "click('12')");
    assert.equal(t1.thought!.length, 2000);
    assert.equal(t1.llm!.thoughtChars, thought.trim().length);
    const t2 = await agent.act(obs);
    assert.ok(t2.llm!.malformed);
    assert.equal(t2.llm!.output!.length, 2000);
    assert.equal(t2.llm!.outputChars, 1_000_000);
    assert.equal(t2.action.length, 200);
    assert.ok(JSON.stringify(server.bodies[1]).length < 20_000, 'the clipped thought, not the megabyte, goes back to the model');
  } finally {
    await server.close();
  }
});

test('a 200 that is not a usable chat completion says what was wrong, not that the request was refused', async () => {
  const cases: Array<[Handler, RegExp]> = [
    [(_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices": [oops'), /answered 200 with a body that is not valid JSON/],
    [(_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"chat.completion"}'), /answered 200 without a choices array: \{"object":"chat.completion"\}/],
    [(_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices":[]}'), /answered 200 with an empty choices array/],
    [(_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>'), /answered 200 with something that is not a chat completion: <html>login<\/html>/],
  ];
  for (const [handler, expected] of cases) {
    const server = await serve(handler);
    try {
      const agent = new EndpointAgent({ baseUrl: server.url, model: 'm', maxWaitMs: 0 });
      agent.reset(task);
      await assert.rejects(agent.act(obs), (err: Error) => {
        assert.ok(!(err instanceof AgentUnavailableError));
        assert.match(err.message, /^the endpoint's answer could not be used: http:\/\/127\.0\.0\.1:\d+\/v1 /);
        assert.match(err.message, expected);
        assert.doesNotMatch(err.message, /refused/);
        return true;
      });
    } finally {
      await server.close();
    }
  }
});

test('a request that never ends times out after --endpoint-timeout, is retried within --endpoint-wait, and the message names both', async () => {
  const server = await serve(() => {}); // accepts, reads the request, never answers
  try {
    const endpoint = new ChatEndpoint({ baseUrl: server.url, model: 'm', timeoutMs: 400, maxWaitMs: 600, baseDelayMs: 10, maxDelayMs: 20 });
    const t0 = Date.now();
    await assert.rejects(endpoint.chat({ messages: [{ role: 'user', content: 'x' }] }), (err: unknown) => {
      assert.ok(err instanceof EndpointError);
      // The last try's timeout was cut to what was left of the wait window, and the message says so.
      assert.match(err.message, /did not answer within 0\.\d+ s \(what was left of the --endpoint-wait window; --endpoint-timeout is 0\.4 s\)/);
      assert.match(err.message, /gave up after [2-9] attempts: retrying stops 0\.6 s after the first failure, --endpoint-wait/);
      assert.doesNotMatch(err.message, /: 20\b/);
      return true;
    });
    const elapsed = Date.now() - t0;
    // timeout + wait (+ the shortest retry timeout), not a fixed 120 s per request.
    assert.ok(elapsed >= 400 && elapsed < 1600, `took ${elapsed} ms`);
    assert.ok(server.bodies.length >= 2);
  } finally {
    await server.close();
  }
});

test('control characters in model text are escaped for the terminal', () => {
  assert.equal(forTerminal("click('1')\u0000\u001b[2J\r\u009bX\u202e"), "click('1')\\u{0}\\e[2J\\r\\u{9b}X\\u{202e}");
  assert.equal(forTerminal('a\nb\tc'), 'a\\nb\\tc');
  assert.equal(forTerminal('a\nb\tc\u0007', { multiline: true }), 'a\nb\tc\\u{7}');
  assert.equal(forTerminal('ünïcode ✓'), 'ünïcode ✓');
});

test('lab episodes show prints a thought with a NUL and an escape sequence escaped', async () => {
  const lab = tmpLab();
  const id = writeEpisode(lab, { thoughts: ['fine', 'evil\u0000\u001b[31mred', 'ok'], actions: ["click('6')", "fill('3', 'a\u0000b')", "send_msg_to_user('done')"] });
  const cli = join(import.meta.dirname, '..', '..', 'main', 'cli', 'index.ts');
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', cli, '--lab', lab.dir, 'episodes', 'show', id]);
  assert.ok(!/[\u0000\u001b]/.test(stdout), JSON.stringify(stdout));
  assert.ok(stdout.includes('evil\\u{0}\\e[31mred'), stdout);
  // Actions read with their target named from the step's elements (issue 20), still escaped.
  assert.ok(stdout.includes('fill [3] textbox "City" ← "a\\u{0}b"'), stdout);
  assert.ok(stdout.includes('click [6] button "Add to cart"'), stdout);
});

test('one request that runs out names --endpoint-timeout', async () => {
  const server = await serve(() => {});
  try {
    const endpoint = new ChatEndpoint({ baseUrl: server.url, model: 'm', timeoutMs: 300, maxWaitMs: 0 });
    await assert.rejects(endpoint.chat({ messages: [{ role: 'user', content: 'x' }] }), /did not answer within 0\.3 s \(the per-request timeout, --endpoint-timeout\) \(gave up after 1 attempt: /);
  } finally {
    await server.close();
  }
});
