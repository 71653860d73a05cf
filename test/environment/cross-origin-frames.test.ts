/**
 * Frames of another site (issue 18): Chromium runs them in processes of their own, out of the
 * page's CDP session's reach. In real Chromium, with three loopback sites (127.0.0.1, localhost,
 * 127.0.0.2): the frame's elements are listed in place with ids that name their frame, actions on
 * them land (in a frame inside a frame too), and the frame carries the page's loopback guard: it
 * cannot reach another port on this machine. Before this, the frame was blank to the agent and
 * reached the other port unhindered.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import type { Observation, PageElement } from '../../main/environment/types.ts';
import { renderObservationText } from '../../main/policy/observation-text.ts';
import { sortByLabId } from '../../main/environment/observe.ts';
import { framePrefix } from '../../main/environment/remote-frames.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';

let host: ChromiumHost;
let page: FixtureServer; // 127.0.0.1: the page's site; its files again as http://localhost:port, a second site
let third: FixtureServer; // 127.0.0.2: a third site
let env: BrowserEnv;
let other: Server; // another local service the frames must not reach
let otherPort = 0;
const otherHits: string[] = [];

before(async () => {
  [page, third, host] = await Promise.all([startFixtureServer(), startFixtureServer('127.0.0.2'), ChromiumHost.start()]);
  env = new BrowserEnv(host, { stepTimeoutMs: 5000 });
  other = createServer((req, res) => {
    otherHits.push(req.url ?? '');
    res.writeHead(200, { 'access-control-allow-origin': '*' }).end('ok');
  });
  other.on('upgrade', (req, socket) => {
    otherHits.push(`upgrade ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
  otherPort = (other.address() as AddressInfo).port;
});

after(async () => {
  await env?.close();
  await host?.close();
  await Promise.all([page?.close(), third?.close(), new Promise<void>((r) => (other.closeAllConnections(), other.close(() => r())))]);
});

const secondSite = () => page.url.replace('127.0.0.1', 'localhost');
const frameUrl = (site: string, params: Record<string, string> = {}) => `${site}/fidelity/cross-origin-frame.html?${new URLSearchParams(params)}`;

/** Open the page with a frame of the second site; the task allows all three sites. */
async function open(frame: string): Promise<Observation> {
  await env.reset({
    instruction: '',
    startUrl: `${page.url}/fidelity/cross-origin.html?frame=${encodeURIComponent(frame)}`,
    allowedOrigins: [page.url, secondSite(), third.url],
  });
  // The frames load after the page: read again until the text that says they are there shows.
  return waitFor((obs) => obs.elements.some((e) => e.name === 'Frame button'), 'the frame');
}

