/**
 * The WebJudge-style judge end to end: an imported task run in real Chromium with screenshots,
 * judged through an OpenAI-compatible HTTP server with scripted replies; the verdict is stored
 * beside the episode. The server records the requests, so the test checks what the judge was shown.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import { LabStore } from '../../main/store/lab.ts';
import { TaskServer } from '../../main/tasks/server.ts';
import { parseImportFile } from '../../main/tasks/imported/formats.ts';
import { importedFamily, saveTaskSet } from '../../main/tasks/imported/taskset.ts';
import { ChatEndpoint } from '../../main/llm/client.ts';
import { JudgmentStore } from '../../main/store/judgments.ts';
import { judgeAndRecord, unjudgedEpisodes } from '../../main/judge/run.ts';
import type { Agent } from '../../main/tasks/agent.ts';
import type { Observation } from '../../main/environment/types.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { imagesOf, startChatServer, textOf, type ChatServer } from '../helpers/chat-server.ts';
import { runLab } from '../helpers/lab-cli.ts';

const INSTRUCTION = 'Book a table for two under the name Ada.';

let pages: FixtureServer;
let host: ChromiumHost;
let server: TaskServer;
let env: BrowserEnv;
let store: LabStore;
let chat: ChatServer;
let episodeId = '';

/** Fills the name, picks the size, books, then tells the user. */
function booker(): Agent {
  let k = 0;
  return {
    name: 'scripted-booker',
    reset() {
      k = 0;
    },
    async act(obs: Observation) {
      const el = (role: string, name: string) => obs.elements.find((e) => e.role === role && e.name === name)!.id;
      switch (k++) {
        case 0:
          return { thought: 'Type the name.', action: `fill('${el('textbox', 'Your name')}', 'Ada')` };
        case 1:
          return { thought: 'Two people.', action: `select_option('${el('combobox', 'Party size')}', 'Two')` };
        case 2:
          return { thought: 'Submit the booking.', action: `click('${el('button', 'Book')}')` };
        default:
          return { action: "send_msg_to_user('Booked for Ada, party of two.')" };
      }
    },
  };
}

/** WebJudge's three kinds of request, answered by what the request asks. */
function judgeScript(verdict: string) {
  return (body: Parameters<ChatServer['script']>[0]) => {
    const text = textOf(body);
    if (text.includes('List the key points')) return 'Key Points:\n1. A table is booked\n2. Under the name Ada\n3. For two people';
    if (text.includes('"Score: N"')) {
      // The page before the message is also the last page (a message changes nothing on it).
      if (text.includes('at step 4,') || text.includes("the page after the agent's last action")) return 'The confirmation is visible.\nScore: 5';
      if (text.includes('at step 3,')) return 'The filled form before booking.\nScore: 4';
      return 'An empty or partly filled form.\nScore: 1';
    }
    if (text.includes('Did the agent complete the task?')) return verdict;
    return { status: 400, message: 'unexpected request' };
  };
}

before(async () => {
  pages = await startFixtureServer();
  host = await ChromiumHost.start();
  const lab = mkdtempSync(join(tmpdir(), 'lab-judge-'));
  store = new LabStore(lab);
  const jsonl = `{"web_name": "Fixture", "id": "Fixture--0", "ques": "${INSTRUCTION}", "web": "${pages.url}/form.html"}\n`;
  const tasks = parseImportFile('webvoyager', 'fixture.jsonl', jsonl);
  saveTaskSet(lab, 'bench', tasks);
  server = await new TaskServer(new Map([['bench', importedFamily('bench', tasks)]])).start();
  env = new BrowserEnv(host, { screenshots: true });
  chat = await startChatServer(judgeScript('Thoughts: The status line confirms a booking for Ada, two people.\nStatus: success'));
  const out = await runEpisode({ env, server, store, browserKind: host.kind }, { family: 'bench', seed: 0, agent: booker() });
  episodeId = out.id;
});

after(async () => {
  await env?.close();
  await host?.close();
  await server?.stop();
  await pages?.close();
  await chat?.close();
});

const endpoint = () => new ChatEndpoint({ baseUrl: chat.baseUrl, model: 'judge-fixture', maxWaitMs: 2000 });

test('an imported task runs on its start page with no checker: recorded as judged, with its source', () => {
  const e = store.readEpisode(episodeId);
  assert.equal(e.header.task.checker, 'judge');
  assert.deepEqual(e.header.task.source, { format: 'webvoyager', id: 'Fixture--0', file: 'fixture.jsonl', row: 1 });
  assert.equal(e.header.task.startUrl, `${pages.url}/form.html`);
  assert.equal(e.steps.length, 4);
  assert.deepEqual(e.end!.keyPoints, []);
  assert.deepEqual(unjudgedEpisodes(store, new JudgmentStore(store.dir)), [episodeId]);
  const listed = store.listEpisodes().episodes.find((s) => s.id === episodeId)!;
  assert.deepEqual([listed.status, listed.judge], ['failure', 'unjudged']);
});

