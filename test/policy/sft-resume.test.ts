import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSft } from '../../main/policy/sft-runner.ts';
import { defaultSftJob, type SftJob } from '../../main/policy/sft.ts';
import { defaultPromptSettings } from '../../main/policy/prompt.ts';
import type { PolicySample } from '../../main/policy/sft-data.ts';
import { readPolicySettings } from '../../main/policy/settings.ts';
import { modelFiles } from '../../main/store/lab-files.ts';

const el = (id: string, role: string, name: string) => ({ id, role, name, tag: 'a', box: { x: 0, y: 0, width: 9, height: 9 }, visible: true, inViewport: true });

function samplesFile(dir: string): string {
  const samples: PolicySample[] = ['Boots', 'Jacket', 'Tent', 'Stove'].map((name, i) => ({
    episodeId: `e${i}`, step: 0, split: i === 3 ? 'validation' : 'train', family: 'shop',
    input: { instruction: `Open the ${name}.`, url: 'http://x/i/a/', title: 'Shop', elements: [el('4', 'link', 'Boots'), el('7', 'link', 'Jacket'), el('9', 'link', 'Tent'), el('12', 'link', 'Stove')], lastActionError: null, history: [] },
    target: { thought: `Open ${name}.`, action: `click('${[4, 7, 9, 12][i]}')` },
  }));
  const path = join(dir, 'samples.jsonl');
  writeFileSync(path, samples.map((s) => JSON.stringify(s)).join('\n') + '\n');
  return path;
}

function job(outDir: string, samples: string): SftJob {
  return {
    ...defaultSftJob, outDir, samplesFile: samples, dataset: { name: 'synthetic', version: 1 },
    steps: 24, batch: 2, warmup: 4, evalEvery: 1000, checkpointEvery: 1000, vocabSize: 300,
    model: { dModel: 16, nLayer: 1, nHead: 2, dFF: 32, ctx: 192 }, prompt: defaultPromptSettings, backend: 'wasm',
  };
}

test('SFT cancelled in its worker keeps a checkpoint; run again (with the same schedule: another is refused) it resumes there and ends with the same weights as an uninterrupted run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-sft-resume-'));
  const samples = samplesFile(dir);

  const straight = await startSft(job(join(dir, 'straight'), samples)).result;
  assert.equal(straight.stepsDone, 24);
  assert.equal(straight.cancelled, false);

  const out = join(dir, 'interrupted');
  const handle = startSft(job(out, samples), { progress: (p) => { if (p.step >= 5) handle.cancel(); } });
  const first = await handle.result;
  assert.equal(first.cancelled, true);
  assert.ok(first.stepsDone >= 5 && first.stepsDone < 24, `stopped at ${first.stepsDone}`);
  assert.equal(JSON.parse(readFileSync(modelFiles(out).trainState, 'utf8')).state.step, first.stepsDone);
  assert.ok(existsSync(modelFiles(out).model) && existsSync(modelFiles(out).tokenizer) && existsSync(join(out, 'optimizer.bin')));
  assert.equal(readPolicySettings(out).dataset?.name, 'synthetic');

  // A resume with another schedule is refused and leaves the checkpoint as it was.
  await assert.rejects(startSft({ ...job(out, samples), steps: 30 }).result, /train-state\.json: cannot resume with steps 30 \(the run has 24\)/);
  assert.equal(JSON.parse(readFileSync(modelFiles(out).trainState, 'utf8')).state.step, first.stepsDone);

  const second = await startSft(job(out, samples)).result;
  assert.equal(second.resumedFrom, first.stepsDone);
  assert.equal(second.stepsDone, 24);
  assert.equal(second.cancelled, false);
  // Batch order, optimizer moments and schedule all continue exactly where they stopped.
  assert.ok(readFileSync(join(out, 'weights.bin')).equals(readFileSync(join(dir, 'straight', 'weights.bin'))), 'resumed weights differ from the uninterrupted run');
  const runs = readFileSync(modelFiles(out).runs, 'utf8').trim().split('\n');
  assert.equal(runs.length, 2);
});
