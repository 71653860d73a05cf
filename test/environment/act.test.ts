import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BrowserEnv } from '../../main/environment/environment.ts';
import type { Observation } from '../../main/environment/types.ts';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import { useEnvironment } from '../helpers/environment.ts';

let server: FixtureServer;
let env: BrowserEnv;

useEnvironment({ stepTimeoutMs: 5000 }, (f) => ({ server, env } = f));

const id = (obs: Observation, name: string, role?: string): string => {
  const el = obs.elements.find((e) => e.name === name && (role ? e.role === role : e.role !== 'text'));
  assert.ok(el, `no element ${JSON.stringify(name)}`);
  return el.id;
};
const pageValue = async (expr: string) => (await env.session.send('Runtime.evaluate', { expression: expr, returnByValue: true })).result.value;

async function step(action: string) {
  const r = await env.step(action);
  assert.equal(r.error, null, `${action} failed: ${JSON.stringify(r.error)}`);
  return r.observation;
}

test('fill, clear, select_option, check, uncheck and click submit a form with real events', async () => {
  let obs = await env.reset({ instruction: '', startUrl: `${server.url}/form.html` });
  obs = await step(`fill('${id(obs, 'Your name')}', 'Ada Lovelace')`);
  assert.equal(obs.elements.find((e) => e.name === 'Your name' && e.role === 'textbox')!.value, 'Ada Lovelace');
  obs = await step(`fill('${id(obs, 'Your name')}', 'Ada')`);
  assert.equal(await pageValue(`document.getElementById('name').value`), 'Ada', 'fill replaces the old text');
  obs = await step(`select_option('${id(obs, 'Party size')}', 'Four')`);
  assert.equal(obs.elements.find((e) => e.name === 'Party size')!.value, 'Four');
  obs = await step(`check('${id(obs, 'Terrace')}')`);
  assert.equal(obs.elements.find((e) => e.name === 'Terrace')!.checked, true);
  obs = await step(`check('${id(obs, 'Terrace')}')`);
  assert.equal(obs.elements.find((e) => e.name === 'Terrace')!.checked, true, 'check is idempotent');
  obs = await step(`uncheck('${id(obs, 'Terrace')}')`);
  assert.equal(obs.elements.find((e) => e.name === 'Terrace')!.checked, false);
  obs = await step(`click('${id(obs, 'Late')}')`);
  assert.equal(obs.elements.find((e) => e.name === 'Late')!.checked, true);
  obs = await step(`fill('${id(obs, 'Notes')}', 'Window seat\nplease')`);
  assert.equal(await pageValue(`document.getElementById('notes').value`), 'Window seat\nplease');
  obs = await step(`fill('${id(obs, 'Day')}', '2027-03-14')`);
  assert.equal(await pageValue(`document.getElementById('day').value`), '2027-03-14');
  obs = await step(`clear('${id(obs, 'Notes')}')`);
  assert.equal(await pageValue(`document.getElementById('notes').value`), '');
  obs = await step(`click('${id(obs, 'Book')}')`);
  assert.ok(obs.elements.some((e) => e.role === 'text' && e.name === 'Booked for Ada (4)'), 'the submit handler ran');
});

test('press sends keys to an element; keyboard_press to the focused one', async () => {
  let obs = await env.reset({ instruction: '', startUrl: `${server.url}/form.html` });
  obs = await step(`press('${id(obs, 'Key target')}', 'ArrowDown')`);
  assert.ok(obs.elements.some((e) => e.name === 'Key ArrowDown'));
  obs = await step(`keyboard_press('Escape')`);
  assert.ok(obs.elements.some((e) => e.name === 'Key Escape'));
  obs = await step(`fill('${id(obs, 'Your name')}', 'abc')`);
  obs = await step(`press('${id(obs, 'Your name')}', 'Control+a')`);
  obs = await step(`keyboard_press('Backspace')`);
  assert.equal(await pageValue(`document.getElementById('name').value`), '');
  obs = await step(`press('${id(obs, 'Your name')}', 'x')`);
  assert.equal(await pageValue(`document.getElementById('name').value`), 'x');
});

test('click follows links; go_back and go_forward walk the history; goto opens a URL; a step says whether it loaded a document', async () => {
  let obs = await env.reset({ instruction: '', startUrl: `${server.url}/form.html` });
  const filled = await env.step(`fill('${id(obs, 'Your name')}', 'Ada')`);
  assert.equal(filled.timing.navigated, false, 'a fill changes the page in place');
  const followed = await env.step(`click('${id(filled.observation, 'Go to second page')}')`);
  obs = followed.observation;
  assert.equal(obs.title, 'Second page');
  assert.equal(followed.timing.navigated, true, 'a link loads a document');
  obs = await step('go_back()');
  assert.equal(obs.title, 'Form fixture');
  obs = await step('go_forward()');
  assert.equal(obs.title, 'Second page');
  obs = await step(`goto('${server.url}/faults.html')`);
  assert.equal(obs.title, 'Faults');
  const r = await env.step('go_forward()');
  assert.equal(r.error?.code, 'action_failed');
});

