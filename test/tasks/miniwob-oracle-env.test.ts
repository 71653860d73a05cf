/**
 * The MiniWoB++ oracles in a real browser, on the fixture checkout (pages written for the tests
 * in the manner of MiniWoB++'s, no MiniWoB++ code): each oracle solves its page on several seeds
 * through the environment's actions only, and `lab tasks validate --miniwob --agent oracle` runs
 * the oracles and names the tasks it has none for. The real checkout's 100% is docs/miniwob-oracles.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runEpisode } from '../../main/collection/episode.ts';
import { miniwobFamilies } from '../../main/tasks/miniwob/loader.ts';
import { useTaskEnvironment, type TaskEnvironmentFixture } from '../helpers/environment.ts';
import { runLab as lab } from '../helpers/lab-cli.ts';

const CHECKOUT = join(import.meta.dirname, '..', 'fixtures', 'miniwob');

let fx: TaskEnvironmentFixture;
useTaskEnvironment('lab-miniwob-oracles-', (f) => (fx = f), () => new Map(miniwobFamilies(CHECKOUT).map((f) => [f.name, f])));

// Pages whose structure follows the real tasks' (the fixture's navigate-tree, email-inbox and
// tic-tac-toe are built for observation tests and differ from MiniWoB++'s on purpose).
const SOLVED = ['click-button', 'click-link', 'enter-text', 'login-user', 'use-autocomplete', 'social-media', 'multi-layouts', 'guess-number'];

for (const task of SOLVED) {
  test(`the ${task} oracle solves its page on every seed tried, acting only through actions`, async () => {
    for (const seed of [10000, 10001, 10002, 10003]) {
      const out = await runEpisode(
        { env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind },
        { family: `miniwob.${task}`, seed, agent: (i) => i.family.oracle(i.ctx) },
      );
      assert.equal(out.success, true, `seed ${seed}: ${out.reason} ${out.reward?.reason ?? ''}`);
      const steps = fx.store.readEpisode(out.id).steps;
      assert.ok(steps.every((s) => !/evaluate|report_infeasible/.test(s.action)), steps.map((s) => s.action).join(' | '));
    }
  });
}

test('`lab tasks validate --miniwob --agent oracle` runs the oracles and says which tasks have none, and why', async () => {
  const { stdout } = await lab('tasks', 'validate', '--miniwob', CHECKOUT, '--agent', 'oracle', '--seeds', '2', '--task', 'click-button', 'click-color', '--json');
  const report = JSON.parse(stdout);
  const byTask = Object.fromEntries(report.tasks.map((t: { task: string }) => [t.task, t]));
  assert.deepEqual([byTask['click-button'].episodes, byTask['click-button'].successes], [2, 2]);
  assert.equal(byTask['click-color'].episodes, 0);
  assert.match(byTask['click-color'].noOracle, /colour/);
  const text = await lab('tasks', 'validate', '--miniwob', CHECKOUT, '--agent', 'oracle', '--seeds', '1', '--task', 'click-button', 'click-color');
  assert.match(text.stdout, /click-button\s+1\/1 \(100%\)/);
  assert.match(text.stdout, /click-color\s+no oracle: the answer is a colour/);
  assert.match(text.stdout, /1 tasks not run: no oracle/);
});
