/**
 * The experiments API over web mode's real WebSocket and HTTP server, on a lab holding a real
 * tiny-preset experiment: its listing and report.html (token-checked, under the report CSP), and a
 * replay started through the API, followed by its events, cancelled mid-way, resumed without
 * redoing a finished stage, and ending in the comparison with the original.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { LabStore } from '../../main/store/lab.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import { LabService } from '../../main/server/service.ts';
import { startWebServer, type WebServer } from '../../main/server/web.ts';
import { apiSocket } from '../helpers/web-client.ts';
import { REPORT_CSP } from '../../main/csp.ts';
import type { LabEvents } from '../../preload/api.ts';
import { newTinyExperimentLab } from '../helpers/tiny-experiment.ts';

let labDir: string;
let service: LabService;
let web: WebServer;
let ws: WebSocket;
const events: Array<{ event: string; data: any }> = [];
const waiters: Array<() => void> = [];
let nextId = 1;
const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();

const call = (method: string, ...params: unknown[]): Promise<any> =>
  new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    ws.send(JSON.stringify({ id, method, params }));
  });

/**
 * The first event (from `from` on) that matches, waiting for it up to 5 minutes: long enough for
 * the rest of a tiny experiment on a loaded machine (npm test runs two files at a time), short
 * enough that a run that never ends fails with the events it did send.
 */
async function eventWhere<E extends keyof LabEvents>(name: E, ok: (d: LabEvents[E]) => boolean, from = 0): Promise<LabEvents[E]> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const hit = events.slice(from).find((e) => e.event === name && ok(e.data));
    if (hit) return hit.data;
    if (Date.now() > deadline) throw new Error(`no ${name} event; got ${events.map((e) => `${e.event}:${e.data.stage ?? e.data.status ?? ''}`).join(' ')}`);
    await new Promise<void>((r) => {
      waiters.push(r);
      setTimeout(r, 500);
    });
  }
}

