/**
 * Observation fidelity (issue 18) on small pages in real Chromium: what an agent reads of
 * script-made clickables, unbound labels, sentences with inline markup, a menu that opens late,
 * shadow DOM, a same-origin frame and a canvas, and that the ids it is given work.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BrowserEnv } from '../../main/environment/environment.ts';
import type { ChromiumHost } from '../../main/environment/chromium.ts';
import type { Observation, PageElement } from '../../main/environment/types.ts';
import { renderObservationText } from '../../main/policy/observation-text.ts';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import { useEnvironment } from '../helpers/environment.ts';

let host: ChromiumHost;
let server: FixtureServer;
let env: BrowserEnv;

useEnvironment({ stepTimeoutMs: 5000 }, (f) => ({ host, server, env } = f));

const open = (page: string) => env.reset({ instruction: '', startUrl: `${server.url}/fidelity/${page}` });
const lines = (obs: Observation) => renderObservationText(obs).split('\n').slice(2);
const find = (obs: Observation, role: string, name: string): PageElement => {
  const el = obs.elements.find((e) => e.role === role && e.name === name);
  assert.ok(el, `no ${role} ${JSON.stringify(name)} in:\n${lines(obs).join('\n')}`);
  return el;
};
const evaluate = async (expression: string) => (await env.session.send('Runtime.evaluate', { expression, returnByValue: true })).result.value;

test('elements made clickable by script get an id and a role', async () => {
  const obs = await open('clickables.html');
  assert.deepEqual(lines(obs), [
    '[5] generic "Open the report"',
    '[8] generic "Documents"',
    '[11] generic "Taxes.pdf"',
    '[12] generic "Ada Lunch on Friday"',
    '[15] generic "*"',
    '[19] cell',
    '[20] cell "X"',
    '[21] cell',
    '[22] generic "Focusable panel"',
    '[23] button "Role button"',
    '[24] gridcell',
    'Card title',
    '[27] button "Buy now"',
    '[28] link "Inner span of a link"',
    'Just a paragraph of text.',
  ]);
  // The list delegating its items' clicks, the card around a button and the span inside a link
  // are not targets of their own.
  assert.ok(!obs.elements.some((e) => e.role === 'list'));
  assert.ok(!obs.elements.some((e) => e.name === 'Card title' && e.role !== 'text'));
});

test('the ids of script-made clickables work with click', async () => {
  let obs = await open('clickables.html');
  let r = await env.step(`click('${find(obs, 'generic', 'Open the report').id}')`);
  assert.equal(r.error, null);
  find(r.observation, 'generic', 'Opened');
  obs = r.observation;
  r = await env.step(`click('${find(obs, 'generic', 'Taxes.pdf').id}')`);
  assert.equal(r.error, null);
  assert.equal(await evaluate(`document.querySelector('#tree ul span').dataset.picked`), '1');
  const empty = r.observation.elements.find((e) => e.role === 'cell' && e.name === '')!;
  r = await env.step(`click('${empty.id}')`);
  assert.equal(r.error, null);
  assert.equal(r.observation.elements.find((e) => e.id === empty.id)?.name, 'O');
});

test('sentences keep inline markup and link words in place; unbound labels name the control beside them', async () => {
  const obs = await open('text.html');
  assert.deepEqual(lines(obs), [
    'Enter "kiwi" into the field and press Submit.',
    'Lorem ipsum dolor sit amet, consectetur elit.',
    '[8] generic "ipsum"',
    '[9] link "sit"',
    'Times: 05:50 – 12:20',
    'First line Second line',
    '[18] textbox "Username"',
    '[20] textbox "Password"',
    '[21] checkbox "Remember me"',
    '[24] textbox "Bound label"',
    '[25] button "Submit"',
    'A label beside nothing',
  ]);
  const r = await env.step(`fill('${find(obs, 'textbox', 'Username').id}', 'ada')`);
  assert.equal(r.error, null);
  assert.equal(await evaluate(`document.getElementById('username').value`), 'ada');
});

test("textLayout 'runs' keeps the layout observations had before", async () => {
  const old = new BrowserEnv(host, { textLayout: 'runs' });
  try {
    const obs = await old.reset({ instruction: '', startUrl: `${server.url}/fidelity/text.html` });
    const text = lines(obs);
    // Words in inline elements stood on lines of their own; link words were dropped.
    assert.ok(text.includes('Enter " " into the field and press Submit.'), text.join('\n'));
    assert.ok(text.includes('Lorem dolor amet, elit.'), text.join('\n'));
  } finally {
    await old.close();
  }
});

test('the observation after fill shows a menu that opens 300 ms later', async () => {
  const obs = await open('delayed-menu.html');
  const r = await env.step(`fill('${find(obs, 'textbox', 'City').id}', 'Bo')`);
  assert.equal(r.error, null);
  // The menu's 300 ms timer starts at the input event, inside the action; under load the action
  // itself can take 50 ms or more, so settle is held to the span of both (the fresh-clone suite
  // beside a training run once measured settle at 249.8 ms with the menu shown, as it should be).
  assert.ok(r.timing.actionMs + r.timing.settleMs >= 250, `action ${r.timing.actionMs} ms + settle ${r.timing.settleMs} ms`);
  const suggestions = r.observation.elements.filter((e) => e.role === 'generic').map((e) => e.name);
  assert.deepEqual(suggestions, ['Boston', 'Bogota', 'Bordeaux']);
  const pick = await env.step(`click('${find(r.observation, 'generic', 'Bogota').id}')`);
  assert.equal(pick.error, null);
  assert.equal(find(pick.observation, 'textbox', 'City').value, 'Bogota');
});

test('shadow DOM content is listed in place and its ids work; a canvas widget is listed with its box', async () => {
  const obs = await open('shadow-frame-canvas.html');
  const text = lines(obs);
  assert.deepEqual(text.slice(0, 3), ['Outside text.', 'Shadow text.', `[${find(obs, 'button', 'Shadow button').id}] button "Shadow button"`]);
  const r = await env.step(`click('${find(obs, 'button', 'Shadow button').id}')`);
  assert.equal(r.error, null);
  const canvas = obs.elements.find((e) => e.tag === 'canvas');
  assert.ok(canvas && canvas.role === 'generic' && canvas.visible, 'the canvas is listed as a clickable');
  assert.ok(canvas.box.width === 200 && canvas.box.height === 60);
});

test('content of a same-origin frame is listed in place and its ids work', async () => {
  const obs = await open('shadow-frame-canvas.html');
  const text = lines(obs);
  const button = find(obs, 'button', 'Frame button');
  assert.deepEqual(text.slice(3, 5), ['Inside the frame.', `[${button.id}] button "Frame button"`]);
  // The box is in the page's coordinates: inside the frame element, below the outside text.
  const frame = obs.elements.find((e) => e.name === 'Inside the frame.')!;
  assert.ok(frame.box.y > 50 && button.box.y > frame.box.y, JSON.stringify([frame.box, button.box]));
  const r = await env.step(`click('${button.id}')`);
  assert.equal(r.error, null);
  find(r.observation, 'button', 'Frame clicked');
});
