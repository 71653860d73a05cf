/**
 * MiniWoB++-style pages (the fixture checkout's click-link, navigate-tree, email-inbox,
 * login-user, tic-tac-toe, use-autocomplete, written for the tests) as an agent reads them:
 * every target has an id, so a simple agent that reads the element list solves them; and
 * `lab tasks validate --miniwob` reports per-task success of a named agent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runEpisode } from '../../main/collection/episode.ts';
import type { Agent } from '../../main/tasks/agent.ts';
import type { Observation, PageElement } from '../../main/environment/types.ts';
import { miniwobFamilies } from '../../main/tasks/miniwob/loader.ts';
import { useTaskEnvironment, type TaskEnvironmentFixture } from '../helpers/environment.ts';
import { runLab as lab } from '../helpers/lab-cli.ts';

const CHECKOUT = join(import.meta.dirname, '..', 'fixtures', 'miniwob');

let fx: TaskEnvironmentFixture;
useTaskEnvironment('lab-miniwob-fidelity-', (f) => (fx = f), () => new Map(miniwobFamilies(CHECKOUT).map((f) => [f.name, f])));

const targets = (obs: Observation) => obs.elements.filter((e) => e.role !== 'text' && e.visible);
const quoted = (obs: Observation) => [...obs.instruction.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
const click = (e: PageElement) => ({ action: `click('${e.id}')` });

/** Reads the element list as a person reads the page; knows each fixture task's kind of goal. */
function readerAgent(task: string): Agent {
  const opened = new Set<string>();
  return {
    name: 'reader',
    reset() {
      opened.clear();
    },
    async act(obs: Observation) {
      const els = targets(obs);
      const [first, second] = quoted(obs);
      const named = (name: string) => els.find((e) => e.name === name);
      switch (task) {
        case 'click-link':
          return click(named(first)!);
        case 'navigate-tree': {
          const file = named(first);
          if (file) return click(file);
          // Open the next folder not opened yet (folders have no digits in their names here).
          const folder = els.find((e) => !/\d/.test(e.name) && !opened.has(e.id))!;
          opened.add(folder.id);
          return click(folder);
        }
        case 'email-inbox': {
          const sender = obs.instruction.match(/email by (\w+)/)![1];
          const trash = named('Trash');
          return click(trash ?? els.find((e) => e.name.startsWith(sender))!);
        }
        case 'login-user': {
          const user = named('Username')!;
          const password = named('Password')!;
          if (user.value !== first) return { action: `fill('${user.id}', '${first}')` };
          if (password.value === undefined) return { action: `fill('${password.id}', '${second}')` };
          return click(named('Login')!);
        }
        case 'use-autocomplete': {
          const box = els.find((e) => e.role === 'textbox')!;
          const pick = els.find((e) => e.role !== 'textbox' && e.name.startsWith(first) && e.name.endsWith(second));
          if (pick) return click(pick);
          if (box.value && box.value.endsWith(second)) return click(named('Submit')!);
          return { action: `fill('${box.id}', '${first}')` };
        }
        default:
          return { action: `report_infeasible('no reading for ${task}')` };
      }
    },
  };
}

for (const task of ['click-link', 'navigate-tree', 'email-inbox', 'login-user', 'use-autocomplete']) {
  test(`${task}: every target has an id, and an agent reading the list solves it`, async () => {
    for (const seed of [10000, 10001, 10002]) {
      const out = await runEpisode({ env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind }, { family: `miniwob.${task}`, seed, agent: readerAgent(task) });
      assert.equal(out.success, true, `seed ${seed}: ${out.reason} ${out.reward?.reason ?? ''}`);
    }
  });
}

test('tic-tac-toe: empty cells are listed with ids; playing the gap wins', async () => {
  const agent: Agent = {
    name: 'gap',
    reset() {},
    async act(obs) {
      const row = Number(obs.instruction.match(/row (\d)/)![1]) - 1;
      const cells = obs.elements.filter((e) => e.role === 'cell');
      assert.equal(cells.length, 9, 'all nine cells are listed');
      // Cells come in reading order: the row's three are row*3 .. row*3+2.
      const gap = cells.slice(row * 3, row * 3 + 3).find((c) => c.name === '')!;
      return click(gap);
    },
  };
  const out = await runEpisode({ env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind }, { family: 'miniwob.tic-tac-toe', seed: 10000, agent });
  assert.equal(out.success, true, `${out.reason} ${out.reward?.reason ?? ''}`);
});

test('`lab tasks validate --miniwob` prints per-task success of the named agent', async () => {
  const { stdout } = await lab('tasks', 'validate', '--miniwob', CHECKOUT, '--agent', 'random', '--seeds', '1', '--task', 'click-button', 'login-user', '--json');
  const report = JSON.parse(stdout);
  assert.equal(report.agent, 'random');
  assert.deepEqual(report.tasks.map((t: { task: string; episodes: number }) => [t.task, t.episodes]), [['click-button', 1], ['login-user', 1]]);
  const text = await lab('tasks', 'validate', '--miniwob', CHECKOUT, '--agent', 'random', '--seeds', '1', '--task', 'click-button');
  assert.match(text.stdout, /MiniWoB\+\+ with agent random/);
  assert.match(text.stdout, /click-button\s+\d\/1 \(\d+%\)/);
  // The oracle is an agent like the others here (miniwob-oracle-env.test.ts tests its rows).
  const oracle = JSON.parse((await lab('tasks', 'validate', '--miniwob', CHECKOUT, '--agent', 'oracle', '--seeds', '1', '--task', 'click-button', '--json')).stdout);
  assert.deepEqual(oracle.tasks.map((t: { task: string; successes: number }) => [t.task, t.successes]), [['click-button', 1]]);
});