const stageLog = (id: string) => readFileSync(join(labDir, 'experiments', id, 'stages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { stage: string; status: string });

before(async () => {
  labDir = await newTinyExperimentLab('lab-experiments-api-');
  service = new LabService({ store: new LabStore(labDir), families: builtinFamilies(), mode: 'web', startBrowser: () => ChromiumHost.start() });
  web = await startWebServer({ service, rendererDir: mkdtempSync(join(tmpdir(), 'lab-no-renderer-')) });
  ws = apiSocket(web);
  ws.on('message', (raw) => {
    const msg = JSON.parse(String(raw));
    if (msg.event) {
      events.push(msg);
      waiters.splice(0).forEach((w) => w());
      return;
    }
    const p = pending.get(msg.id)!;
    pending.delete(msg.id);
    if (msg.error !== undefined) p.reject(new Error(msg.error));
    else p.resolve(msg.result);
  });
  await new Promise((r, j) => ws.once('open', r).once('error', j));
});

after(async () => {
  ws?.close();
  await web?.close();
  await service?.close();
});

test('the experiment list: stages with elapsed times and headline figures from report.json', async () => {
  const { experiments, errors, running } = await call('listExperiments');
  assert.deepEqual(errors, []);
  assert.equal(running, null);
  assert.equal(experiments.length, 1);
  const e = experiments[0];
  const report = JSON.parse(readFileSync(join(labDir, 'experiments', 'orig', 'report.json'), 'utf8'));
  assert.deepEqual([e.id, e.preset, e.replayOf, e.state, e.hasReport], ['orig', 'tiny', null, 'finished', true]);
  assert.equal(e.stagesDone, e.stages.length);
  assert.deepEqual(e.stages.map((s: { name: string }) => s.name), report.timings.map((t: { stage: string }) => t.stage));
  for (const s of e.stages) assert.equal(s.elapsedS, report.timings.find((t: { stage: string }) => t.stage === s.name).elapsedS, s.name);
  assert.equal(e.headline.reflectYield, report.collection.reflect.arms.find((a: { arm: string }) => a.arm === 'reflect').yield);
  assert.equal(e.headline.salvageTestSuccess, report.methods.find((m: { method: string }) => m.method === 'salvage').test.success.value);
  assert.equal(e.headline.fewerStepsVerdict, report.claims.fewerSteps.verdict);
  await assert.rejects(call('readExperiment', 'nope'), /no experiment nope/);
  // Each finished stage names what it produced, for the view's links.
  const outputs = (stage: string) => JSON.parse(readFileSync(join(labDir, 'experiments', 'orig', 'outputs', `${stage}.json`), 'utf8'));
  const refs = (stage: string) => e.stages.find((s: { name: string }) => s.name === stage).outputs;
  assert.deepEqual(refs('collect-plain'), [{ kind: 'run', id: outputs('collect-plain').runId }]);
  assert.deepEqual(refs('datasets'), ['reflect', 'plain'].map((arm) => ({ kind: 'dataset', id: `${outputs('datasets')[arm].name}@v${outputs('datasets')[arm].version}` })));
  assert.deepEqual(refs('sft-plain'), [{ kind: 'policy', id: outputs('sft-plain').dir }]);
  assert.deepEqual(refs('eval-sft-plain-test'), [{ kind: 'eval', id: outputs('eval-sft-plain-test').evalId }]);
  assert.deepEqual(refs('mine'), [{ kind: 'mining', id: outputs('mine').evalId }]);
  // The presets the app offers to start, with their default seeds.
  const { presets } = await call('listExperiments');
  assert.deepEqual(presets.map((p: { name: string; seeds: number }) => [p.name, p.seeds]), [['tiny', 1], ['demo', 1], ['full', 3]]);
});

test('startExperiment refuses what `lab experiment` refuses, before creating anything, and while another runs', async () => {
  await assert.rejects(call('startExperiment', { preset: 'huge' }), /--preset must be one of tiny, demo, full, got "huge"/);
  await assert.rejects(call('startExperiment', { preset: 'full', seeds: 2 }), /the full preset runs at least 3 training seeds/);
  await assert.rejects(call('startExperiment', { preset: 'tiny', id: '../x' }), /"\.\.\/x" is not a folder name/);
  await assert.rejects(call('startExperiment', { preset: 'tiny', id: 'orig' }), /experiment orig exists/);
  await assert.rejects(call('startExperiment', { preset: 'tiny', backend: 'cpu' }), /backend/);
  assert.deepEqual((await call('listExperiments')).experiments.map((e: { id: string }) => e.id), ['orig']);
});

// Provenance (issue 20): before the replay below adds its own episodes.
test('a tiny experiment records itself, and the run or evaluation, in every episode it makes', () => {
  const episodes = new LabStore(labDir).listEpisodes().episodes;
  assert.ok(episodes.length > 0);
  assert.deepEqual(episodes.filter((e) => e.provenance.experiment !== 'orig').map((e) => e.id), [], 'no episode without the experiment');
  const runs = new Set(episodes.flatMap((e) => (e.provenance.run ? [e.provenance.run] : [])));
  assert.deepEqual([...runs].sort(), ['orig-plain', 'orig-reflect']);
  for (const e of episodes.filter((e) => e.provenance.run)) assert.ok(e.provenance.attempt !== null && e.provenance.arm, `${e.id}: attempt and arm`);
  const evaluated = episodes.filter((e) => e.provenance.eval);
  assert.ok(evaluated.length > 0);
  for (const e of evaluated) assert.equal(e.agent, 'policy');
  assert.ok(new Set(evaluated.map((e) => e.provenance.policy)).has('sft-reflect'), 'evaluation episodes name their policy folder');
});

test('report.html is served only with the token, under the report CSP, and only for an experiment\'s own report', async () => {
  const get = (path: string, token: string | null = web.token) => fetch(`${web.apiUrl}${path}`, token === null ? {} : { headers: { authorization: `Bearer ${token}` } });
  assert.equal((await get('/experiments/orig/report.html', null)).status, 403);
  assert.equal((await get('/experiments/orig/report.html', 'x'.repeat(web.token.length))).status, 403);
  assert.equal((await fetch(`${web.apiUrl}/experiments/orig/report.html?token=${encodeURIComponent(web.token)}`)).status, 403, 'the token is never taken from a URL');
  const ok = await get('/experiments/orig/report.html');
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get('content-security-policy'), REPORT_CSP);
  assert.match(ok.headers.get('content-type')!, /^text\/html/);
  const html = await ok.text();
  assert.equal(html, readFileSync(join(labDir, 'experiments', 'orig', 'report.html'), 'utf8'));
  assert.equal((await get('/experiments/nope/report.html')).status, 404);
  // Anything else under /experiments/ is not a report: the config, a path that climbs out.
  assert.notEqual((await get('/experiments/orig/config.json')).status, 200);
  assert.notEqual((await get('/experiments/..%2F..%2Fetc%2Fpasswd/report.html')).status, 200);
});

test('a replay through the API: stage and progress events, cancelled mid-way, resumed without redoing a finished stage, then compared with the original', async () => {
  const from = events.length;
  const t0 = performance.now();
  const { experimentId } = await call('replayExperiment', 'orig');
  assert.equal(experimentId, 'orig-replay1');
  await assert.rejects(call('replayExperiment', 'orig'), /experiment orig-replay1 is running; cancel it or wait/);
  await assert.rejects(call('resumeExperiment', 'orig'), /is running/);
  assert.equal((await call('listExperiments')).running, experimentId);

  // Cancel once the first SFT stage has begun: collection and datasets are finished by then.
  await eventWhere('experimentStage', (s) => s.experimentId === experimentId && s.stage === 'sft-reflect' && s.status === 'started', from);
  await call('cancelExperiment', experimentId);
  const stopped = await eventWhere('experimentDone', (d) => d.experimentId === experimentId, from);
  assert.equal(stopped.status, 'stopped');
  assert.ok(stopped.stage?.startsWith('sft-'), `stopped in ${stopped.stage}`);
  assert.ok(events.slice(from).some((e) => e.event === 'experimentProgress' && e.data.stage === 'collect-reflect' && e.data.done === e.data.total));
  const info = await call('readExperiment', experimentId);
  assert.deepEqual([info.state, info.replayOf, info.hasReport], ['stopped', 'orig', false]);
  const byName = Object.fromEntries(info.stages.map((s: { name: string; status: string }) => [s.name, s.status]));
  assert.deepEqual([byName['collect-reflect'], byName['collect-plain'], byName.datasets, byName[stopped.stage!]], ['done', 'done', 'done', 'stopped']);

  // Resume: the finished stages are skipped, the rest runs, and the comparison comes with the end.
  const from2 = events.length;
  const doneBefore = stageLog(experimentId).filter((e) => e.status === 'done').map((e) => e.stage);
  assert.deepEqual(await call('resumeExperiment', experimentId), { experimentId });
  const end = await eventWhere('experimentDone', (d) => d.experimentId === experimentId, from2);
  const seconds = (performance.now() - t0) / 1000;
  process.stderr.write(`tiny replay through the API, with a cancel and a resume: ${seconds.toFixed(1)} s\n`);
  assert.equal(end.status, 'finished', end.error);
  for (const s of doneBefore) {
    assert.ok(events.slice(from2).some((e) => e.event === 'experimentStage' && e.data.stage === s && e.data.status === 'skipped'), `${s} not skipped`);
    assert.equal(stageLog(experimentId).filter((e) => e.stage === s && e.status === 'started').length, 1, `${s} started again`);
  }
  const c = end.comparison!;
  assert.deepEqual([c.original, c.replay, c.configsIdentical], ['orig', experimentId, true]);
  assert.deepEqual(c.rows.filter((r) => r.group !== 'time' && r.difference !== 0 && !(r.original === null && r.replay === null)), []);
  assert.deepEqual(await call('compareExperiments', 'orig', experimentId), c);
  const list = await call('listExperiments');
  assert.equal(list.running, null);
  assert.deepEqual(list.experiments.map((e: { id: string; state: string }) => [e.id, e.state]), [[experimentId, 'finished'], ['orig', 'finished']]);
  await assert.rejects(call('resumeExperiment', experimentId), /has finished; there is nothing to resume/);
});
