/**
 * `lab eval --miniwob` without a browser: which tasks a --tasks spec runs on a checkout (a set runs
 * what an agent can solve through the observation and lists the rest with the reason, names run as
 * named), the two means of the report (the 56-task set with every task not run as a failure, and
 * the tasks run), and MiniWoB++ families in an evaluation's family list.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { miniwobMeans, NOT_ASKED, NOT_IN_CHECKOUT, selectMiniwobTasks } from '../../main/evaluation/miniwob.ts';
import { evalFamilies, evalTasks } from '../../main/evaluation/eval.ts';
import { rate } from '../../main/common/stats.ts';
import { miniwobFamilies, miniwobTaskNames, findMiniwobRoot } from '../../main/tasks/miniwob/loader.ts';
import { GUR56_TASKS } from '../../main/tasks/miniwob/task-sets.ts';
import { whyUnrepresentable } from '../../main/tasks/miniwob/oracles/index.ts';
import { TaskServer } from '../../main/tasks/server.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';

const CHECKOUT = join(import.meta.dirname, '..', 'fixtures', 'miniwob');
const TASKS = miniwobTaskNames(findMiniwobRoot(CHECKOUT));

test('set56 on a checkout runs the tasks of the set it has and an agent can solve; the rest are listed with their reason', () => {
  const { families, notRun } = selectMiniwobTasks('set56', TASKS);
  assert.ok(families.includes('miniwob.click-button') && families.includes('miniwob.enter-text'));
  assert.ok(!families.includes('miniwob.click-color'), 'the colour task is not run');
  assert.equal(families.length + notRun.length, 56);
  assert.match(notRun.find((n) => n.task === 'click-color')!.reason, /colour/);
  assert.equal(notRun.find((n) => n.task === 'book-flight')!.reason, NOT_IN_CHECKOUT);
  // Every fixture page is in the set; all but the colour one run.
  assert.deepEqual(families.map((f) => f.slice('miniwob.'.length)).sort(), TASKS.filter((t) => t !== 'click-color'));
  assert.deepEqual(selectMiniwobTasks('', TASKS), selectMiniwobTasks('set56', TASKS), 'set56 is the default');
  // Tasks with an oracle; every task page.
  assert.ok(!selectMiniwobTasks('oracle', TASKS).families.includes('miniwob.click-color'));
  assert.equal(selectMiniwobTasks('all', TASKS).families.length, TASKS.length - 1);
});

test('named tasks run as named, with or without the prefix, an unsolvable one too; a task the checkout lacks is refused', () => {
  assert.deepEqual(selectMiniwobTasks('click-color, miniwob.click-button,click-color', TASKS), { families: ['miniwob.click-color', 'miniwob.click-button'], notRun: [] });
  assert.throws(() => selectMiniwobTasks('book-flight', TASKS), /no MiniWoB\+\+ task "book-flight" in the checkout/);
  assert.throws(() => selectMiniwobTasks('set56', ['copy-paste']), /--tasks set56: none of its tasks is in the checkout/);
});

test('the 56-task mean counts every task not run as a failure; the mean over the tasks run is over those only', () => {
  const byFamily = {
    'miniwob.click-button': { success: rate(2, 2) },
    'miniwob.enter-text': { success: rate(1, 2) },
    'miniwob.copy-paste': { success: rate(1, 1) }, // not in the 56-task set
    shop: { success: rate(0, 3) }, // a built-in family is no MiniWoB++ task
  };
  const m = miniwobMeans(byFamily, [...TASKS, 'copy-paste'])!;
  assert.equal(m.set56.tasks, 56);
  assert.equal(m.set56.run, 2);
  assert.equal(m.set56.mean, (1 + 0.5) / 56);
  assert.equal(m.set56.notRun.length, 54);
  const reason = (t: string) => m.set56.notRun.find((n) => n.task === t)?.reason;
  assert.match(reason('click-color')!, /colour/);
  assert.equal(reason('login-user'), NOT_ASKED);
  assert.equal(reason('book-flight'), NOT_IN_CHECKOUT);
  assert.deepEqual(m.run, { tasks: 3, mean: (1 + 0.5 + 1) / 3 });
  assert.equal(miniwobMeans({ shop: { success: rate(1, 2) } }, TASKS), null, 'no MiniWoB++ task, no block');
  // The registry's unsolvable tasks of the set are the colour ones.
  assert.deepEqual(GUR56_TASKS.filter((t) => whyUnrepresentable(t)), ['click-color', 'click-shades']);
});

test('MiniWoB++ families are named in an evaluation only when served, on test seeds of their own range', () => {
  const families = builtinFamilies();
  for (const f of miniwobFamilies(CHECKOUT)) families.set(f.name, f);
  const server = new TaskServer(families);
  const tasks = evalTasks({ tasks: 'miniwob.click-button,shop', split: 'test', seeds: 2, runs: 1 }, server);
  assert.deepEqual(tasks.map((t) => `${t.family}:${t.seed}`), ['miniwob.click-button:10000', 'shop:10000', 'miniwob.click-button:10001', 'shop:10001']);
  assert.throws(() => evalFamilies('miniwob.click-button', 'test'), /not a MiniWoB\+\+ task served here \(no checkout given: --miniwob DIR\)/);
  assert.throws(() => evalFamilies('miniwob.click-button', 'heldout', ['miniwob.click-button']), /evaluate it on --split test/);
  assert.throws(() => evalFamilies('miniwob.nope', 'test', ['miniwob.click-button']), /not a MiniWoB\+\+ task served here \(1 tasks from the checkout\)/);
});
