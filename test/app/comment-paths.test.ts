/**
 * Comments that point a reader at another file (`see ../../main/store/lab-files.ts`, `main/evaluation/eval.ts`)
 * point at one that exists: files move, and a comment left pointing at the old place sends the
 * next reader nowhere.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const PATH = /((?:\.\.?\/)+[\w./-]+\.(?:ts|svelte|md|mjs|json)|(?:main|preload|renderer|test|scripts|docs)\/[\w./-]+\.(?:ts|svelte|md|mjs))/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'node_modules' || name === 'fixtures') return [];
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.(ts|svelte|mjs)$/.test(name) ? [p] : [];
  });
}

/** Paths named in comment lines (lines starting with //, /* or *) that lead nowhere. */
function deadCommentPaths(file: string): string[] {
  const out: string[] = [];
  readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    const s = line.trim();
    if (!/^(\/\/|\/\*|\*)/.test(s)) return;
    for (const [, p] of s.matchAll(PATH)) {
      const target = p.startsWith('.') ? resolve(dirname(file), p) : join(ROOT, p);
      if (!existsSync(target)) out.push(`${relative(ROOT, file)}:${i + 1}: ${p}`);
    }
  });
  return out;
}

test('every file a comment points at exists', () => {
  const files = ['main', 'preload', 'renderer/src', 'scripts', 'test'].flatMap((d) => sourceFiles(join(ROOT, d)));
  assert.ok(files.length > 300, `read ${files.length} files`);
  assert.deepEqual(files.flatMap(deadCommentPaths), []);
});
