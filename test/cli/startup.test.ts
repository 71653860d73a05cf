import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const RECORDER = join(ROOT, 'test', 'helpers', 'record-imports.mjs');

/** What a real `lab` process resolves, through the loader hook (ESM and CommonJS alike go through it). */
async function modulesLoadedBy(...args: string[]): Promise<string[]> {
  const out = join(mkdtempSync(join(tmpdir(), 'lab-startup-')), 'modules.txt');
  await run(process.execPath, ['--import', 'tsx', '--import', RECORDER, join(ROOT, 'main', 'cli', 'index.ts'), ...args], {
    env: { ...process.env, RECORD_IMPORTS_OUT: out },
    maxBuffer: 16 * 1024 * 1024,
  });
  return readFileSync(out, 'utf8').split('\n');
}

// What a command must load only when it runs: TF.js (seconds), vite and the svelte plugin, the
// OpenAI client, the Parquet writer, and the browser.
const HEAVY = [/node_modules\/@tensorflow\//, /node_modules\/vite\//, /node_modules\/(@sveltejs\/|svelte\/)/, /node_modules\/openai\//, /node_modules\/hyparquet/, /node_modules\/playwright/, /main\/environment\/chromium\.ts$/, /main\/models\/model\.ts$/];

function assertLight(modules: string[], what: string): void {
  assert.ok(modules.some((m) => m.endsWith('/main/cli/program.ts')), `${what}: the recorder saw the command tree load`);
  const heavy = modules.filter((m) => HEAVY.some((re) => re.test(m)));
  assert.deepEqual(heavy, [], `${what} loaded modules only a running command needs`);
}

test('`lab --help` loads the command tree and none of the heavy modules', async () => {
  assertLight(await modulesLoadedBy('--help'), 'lab --help');
});

test('`lab tasks list` loads the task families but not TF.js, vite or the browser', async () => {
  const lab = mkdtempSync(join(tmpdir(), 'lab-startup-lab-'));
  const modules = await modulesLoadedBy('--lab', lab, 'tasks', 'list');
  assertLight(modules, 'lab tasks list');
  assert.ok(modules.some((m) => m.endsWith('/main/tasks/registry.ts')));
});

test('the lab service (`lab web` and the app load it at start) loads no TF.js: models load on first use', async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'lab-startup-')), 'modules.txt');
  const service = join(ROOT, 'main', 'server', 'service.ts');
  await run(process.execPath, ['--import', 'tsx', '--import', RECORDER, '--input-type=module', '-e', `await import(${JSON.stringify(service)})`], {
    env: { ...process.env, RECORD_IMPORTS_OUT: out },
  });
  const modules = readFileSync(out, 'utf8').split('\n');
  assert.ok(modules.some((m) => m.endsWith('/main/server/service.ts')), 'the recorder saw the service load');
  assert.deepEqual(modules.filter((m) => /node_modules\/@tensorflow\/|\/main\/models\/model\.ts$/.test(m)), []);
});

test('a reader that closes the pipe early (lab tasks list | head -1) ends lab quietly with exit 0', async () => {
  const { startLab } = await import('../helpers/lab-cli.ts');
  const child = startLab(['tasks', 'list']);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  // Closed before lab writes anything: its first write meets a pipe with no reader.
  child.stdout!.destroy();
  const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(stderr, /EPIPE/);
});
