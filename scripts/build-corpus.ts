/**
 * Builds resources/corpus/typescript-lib/ from the TypeScript standard library declaration files
 * (node_modules/typescript/lib/lib.*.d.ts, Apache-2.0): train.txt, validation.txt and prompts.jsonl.
 *
 * Usage: npx tsx scripts/build-corpus.ts
 * Deterministic: files in sorted order, the last 10% of each file's lines go to validation, and
 * benchmark prompts are cut from validation text at fixed strides (never seen in training).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resourcePath, PROJECT_ROOT } from '../main/paths.ts';

const LIB = join(PROJECT_ROOT, 'node_modules', 'typescript', 'lib');
const OUT = resourcePath('corpus', 'typescript-lib');
// lib.dom and lib.webworker are left out: together 3 MB, more than a 2-core machine trains on.
const files = readdirSync(LIB)
  .filter((f) => /^lib\..*\.d\.ts$/.test(f) && !/dom|webworker/.test(f))
  .sort();

const train: string[] = [];
const validation: string[] = [];
for (const f of files) {
  const text = readFileSync(join(LIB, f), 'utf8')
    .replace(/^\/\*![\s\S]*?\*\/\s*/, '') // the licence header, identical in every file
    .replace(/^\/\/\/ <reference[^\n]*\n/gm, '')
    .trim();
  if (text.length < 200) continue;
  const lines = text.split('\n');
  const cut = Math.floor(lines.length * 0.9);
  train.push(lines.slice(0, cut).join('\n'));
  validation.push(lines.slice(cut).join('\n'));
}

const SEP = '\n<|endoftext|>\n';
const validationText = validation.join(SEP);
mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, 'train.txt'), train.join(SEP));
writeFileSync(join(OUT, 'validation.txt'), validationText);

// Prompts: 32 cuts of validation text, each starting at a line start, 240-320 characters long.
const prompts: { id: string; text: string }[] = [];
const valLines = validationText.split('\n');
const stride = Math.floor(valLines.length / 32);
for (let i = 0; i < 32; i++) {
  let text = '';
  for (let j = i * stride; j < valLines.length && text.length < 240; j++) {
    if (valLines[j].includes('<|endoftext|>')) break;
    text += valLines[j] + '\n';
  }
  if (text.length >= 80) prompts.push({ id: `p${String(i).padStart(2, '0')}`, text: text.slice(0, 320) });
}
writeFileSync(join(OUT, 'prompts.jsonl'), prompts.map((p) => JSON.stringify(p)).join('\n') + '\n');
process.stdout.write(`${files.length} files -> train ${train.join(SEP).length} chars, validation ${validationText.length} chars, ${prompts.length} prompts\n`);
