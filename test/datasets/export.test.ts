import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { load } from 'js-yaml';
import { LabelStore } from '../../main/store/labels.ts';
import type { LabStore } from '../../main/store/lab.ts';
import {
  buildSamples,
  createDataset,
  DEFAULT_RATIOS,
  ExportCancelledError,
  exportDataset,
  readManifest,
  splitOf,
  type ExportFormat,
  type SplitName,
} from '../../main/datasets/index.ts';
import { resourcePath } from '../../main/paths.ts';
import { makePng, PAGE_ELEMENTS, tmpLab, writeEpisode } from './helpers.ts';

/** A seed of family `shop` that the default ratios put in `split`. */
const seedIn = (split: SplitName) => {
  for (let s = 0; ; s++) if (splitOf('shop', s, DEFAULT_RATIOS) === split) return s;
};

const PNGS = [makePng(4, 3, [255, 0, 0]), makePng(4, 3, [0, 255, 0]), makePng(4, 3, [0, 0, 255])];

/**
 * Three episodes, one per split, with screenshots. Labels on the train episode: step 0 wrong
 * (dropped), step 1 detour with a correction (kept, corrected), step 2 critical.
 */
function screenshotLab() {
  const lab = tmpLab();
  const train = writeEpisode(lab, { seed: seedIn('train'), screenshots: PNGS, thoughts: ['t0', 'Fill the city', 'Done'] });
  const validation = writeEpisode(lab, { seed: seedIn('validation'), screenshots: PNGS, instruction: 'Find the product called <image> and buy it' });
  const testEp = writeEpisode(lab, { seed: seedIn('test'), screenshots: PNGS });
  const labels = new LabelStore(lab.dir);
  labels.append(train, { type: 'step', step: 0, label: 'wrong' });
  labels.append(train, { type: 'step', step: 1, label: 'detour' });
  labels.append(train, { type: 'correction', step: 1, action: "click('5')" });
  labels.append(train, { type: 'step', step: 2, label: 'critical' });
  createDataset(lab, { name: 'shots' });
  return { lab, ids: { train, validation, test: testEp } };
}

