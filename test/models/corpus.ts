/** A small synthetic code corpus written to a temporary folder, for training tests. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function tinyCorpus(): { dir: string; trainFile: string; valFile: string } {
  const names = ['Array', 'Map', 'Set', 'Promise', 'Iterator', 'Date', 'RegExp'];
  const members = ['length', 'size', 'value', 'done', 'index', 'source'];
  const types = ['number', 'string', 'boolean', 'T', 'U'];
  const block = (i: number) => `interface ${names[i % 7]}${i % 3 ? '<T>' : ''} {\n    readonly ${members[i % 6]}: ${types[i % 5]};\n`
    + `    get(index: number): ${types[(i + 1) % 5]};\n}\n\n`;
  const dir = mkdtempSync(join(tmpdir(), 'lab-corpus-'));
  const trainFile = join(dir, 'train.txt');
  const valFile = join(dir, 'validation.txt');
  writeFileSync(trainFile, Array.from({ length: 300 }, (_, i) => block(i)).join(''));
  writeFileSync(valFile, Array.from({ length: 40 }, (_, i) => block(i * 13 + 5)).join(''));
  return { dir, trainFile, valFile };
}