test('a link that wraps over two lines is clicked on one of its own lines', async () => {
  let obs = await env.reset({ instruction: '', startUrl: `${server.url}/second.html` });
  obs = await step(`click('${id(obs, 'a link whose words wrap over two lines at the edge')}')`);
  assert.equal(obs.title, 'Form fixture');
});

test('the step waits for late DOM changes and fetches to settle', async () => {
  let obs = await env.reset({ instruction: '', startUrl: `${server.url}/second.html` });
  obs = await step(`click('${id(obs, 'Fetch')}')`);
  assert.ok(obs.elements.some((e) => e.name === 'Fetched slow done'), 'a 300 ms fetch finished before the observation');
});

test('scroll moves the viewport; click scrolls its target into view first', async () => {
  let obs = await env.reset({ instruction: '', startUrl: `${server.url}/form.html` });
  obs = await step('scroll(0, 600)');
  assert.ok((await pageValue('window.scrollY')) >= 500);
  obs = await env.reset({ instruction: '', startUrl: `${server.url}/form.html` });
  obs = await step(`click('${id(obs, 'Far button')}')`);
  assert.ok(obs.elements.some((e) => e.name === 'Far clicked' && e.inViewport));
});

test('hover and dblclick and focus run without error; send_msg_to_user and report_infeasible end the episode', async () => {
  let obs = await env.reset({ instruction: '', startUrl: `${server.url}/form.html` });
  obs = await step(`hover('${id(obs, 'Book')}')`);
  obs = await step(`focus('${id(obs, 'Your name')}')`);
  assert.equal(await pageValue(`document.activeElement.id`), 'name');
  obs = await step(`dblclick('${id(obs, 'Your name')}')`);
  const msg = await env.step(`send_msg_to_user('The answer is 42')`);
  assert.equal(msg.done, true);
  assert.deepEqual(msg.observation.messages, ['The answer is 42']);
  const inf = await env.step(`report_infeasible('no table available')`);
  assert.equal(inf.done, true);
});

test('actions on the wrong element or with bad arguments fail with a named error', async () => {
  const obs = await env.reset({ instruction: '', startUrl: `${server.url}/form.html` });
  const cases: Array<[string, string, RegExp]> = [
    [`click('99999')`, 'unknown_element', /no element with id '99999'/],
    [`fill('${id(obs, 'Book')}', 'x')`, 'element_not_interactable', /does not take text/],
    [`fill('${id(obs, 'Party size')}', 'x')`, 'element_not_interactable', /use select_option/],
    [`select_option('${id(obs, 'Party size')}', 'Twelve')`, 'invalid_argument', /no option 'Twelve' \(options: 'One', 'Two', 'Four'\)/],
    [`click('${id(obs, 'Disabled button')}')`, 'element_not_interactable', /disabled/],
    [`check('${id(obs, 'Book')}')`, 'element_not_interactable', /not a checkbox/],
    [`press('${id(obs, 'Your name')}', 'Hyper+q')`, 'invalid_argument', /unknown modifier 'Hyper'/],
    [`goto('file:///etc/passwd')`, 'navigation_blocked', /only open http\(s\)/],
    [`goto('not a url')`, 'invalid_argument', /absolute http\(s\) URL/],
    [`clik('1')`, 'malformed_action', /unknown action 'clik'/],
    [`click('1'`, 'malformed_action', /expected '\)'/],
  ];
  for (const [action, code, message] of cases) {
    const r = await env.step(action);
    assert.equal(r.error?.code, code, `${action}: ${JSON.stringify(r.error)}`);
    assert.match(r.error!.message, message, action);
    assert.equal(r.done, false, `${action} does not end the episode`);
    assert.deepEqual(r.observation.lastActionError, r.error, 'the next observation carries the error');
  }
});

test('goto outside the task origins is blocked when the task names its origins', async () => {
  await env.reset({ instruction: '', startUrl: `${server.url}/form.html`, allowedOrigins: [server.url] });
  const r = await env.step(`goto('https://example.com/')`);
  assert.equal(r.error?.code, 'navigation_blocked');
  const ok = await env.step(`goto('${server.url}/second.html')`);
  assert.equal(ok.error, null);
});
