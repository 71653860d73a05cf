/**
 * Web mode's API socket against clients that break the WebSocket protocol after a valid upgrade:
 * an unmasked frame (raw TCP) and a message over the 16 MiB limit. Each must close only that
 * connection, with the close code RFC 6455 names (1002, 1009), while other clients go on.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { WebSocket } from 'ws';
import { LabStore } from '../../main/store/lab.ts';
import { LabService } from '../../main/server/service.ts';
import { startWebServer, type WebServer } from '../../main/server/web.ts';
import { apiSocket, requestAs } from '../helpers/web-client.ts';

let service: LabService;
let web: WebServer;

before(async () => {
  const labDir = mkdtempSync(join(tmpdir(), 'lab-ws-errors-'));
  service = new LabService({
    store: new LabStore(labDir),
    families: new Map(),
    mode: 'web',
    startBrowser: () => Promise.reject(new Error('no browser in this test')),
  });
  web = await startWebServer({ service, rendererDir: mkdtempSync(join(tmpdir(), 'lab-no-renderer-')) });
});

after(async () => {
  await web?.close();
  await service?.close();
});

async function openClient(): Promise<{ ws: WebSocket; call: (method: string) => Promise<any> }> {
  const ws = apiSocket(web);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let id = 0;
  const call = (method: string) =>
    new Promise<any>((resolve, reject) => {
      const mine = ++id;
      const onMessage = (raw: unknown) => {
        const msg = JSON.parse(String(raw));
        if (msg.id !== mine) return;
        ws.off('message', onMessage);
        if (msg.error !== undefined) reject(new Error(msg.error));
        else resolve(msg.result);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id: mine, method, params: [] }));
    });
  return { ws, call };
}

/** A raw TCP connection upgraded by hand, so the test can send frames no WebSocket client would. */
async function rawUpgrade(): Promise<{ socket: Socket; received: () => Buffer; ended: Promise<void> }> {
  const { port } = new URL(web.apiUrl);
  const socket = connect(Number(port), '127.0.0.1');
  let data = Buffer.alloc(0);
  socket.on('data', (d) => (data = Buffer.concat([data, d])));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    `GET /api HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${web.token}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  const deadline = Date.now() + 5000;
  while (!data.includes('\r\n\r\n')) {
    if (Date.now() > deadline) throw new Error(`no upgrade response; got ${JSON.stringify(data.toString())}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  const head = data.subarray(0, data.indexOf('\r\n\r\n') + 4).toString();
  assert.match(head, /^HTTP\/1\.1 101 /, head);
  const bodyStart = head.length;
  return { socket, received: () => data.subarray(bodyStart), ended };
}

test('a malformed percent-encoding in the path is a 400, not a 500', async () => {
  for (const path of ['/%ZZ', '/assets/%E0%A4%A.js', '/%']) {
    const res = await requestAs(web, path);
    assert.equal(res.status, 400, path);
    assert.match(res.body, /malformed percent-encoding/);
  }
  assert.equal((await requestAs(web, '/no-such-file.js')).status, 404, 'a well-formed missing path is still a 404');
});

test('an unmasked frame closes that connection with 1002 and the server keeps serving', async () => {
  const other = await openClient();
  assert.equal((await other.call('info')).mode, 'web');

  const raw = await rawUpgrade();
  // FIN + text opcode, then a 5-byte payload length with the MASK bit clear: clients must mask.
  raw.socket.write(Buffer.concat([Buffer.from([0x81, 0x05]), Buffer.from('hello')]));
  await raw.ended;
  const frame = raw.received();
  assert.equal(frame[0], 0x88, `expected a close frame, got ${frame.toString('hex')}`);
  assert.equal(frame.readUInt16BE(2), 1002);

  assert.equal((await other.call('info')).mode, 'web', 'the other client still gets answers');
  const fresh = await openClient();
  assert.equal((await fresh.call('info')).mode, 'web', 'a new client can connect');
  other.ws.close();
  fresh.ws.close();
});

test('a message over 16 MiB closes that connection with 1009 and the server keeps serving', async () => {
  const other = await openClient();
  const big = await openClient();
  const closed = new Promise<number>((resolve) => big.ws.once('close', (code) => resolve(code)));
  big.ws.on('error', () => {}); // the client side may see the reset too; the close code is what counts
  big.ws.send(Buffer.alloc(16 * 1024 * 1024 + 1, 0x20));
  assert.equal(await closed, 1009);
  assert.equal((await other.call('info')).mode, 'web', 'the other client still gets answers');
  other.ws.close();
});
