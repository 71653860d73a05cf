/**
 * Builds resources/corpus/npm-code/ from the JavaScript and TypeScript sources that npm packages in
 * node_modules ship (versions pinned by package-lock.json, so the build is deterministic):
 *
 *   train.txt, validation.txt   training packages, split by file (one file in 20 goes to validation)
 *   heldout.txt                 packages never trained on, for measuring drafts on unseen code
 *   prompts.jsonl               32 prompts cut from validation files
 *   heldout-prompts.jsonl       32 prompts cut from the held-out packages
 *   sources.json                every package used: version, licence, role, files and characters
 *
 * The text files are large and rebuilt on demand (git ignores them); prompts and sources.json are
 * committed. Usage: npx tsx scripts/build-code-corpus.ts
 *
 * With --large it builds resources/corpus/npm-code-large/ (train.txt, validation.txt, sources.json)
 * for the larger models of the size curve (scripts/train-code-sizes.sh): the same packages first, in
 * the same order and with the same file split, then every other package in node_modules as training
 * text (validation.txt stays the small corpus's, so validation losses compare). The held-out packages stay out, so every size is measured on the same unseen prompts
 * (npm-code's prompts.jsonl and heldout-prompts.jsonl, whose files are validation or held out in
 * both corpora); a file whose exact text was already taken (a held-out module vendored elsewhere)
 * is skipped.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROJECT_ROOT, resourcePath } from '../main/paths.ts';

interface Source {
  pkg: string;
  /** Folders inside the package to read (sources, not bundles). */
  roots: string[];
  role: 'train' | 'heldout';
}

// Chosen for readable, unminified code in several styles: TS sources (zod, ajv, openai), JSDoc'd
// JS (svelte), compiled-but-readable JS (echarts, playwright-core, tfjs-core), node-style CommonJS
// (undici, lodash) and declarations (typescript's lib). The held-out set is small packages none of
// which is trained on.
const SOURCES: Source[] = [
  { pkg: 'typescript', roots: ['lib'], role: 'train' },
  { pkg: 'svelte', roots: ['src'], role: 'train' },
  { pkg: 'zod', roots: ['src'], role: 'train' },
  { pkg: 'ajv', roots: ['lib'], role: 'train' },
  { pkg: 'openai', roots: ['src'], role: 'train' },
  { pkg: 'echarts', roots: ['lib'], role: 'train' },
  { pkg: 'undici', roots: ['lib'], role: 'train' },
  { pkg: 'playwright-core', roots: ['lib'], role: 'train' },
  { pkg: 'lodash', roots: ['.'], role: 'train' },
  { pkg: '@tensorflow/tfjs-core', roots: ['dist'], role: 'train' },
  { pkg: 'hyparquet', roots: ['src'], role: 'train' },
  { pkg: 'ws', roots: ['lib'], role: 'heldout' },
  { pkg: 'semver', roots: ['classes', 'functions', 'internal', 'ranges'], role: 'heldout' },
  { pkg: 'commander', roots: ['lib'], role: 'heldout' },
  { pkg: 'postcss', roots: ['lib'], role: 'heldout' },
];

/** At most this many characters per package, so that no one package's style dominates. */
const PACKAGE_CAP = 1_200_000;
const FILE_MAX_BYTES = 200_000;
const SEP = '\n<|endoftext|>\n';
const LARGE = process.argv.includes('--large');
const OUT = resourcePath('corpus', LARGE ? 'npm-code-large' : 'npm-code');

/** Every package folder in node_modules (scoped ones as @scope/name), sorted. */
function installedPackages(): string[] {
  const root = join(PROJECT_ROOT, 'node_modules');
  return readdirSync(root).sort().flatMap((name) => {
    if (name.startsWith('.')) return [];
    if (name.startsWith('@')) return readdirSync(join(root, name)).sort().map((sub) => `${name}/${sub}`);
    return [name];
  }).filter((pkg) => existsSync(join(root, pkg, 'package.json')));
}

/**
 * Validation files come from the listed packages only, so the large corpus's validation.txt is the
 * small one's and validation losses compare across sizes; other packages are training text whole.
 */
function listedPackage(pkg: string): boolean {
  return SOURCES.some((s) => s.pkg === pkg);
}

/** The large corpus: the listed packages first (same roles), then every other installed one as training text. */
function sourcesToRead(): Source[] {
  if (!LARGE) return SOURCES;
  const listed = new Set(SOURCES.map((s) => s.pkg));
  return [...SOURCES, ...installedPackages().filter((pkg) => !listed.has(pkg)).map((pkg): Source => ({ pkg, roots: ['.'], role: 'train' }))];
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) out.push(...listFiles(path));
    else if (isSourceName(path) && st.size <= FILE_MAX_BYTES) out.push(path);
  }
  return out;
}

