import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import type { Observation, PageElement } from '../../main/environment/types.ts';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import { useEnvironment } from '../helpers/environment.ts';

let host: ChromiumHost;
let server: FixtureServer;
let env: BrowserEnv;

useEnvironment({ stepTimeoutMs: 5000 }, (f) => ({ host, server, env } = f));

const byName = (obs: Observation, name: string): PageElement => {
  const el = obs.elements.find((e) => e.name === name && e.role !== 'text');
  assert.ok(el, `no element named ${JSON.stringify(name)} in ${obs.elements.map((e) => `${e.role}:${e.name}`).join(' | ')}`);
  return el;
};

test('observation lists form controls with roles, names, values and states', async () => {
  const obs = await env.reset({ instruction: 'Book a table', startUrl: `${server.url}/form.html` });
  assert.equal(obs.title, 'Form fixture');
  assert.equal(obs.url, `${server.url}/form.html`);
  assert.equal(obs.instruction, 'Book a table');
  assert.equal(obs.lastActionError, null);

  const name = byName(obs, 'Your name');
  assert.equal(name.role, 'textbox');
  assert.equal(name.tag, 'input');
  assert.equal(name.required, true);
  const size = byName(obs, 'Party size');
  assert.equal(size.role, 'combobox');
  assert.equal(size.value, 'One');
  assert.deepEqual(size.options, ['One', 'Two', 'Four']);
  assert.equal(byName(obs, 'Terrace').role, 'checkbox');
  assert.equal(byName(obs, 'Terrace').checked, false);
  assert.equal(byName(obs, 'Early').role, 'radio');
  assert.equal(byName(obs, 'Go to second page').role, 'link');
  assert.equal(byName(obs, 'Book a table').role, 'heading');
  assert.equal(byName(obs, 'Disabled button').disabled, true);
  assert.equal(byName(obs, 'Notes').role, 'textbox');
  assert.equal(byName(obs, 'Key target').role, 'generic', 'a focusable custom widget is listed');
  assert.ok(obs.elements.some((e) => e.role === 'text' && e.name === 'Fill in the form below.'), 'page text is listed');
  assert.ok(!obs.elements.some((e) => e.role === 'text' && e.name === 'Your name'), 'label text is not repeated as text');
});

test('hidden elements are left out; off-screen ones are listed as outside the viewport', async () => {
  const obs = await env.reset({ instruction: '', startUrl: `${server.url}/form.html` });
  for (const hidden of ['Hidden by display', 'Hidden by visibility', 'Hidden from AT']) {
    assert.ok(!obs.elements.some((e) => e.name === hidden), `${hidden} must not be listed`);
  }
  const far = byName(obs, 'Far button');
  assert.equal(far.visible, true);
  assert.equal(far.inViewport, false);
  assert.ok(far.box.y > 1500);
  const book = byName(obs, 'Book');
  assert.equal(book.inViewport, true);
  assert.ok(book.box.width > 10 && book.box.height > 10);
});

test('ids are written into the page and stay stable for unchanged elements', async () => {
  const obs = await env.reset({ instruction: '', startUrl: `${server.url}/form.html` });
  const book = byName(obs, 'Book');
  const r = await env.session.send('Runtime.evaluate', {
    expression: `document.querySelector('[data-lab-id="${book.id}"]').textContent`,
    returnByValue: true,
  });
  assert.equal(r.result.value, 'Book');
  const again = await env.observe();
  assert.equal(byName(again, 'Book').id, book.id);
  const ids = obs.elements.map((e) => Number(e.id));
  assert.deepEqual(ids, [...ids].sort((a, b) => a - b), 'elements come in document order');
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
});

test('screenshots are PNGs of the viewport, with set-of-marks boxes when asked', async () => {
  const shooter = new BrowserEnv(host, { screenshots: true, marks: true, viewport: { width: 640, height: 480 } });
  try {
    const obs = await shooter.reset({ instruction: '', startUrl: `${server.url}/form.html` });
    assert.ok(obs.screenshot);
    assert.deepEqual([...obs.screenshot.png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(''), 'PNG');
    assert.equal(obs.screenshot.png.readUInt32BE(16), 640);
    assert.equal(obs.screenshot.png.readUInt32BE(20), 480);
    // The overlay is gone after the shot: the page is left as it was.
    const r = await shooter.session.send('Runtime.evaluate', { expression: 'document.querySelectorAll("lab-marks").length', returnByValue: true });
    assert.equal(r.result.value, 0);
    const plain = new BrowserEnv(host, { screenshots: true, marks: false, viewport: { width: 640, height: 480 } });
    const clean = await plain.reset({ instruction: '', startUrl: `${server.url}/form.html` });
    assert.ok(!clean.screenshot!.png.equals(obs.screenshot.png), 'marks change the picture');
    await plain.close();
  } finally {
    await shooter.close();
  }
});

test('each episode gets an isolated browser context', async () => {
  await env.reset({ instruction: '', startUrl: `${server.url}/form.html` });
  await env.session.send('Runtime.evaluate', { expression: `localStorage.setItem('k', 'v'); document.cookie = 'c=1'` });
  await env.reset({ instruction: '', startUrl: `${server.url}/form.html` });
  const r = await env.session.send('Runtime.evaluate', { expression: `[localStorage.getItem('k'), document.cookie]`, returnByValue: true });
  assert.deepEqual(r.result.value, [null, '']);
});