async function waitFor(ok: (obs: Observation) => boolean, what: string): Promise<Observation> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const obs = await env.observe();
    if (ok(obs)) return obs;
    if (Date.now() > deadline) throw new Error(`${what} never showed:\n${lines(obs).join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const lines = (obs: Observation) => renderObservationText(obs).split('\n').slice(2);
const find = (obs: Observation, role: string, name: string): PageElement => {
  const el = obs.elements.find((e) => e.role === role && e.name === name);
  assert.ok(el, `no ${role} ${JSON.stringify(name)} in:\n${lines(obs).join('\n')}`);
  return el;
};

test('a frame of another site is listed in place, its ids named by a frame prefix', async () => {
  const obs = await open(frameUrl(secondSite()));
  const text = lines(obs);
  const button = find(obs, 'button', 'Frame button');
  const city = find(obs, 'textbox', 'City');
  assert.match(button.id, /^a\d+$/);
  assert.match(city.id, /^a\d+$/);
  // Reading order: the frame's content between the page's text before and after the frame.
  const at = (line: string) => text.indexOf(line);
  assert.ok(at('Before the frame.') >= 0 && at('After the frame.') >= 0, text.join('\n'));
  assert.ok(at('Before the frame.') < at('Inside the frame site.'), text.join('\n'));
  assert.ok(at('Inside the frame site.') < at(`[${button.id}] button "Frame button"`), text.join('\n'));
  assert.ok(at(`[${city.id}] textbox "City"`) < at('After the frame.'), text.join('\n'));
  // Boxes are in the page's coordinates: inside the <iframe>'s box (x 16 + 30 margin + 6 border).
  const frame = await env.session.send('Runtime.evaluate', {
    expression: `(() => { const r = document.getElementById('frame').getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; })()`,
    returnByValue: true,
  });
  const f = frame.result.value;
  assert.ok(button.box.x >= f.x + 6 && button.box.y >= f.y + 6, JSON.stringify({ button: button.box, frame: f }));
  assert.ok(button.box.x + button.box.width <= f.x + f.w && button.box.y + button.box.height <= f.y + f.h, JSON.stringify({ button: button.box, frame: f }));
  assert.ok(button.visible && button.inViewport);
});

test('click and fill reach elements of a frame of another site', async () => {
  let obs = await open(frameUrl(secondSite()));
  let r = await env.step(`click('${find(obs, 'button', 'Frame button').id}')`);
  assert.equal(r.error, null);
  obs = await waitFor((o) => o.elements.some((e) => e.name === 'Clicked inside the frame.'), 'the click');
  r = await env.step(`fill('${find(obs, 'textbox', 'City').id}', 'Boston')`);
  assert.equal(r.error, null);
  assert.equal(find(r.observation, 'textbox', 'City').value, 'Boston');
  // An id of a frame the page does not have is named as such, not looked for in the page.
  r = await env.step("click('zz3')");
  assert.equal(r.error?.code, 'unknown_element');
});

test('a frame of a third site inside the frame gets its own prefix, and its clicks land through both frames', async () => {
  const inner = frameUrl(third.url, { label: 'Inner' });
  let obs = await open(frameUrl(secondSite(), { inner }));
  obs = await waitFor((o) => o.elements.some((e) => e.name === 'Inner button'), 'the inner frame');
  const button = find(obs, 'button', 'Inner button');
  assert.match(button.id, /^b\d+$/);
  const text = lines(obs);
  // In place: after the outer frame's own controls, before the page's text after the frame.
  assert.ok(text.indexOf(`[${button.id}] button "Inner button"`) > text.findIndex((l) => l.endsWith('textbox "City"')), text.join('\n'));
  assert.ok(text.indexOf(`[${button.id}] button "Inner button"`) < text.indexOf('After the frame.'), text.join('\n'));
  const r = await env.step(`click('${button.id}')`);
  assert.equal(r.error, null);
  obs = await waitFor((o) => o.elements.filter((e) => e.name === 'Clicked inside the frame.').length === 1, 'the inner click');
  // The click landed in the inner frame, not the outer one (whose button was not pressed).
  const clicked = obs.elements.find((e) => e.name === 'Clicked inside the frame.')!;
  assert.match(clicked.id, /^b\d+$/);
});

test('a frame of another site carries the loopback guard: it cannot reach another local port', async () => {
  otherHits.length = 0;
  await open(frameUrl(secondSite(), { probe: `http://127.0.0.1:${otherPort}` }));
  await waitFor((o) => o.elements.some((e) => e.name === 'Probes done.'), 'the probes');
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(otherHits, [], 'the frame reached a loopback port outside the task');
});

test('frame prefixes are letters, and frame ids sort after their frame element', () => {
  assert.deepEqual([0, 1, 25, 26, 27, 701, 702].map(framePrefix), ['a', 'b', 'z', 'aa', 'ab', 'zz', 'aaa']);
  const els = ['12', 'a3', '4', 'b1', 'a10', '20', '5'].map((id) => ({ id }) as PageElement);
  sortByLabId(els, new Map([['a', '5'], ['b', 'a3']]));
  assert.deepEqual(els.map((e) => e.id), ['4', '5', 'a3', 'b1', 'a10', '12', '20']);
});
