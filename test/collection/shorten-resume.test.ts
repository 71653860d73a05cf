import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import type { PageElement } from '../../main/environment/types.ts';
import { TaskServer } from '../../main/tasks/server.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { LabStore } from '../../main/store/lab.ts';
import type { StepRecord } from '../../main/store/schema.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import { planShortening, resolveAction, shortenEpisode } from '../../main/collection/shorten.ts';
import { RunFolder, runCollection } from '../../main/collection/collect-run.ts';
import type { Agent } from '../../main/tasks/agent.ts';
import { useTaskEnvironment } from '../helpers/environment.ts';

let host: ChromiumHost;
let server: TaskServer;
let env: BrowserEnv;
let store: LabStore;

useTaskEnvironment('lab-shorten-', (f) => ({ host, server, env, store } = f));

const deps = () => ({ env, server, store, browserKind: host.kind });

test('shortening removes a planted detour and a no-op, and the shortened episode passes the checker on replay', async () => {
  const family = builtinFamilies().get('shop')!;
  const seed = family.seeds.test.from + 2;
  // The oracle, with a detour planted after its first step: open an unrelated link, come back,
  // then scroll (which changes nothing an agent can tell apart).
  const planted = (oracle: Agent): Agent => {
    let n = 0;
    return {
      name: 'oracle+detour',
      reset: (task) => {
        n = 0;
        return oracle.reset(task);
      },
      async act(obs, history) {
        n++;
        if (n === 2) {
          // Another listing: a product link the task does not name (they follow the category links).
          const links = obs.elements.filter((e) => e.role === 'link' && e.visible && !obs.instruction.includes(e.name) && !/cart|outfitters/i.test(e.name));
          const link = links[links.length - 6];
          return { thought: 'planted detour', action: `click('${link!.id}')` };
        }
        if (n === 3) return { thought: 'planted return', action: 'go_back()' };
        if (n === 4) return { thought: 'planted no-op', action: 'scroll(0, 200)' };
        return oracle.act(obs, history);
      },
    };
  };
  const out = await runEpisode(deps(), { family: 'shop', seed, agent: (i) => planted(i.family.oracle(i.ctx)) });
  assert.equal(out.success, true);
  const original = store.readEpisode(out.id);
  const plan = planShortening(original);
  const plantedSteps = original.steps.filter((s) => s.thought?.startsWith('planted')).map((s) => s.index);
  assert.deepEqual(plantedSteps, [1, 2, 3]);
  for (const i of plantedSteps) assert.ok(!plan.keep.includes(i), `planted step ${i} is cut`);

  const r = await shortenEpisode(deps(), out.id);
  assert.equal(r.replaySuccess, true);
  assert.ok(r.episodeId);
  assert.equal(r.stepsAfter, r.stepsBefore - 3);
  const short = store.readEpisode(r.episodeId!);
  assert.equal(short.header.links.shortenedFrom, out.id);
  assert.equal(short.end?.success, true);
  assert.ok(!short.steps.some((s) => s.thought?.startsWith('planted')));
  // Nothing of a failed trial is left among the lab's episodes.
  assert.deepEqual(store.episodeIds().sort(), [out.id, r.episodeId!].sort());
});

const el = (id: string, role: string, name: string, value?: string): PageElement => ({
  id,
  role,
  name,
  tag: 'x',
  ...(value !== undefined ? { value } : {}),
  box: { x: 0, y: 0, width: 1, height: 1 },
  visible: true,
  inViewport: true,
});
const step = (index: number, url: string, elements: PageElement[], action: string): StepRecord => ({
  type: 'step',
  index,
  observation: { url, title: '', elements, screenshot: null, lastActionError: null },
  action,
  error: null,
  timing: { agentMs: 0, actionMs: 0, settleMs: 0, observeMs: 0, totalMs: 0 },
  at: '',
});