test('the judge asks for key points, scores each screenshot, and judges with the instruction, actions and key screenshots only', async () => {
  chat.requests.length = 0;
  const [r] = await judgeAndRecord(store, [episodeId], endpoint(), { model: 'judge-fixture', baseUrl: chat.baseUrl });
  assert.equal(r.error, undefined, r.error);
  const j = r.judgment!;
  assert.equal(j.verdict, 'success');
  assert.equal(j.reasons, 'The status line confirms a booking for Ada, two people.');
  // The episode list (and so the app and dataset curation) shows the verdict as the outcome.
  const listed = store.listEpisodes().episodes.find((s) => s.id === episodeId)!;
  assert.deepEqual([listed.status, listed.judge], ['success', 'success']);
  assert.deepEqual(j.keyPoints, ['A table is booked', 'Under the name Ada', 'For two people']);
  const e = store.readEpisode(episodeId);
  const distinct = new Set([...e.steps.map((s) => s.observation.screenshot), e.end!.finalObservation.screenshot]);
  assert.equal(j.scores.length, distinct.size, 'every distinct screenshot scored once');
  assert.equal(e.steps[3].observation.screenshot, e.end!.finalObservation.screenshot, 'the message left the page as it was');
  assert.deepEqual(j.keyScreenshots.map((k) => [k.step, k.score]), [[3, 4], [4, 5]]);
  assert.equal(chat.requests.length, 1 + j.scores.length + 1);
  assert.ok(chat.requests.every((b) => b.model === 'judge-fixture'));
  // The verdict request: the instruction, the key points, every action, and exactly the key screenshots' bytes.
  const last = chat.requests.at(-1)!;
  const text = textOf(last);
  assert.ok(text.includes(`Task: ${INSTRUCTION}`));
  assert.ok(text.includes('3. For two people'));
  for (const s of e.steps) assert.ok(text.includes(s.action), s.action);
  assert.ok(text.includes('(Submit the booking.)'), 'thoughts are shown');
  const expected = j.keyScreenshots.map((k) => `data:image/png;base64,${store.blobs.get(k.screenshot).toString('base64')}`);
  assert.deepEqual(imagesOf(last), expected);
  assert.ok(imagesOf(chat.requests[1]).length === 1 && imagesOf(chat.requests[0]).length === 0);
  // Recorded beside the episode, which is untouched.
  const judgments = new JudgmentStore(store.dir);
  assert.equal(judgments.latest(episodeId)!.verdict, 'success');
  assert.deepEqual(unjudgedEpisodes(store, judgments), []);
  assert.equal(readFileSync(e.path, 'utf8').split('\n').filter(Boolean).length, 1 + 4 + 1);
});

test('a malformed verdict is recorded as such, kept raw, and the episode counts as unjudged again', async () => {
  chat.script = judgeScript('The agent seems to have done fine overall.');
  const [r] = await judgeAndRecord(store, [episodeId], endpoint(), { model: 'judge-fixture', baseUrl: chat.baseUrl });
  assert.equal(r.error, undefined);
  assert.equal(r.judgment!.verdict, null);
  assert.match(r.judgment!.malformed!, /^verdict: /);
  assert.equal(r.judgment!.raw.verdict, 'The agent seems to have done fine overall.');
  const judgments = new JudgmentStore(store.dir);
  assert.deepEqual(judgments.history(episodeId).map((h) => h.verdict), ['success', null], 'append-only: the earlier verdict stays');
  assert.deepEqual(unjudgedEpisodes(store, judgments), [episodeId]);

  // Unreadable key points stop before any screenshot is sent.
  chat.requests.length = 0;
  chat.script = () => 'I would rather not say.';
  const [k] = await judgeAndRecord(store, [episodeId], endpoint(), { model: 'judge-fixture', baseUrl: chat.baseUrl });
  assert.match(k.judgment!.malformed!, /^key points: /);
  assert.equal(chat.requests.length, 1);

  // An endpoint that refuses: reported, nothing recorded.
  chat.script = () => ({ status: 400, message: 'model not found' });
  const [x] = await judgeAndRecord(store, [episodeId], endpoint(), { model: 'judge-fixture', baseUrl: chat.baseUrl });
  assert.match(x.error!, /model not found/);
  assert.equal(judgments.history(episodeId).length, 3);
});

test('`lab judge --all-unjudged` through the command line judges what has no readable verdict and prints it', async () => {
  chat.script = judgeScript('Thoughts: Booked as asked.\nStatus: failure');
  const { stdout } = await runLab('--lab', store.dir, 'judge', '--all-unjudged', '--endpoint', chat.baseUrl, '--model', 'judge-fixture', '--json');
  const out = JSON.parse(stdout);
  assert.deepEqual(out.judged.map((r: { episodeId: string; judgment: { verdict: string } }) => [r.episodeId, r.judgment.verdict]), [[episodeId, 'failure']]);
  assert.equal(new JudgmentStore(store.dir).latest(episodeId)!.verdict, 'failure');
});
