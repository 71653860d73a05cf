import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import type { Observation, StepResult } from '../../main/environment/types.ts';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import { useEnvironment } from '../helpers/environment.ts';

const STEP_TIMEOUT = 2000;
let host: ChromiumHost;
let server: FixtureServer;
let env: BrowserEnv;

// The unreachable host fails to resolve at once, as it would on a machine with working DNS; left
// to the system resolver, a loaded machine without one can take longer than the step timeout.
useEnvironment({ stepTimeoutMs: STEP_TIMEOUT }, (f) => ({ host, server, env } = f), ['--host-resolver-rules=MAP unreachable.invalid ~NOTFOUND']);

const open = () => env.reset({ instruction: '', startUrl: `${server.url}/faults.html` });
const id = (obs: Observation, name: string) => {
  const el = obs.elements.find((e) => e.name === name && e.role !== 'text');
  assert.ok(el, `no element ${name}`);
  return el.id;
};

/**
 * Every fault must end its step with its named error, never hang: bounded by the step timeout plus
 * the observation's own timeout, with slack for a loaded machine (this is a bound, not a benchmark).
 */
async function timedStep(action: string): Promise<StepResult & { ms: number }> {
  const t0 = Date.now();
  const r = await env.step(action);
  const ms = Date.now() - t0;
  assert.ok(ms < STEP_TIMEOUT + env.options.observeTimeoutMs + 5000, `${action} took ${ms} ms`);
  return { ...r, ms };
}

for (const [button, type, effect] of [
  ['Alert', 'alert', null],
  ['Confirm', 'confirm', 'no'],
  ['Prompt', 'prompt', 'null'],
] as const) {
  test(`${type}() dialogs are dismissed and recorded as dialog_opened`, async () => {
    const obs = await open();
    const r = await timedStep(`click('${id(obs, button)}')`);
    assert.equal(r.error?.code, 'dialog_opened');
    assert.match(r.error!.message, new RegExp(`^${type} dialog dismissed`));
    assert.equal(r.done, false);
    if (effect) assert.ok(r.observation.elements.some((e) => e.name === effect), 'the page saw the dismissal');
  });
}

test('a beforeunload dialog is accepted so the navigation completes', async () => {
  let obs = await open();
  obs = (await timedStep(`click('${id(obs, 'Guard')}')`)).observation;
  const r = await timedStep(`click('${id(obs, 'Leave')}')`);
  assert.equal(r.error?.code, 'dialog_opened');
  assert.match(r.error!.message, /beforeunload dialog accepted/);
  assert.equal(r.observation.title, 'Second page');
});

test('window.open and target=_blank popups are closed and recorded as popup_blocked', async () => {
  for (const name of ['Popup', 'New tab link']) {
    const obs = await open();
    const r = await timedStep(`click('${id(obs, name)}')`);
    assert.equal(r.error?.code, 'popup_blocked', name);
    assert.equal(r.observation.title, 'Faults', 'the agent stays on its page');
    // Chromium lists a closed target for a moment after Target.closeTarget returns (seen under load).
    const popupListed = async () => (await host['conn'].send('Target.getTargets'))
      .targetInfos.some((t) => t.type === 'page' && t.url.endsWith('/second.html'));
    const deadline = Date.now() + 5_000;
    while ((await popupListed()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.ok(!(await popupListed()), 'the popup is gone');
  }
});

test('navigation to an unreachable host ends the step with navigation_failed', async () => {
  const obs = await open();
  const r = await timedStep(`click('${id(obs, 'Unreachable link')}')`);
  assert.equal(r.error?.code, 'navigation_failed');
  // Without the network guard the browser resolves the name itself; through it, the guard closes
  // the connection it cannot carry and the message says why.
  assert.match(r.error!.message, /ERR_NAME_NOT_RESOLVED loading http:\/\/unreachable\.invalid\/|ERR_EMPTY_RESPONSE loading http:\/\/unreachable\.invalid\/ \(cannot resolve unreachable\.invalid: [A-Z_]+\)/);
  const g = await timedStep(`goto('http://unreachable.invalid/x')`);
  assert.equal(g.error?.code, 'navigation_failed');
  const start = await env.reset({ instruction: '', startUrl: 'http://unreachable.invalid/' });
  assert.equal(start.lastActionError?.code, 'navigation_failed');
});

test('a page stuck in an endless loop ends the step with page_hang and the page recovers', async () => {
  let obs = await open();
  const r = await timedStep(`click('${id(obs, 'Hang')}')`);
  assert.equal(r.error?.code, 'page_hang');
  assert.ok(r.ms >= STEP_TIMEOUT - 100, 'it waited for the step timeout');
  obs = r.observation;
  assert.ok(obs.elements.length > 0, 'the page can be observed again after the script was terminated');
  const next = await timedStep(`click('${id(obs, 'Alert')}')`);
  assert.equal(next.error?.code, 'dialog_opened', 'and it still acts');
});

test('a page that keeps loading ends the step with step_timeout and loading is stopped', async () => {
  const obs = await open();
  const r = await timedStep(`click('${id(obs, 'Slow navigation')}')`);
  assert.equal(r.error?.code, 'step_timeout');
  assert.equal(r.observation.title, 'Faults');
});

test('a renderer crash ends the step and the episode with renderer_crashed', async () => {
  await open();
  const pending = timedStep('noop(3000)');
  setTimeout(() => env.session.send('Page.crash').catch(() => {}), 200);
  const r = await pending;
  assert.equal(r.error?.code, 'renderer_crashed');
  assert.equal(r.done, true);
  const after = await timedStep(`click('1')`);
  assert.equal(after.error?.code, 'renderer_crashed');
  assert.equal(after.done, true);
  // A new episode gets a new page and works.
  const fresh = await open();
  assert.equal(fresh.title, 'Faults');
});

test('an element covered by an overlay is not clicked through', async () => {
  let obs = await open();
  obs = (await timedStep(`click('${id(obs, 'Show overlay')}')`)).observation;
  const r = await timedStep(`click('${id(obs, 'Show overlay')}')`);
  assert.equal(r.error?.code, 'element_not_interactable');
  assert.match(r.error!.message, /covered by <div id="banner"/);
});
