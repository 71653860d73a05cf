/**
 * The coordinate actions in real Chromium: presses at viewport points reach what the element list
 * cannot name (a canvas widget, a piece a page drags itself), typing reaches the focused field,
 * and an environment that does not allow the `coord` set refuses them without touching the page.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { ACTION_SET_NAMES, DEFAULT_ACTION_SETS } from '../../main/environment/action-sets.ts';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import { useEnvironment } from '../helpers/environment.ts';

let host: ChromiumHost;
let server: FixtureServer;
let env: BrowserEnv;

useEnvironment({ stepTimeoutMs: 5000, actionSets: [...ACTION_SET_NAMES] }, (f) => ({ host, server, env } = f));

const pageValue = async (e: BrowserEnv, expr: string) => (await e.session.send('Runtime.evaluate', { expression: expr, returnByValue: true })).result.value;
const text = (e: BrowserEnv, id: string) => pageValue(e, `document.getElementById('${id}').textContent`);

async function step(action: string) {
  const r = await env.step(action);
  assert.equal(r.error, null, `${action} failed: ${JSON.stringify(r.error)}`);
  return r.observation;
}

test('mouse_click at the centre of a canvas widget\'s box reaches the canvas there', async () => {
  const obs = await env.reset({ instruction: '', startUrl: `${server.url}/fidelity/shadow-frame-canvas.html` });
  const canvas = obs.elements.find((e) => e.tag === 'canvas');
  assert.ok(canvas, 'the canvas is listed with its box');
  const [x, y] = [canvas.box.x + canvas.box.width / 2, canvas.box.y + canvas.box.height / 2];
  const after = await step(`mouse_click(${x}, ${y})`);
  // The page writes where in the canvas the click landed: its middle, 200x60.
  assert.equal(after.title, 'canvas 100,30');
});

test('mouse_drag_and_drop drags a piece the page moves on pointer events into its goal', async () => {
  await env.reset({ instruction: '', startUrl: `${server.url}/coordinates.html` });
  await step('mouse_drag_and_drop(40, 40, 380, 180)');
  assert.match(await text(env, 'status'), /^Piece in goal after [2-9]\d* moves$/, 'the page saw the pointer travel with the button held');
  assert.equal(await pageValue(env, `document.getElementById('piece').getBoundingClientRect().left`), 360);
});

test('mouse_down, mouse_move and mouse_up in separate steps drag with the button held between them', async () => {
  await env.reset({ instruction: '', startUrl: `${server.url}/coordinates.html` });
  await step('mouse_down(40, 40)');
  await step('mouse_move(200, 100)');
  await step('mouse_move(380, 180)');
  await step('mouse_up(380, 180)');
  assert.match(await text(env, 'status'), /^Piece in goal after [2-9] moves$/);
});

test('mouse_dblclick and a right mouse_click land where they are told', async () => {
  await env.reset({ instruction: '', startUrl: `${server.url}/coordinates.html` });
  await step('mouse_click(200, 100)');
  assert.equal(await text(env, 'clicks'), 'Board clicked at 200,100');
  await step('mouse_dblclick(210, 110)');
  assert.equal(await text(env, 'clicks'), 'Board double-clicked at 210,110');
  await step("mouse_click(220, 120, 'right')");
  assert.equal(await text(env, 'clicks'), 'Board right-clicked at 220,120');
});

test('keyboard_type types key by key into whatever has focus', async () => {
  await env.reset({ instruction: '', startUrl: `${server.url}/coordinates.html` });
  await step('mouse_click(100, 260)'); // into the notes field, by its place on the page
  assert.equal(await pageValue(env, 'document.activeElement.id'), 'notes');
  await step("keyboard_type('Hi there, 42!\\nCafé + tea')");
  assert.equal(await pageValue(env, `document.getElementById('notes').value`), 'Hi there, 42!\nCafé + tea');
  const keys = await pageValue(env, 'window.notesKeys');
  assert.deepEqual(keys.slice(0, 3), ['H', 'i', ' '], 'one keydown per character');
  assert.ok(keys.includes('Enter'), 'a newline is Enter');
  assert.ok(!keys.includes('é'), 'a character beyond ASCII is inserted as text, with no key');
});

test('points outside the viewport are refused as invalid_argument, naming the viewport, and nothing is pressed', async () => {
  await env.reset({ instruction: '', startUrl: `${server.url}/coordinates.html` });
  const before = await pageValue(env, 'window.inputEvents');
  for (const action of ['mouse_click(1024, 10)', 'mouse_move(-1, 5)', 'mouse_down(10, 768)', 'mouse_drag_and_drop(40, 40, 40, 900)', "mouse_up(2000, 2000, 'right')"]) {
    const r = await env.step(action);
    assert.equal(r.error?.code, 'invalid_argument', `${action}: ${JSON.stringify(r.error)}`);
    assert.match(r.error!.message, /is outside the viewport \(1024x768\): x must be in \[0, 1024\) and y in \[0, 768\)/, action);
  }
  assert.equal(await pageValue(env, 'window.inputEvents'), before, 'no event reached the page');
  assert.equal(await text(env, 'status'), 'Piece at start');
});

test('without the coord set a coordinate action fails as action_not_allowed, listing the allowed sets, and the page sees nothing', async () => {
  const plain = new BrowserEnv(host, { stepTimeoutMs: 5000 });
  try {
    assert.deepEqual(plain.options.actionSets, DEFAULT_ACTION_SETS, 'coord is not in the default');
    await plain.reset({ instruction: '', startUrl: `${server.url}/coordinates.html` });
    const before = await pageValue(plain, 'window.inputEvents');
    for (const action of ['mouse_click(40, 40)', 'mouse_drag_and_drop(40, 40, 380, 180)', "keyboard_type('x')"]) {
      const r = await plain.step(action);
      assert.equal(r.error?.code, 'action_not_allowed', `${action}: ${JSON.stringify(r.error)}`);
      assert.match(r.error!.message, /is in the action set 'coord', which is not allowed here \(allowed: bid, nav, chat, misc\)/);
      assert.equal(r.done, false);
      assert.deepEqual(r.observation.lastActionError, r.error);
    }
    assert.equal(await pageValue(plain, 'window.inputEvents'), before, 'no event reached the page');
    assert.equal(await text(plain, 'status'), 'Piece at start');
    assert.equal(await text(plain, 'clicks'), 'No clicks');
    // The other sets work as before.
    assert.equal((await plain.step('scroll(0, 10)')).error, null);
  } finally {
    await plain.close();
  }
  // And an environment allowed only some sets refuses the rest the same way.
  const clicksOnly = new BrowserEnv(host, { stepTimeoutMs: 5000, actionSets: ['coord', 'bid'] });
  try {
    await clicksOnly.reset({ instruction: '', startUrl: `${server.url}/coordinates.html` });
    const r = await clicksOnly.step(`goto('${server.url}/form.html')`);
    assert.equal(r.error?.code, 'action_not_allowed');
    assert.match(r.error!.message, /^goto is in the action set 'nav', which is not allowed here \(allowed: bid, coord\)$/);
    assert.equal(r.observation.title, 'Coordinates', 'the page did not navigate');
  } finally {
    await clicksOnly.close();
  }
  assert.throws(() => new BrowserEnv(host, { actionSets: ['bid', 'mouse' as 'bid'] }), /unknown action set "mouse"/);
});