const outDir = () => join(mkdtempSync(join(tmpdir(), 'lab-export-')), 'out');
const readJson = (p: string) => JSON.parse(readFileSync(p, 'utf8'));
const readLines = (p: string) =>
  readFileSync(p, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
const arrayBuffer = (p: string) => {
  const b = readFileSync(p);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
};
const bytesOf = (v: unknown) => Buffer.from(v as Uint8Array);

/** UTF-8 bytes of the longest sample (system, user and assistant text, image markers apart) of a sharegpt export. */
const longestSampleBytes = (out: string, splits: string[]) =>
  Math.max(...splits.flatMap((split) => readJson(join(out, `${split}.json`)).map((r: { system: string; conversations: { value: string }[] }) => Buffer.byteLength(r.system + r.conversations.map((c) => c.value.replaceAll('<image>', '')).join('')))));

async function exportTo(lab: LabStore, format: ExportFormat, dataset = 'shots') {
  const out = outDir();
  const progress: number[] = [];
  const result = await exportDataset(lab, { dataset, format, outDir: out, onProgress: (p) => progress.push(p.done) });
  assert.equal(progress.at(-1), result.samples, 'progress reaches the total');
  return { out, result };
}

test('samples follow the labels: wrong dropped, detour corrected, critical flagged, screenshots attached', () => {
  const { lab, ids } = screenshotLab();
  const { samples, skipped } = buildSamples(lab, readManifest(lab.dir, 'shots'));
  assert.equal(skipped, 1);
  assert.equal(samples.length, 8);
  const train = samples.filter((s) => s.episodeId === ids.train);
  assert.deepEqual(
    train.map((s) => s.step),
    [1, 2],
  );
  assert.deepEqual(train[0].target, { action: "click('5')" }, 'the correction replaces the action and its thought');
  assert.equal(train[0].corrected, true);
  assert.equal(train[0].messages[2].content, "click('5')");
  // History is what really happened, including the dropped wrong step and its error.
  assert.match(train[0].messages[1].content, /1\. click\('6'\)  -> error element_not_interactable: element 6 is disabled/);
  assert.equal(train[1].critical, true);
  assert.equal(train[1].messages[2].content, "Done\nsend_msg_to_user('done')");
  assert.equal(train[1].images.length, 1);
  assert.deepEqual(readFileSync(train[1].images[0].path), PNGS[2]);
  assert.equal(samples.filter((s) => s.critical).length, 1);
});

test('sharegpt: conversations/system/images, one <image> marker per image, dataset_info registers each split', async () => {
  const { lab } = screenshotLab();
  const { out, result } = await exportTo(lab, 'sharegpt');
  assert.deepEqual(result.samplesBySplit, { train: 2, validation: 3, test: 3 });
  // The preview: the first targets, as the trainer sees them and with their element named.
  assert.equal(result.preview.length, 5);
  const corrected = result.preview.find((p) => p.corrected)!;
  assert.deepEqual([corrected.action, corrected.readable], ["click('5')", 'click [5] checkbox "Gift wrap"']);
  assert.ok(result.preview.every((p) => p.action && p.readable && typeof p.step === 'number'));
  assert.equal(result.images, 3);
  const info = readJson(join(out, 'dataset_info.json'));
  assert.deepEqual(Object.keys(info), ['shots_v1_train', 'shots_v1_validation', 'shots_v1_test']);
  for (const [split, entry] of Object.entries(info) as Array<[string, Record<string, any>]>) {
    assert.equal(entry.formatting, 'sharegpt');
    assert.deepEqual(entry.columns, { messages: 'conversations', system: 'system', images: 'images' });
    assert.deepEqual(entry.tags, { role_tag: 'from', content_tag: 'value', user_tag: 'human', assistant_tag: 'gpt' });
    assert.equal(entry.file_name, `${split.split('_').at(-1)}.json`);
    const rows = readJson(join(out, entry.file_name));
    assert.ok(rows.length > 0);
    for (const row of rows) {
      assert.deepEqual(Object.keys(row).sort(), ['conversations', 'images', 'system']);
      assert.deepEqual(
        row.conversations.map((c: { from: string }) => c.from),
        ['human', 'gpt'],
      );
      const markers = JSON.stringify(row).split('<image>').length - 1;
      assert.equal(markers, row.images.length, 'markers equal images (page text "<image>" is defused)');
      assert.equal(row.images.length, 1);
      for (const img of row.images) assert.ok(existsSync(join(out, img)), img);
      assert.match(row.images[0], /^images\/[0-9a-f]{64}\.png$/);
    }
  }
  const validation = readJson(join(out, 'validation.json'));
  assert.match(validation[0].conversations[0].value, /^<image>Task: Find the product called < image> and buy it/);
  assert.deepEqual(readdirSync(join(out, 'images')).length, 3);
});

test('sharegpt: llamafactory_sft.yaml parses, trains on the train split dataset_info.json declares, fits the longest sample, picks a vision model for screenshots', async () => {
  const { lab } = screenshotLab();
  const { out, result } = await exportTo(lab, 'sharegpt');
  assert.ok(result.files.includes('llamafactory_sft.yaml'));
  const config = load(readFileSync(join(out, 'llamafactory_sft.yaml'), 'utf8')) as Record<string, unknown>;
  const info = readJson(join(out, 'dataset_info.json'));
  assert.equal(config.stage, 'sft');
  assert.equal(config.do_train, true);
  assert.equal(config.dataset_dir, '.');
  assert.equal(config.dataset, 'shots_v1_train');
  assert.equal(config.eval_dataset, 'shots_v1_validation');
  for (const name of [config.dataset, config.eval_dataset] as string[]) assert.ok(existsSync(join(out, config.dataset_dir as string, info[name].file_name)), name);
  // Screenshots: a vision-language model with its template, and the image budget the cutoff counts on.
  assert.deepEqual([config.model_name_or_path, config.template, config.image_max_pixels], ['Qwen/Qwen2.5-VL-3B-Instruct', 'qwen2_vl', 768 * 768]);
  assert.equal(config.learning_rate, 1e-4);
  assert.equal(config.output_dir, 'saves/shots_v1-sft');
  // No sample is cut: a token holds at least a byte, an image at most 752 tokens (1024 allowed).
  const cutoff = config.cutoff_len as number;
  const longest = longestSampleBytes(out, ['train', 'validation', 'test']);
  assert.ok(cutoff % 1024 === 0 && cutoff >= longest + 1024 && cutoff < longest + 1024 + 64 + 1024, `cutoff_len ${cutoff} for ${longest} bytes and an image`);

  // Text only and no validation split: a text model, no eval keys.
  const text = tmpLab();
  writeEpisode(text, { seed: seedIn('train') });
  createDataset(text, { name: 'plain', ratios: { train: 1, validation: 0, test: 0 } });
  const plainOut = (await exportTo(text, 'sharegpt', 'plain')).out;
  const plain = load(readFileSync(join(plainOut, 'llamafactory_sft.yaml'), 'utf8')) as Record<string, unknown>;
  assert.deepEqual([plain.model_name_or_path, plain.template, plain.dataset], ['Qwen/Qwen2.5-0.5B-Instruct', 'qwen', 'plain_v1_train']);
  assert.equal(plain.cutoff_len, 2048, `${longestSampleBytes(plainOut, ['train'])} bytes and the template round up to 2048`);
  assert.ok(!('eval_dataset' in plain) && !('eval_strategy' in plain) && !('image_max_pixels' in plain));
  // No train split: nothing to train on, so no config, and the export says so.
  createDataset(text, { name: 'heldout', ratios: { train: 0, validation: 0, test: 1 } });
  const { out: held, result: heldResult } = await exportTo(text, 'sharegpt', 'heldout');
  assert.ok(!existsSync(join(held, 'llamafactory_sft.yaml')));
  assert.deepEqual(heldResult.warnings, ['dataset heldout v1: no train split, so no llamafactory_sft.yaml (its splits are registered in dataset_info.json)']);
});

test('openai: one {"messages"} per line, assistant weight 1, screenshots as data: URL image parts', async () => {
  const { lab } = screenshotLab();
  const { out, result } = await exportTo(lab, 'openai');
  assert.deepEqual(result.files, ['train.jsonl', 'validation.jsonl', 'test.jsonl']);
  const rows = readLines(join(out, 'train.jsonl'));
  assert.equal(rows.length, 2);
  for (const row of rows) {
    assert.deepEqual(Object.keys(row), ['messages']);
    const [system, user, assistant] = row.messages;
    assert.deepEqual(Object.keys(system), ['role', 'content']);
    assert.equal(system.role, 'system');
    assert.equal(user.role, 'user');
    assert.deepEqual(assistant.role, 'assistant');
    assert.equal(assistant.weight, 1);
    assert.equal(typeof assistant.content, 'string');
    assert.equal(user.content[0].type, 'image_url');
    const url: string = user.content[0].image_url.url;
    assert.match(url, /^data:image\/png;base64,/);
    assert.ok(PNGS.some((p) => Buffer.from(url.split(',')[1], 'base64').equals(p)));
    assert.equal(user.content[1].type, 'text');
    assert.match(user.content[1].text, /^Task: /);
  }
  assert.equal(rows[0].messages[2].content, "click('5')");
});

test('hf: a folder per split with metadata.jsonl whose file_name paths exist', async () => {
  const { lab } = screenshotLab();
  const { out } = await exportTo(lab, 'hf');
  assert.deepEqual(readdirSync(out).sort(), ['test', 'train', 'validation']);
  for (const split of ['train', 'validation', 'test']) {
    const meta = join(out, split, 'metadata.jsonl');
    const rows = readLines(meta);
    for (const row of rows) {
      assert.deepEqual(Object.keys(row), ['file_name', 'messages', 'episode_id', 'step', 'family', 'seed', 'tier', 'critical', 'corrected']);
      assert.ok(existsSync(join(dirname(meta), row.file_name)), `${split}/${row.file_name}`);
      assert.equal(row.file_name, `images/${row.episode_id}_${row.step}.png`, 'one file per row');
      assert.equal(row.messages.length, 3);
    }
  }
  const train = readLines(join(out, 'train', 'metadata.jsonl'));
  assert.deepEqual(
    train.map((r) => [r.step, r.critical, r.corrected]),
    [
      [1, false, true],
      [2, true, false],
    ],
  );
});

test('hf-parquet: one parquet per split with the image embedded as {bytes, path} and HF features metadata', async () => {
  const { lab, ids } = screenshotLab();
  const { out, result } = await exportTo(lab, 'hf-parquet');
  assert.deepEqual(result.files, ['data/train-00000-of-00001.parquet', 'data/validation-00000-of-00001.parquet', 'data/test-00000-of-00001.parquet']);
  const file = arrayBuffer(join(out, 'data', 'train-00000-of-00001.parquet'));
  const rows = await parquetReadObjects({ file, utf8: false });
  assert.equal(rows.length, 2);
  const utf8 = await parquetReadObjects({ file });
  assert.deepEqual(Object.keys(utf8[0]), ['image', 'messages', 'episode_id', 'step', 'family', 'seed', 'tier', 'critical', 'corrected']);
  assert.equal(utf8[0].episode_id, ids.train);
  assert.equal(Number(utf8[0].step), 1);
  assert.equal(utf8[1].critical, true);
  assert.deepEqual(
    utf8[0].messages.map((m: { role: string }) => m.role),
    ['system', 'user', 'assistant'],
  );
  assert.equal(utf8[0].messages[2].content, "click('5')");
  assert.deepEqual(bytesOf(rows[0].image.bytes), PNGS[1]);
  assert.match(utf8[0].image.path, /^[0-9a-f]{64}\.png$/);
  const kv = parquetMetadata(file).key_value_metadata ?? [];
  const hf = JSON.parse(kv.find((k) => k.key === 'huggingface')!.value!);
  assert.deepEqual(hf.info.features.image, { _type: 'Image' });
  // Hugging Face datasets applies these features only where the column's Arrow field equals
  // theirs, nullability included (Arrow fields are nullable): a REQUIRED field anywhere made the
  // image load as a plain {bytes, path} dict. scripts/check-hf-parquet.py checks it with datasets itself.
  const required = parquetMetadata(file).schema.slice(1).filter((e) => e.repetition_type === 'REQUIRED').map((e) => e.name);
  assert.deepEqual(required, [], 'fields written not-null');
  if (process.env.HF_DATASETS_PYTHON) {
    const check = spawnSync(process.env.HF_DATASETS_PYTHON, ['scripts/check-hf-parquet.py', join(out, 'data')], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr + check.stdout);
  }
});

test('verl: data_source, prompt, ability, reward_model and extra_info columns (+ images with screenshots)', async () => {
  const { lab, ids } = screenshotLab();
  const { out } = await exportTo(lab, 'verl');
  assert.deepEqual(readdirSync(out).sort(), ['reward_agent_lab.py', 'test.parquet', 'train.parquet', 'validation.parquet']);
  assert.deepEqual(readFileSync(join(out, 'reward_agent_lab.py')), readFileSync(resourcePath('trainers', 'reward_agent_lab.py')), 'the reward module ships as is');
  const file = arrayBuffer(join(out, 'train.parquet'));
  const rows = await parquetReadObjects({ file });
  assert.deepEqual(Object.keys(rows[0]), ['data_source', 'prompt', 'ability', 'reward_model', 'extra_info', 'images']);
  const r = rows[0];
  assert.equal(r.data_source, 'agent_lab/shop');
  assert.equal(r.ability, 'web_agent');
  assert.equal(r.reward_model.style, 'rule');
  // What the reward module reads: the reference action (here the correction) and the page reduced to id, role and name.
  assert.deepEqual(JSON.parse(r.reward_model.ground_truth), {
    v: 1,
    action: "click('5')",
    elements: PAGE_ELEMENTS.map(({ id, role, name }) => ({ id, role, name })),
  });
  assert.deepEqual(
    r.prompt.map((m: { role: string }) => m.role),
    ['system', 'user'],
    'the prompt stops before the answer',
  );
  assert.match(r.prompt[1].content, /^<image>Task: /);
  assert.deepEqual({ ...r.extra_info, index: Number(r.extra_info.index), step: Number(r.extra_info.step), seed: Number(r.extra_info.seed) }, {
    split: 'train',
    index: 0,
    episode_id: ids.train,
    step: 1,
    family: 'shop',
    seed: seedIn('train'),
  });
  const raw = await parquetReadObjects({ file, utf8: false });
  assert.deepEqual(bytesOf(raw[0].images[0].bytes), PNGS[1]);
});

test('a text-only dataset exports without image columns or parts', async () => {
  const lab = tmpLab();
  writeEpisode(lab, { seed: seedIn('train') });
  createDataset(lab, { name: 'text' });
  const verl = await exportTo(lab, 'verl', 'text');
  const rows = await parquetReadObjects({ file: arrayBuffer(join(verl.out, 'train.parquet')) });
  assert.deepEqual(Object.keys(rows[0]), ['data_source', 'prompt', 'ability', 'reward_model', 'extra_info']);
  assert.equal(rows.length, 3);
  assert.equal(JSON.parse(rows[2].reward_model.ground_truth).action, "send_msg_to_user('done')");
  const openai = await exportTo(lab, 'openai', 'text');
  assert.equal(typeof readLines(join(openai.out, 'train.jsonl'))[0].messages[1].content, 'string');
  const hf = await exportTo(lab, 'hf', 'text');
  assert.ok(!('file_name' in readLines(join(hf.out, 'train', 'metadata.jsonl'))[0]));
  const hfp = await exportTo(lab, 'hf-parquet', 'text');
  const prow = (await parquetReadObjects({ file: arrayBuffer(join(hfp.out, 'data', 'train-00000-of-00001.parquet')) }))[0];
  assert.ok(!('image' in prow));
  const sg = await exportTo(lab, 'sharegpt', 'text');
  assert.deepEqual(readJson(join(sg.out, 'train.json'))[0].images, []);
  // An existing empty folder is fine as the output.
  const empty = outDir();
  mkdirSync(empty);
  await exportDataset(lab, { dataset: 'text', format: 'openai', outDir: empty });
  assert.deepEqual(readdirSync(empty), ['train.jsonl']);
});

test('cancelling an export removes everything it wrote; a non-empty output folder is refused', async () => {
  const { lab } = screenshotLab();
  const out = outDir();
  const controller = new AbortController();
  await assert.rejects(
    exportDataset(lab, { dataset: 'shots', format: 'sharegpt', outDir: out, signal: controller.signal, onProgress: (p) => p.done === 1 && controller.abort() }),
    ExportCancelledError,
  );
  assert.ok(!existsSync(out));
  assert.deepEqual(readdirSync(dirname(out)), [], 'no staging folder left behind');

  mkdirSync(out);
  writeFileSync(join(out, 'keep.txt'), 'mine');
  await assert.rejects(exportDataset(lab, { dataset: 'shots', format: 'openai', outDir: out }), /output folder .* is not empty/);
  assert.deepEqual(readdirSync(out), ['keep.txt']);
});

test('empty, edited and unknown datasets fail with errors naming the dataset, version and episode', async () => {
  const lab = tmpLab();
  const id = writeEpisode(lab, { seed: 1, actions: ["click('1')", "click('2')"] });
  const labels = new LabelStore(lab.dir);
  labels.append(id, { type: 'step', step: 0, label: 'wrong' });
  labels.append(id, { type: 'step', step: 1, label: 'detour' });
  createDataset(lab, { name: 'nothing-left' });
  await assert.rejects(
    exportDataset(lab, { dataset: 'nothing-left', format: 'openai', outDir: outDir() }),
    /dataset nothing-left v1 yields no training samples: its 1 episodes have 2 steps, 2 of them labeled wrong or detour/,
  );
  labels.append(id, { type: 'correction', step: 1, action: "click('3')" });
  await assert.rejects(exportDataset(lab, { dataset: 'nothing-left@v1', format: 'openai', outDir: outDir() }), new RegExp(`dataset nothing-left v1: the labels of episode ${id} changed`));
  await assert.rejects(exportDataset(lab, { dataset: 'missing', format: 'openai', outDir: outDir() }), /dataset missing does not exist/);
  await assert.rejects(exportDataset(lab, { dataset: 'nothing-left', format: 'csv' as ExportFormat, outDir: outDir() }), /unknown export format "csv"/);
  // With --strict, a screenshot deleted from the blob store fails the export, naming episode, step and file.
  const shots = screenshotLab();
  const blob = shots.lab.readEpisode(shots.ids.test).steps[0].observation.screenshot!;
  rmSync(shots.lab.blobs.pathOf(blob));
  await assert.rejects(
    exportDataset(shots.lab, { dataset: 'shots', format: 'hf', outDir: outDir(), strict: true }),
    /dataset shots v1: episode .* step 0: screenshot \S+\/[0-9a-f]{64}\.png is missing/,
  );
});

test('hf refuses a split that mixes steps with and without screenshots; hf-parquet stores a null image', async () => {
  const lab = tmpLab();
  writeEpisode(lab, { seed: 1, screenshots: PNGS });
  writeEpisode(lab, { seed: 2 });
  createDataset(lab, { name: 'mixed', ratios: { train: 1, validation: 0, test: 0 } });
  const out = outDir();
  await assert.rejects(
    exportDataset(lab, { dataset: 'mixed', format: 'hf', outDir: out }),
    /dataset mixed v1: split train mixes steps with and without screenshots \(3 of 6 have one\).*export as hf-parquet/,
  );
  assert.ok(!existsSync(out));
  const { out: pq } = await exportTo(lab, 'hf-parquet', 'mixed');
  const rows = await parquetReadObjects({ file: arrayBuffer(join(pq, 'data', 'train-00000-of-00001.parquet')), utf8: false });
  assert.equal(rows.length, 6);
  assert.equal(rows.filter((r) => r.image == null).length, 3);
  assert.equal(rows.filter((r) => r.image?.bytes).length, 3);
});
