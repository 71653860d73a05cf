// What the endpoint agent sends a vision model, checked on the wire: against `lab serve` (which
// records every request body) and against a scripted OpenAI-compatible server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLab as lab } from '../helpers/lab-cli.ts';
import { startChatServer } from '../helpers/chat-server.ts';
import { LabStore } from '../../main/store/lab.ts';
import { MODEL_NAME, useServedModel, type ServedModel } from './helpers.ts';

let served: ServedModel;
useServedModel((s) => (served = s));

interface Body {
  model: string;
  max_tokens?: number;
  temperature?: number;
  messages: Array<{ role: string; content: string | Array<{ type: string; text?: string; image_url?: { url: string; detail?: string } }> }>;
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(dataUrl: string): { width: number; height: number } {
  assert.match(dataUrl, /^data:image\/png;base64,/);
  const png = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  assert.equal(png.subarray(12, 16).toString('ascii'), 'IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The one image part of a step's request, and the user text beside it. */
function imageOf(body: Body): { url: string; detail?: string; text: string } {
  assert.equal(body.messages.length, 2);
  assert.equal(body.messages[0].role, 'system');
  assert.match(String(body.messages[0].content), /each element boxed and labelled with its id/);
  const user = body.messages[1];
  assert.equal(user.role, 'user');
  assert.ok(Array.isArray(user.content), 'the user message is content parts');
  const parts = user.content as Array<{ type: string; text?: string; image_url?: { url: string; detail?: string } }>;
  assert.deepEqual(parts.map((p) => p.type), ['text', 'image_url'], 'text first, then exactly one image');
  return { ...parts[1].image_url!, text: parts[0].text! };
}

test('a vision endpoint agent through lab serve: each step sends the model name, max_tokens and one set-of-marks PNG at the asked size and detail', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-vision-serve-'));
  const before = served.bodies.length;
  const { stdout } = await lab('--lab', dir, 'episode', '--task', 'shop', '--seed', '10003', '--agent', 'endpoint', '--endpoint', served.baseUrl, '--model', MODEL_NAME,
    '--vision', '--image-max-side', '512', '--image-detail', 'high', '--max-tokens', '48', '--max-steps', '2', '--json');
  const out = JSON.parse(stdout);
  const bodies = served.bodies.slice(before) as Body[];
  assert.equal(bodies.length, out.llm.calls);
  assert.ok(bodies.length >= 1);
  for (const body of bodies) {
    assert.equal(body.model, MODEL_NAME);
    assert.equal(body.max_tokens, 48);
    assert.equal(body.temperature, 0.7);
    const image = imageOf(body);
    assert.equal(image.detail, 'high');
    // The 1024x768 viewport, its longer side scaled to 512 by Chromium.
    assert.deepEqual(pngSize(image.url), { width: 512, height: 384 });
    assert.match(image.text, /^Task: /);
    assert.match(image.text, /Page:\n/);
  }
  // What the model saw is what the lab keeps: the step's screenshot is that image.
  const store = new LabStore(dir);
  const ep = store.readEpisode(out.id);
  assert.equal(ep.header.agent.config?.imageMaxSide, 512);
  assert.equal(ep.header.agent.config?.imageDetail, 'high');
  const first = ep.steps[0].observation.screenshot!;
  assert.equal(`data:image/png;base64,${store.blobs.get(first).toString('base64')}`, imageOf(bodies[0]).url);
});

test('without --image-max-side the image is the whole viewport, 1024x768, and no detail is sent', async () => {
  const chat = await startChatServer(() => "The form is there; I stop here.\nsend_msg_to_user('done')");
  try {
    const dir = mkdtempSync(join(tmpdir(), 'lab-vision-chat-'));
    await lab('--lab', dir, 'episode', '--task', 'shop', '--seed', '10003', '--agent', 'endpoint', '--endpoint', chat.baseUrl, '--model', 'Qwen/Qwen2.5-VL-7B-Instruct', '--vision', '--json');
    assert.equal(chat.requests.length, 1, 'the message ends the episode after one call');
    const body = chat.requests[0] as unknown as Body;
    assert.equal(body.model, 'Qwen/Qwen2.5-VL-7B-Instruct');
    assert.equal(body.max_tokens, 256);
    const image = imageOf(body);
    assert.equal(image.detail, undefined);
    assert.deepEqual(pngSize(image.url), { width: 1024, height: 768 });
  } finally {
    await chat.close();
  }
  await assert.rejects(lab('episode', '--task', 'shop', '--seed', '1', '--image-detail', 'huge'), /--image-detail must be low, high or auto/);
  await assert.rejects(lab('episode', '--task', 'shop', '--seed', '1', '--image-max-side', '10'), /--image-max-side must be an integer >= 64/);
});