function isSourceName(path: string): boolean {
  if (!/\.(m?js|cjs|ts|mts)$/.test(path)) return false;
  if (/\.(min|bundle|umd)\.|\.test\.|\.spec\.|[/\\](tests?|__tests__|vendor|third_party)[/\\]/.test(path)) return false;
  // typescript/lib ships the compiler itself (MBs of generated code); only its declarations read well.
  if (path.includes(`typescript${'/'}lib`)) return /lib\.[^/]*\.d\.ts$/.test(path) && !/dom|webworker/.test(path);
  return !/\.d\.m?ts$/.test(path);
}

/** Minified or generated files read as noise to a small model. */
function looksMinified(text: string): boolean {
  const lines = text.split('\n');
  const long = lines.filter((l) => l.length > 300).length;
  return long > 2 || text.length / lines.length > 100;
}

function clean(text: string): string {
  return text
    .replace(/^#![^\n]*\n/, '')
    .replace(/^\s*\/\*[\s\S]*?\*\/\s*/, (m) => (/licen[cs]e|copyright/i.test(m) ? '' : m))
    .replace(/^\/\/# sourceMappingURL=[^\n]*$/gm, '')
    .replace(/^\/\/\/ <reference[^\n]*\n/gm, '')
    .replace(/\r\n/g, '\n')
    .trim();
}

function packageInfo(pkg: string): { version: string; license: string } {
  const json = JSON.parse(readFileSync(join(PROJECT_ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string; license?: string };
  return { version: json.version, license: json.license ?? 'see package' };
}

/** Deterministic file-level split: 1 file in 20 (by path hash) is validation. */
function isValidation(relPath: string): boolean {
  return createHash('sha1').update(relPath).digest()[0] % 20 === 0;
}

/** Prompts: `n` cuts at even strides through `files`, each from a line start, 240-320 characters. */
function cutPrompts(files: { id: string; text: string }[], n: number, prefix: string): { id: string; source: string; text: string }[] {
  const prompts: { id: string; source: string; text: string }[] = [];
  const eligible = files.filter((f) => f.text.length > 1200);
  for (let i = 0; i < n && eligible.length > 0; i++) {
    const f = eligible[Math.floor((i * eligible.length) / n)];
    const lines = f.text.split('\n');
    // A different place in each file visit, away from the header.
    let start = Math.floor(lines.length * (0.2 + 0.6 * ((i * 7) % n) / n));
    while (start < lines.length && lines[start].trim() === '') start++;
    let text = '';
    for (let j = start; j < lines.length && text.length < 240; j++) text += lines[j] + '\n';
    if (text.length >= 80) prompts.push({ id: `${prefix}${String(i).padStart(2, '0')}`, source: f.id, text: text.slice(0, 320) });
  }
  return prompts;
}

const seen = new Set<string>();
const parts = { train: [] as string[], validation: [] as string[], heldout: [] as string[] };
const validationFiles: { id: string; text: string }[] = [];
const heldoutFiles: { id: string; text: string }[] = [];
const sources: object[] = [];
for (const source of sourcesToRead()) {
  const root = join(PROJECT_ROOT, 'node_modules', source.pkg);
  let chars = 0;
  let files = 0;
  for (const dir of source.roots) {
    if (!existsSync(join(root, dir))) continue;
    for (const path of listFiles(join(root, dir))) {
      if (chars >= PACKAGE_CAP) break;
      const text = clean(readFileSync(path, 'utf8'));
      if (text.length < 200 || looksMinified(text)) continue;
      const hash = createHash('sha1').update(text).digest('hex');
      if (seen.has(hash)) continue; // the same module built twice (esm and cjs)
      seen.add(hash);
      const id = `${source.pkg}/${relative(root, path)}`;
      if (source.role === 'heldout') {
        parts.heldout.push(text);
        heldoutFiles.push({ id, text });
      } else if (listedPackage(source.pkg) && isValidation(id)) {
        parts.validation.push(text);
        validationFiles.push({ id, text });
      } else parts.train.push(text);
      chars += text.length;
      files++;
    }
  }
  if (files > 0 || !LARGE) sources.push({ package: source.pkg, ...packageInfo(source.pkg), role: source.role, roots: source.roots, files, chars });
}

mkdirSync(OUT, { recursive: true });
for (const [name, texts] of Object.entries(parts)) if (!(LARGE && name === 'heldout')) writeFileSync(join(OUT, `${name}.txt`), texts.join(SEP));
const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
// The large corpus is measured on npm-code's prompts (see above): it writes none of its own.
if (!LARGE) {
  writeFileSync(join(OUT, 'prompts.jsonl'), jsonl(cutPrompts(validationFiles, 32, 'v')));
  writeFileSync(join(OUT, 'heldout-prompts.jsonl'), jsonl(cutPrompts(heldoutFiles, 32, 'h')));
}
writeFileSync(join(OUT, 'sources.json'), JSON.stringify({ packageCap: PACKAGE_CAP, sources }, null, 2) + '\n');
const size = (xs: string[]) => xs.join(SEP).length;
process.stdout.write(`train ${size(parts.train)} chars, validation ${size(parts.validation)}, heldout ${size(parts.heldout)} (${sources.length} packages)\n`);
