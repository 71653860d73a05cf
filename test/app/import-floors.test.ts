/**
 * The import arrows the layout promises (docs/layout.md): the renderer reaches main only through
 * the contract (preload/), the contract does not import the server that implements it, and the
 * server does not load the Electron side (main/app/). Read from the source files' import lines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.(ts|svelte)$/.test(name) ? [p] : [];
  });
}

/** Every relative module a file imports (static imports, re-exports and dynamic imports), as repository paths. */
function localImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) => m[1]);
  return specs.map((s) => relative(ROOT, resolve(dirname(file), s)));
}

function offenders(dir: string, allowed: (target: string) => boolean): string[] {
  return sourceFiles(join(ROOT, dir)).flatMap((f) => localImports(f).filter((t) => !allowed(t)).map((t) => `${relative(ROOT, f)} -> ${t}`));
}

test('the renderer imports only itself and the contract (preload/)', () => {
  assert.deepEqual(offenders('renderer', (t) => t.startsWith('renderer/') || t.startsWith('preload/')), []);
});

test('the contract (preload/) imports nothing from the server that implements it or from the Electron side', () => {
  assert.deepEqual(offenders('preload', (t) => !t.startsWith('main/server/') && !t.startsWith('main/app/')), []);
});

test('the server (main/server/) does not load the Electron side (main/app/)', () => {
  assert.deepEqual(offenders('main/server', (t) => !t.startsWith('main/app/')), []);
});

test('the tasks (their sites, checkers and oracles) import no agent, collection or policy code', () => {
  assert.deepEqual(offenders('main/tasks', (t) => !/^main\/(agents|collection|policy|server|app)\//.test(t)), []);
});

test('the environment knows nothing of tasks, agents or what drives it', () => {
  assert.deepEqual(offenders('main/environment', (t) => !/^main\/(tasks|agents|collection|policy|server|app)\//.test(t)), []);
});

test('the models know nothing of decoding, policies, agents or what trains them', () => {
  assert.deepEqual(offenders('main/models', (t) => !/^main\/(decode|policy|agents|collection|evaluation|experiment|llm|server|app)\//.test(t)), []);
});

test('the policy (prompts, training, mining formats) runs no episode: rollouts live in main/evaluation/ above collection and agents', () => {
  assert.deepEqual(offenders('main/policy', (t) => !/^main\/(agents|collection|evaluation|experiment|server|app|cli)\//.test(t)), []);
});

test('shared statistics and utilities (main/common/) import nothing of the product', () => {
  assert.deepEqual(offenders('main/common', (t) => t.startsWith('main/common/')), []);
});

test('the store owns the lab folder and imports no capability above it', () => {
  assert.deepEqual(offenders('main/store', (t) => /^main\/(store|environment\/types|common)/.test(t) || t.startsWith('preload/label-model')), []);
});

/**
 * The relative modules a file loads at run time: every import and re-export but `import type` and
 * `export type` (erased by the compiler, so they put no main/ code into the renderer's bundle).
 */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const statements = [...text.matchAll(/^(?:import|export)\s+(type\s)?[^;]*?from\s*'(\.[^']+)'/gms)];
  const sideEffects = [...text.matchAll(/^import\s*'(\.[^']+)'/gm)].map((m) => m[1]);
  const specs = [...statements.filter((m) => !m[1]).map((m) => m[2]), ...sideEffects];
  return specs.map((s) => relative(ROOT, resolve(dirname(file), s)));
}

// The action grammar (parse, describe, which actions take an element) is the one piece of main/
// the renderer runs: pure code with no Node, browser or product import, shared so that a step
// reads the same in the CLI, the server and the app.
const GRAMMAR = ['main/environment/actions.ts', 'main/environment/action-target.ts'];

test('the contract (preload/) loads nothing from main/ at run time but the pure action grammar', () => {
  const loaded = sourceFiles(join(ROOT, 'preload')).flatMap((f) => runtimeImports(f).filter((t) => t.startsWith('main/')).map((t) => `${relative(ROOT, f)} -> ${t}`));
  assert.deepEqual(loaded.filter((edge) => !GRAMMAR.some((g) => edge.endsWith(` -> ${g}`))), []);
  for (const g of GRAMMAR) assert.deepEqual(runtimeImports(join(ROOT, g)).filter((t) => !GRAMMAR.includes(t)), [], `${g} stays pure`);
  assert.deepEqual(readFileSync(join(ROOT, GRAMMAR[0]), 'utf8').match(/from '(node:|electron)[^']*'/g) ?? [], []);
});

test('the check sees imports: a file known to import the contract is found, and a type import is not loaded', () => {
  assert.ok(localImports(join(ROOT, 'main', 'server', 'web.ts')).includes('main/server/params.ts'));
  const api = join(ROOT, 'preload', 'api.ts');
  assert.ok(localImports(api).includes('main/store/lab.ts'));
  assert.ok(!runtimeImports(api).includes('main/store/lab.ts'), 'api.ts imports EpisodeData as a type only');
  assert.ok(runtimeImports(join(ROOT, 'preload', 'pick-element.ts')).includes('main/environment/actions.ts'));
});
