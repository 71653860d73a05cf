import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { LabStore } from '../../main/store/lab.ts';
import { JsonlFormatError } from '../../main/store/jsonl.ts';
import type { ObservationRecord } from '../../main/store/schema.ts';

const tmpLab = () => new LabStore(mkdtempSync(join(tmpdir(), 'lab-test-')));
const obs: ObservationRecord = { url: 'http://x/', title: 't', elements: [], screenshot: null, lastActionError: null };
const header = {
  task: { family: 'shop', seed: 1, tier: 1, instruction: 'Buy', startUrl: 'http://x/', split: 'train' as const },
  agent: { name: 'oracle' },
  env: { viewport: { width: 10, height: 10 }, screenshots: false, browser: 'chromium' },
  links: {},
};
const timing = { agentMs: 1, actionMs: 1, settleMs: 1, observeMs: 1, totalMs: 4 };

test('an episode is written line by line and read back validated', () => {
  const lab = tmpLab();
  const w = lab.createEpisode(header);
  w.step({ observation: obs, thought: 'go', action: "click('1')", error: null, timing });
  // Readable while still running: the episode is 'incomplete'.
  assert.equal(lab.readEpisode(w.id).steps.length, 1);
  assert.equal(lab.readEpisode(w.id).end, undefined);
  w.step({ observation: obs, action: "fill('2', 'x')", error: { code: 'unknown_element', message: 'no' }, timing });
  w.end({ success: true, reason: 'checker', keyPoints: [{ name: 'ok', met: true }], messages: [], finalObservation: obs, durationMs: 5 });
  const e = lab.readEpisode(w.id);
  assert.equal(e.steps.length, 2);
  assert.equal(e.steps[1].error?.code, 'unknown_element');
  assert.equal(e.end?.success, true);
  assert.equal(e.end?.steps, 2);
  const list = lab.listEpisodes();
  assert.equal(list.episodes.length, 1);
  assert.equal(list.episodes[0].status, 'success');
  assert.equal(readFileSync(e.path, 'utf8').split('\n').length, 5, 'four lines and a final newline');
});

test('a torn last line is skipped with a warning; completed steps survive', () => {
  const lab = tmpLab();
  const w = lab.createEpisode(header);
  w.step({ observation: obs, action: "click('1')", error: null, timing });
  w.abandon();
  appendFileSync(w.path, '{"type":"step","index":1,"observ');
  const e = lab.readEpisode(w.id);
  assert.equal(e.steps.length, 1);
  assert.equal(e.warnings.length, 1);
  assert.match(e.warnings[0], /:3: incomplete last line/);
  assert.equal(lab.listEpisodes().episodes[0].status, 'incomplete');
});

test('bad records are refused with file, line and field named', () => {
  const lab = tmpLab();
  const w = lab.createEpisode(header);
  w.step({ observation: obs, action: "click('1')", error: null, timing });
  w.abandon();
  const lines = readFileSync(w.path, 'utf8').split('\n');
  const bad = JSON.parse(lines[1]);
  bad.observation.elements = [{ id: 3 }];
  writeFileSync(w.path, [lines[0], JSON.stringify(bad), ''].join('\n'));
  assert.throws(
    () => lab.readEpisode(w.id),
    (err: unknown) => err instanceof JsonlFormatError && err.line === 2 && /field observation\.elements\.0\.id/.test(err.message) && err.message.startsWith(w.path),
  );
  writeFileSync(w.path, [lines[0], '{not json', lines[1], ''].join('\n'));
  assert.throws(() => lab.readEpisode(w.id), /:2: not valid JSON/);
  writeFileSync(w.path, [lines[1], ''].join('\n'));
  assert.throws(() => lab.readEpisode(w.id), /:1: the first line must be the episode header/);
  // One broken file does not hide the others from a listing.
  const ok = lab.createEpisode(header);
  ok.abandon();
  const list = lab.listEpisodes();
  assert.equal(list.episodes.length, 1);
  assert.equal(list.errors.length, 1);
});

test('blobs are stored once by content hash', () => {
  const lab = tmpLab();
  const a = lab.blobs.put(Buffer.from('png-bytes'));
  const b = lab.blobs.put(Buffer.from('png-bytes'));
  assert.equal(a, b);
  assert.match(a, /^[0-9a-f]{64}$/);
  assert.equal(lab.blobs.get(a).toString(), 'png-bytes');
});

test('SIGKILL mid-episode: the store opens cleanly and every completed step is readable', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-crash-'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', 'helpers', 'crash-child.ts'), dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let reported = -1;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('child never reached step 3')), 60_000);
    child.stdout.on('data', (chunk) => {
      for (const m of String(chunk).matchAll(/STEP (\d+)/g)) reported = Math.max(reported, Number(m[1]));
      if (reported >= 2) {
        clearTimeout(timer);
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.on('exit', () => reject(new Error('child exited before it was killed')));
  });
  await new Promise((r) => child.once('exit', r));
  const lab = new LabStore(dir);
  const { episodes, errors } = lab.listEpisodes();
  assert.deepEqual(errors, []);
  assert.equal(episodes.length, 1);
  assert.equal(episodes[0].status, 'incomplete');
  const e = lab.readEpisode(episodes[0].id);
  assert.ok(e.steps.length >= reported + 1, `${e.steps.length} steps on disk, ${reported + 1} reported done`);
  e.steps.forEach((s, i) => assert.equal(s.index, i));
  assert.match(e.steps[0].action, /^click\('\d+'\)$/);
});
