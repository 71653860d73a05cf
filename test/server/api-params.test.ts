/**
 * Every method of the API contract checks its arguments before the service sees them: called over
 * web mode's real WebSocket with arguments of the wrong type (each argument in turn) or the wrong
 * number of them, each is refused with an error naming the method and the argument, and the lab
 * is left as it was.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { z } from 'zod';
import { METHODS } from '../../preload/api.ts';
import { PARAMS, parseParams } from '../../main/server/params.ts';
import { LabStore } from '../../main/store/lab.ts';
import { LabService } from '../../main/server/service.ts';
import { startWebServer, type WebServer } from '../../main/server/web.ts';
import { apiSocket } from '../helpers/web-client.ts';

let labDir: string;
let service: LabService;
let web: WebServer;
let ws: WebSocket;
let nextId = 0;

before(async () => {
  labDir = mkdtempSync(join(tmpdir(), 'lab-api-params-'));
  service = new LabService({ store: new LabStore(labDir), families: new Map(), mode: 'web', startBrowser: () => Promise.reject(new Error('no browser in this test')) });
  web = await startWebServer({ service, rendererDir: mkdtempSync(join(tmpdir(), 'lab-no-renderer-')) });
  ws = apiSocket(web);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
});

after(async () => {
  ws?.close();
  await web?.close();
  await service?.close();
});

function call(method: string, params: unknown): Promise<unknown> {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    const onMessage = (raw: unknown) => {
      const msg = JSON.parse(String(raw));
      if (msg.id !== id) return;
      ws.off('message', onMessage);
      if (msg.error !== undefined) reject(new Error(msg.error));
      else resolve(msg.result);
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, method, params }));
  });
}

const items = (method: keyof typeof PARAMS) => (PARAMS[method] as unknown as { def: { items: z.ZodType[] } }).def.items;

/** A JSON value this argument's schema refuses: the first of a few of different types. */
function wrongValueFor(schema: z.ZodType): unknown {
  const candidate = [42, 'not-the-right-thing', true, null, [], { unexpected: 1 }].find((v) => !schema.safeParse(v).success);
  assert.ok(candidate !== undefined, 'some value of the wrong type exists');
  return candidate;
}

/** Arguments that pass: only used to fill the positions not under test (any valid value will do). */
function validValueFor(schema: z.ZodType): unknown {
  const candidates = ['ep-1', 7, 0, 'family', 'run', 'step', 'sharegpt', {}, { type: 'step', step: 0, label: 'ok' }, { kind: 'back' }, ['a', 'b'], { kind: 'run', id: 'r' }];
  return candidates.find((v) => schema.safeParse(v).success);
}

test('the schema table names every method of the contract, and nothing else', () => {
  assert.deepEqual(Object.keys(PARAMS).sort(), [...METHODS].sort());
});

test('every method, called over the WebSocket with an argument of the wrong type, is refused naming the method and the argument', async () => {
  const before = readdirSync(labDir).sort();
  let refused = 0;
  for (const method of METHODS) {
    const schemas = items(method);
    for (let position = 0; position < schemas.length; position++) {
      const args = schemas.map((s, i) => (i === position ? wrongValueFor(s) : validValueFor(s)));
      await assert.rejects(call(method, args), (err: Error) => {
        assert.match(err.message, new RegExp(`^${method}: argument ${position + 1}`), `${method} with ${JSON.stringify(args)}`);
        return true;
      });
      refused++;
    }
    // One argument too many, for every method (the zero-argument ones included).
    await assert.rejects(call(method, [...schemas.map(validValueFor), 'extra']), new RegExp(`^Error: ${method}: takes ${schemas.length} argument`));
    await assert.rejects(call(method, { not: 'an array' }), new RegExp(`^Error: ${method}: the arguments must be an array`));
  }
  assert.ok(refused >= 35, `every argument of every method was tried (${refused})`);
  assert.deepEqual(readdirSync(labDir).sort(), before, 'nothing was written');
});

test('a field deep inside an argument is named with its path', () => {
  assert.throws(() => parseParams('editLabels', ['ep-1', { type: 'step', step: -1, label: 'ok' }]), /^Error: editLabels: argument 2: field step: /);
  assert.throws(() => parseParams('startLiveDecode', [{ prompt: '', k: 2, maxNew: 8 }]), /^Error: startLiveDecode: argument 1: field prompt: an empty prompt has nothing to continue/);
  assert.throws(() => parseParams('previewDataset', [{ families: ['shop'], bogus: true }]), /^Error: previewDataset: argument 1: /);
  assert.throws(() => parseParams('startDecodeBench', [{ ks: [1], maxNew: 8, sampling: { kind: 'nucleus', topP: 2, temperature: 1 } }]), /field sampling\.topP/);
  assert.deepEqual(parseParams('startDemo', ['shop', 3]), ['shop', 3]);
});

test('valid calls still reach the service through the check', async () => {
  assert.deepEqual(await call('listTasks', []), []);
  const info = (await call('info', [])) as { mode: string };
  assert.equal(info.mode, 'web');
  await assert.rejects(call('readEpisode', ['no-such-episode']), /no episode no-such-episode/);
});
