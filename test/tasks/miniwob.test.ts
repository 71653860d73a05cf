/**
 * The MiniWoB++ loader on a fixture checkout that follows MiniWoB++'s page protocol, in real
 * Chromium: the page is seeded and started, states its own instruction, and its reward reaches
 * the episode record.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEpisode } from '../../main/collection/episode.ts';
import type { Agent } from '../../main/tasks/agent.ts';
import type { Observation } from '../../main/environment/types.ts';
import { findMiniwobRoot, miniwobFamilies } from '../../main/tasks/miniwob/loader.ts';
import { browsergymPageSeed } from '../../main/tasks/miniwob/browsergym-seed.ts';
import { useTaskEnvironment, type TaskEnvironmentFixture } from '../helpers/environment.ts';

const CHECKOUT = join(import.meta.dirname, '..', 'fixtures', 'miniwob');

let fx: TaskEnvironmentFixture;
/** click-button under other harness settings, as a family of another name. */
const variant = (name: string, options: Parameters<typeof miniwobFamilies>[1]) => ({ ...miniwobFamilies(CHECKOUT, options).find((f) => f.name === 'miniwob.click-button')!, name });
useTaskEnvironment('lab-miniwob-', (f) => (fx = f), () => new Map([
  ...miniwobFamilies(CHECKOUT).map((f) => [f.name, f] as const),
  ['display.click-button', variant('display.click-button', { keepHumanDisplay: true })],
  ['300ms.click-button', variant('300ms.click-button', { episodeMaxTimeMs: 300 })],
]));

/** Clicks the button the instruction names (or, when `wrong`, another one). */
function buttonAgent(wrong = false): Agent {
  return {
    name: wrong ? 'wrong-button' : 'right-button',
    reset() {},
    async act(obs: Observation) {
      const target = obs.instruction.match(/"([^"]+)"/)?.[1];
      const buttons = obs.elements.filter((e) => e.role === 'button');
      const pick = buttons.find((b) => (b.name === target) !== wrong);
      if (!pick) return { action: `report_infeasible('no button for ${target}')` };
      return { thought: `click ${pick.name}`, action: `click('${pick.id}')` };
    },
  };
}

function typeAgent(): Agent {
  let typed = false;
  return {
    name: 'typist',
    reset() {
      typed = false;
    },
    async act(obs: Observation) {
      const word = obs.instruction.match(/"([^"]+)"/)![1];
      const box = obs.elements.find((e) => e.role === 'textbox')!;
      if (!typed) {
        typed = true;
        return { action: `fill('${box.id}', '${word}')` };
      }
      return { action: `click('${obs.elements.find((e) => e.role === 'button' && e.name === 'Submit')!.id}')` };
    },
  };
}

test('the loader finds the checkout from its root or its html/ folder and names a family per task page', () => {
  const root = findMiniwobRoot(CHECKOUT);
  assert.equal(findMiniwobRoot(join(CHECKOUT, 'html')), root);
  assert.deepEqual(
    miniwobFamilies(CHECKOUT).map((f) => [f.name, f.checker]),
    ['click-button', 'click-color', 'click-link', 'email-inbox', 'enter-text', 'guess-number', 'login-user', 'multi-layouts', 'navigate-tree', 'social-media', 'tic-tac-toe', 'use-autocomplete'].map((t) => [`miniwob.${t}`, 'page']),
  );
  assert.throws(() => findMiniwobRoot(mkdtempSync(join(tmpdir(), 'not-miniwob-'))), /no MiniWoB\+\+ checkout there/);
});

test('a seeded episode: the page states the task, the right click earns a positive reward, and it is in the episode record', async () => {
  const out = await runEpisode({ env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind }, { family: 'miniwob.click-button', seed: 10007, agent: buttonAgent() });
  assert.equal(out.success, true);
  assert.equal(out.reason, 'checker', 'the page ended the episode');
  assert.equal(out.steps, 1);
  const e = fx.store.readEpisode(out.id);
  assert.match(e.header.task.instruction, /^Click on the "(Submit|Cancel|Okay|Next|Back|Yes|No|Delete)" button\.$/);
  assert.equal(e.header.task.checker, 'page');
  assert.equal(e.header.task.split, 'test');
  assert.equal(e.end!.reward!.raw, 1);
  // click-button discounts by time, as MiniWoB++'s tasks do: 0 < reward <= raw.
  assert.ok(e.end!.reward!.value > 0 && e.end!.reward!.value <= 1, String(e.end!.reward!.value));
  assert.match(e.end!.reward!.reason!, /^clicked /);
  assert.deepEqual(e.end!.keyPoints.map((k) => k.met), [true, true, true]);
});

test('the seed decides the problem: the same seed repeats it, other seeds vary it', async () => {
  const instructions: string[] = [];
  for (const seed of [10001, 10001, 10002, 10003, 10004]) {
    const out = await runEpisode({ env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind }, { family: 'miniwob.click-button', seed, agent: buttonAgent() });
    assert.equal(out.success, true);
    instructions.push(fx.store.readEpisode(out.id).header.task.instruction);
  }
  assert.equal(instructions[0], instructions[1]);
  assert.ok(new Set(instructions).size >= 2, instructions.join(' | '));
});

