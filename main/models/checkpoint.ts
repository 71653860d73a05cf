/**
 * Model checkpoints: one folder per model, readable without the app.
 *
 *   model.json      config, SAT settings, parameter names/shapes, free-form metadata (backend, run)
 *   weights.bin     float32 little-endian parameters, concatenated in model.json's order
 *   tokenizer.json  the tokenizer the model was trained with
 *
 * Files are written to a temporary name and renamed, so a crash never leaves half a checkpoint.
 */
import * as tf from '@tensorflow/tfjs';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { TransformerLM, parameterShapes, type ModelConfig } from './model.ts';
import { Tokenizer, TokenizerJson } from './tokenizer.ts';
import { writeFileAtomic, readJsonFile } from '../store/json-file.ts';
import { modelFiles } from '../store/lab-files.ts';

export const SatSettings = z.object({
  /** 'shared': one SAT id repeated k times; 'distinct': k different ids. */
  mode: z.enum(['shared', 'distinct']),
  /** Block length trained; drafting may use any k up to it. */
  k: z.number().int().positive(),
});
export type SatSettings = z.infer<typeof SatSettings>;

const ModelJson = z.object({
  format: z.literal('lab-transformer-lm'),
  version: z.literal(1),
  config: z.object({
    vocabSize: z.number().int(), satTokens: z.number().int(), ctx: z.number().int(), dModel: z.number().int(),
    nLayer: z.number().int(), nHead: z.number().int(), dFF: z.number().int(), initStd: z.number(), seed: z.number().int(),
    copy: z.boolean().optional(), copyNext: z.boolean().optional(),
  }),
  sat: SatSettings.nullable(),
  weights: z.array(z.object({ name: z.string(), shape: z.array(z.number().int()) })),
  meta: z.record(z.string(), z.unknown()),
});

export interface LoadedModel {
  model: TransformerLM;
  tokenizer: Tokenizer;
  sat: SatSettings | null;
  meta: Record<string, unknown>;
}

export function isCheckpoint(dir: string): boolean {
  const f = modelFiles(dir);
  return existsSync(f.model) && existsSync(f.weights);
}

export async function saveModel(dir: string, m: { model: TransformerLM; tokenizer: Tokenizer; sat: SatSettings | null; meta?: Record<string, unknown> }): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const shapes = parameterShapes(m.model.config);
  const parts = await Promise.all(shapes.map(([name]) => m.model.p(name).data() as Promise<Float32Array>));
  const total = parts.reduce((n, p) => n + p.length, 0);
  const buf = new Float32Array(total);
  let o = 0;
  for (const p of parts) {
    buf.set(p, o);
    o += p.length;
  }
  writeFileAtomic(modelFiles(dir).weights, new Uint8Array(buf.buffer));
  writeFileAtomic(modelFiles(dir).tokenizer, JSON.stringify(m.tokenizer.toJSON()));
  const json: z.infer<typeof ModelJson> = {
    format: 'lab-transformer-lm',
    version: 1,
    config: m.model.config,
    sat: m.sat,
    weights: shapes.map(([name, shape]) => ({ name, shape })),
    meta: m.meta ?? {},
  };
  // model.json last: its presence marks a complete checkpoint.
  writeFileAtomic(modelFiles(dir).model, JSON.stringify(json, null, 2));
}

export function loadTokenizer(dir: string): Tokenizer {
  return new Tokenizer(readJsonFile(modelFiles(dir).tokenizer, TokenizerJson, 'a tokenizer'));
}

export function loadModel(dir: string): LoadedModel {
  if (!isCheckpoint(dir)) throw new Error(`no model checkpoint in ${dir}`);
  const json = readJsonFile(modelFiles(dir).model, ModelJson, 'a model description');
  const config: ModelConfig = json.config;
  const tokenizer = loadTokenizer(dir);
  const raw = readFileSync(modelFiles(dir).weights);
  const data = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
  const expected = parameterShapes(config);
  const params = new Map<string, tf.Variable>();
  let o = 0;
  for (const [name, shape] of expected) {
    const size = shape.reduce((a, b) => a * b, 1);
    if (o + size > data.length) throw new Error(`${dir}/weights.bin is too short for ${name}`);
    params.set(name, tf.variable(tf.tensor(data.subarray(o, o + size), shape), true));
    o += size;
  }
  if (o !== data.length) throw new Error(`${dir}/weights.bin has ${data.length - o} extra values`);
  return { model: new TransformerLM(config, params), tokenizer, sat: json.sat, meta: json.meta };
}
