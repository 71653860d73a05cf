/**
 * Review decisions from two processes at once (two web servers on one lab, or the app and the CLI):
 * every decision each of them answered OK is in the draft afterwards. Before the draft was written
 * under a lock, one process's read-modify-write overwrote the other's: three rounds of 30 accepts
 * kept 30, 25 and 18, and rejected episodes came back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { RunFolder } from '../../main/collection/collect-run.ts';
import { freezeDraft, readDraft, writeDraft } from '../../main/datasets/draft.ts';
import { readManifest } from '../../main/datasets/index.ts';
import type { DecideRequest } from '../../preload/views.ts';
import { tmpLab, writeEpisode } from './helpers.ts';

const CHILD = join(import.meta.dirname, '..', 'helpers', 'decide-child.ts');
type Decision = Omit<DecideRequest, 'runId'>;

/** A lab with `n` successful episodes, each an attempt of its own task in one collection run. */
function labWithRun(n: number) {
  const lab = tmpLab();
  const run = RunFolder.create(lab.dir, { tasks: 'shop:train', agent: 'oracle', agentSeed: 1, retries: 0, reflect: 'rules', shorten: false, parallel: 1, seeds: n });
  const episodes = Array.from({ length: n }, (_, seed) => {
    const episodeId = writeEpisode(lab, { family: 'shop', seed });
    const task = `shop:${seed}`;
    run.append({ type: 'attempt', task, arms: ['reflect', 'blind'], attempt: 0, episodeId, success: true, steps: 3, reflections: [] });
    return { episodeId, task };
  });
  return { lab, runId: run.config.runId, episodes };
}

/** Start one child per list, let all of them load, then set them deciding at the same moment. */
async function decideAtOnce(labDir: string, runId: string, lists: Decision[][]): Promise<string[][]> {
  const children = lists.map((list) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, labDir, runId, JSON.stringify(list)], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { child, lines, exited };
  });
  for (const c of children) assert.equal((await c.lines.next()).value, 'ready');
  for (const c of children) c.child.stdin!.write('go\n');
  const answers: string[][] = [];
  for (const c of children) {
    const line = (await c.lines.next()).value as string;
    assert.equal(await c.exited, 0);
    answers.push((JSON.parse(line) as { answers: string[] }).answers);
  }
  return answers;
}

test('two processes accepting at once into the same drafts: all 30 accepts of each of three rounds are kept', { timeout: 120_000 }, async () => {
  const { lab, runId, episodes } = labWithRun(30);
  const rounds = ['round-1', 'round-2', 'round-3'];
  // One process takes the even episodes, the other the odd ones, dataset after dataset.
  const half = (parity: number) => rounds.flatMap((dataset) => episodes.filter((_, i) => i % 2 === parity).map((e) => ({ ...e, decision: 'accept' as const, dataset })));
  const answers = await decideAtOnce(lab.dir, runId, [half(0), half(1)]);
  for (const a of answers.flat()) assert.match(a, /^accepted .* into the draft of round-\d/, 'every call answered OK');
  for (const dataset of rounds) {
    const kept = readDraft(lab.dir, dataset).accepted.map((e) => e.episodeId).sort();
    assert.deepEqual(kept, episodes.map((e) => e.episodeId).sort(), `${dataset}: every accept answered OK is in the draft`);
  }
});

test("rejections made beside another process's accepts stay rejected, and the next version leaves them out", { timeout: 120_000 }, async () => {
  const { lab, runId, episodes } = labWithRun(50);
  const [frozen, added] = [episodes.slice(0, 20), episodes.slice(20)];
  writeDraft(lab.dir, 'kept', { accepted: frozen.map((e) => ({ ...e, runId, at: '2026-01-01T00:00:00.000Z' })), rejected: [] });
  freezeDraft(lab, 'kept');
  // One process rejects half of v1 while the other accepts 30 new episodes.
  const rejected = frozen.filter((_, i) => i % 2 === 0);
  const answers = await decideAtOnce(lab.dir, runId, [
    rejected.map((e) => ({ ...e, decision: 'reject' as const, dataset: 'kept' })),
    added.map((e) => ({ ...e, decision: 'accept' as const, dataset: 'kept' })),
  ]);
  for (const a of answers[0]) assert.match(a, /^rejected .*: the next version of kept leaves it out/);
  for (const a of answers[1]) assert.match(a, /^accepted .* into the draft of kept/);
  const draft = readDraft(lab.dir, 'kept');
  const ids = (list: Array<{ episodeId: string }>) => list.map((e) => e.episodeId).sort();
  assert.deepEqual(ids(draft.rejected), ids(rejected), 'every rejection is in the draft');
  assert.deepEqual(ids(draft.accepted), ids(added), 'every accept is in the draft');
  freezeDraft(lab, 'kept');
  const v2 = readManifest(lab.dir, { name: 'kept', version: 2 }).episodes.map((e) => e.id).sort();
  const keep = new Set(ids(rejected));
  assert.deepEqual(v2, ids([...frozen.filter((e) => !keep.has(e.episodeId)), ...added]), 'v2: v1 less the rejected, plus the accepted');
});