test('a wrong click: the page gives raw reward -1, the episode is a failure with that reward recorded', async () => {
  const out = await runEpisode({ env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind }, { family: 'miniwob.click-button', seed: 10007, agent: buttonAgent(true) });
  assert.equal(out.success, false);
  assert.equal(out.reason, 'checker');
  assert.deepEqual(out.reward, { value: -1, raw: -1, reason: out.reward!.reason });
  assert.match(out.reward!.reason!, /instead of/);
});

test('a two-step task: fill then submit; a reward without time discount equals the raw reward', async () => {
  const out = await runEpisode({ env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind }, { family: 'miniwob.enter-text', seed: 10003, agent: typeAgent() });
  assert.equal(out.success, true, JSON.stringify(out.keyPoints));
  assert.equal(out.steps, 2);
  assert.deepEqual(out.reward, { value: 1, raw: 1, reason: 'correct' });
  assert.match(fx.store.readEpisode(out.id).header.task.instruction, /^Enter "[a-z]+" into the text field and press Submit\.$/);
});

test('the checkout is served read-only below its html/ folder: nothing outside it', async () => {
  const instance = fx.server.createInstance('miniwob.click-button', 10001);
  try {
    const get = (p: string) => fetch(instance.ctx.baseUrl + p).then((r) => r.status);
    assert.equal(await get('/core/core.js'), 200);
    assert.equal(await get('/%2e%2e/README.md'), 404);
    assert.equal(await get('/..%2f..%2fpackage.json'), 404);
    assert.equal(await get('/miniwob/nope.html'), 404);
  } finally {
    fx.server.releaseInstance(instance.ctx.id);
  }
});

test('as BrowserGym runs MiniWoB++: its page seed for the episode seed, the human display out of the observation, the settings in the header', async () => {
  const seed = 10007;
  const out = await runEpisode({ env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind }, { family: 'miniwob.click-button', seed, agent: buttonAgent() });
  assert.equal(out.success, true, 'the reward still reaches the record with the display taken out');
  const e = fx.store.readEpisode(out.id);
  assert.deepEqual(e.header.task.harness, { name: 'miniwob', settings: { timeLimitMs: 1_000_000, pageSeed: browsergymPageSeed(seed), humanDisplay: 'removed' } });
  const first = e.steps[0].observation;
  const text = first.elements.map((el) => el.name).join(' | ');
  assert.doesNotMatch(text, /Last reward|Time left|START/, 'no reward panel, countdown or start cover');
  assert.doesNotMatch(text, /Click on the "/, 'the instruction is the prompt\'s, not a line of the page');
  assert.match(e.header.task.instruction, /^Click on the "\w+" button\.$/, 'the page still states the task');
});

test('with --miniwob-display the human display stays, as MiniWoB++ shows it', async () => {
  const seen: string[] = [];
  const agent: Agent = { name: 'looker', reset() {}, async act(obs) { seen.push(obs.elements.map((el) => el.name).join(' | ')); return buttonAgent().act(obs, []); } };
  const out = await runEpisode({ env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind }, { family: 'display.click-button', seed: 10007, agent });
  assert.equal(out.success, true);
  assert.match(seen[0], /Last reward/);
  assert.equal(fx.store.readEpisode(out.id).header.task.harness!.settings.humanDisplay, 'kept');
});

test('the page\'s time limit running out while the agent thinks ends the episode there (reward -1), not as a step on a page that is over', async () => {
  const slow: Agent = { name: 'slow', reset() {}, async act(obs) { await new Promise((r) => setTimeout(r, 900)); return buttonAgent().act(obs, []); } };
  const out = await runEpisode({ env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind }, { family: '300ms.click-button', seed: 10007, agent: slow });
  assert.equal(out.success, false);
  assert.equal(out.reason, 'checker', 'the page ended it');
  assert.equal(out.steps, 0, 'the late click was not taken');
  assert.deepEqual([out.reward!.raw, out.reward!.reason], [-1, 'timed out']);
  assert.equal(fx.store.readEpisode(out.id).header.task.harness!.settings.timeLimitMs, 300);
});

test('the page seed is BrowserGym\'s: numpy RandomState(seed).randint(0, 1000000), computed here without numpy', () => {
  // Values printed by numpy 2.4 for these seeds.
  const expected: Array<[number, number]> = [[0, 985772], [1, 128037], [42, 121958], [10000, 257676], [10003, 918245], [123456, 71745], [4294967295, 944547]];
  assert.deepEqual(expected.map(([s]) => [s, browsergymPageSeed(s)]), expected);
  assert.throws(() => browsergymPageSeed(-1), /whole number from 0 to 2\^32-1/);
  assert.throws(() => browsergymPageSeed(1.5), /whole number/);
});
