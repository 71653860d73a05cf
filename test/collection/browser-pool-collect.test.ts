import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLab as lab } from '../helpers/lab-cli.ts';
import { startDebugChromium, type DebugChromium } from '../helpers/debug-chromium.ts';
import { LabStore } from '../../main/store/lab.ts';

/** The run's progress events so far (the run folder is the only one under runs/). */
function progress(dir: string): Array<Record<string, any>> {
  const runs = join(dir, 'runs');
  if (!existsSync(runs)) return [];
  const [run] = readdirSync(runs);
  const log = run ? join(runs, run, 'progress.jsonl') : '';
  if (!log || !existsSync(log)) return [];
  return readFileSync(log, 'utf8').split('\n').filter((l) => l.endsWith('}')).map((l) => JSON.parse(l));
}

/** Resolve when `ready` holds for the run's progress, checking every 25 ms. */
async function whenProgress(dir: string, ready: (events: Array<Record<string, any>>) => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready(progress(dir))) {
    if (Date.now() > deadline) throw new Error('the run made no progress');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Resolve once `browser` shows a task page (an episode in flight on it), checking every 25 ms. */
async function whenBusy(browser: DebugChromium, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pages = (await (await fetch(`${browser.httpUrl}/json/list`)).json()) as Array<{ type: string; url: string }>;
    // A task page, not the network guard's probe (the host's check that the browser reaches its proxy).
    if (pages.some((p) => p.type === 'page' && p.url.startsWith('http://127.0.0.1') && !p.url.includes('/lab-proxy-probe'))) return;
    if (Date.now() > deadline) throw new Error(`no episode ran on ${browser.httpUrl}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test('collect over three browsers with one killed mid-run: its episode in flight is run again on another, every task succeeds once, none is lost', async () => {
  const browsers: DebugChromium[] = await Promise.all([startDebugChromium(), startDebugChromium(), startDebugChromium()]);
  try {
    const [a, b, c] = browsers;
    const dir = mkdtempSync(join(tmpdir(), 'lab-pool-collect-'));
    // Two as DevTools WebSockets, the third from a list file through its /json/version (as a grid URL).
    const list = join(dir, 'browsers.txt');
    writeFileSync(list, `# a list of one\n${c.httpUrl}\n`);
    const run = lab('--lab', dir, 'collect', '--browser', a.wsUrl, '--browser', b.wsUrl, '--browsers', list,
      '--tasks', 'shop,flights:train', '--seeds', '4', '--tier', '1', '--agent', 'oracle', '--retries', '0', '--reflect', 'none', '--parallel', '3', '--json');
    // Kill browser b as soon as its first task page shows: its first episode is in flight then. (A
    // task page seen later may be a finished episode's, kept until the next reset; killing b between
    // two episodes would leave nothing to run again, which a loaded machine made happen once.)
    const killed = whenBusy(b).then(() => b.kill());
    const out = await run;
    await killed;
    const s = JSON.parse(out.stdout);
    assert.equal(s.tasks, 8);
    assert.equal(s.tasksDone, 8, 'every task finished');
    assert.equal(s.arms[0].successes, 8, 'the oracle solved every one: no episode counted against it');
    assert.deepEqual(s.browsers.lost.map((l: { endpoint: string }) => l.endpoint), [b.wsUrl], 'the summary names the browser that died');
    assert.ok(s.browsers.reruns >= 1, `the episode in flight on the killed browser was run again (${JSON.stringify(s.browsers)})`);
    const events = progress(dir);
    const attempts = events.filter((e) => e.type === 'attempt');
    assert.equal(attempts.length, 8, 'one attempt per task: the lost one is not logged as an attempt');
    assert.equal(new Set(attempts.map((e) => e.task)).size, 8);
    const reruns = events.filter((e) => e.type === 'rerun');
    assert.equal(reruns.length, s.browsers.reruns);
    const store = new LabStore(dir);
    for (const r of reruns) {
      assert.equal(r.endpoint, b.wsUrl);
      // The rerun is the same instance with the same agent seed, and its episode succeeded.
      const rerun = attempts.find((e) => e.task === r.task)!;
      const ep = store.readEpisode(rerun.episodeId);
      assert.equal(`${ep.header.task.family}:${ep.header.task.seed}`, r.task);
      assert.equal(ep.end?.success, true);
      if (r.episodeId) assert.ok(!existsSync(store.episodePath(r.episodeId)), 'the discarded half episode is gone');
    }
    // Nothing in the lab but the 8 logged episodes: no half episode of the killed browser.
    const files = readdirSync(join(dir, 'episodes'));
    assert.deepEqual(files.map((f) => f.replace(/\.jsonl$/, '')).sort(), attempts.map((e) => e.episodeId).sort());
    for (const e of attempts) assert.equal(store.readEpisode(e.episodeId).end?.success, true);
  } finally {
    await Promise.all(browsers.map((x) => x.stop()));
  }
});

test('when every browser dies the run stops naming them, keeps what finished, and --resume completes it with nothing twice', async () => {
  const browsers = await Promise.all([startDebugChromium(), startDebugChromium()]);
  try {
    const dir = mkdtempSync(join(tmpdir(), 'lab-pool-all-dead-'));
    const run = lab('--lab', dir, 'collect', '--browser', browsers[0].wsUrl, '--browser', browsers[1].wsUrl,
      '--tasks', 'shop:train', '--seeds', '6', '--tier', '1', '--agent', 'oracle', '--retries', '0', '--reflect', 'none', '--parallel', '2', '--json');
    const killed = whenProgress(dir, (events) => events.some((e) => e.type === 'task_done')).then(() => Promise.all(browsers.map((x) => x.kill())));
    const err = await run.then(() => null, (e: Error) => e);
    await killed;
    assert.ok(err, 'the run fails');
    assert.match(err.message, /every browser went away/);
    for (const x of browsers) assert.ok(err.message.includes(x.wsUrl), `the error names ${x.wsUrl}`);
    assert.match(err.message, /continue it with: npm run lab -- collect --resume /);
    const before = progress(dir).filter((e) => e.type === 'task_done').map((e) => e.task);
    assert.ok(before.length >= 1 && before.length < 6, `some tasks finished before (${before.length})`);
    const runId = readdirSync(join(dir, 'runs'))[0];
    // Resumed on a browser launched here.
    const s = JSON.parse((await lab('--lab', dir, 'collect', '--resume', runId, '--json')).stdout);
    assert.equal(s.tasksDone, 6);
    assert.equal(s.arms[0].successes, 6);
    const events = progress(dir);
    const attempts = events.filter((e) => e.type === 'attempt');
    assert.equal(attempts.length, 6, 'each task attempted once in all');
    assert.equal(new Set(events.filter((e) => e.type === 'task_done').map((e) => e.task)).size, 6);
    assert.equal(readdirSync(join(dir, 'episodes')).length, 6, 'no half episode left behind');
    for (const t of before) assert.ok(events.filter((e) => e.type === 'task_done' && e.task === t).length === 1, `${t} was not run again`);
  } finally {
    await Promise.all(browsers.map((x) => x.stop()));
  }
});
