import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecodingLab } from '../../main/server/decoding.ts';
import { SHIPPED_MODEL as SHIPPED_MODEL_DIR } from '../../main/decode/models.ts';
import type { LabEvents } from '../../preload/api.ts';
import { modelFiles } from '../../main/store/lab-files.ts';

type Event = { [E in keyof LabEvents]: { event: E; data: LabEvents[E] } }[keyof LabEvents];

function lab() {
  const events: Event[] = [];
  const waiters: Array<() => void> = [];
  const d = new DecodingLab(mkdtempSync(join(tmpdir(), 'lab-decoding-')), (event, data) => {
    events.push({ event, data } as Event);
    for (const w of waiters.splice(0)) w();
  }, { backend: 'wasm' });
  const until = async (pred: (e: Event) => boolean): Promise<Event> => {
    for (;;) {
      const hit = events.find(pred);
      if (hit) return hit;
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  return { d, events, until };
}

test('bad requests are refused with the field named; one run at a time; a live decode can be cancelled mid-stream', async () => {
  const { d, events, until } = lab();
  const info = await d.info();
  assert.equal(info.model, join('resources', 'models', 'sdsat-code'));
  assert.ok(info.prompts.length > 0);
  // The shipped benchmark's fastest exact mode is the default, not SDSAT (0.93x on this model).
  assert.deepEqual([info.defaultMode.mode, info.defaultMode.k], ['lookup-tree', 4]);
  await assert.rejects(d.startLive({ prompt: 'x', k: info.sat.k + 1, maxNew: 8 }), new RegExp(`k must be an integer in 1\\.\\.${info.sat.k}`));
  await assert.rejects(d.startLive({ prompt: 'x', k: 2, maxNew: 0 }), /maxNew must be an integer/);
  await assert.rejects(d.startBench({ ks: [], maxNew: 8 }), /k: give at least one draft length/);

  const { decodeId } = await d.startLive({ prompt: 'interface ', k: 3, maxNew: 200 });
  await assert.rejects(d.startBench({ ks: [1], maxNew: 4, prompts: 1 }), /a live decode is running/);
  await until((e) => e.event === 'decodeLoop' && e.data.decodeId === decodeId);
  d.cancel(decodeId);
  const done = await until((e) => e.event === 'decodeDone' && e.data.final);
  assert.equal(done.event === 'decodeDone' && done.data.error, 'cancelled');
  assert.ok(!events.some((e) => e.event === 'decodeDone' && e.data.result && e.data.mode !== 'ar'), 'the SDSAT side never ran');

  // Released: a short decode now runs to the end, streaming per loop, and its sources match the stream.
  const second = await d.startLive({ prompt: 'function ', k: 2, maxNew: 24 });
  const last = await until((e) => e.event === 'decodeDone' && e.data.decodeId === second.decodeId && e.data.final);
  assert.ok(last.event === 'decodeDone' && last.data.result);
  const result = last.data.result!;
  const streamed = events.flatMap((e) => (e.event === 'decodeLoop' && e.data.decodeId === second.decodeId && e.data.mode === result.mode ? e.data.tokens : []));
  assert.deepEqual(streamed, result.tokens);
  assert.equal(result.tokens.length, result.stats.newTokens);

  // A benchmark reports progress and stops at the next generation when cancelled; what it measured is saved, marked cancelled.
  const { benchId } = await d.startBench({ ks: [1, 2, 3], maxNew: 8, prompts: 10 });
  await until((e) => e.event === 'decodeBenchProgress' && e.data.benchId === benchId && e.data.done >= 3);
  d.cancel(benchId);
  const benchDone = await until((e) => e.event === 'decodeBenchDone' && e.data.benchId === benchId);
  assert.ok(benchDone.event === 'decodeBenchDone' && benchDone.data.entry);
  const report = benchDone.data.entry!.report;
  assert.equal(report.cancelled, true);
  assert.ok(report.results.every((r) => r.k === 1), 'stopped within the first k');
  const progress = events.filter((e) => e.event === 'decodeBenchProgress' && e.data.benchId === benchId);
  // 3 ks x 3 repeats (the default) x 10 prompts x (AR + the five default modes)
  assert.equal(progress[0].event === 'decodeBenchProgress' && progress[0].data.total, 3 * 3 * 10 * 6);
  assert.deepEqual(d.listBenches().benches.map((b) => b.source), ['shipped', 'run']);
  d.close();
});

test('a malformed benchmark file is listed as an error naming the file and the field, not a crash', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-decoding-bad-'));
  mkdirSync(join(dir, 'bench', 'decode'), { recursive: true });
  const shipped = JSON.parse(readFileSync(modelFiles(SHIPPED_MODEL_DIR).benchDecode, 'utf8'));
  writeFileSync(join(dir, 'bench', 'decode', 'good.json'), JSON.stringify(shipped));
  writeFileSync(join(dir, 'bench', 'decode', 'bad.json'), JSON.stringify({ ...shipped, results: [{ ...shipped.results[0], speedup: 'fast' }] }));
  writeFileSync(join(dir, 'bench', 'decode', 'torn.json'), '{"backend": "wa');
  const d = new DecodingLab(dir, () => {});
  const { benches, errors } = d.listBenches();
  assert.deepEqual(benches.map((b) => b.id), ['shipped', 'good']);
  assert.equal(errors.length, 2);
  assert.match(errors.find((e) => e.includes('bad.json'))!, /bad\.json: field results\.0\.speedup: /);
  assert.match(errors.find((e) => e.includes('torn.json'))!, /torn\.json: not a JSON bench report/);
});