test('the shortening plan cuts loops and no-ops, keeps fills that change values, never cuts the answer or right before go_back', () => {
  const home = [el('1', 'link', 'Shoes'), el('2', 'textbox', 'Search')];
  const filled = [el('1', 'link', 'Shoes'), el('2', 'textbox', 'Search', 'boots')];
  const steps = [
    step(0, 'http://h/i/ab/', home, "scroll(0, 200)"), // no-op: the next state is the same
    step(1, 'http://h/i/ab/', home, "click('1')"), // detour: 1..2 comes back home
    step(2, 'http://h/i/ab/c/shoes', [el('1', 'link', 'Home')], "click('1')"),
    step(3, 'http://h/i/ab/', home, "fill('2', 'boots')"), // a change: kept
    step(4, 'http://h/i/ab/', filled, "send_msg_to_user('done')"),
  ];
  const final = { ...steps[4].observation };
  const plan = planShortening({ steps, end: { type: 'end', success: true, reason: 'checker', keyPoints: [], steps: 5, messages: [], finalObservation: final, durationMs: 0, at: '' } });
  assert.deepEqual(plan.keep, [3, 4]);
  assert.deepEqual(plan.cuts, [
    { from: 0, to: 0, why: 'no_change' },
    { from: 1, to: 2, why: 'detour' },
  ]);

  // Back on the results page by a link, then go_back to the form: the results page repeats before
  // go_back, but cutting there would make go_back leave the first page; the later loop is cut instead.
  const results = [el('1', 'button', 'Select flight')];
  const form = (v?: string) => [el('1', 'textbox', 'Name', v), el('2', 'link', 'Back to results'), el('3', 'button', 'Confirm')];
  const viaBack = [
    step(0, 'http://h/i/ab/results', results, "click('1')"),
    step(1, 'http://h/i/ab/p/1', form(), "fill('1', 'Ann')"),
    step(2, 'http://h/i/ab/p/1', form('Ann'), "click('2')"),
    step(3, 'http://h/i/ab/results', results, 'go_back()'),
    step(4, 'http://h/i/ab/p/1', form('Ann'), "click('3')"),
  ];
  const p2 = planShortening({ steps: viaBack, end: undefined });
  assert.deepEqual(p2.keep, [0, 1, 4]);
});

test('a kept action is re-resolved by role and name when ids shift on replay', () => {
  const recorded = { elements: [el('5', 'button', 'Add to cart'), el('6', 'link', 'Item'), el('7', 'link', 'Item')] };
  const live = { elements: [el('5', 'button', 'Extra'), el('8', 'button', 'Add to cart'), el('9', 'link', 'Item'), el('10', 'link', 'Item')] };
  assert.equal(resolveAction("click('5')", recorded, live), "click('8')");
  assert.equal(resolveAction("click('7')", recorded, live), "click('10')", 'the second of two equal links stays the second');
  assert.equal(resolveAction("fill('6', 'x')", recorded, { elements: recorded.elements }), "fill('6', 'x')");
  assert.equal(resolveAction('go_back()', recorded, live), 'go_back()');
});

test('a resumed run continues where it stopped and duplicates nothing', async () => {
  const lab = new LabStore(mkdtempSync(join(tmpdir(), 'lab-resume-')));
  const d = { envs: [env], server, store: lab, browserKind: host.kind };
  const first = RunFolder.create(lab.dir, { tasks: 'shop,webmail:test', agent: 'noisy', agentSeed: 3, retries: 1, reflect: 'rules', shorten: true, parallel: 1, seeds: 1 });
  // Stop after the first task, as Ctrl-C would.
  const stop = new AbortController();
  const partial = await runCollection(d, first, { signal: stop.signal, onTaskDone: (done) => done >= 1 && stop.abort() });
  assert.equal(partial.tasksDone, 1);
  const before = new Set(lab.episodeIds());

  // A crash between the last attempt and the task's end line, with a torn line after it.
  const log = join(first.dir, 'progress.jsonl');
  const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
  assert.equal(JSON.parse(lines.at(-1)!).type, 'task_done');
  writeFileSync(log, lines.slice(0, -1).join('\n') + '\n');
  appendFileSync(log, '{"type":"attem');

  const resumed = await runCollection(d, RunFolder.open(lab.dir, first.config.runId));
  assert.equal(resumed.tasksDone, 2);
  const events = RunFolder.open(lab.dir, first.config.runId).events;
  const keys = events.map((e) => (e.type === 'attempt' ? `a:${e.task}:${e.attempt}:${e.arms.join('+')}` : e.type === 'shortened' ? `s:${e.from}` : e.type === 'task_done' ? `d:${e.task}` : e.type));
  assert.equal(new Set(keys).size, keys.length, 'no event twice');
  // Every episode in the lab is one the log names: the first task's attempts were not rerun.
  const named = new Set(events.flatMap((e) => (e.type === 'attempt' ? [e.episodeId] : e.type === 'shortened' && e.episodeId ? [e.episodeId] : [])));
  assert.deepEqual([...lab.episodeIds()].sort(), [...named].sort());
  for (const id of before) assert.ok(named.has(id));
  assert.ok(lab.episodeIds().length > before.size, 'the second task ran');
  const reflections = readdirSync(join(lab.dir, 'reflections'));
  assert.equal(new Set(reflections).size, reflections.length);

  // Resuming a finished run does no work.
  const count = lab.episodeIds().length;
  const again = await runCollection(d, RunFolder.open(lab.dir, first.config.runId));
  assert.equal(again.tasksDone, 2);
  assert.equal(lab.episodeIds().length, count);
  assert.deepEqual(again.arms, resumed.arms);
});
