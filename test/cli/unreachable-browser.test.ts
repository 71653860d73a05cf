/**
 * A `--browser` endpoint that cannot be reached fails the command at once, named, with exit code 1:
 * the task server it started for the browser is stopped too, so the process ends instead of
 * waiting on a listening socket (before main/cli/runtime.ts's startTaskBrowser, `lab eval` and
 * `lab collect` printed the error and then hung).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const DEAD = 'ws://127.0.0.1:9/devtools/browser/unreachable';

/** Runs `lab ARGS --browser DEAD`; resolves with the exit code and stderr, or `killed` if it outlived the limit. */
function labWithDeadBrowser(args: string[]): Promise<{ code: number | null; killed: boolean; stderr: string }> {
  const lab = mkdtempSync(join(tmpdir(), 'lab-dead-browser-'));
  return new Promise((done) => {
    const child = execFile(process.execPath, ['--import', 'tsx', join(ROOT, 'main', 'cli', 'index.ts'), '--lab', lab, ...args, '--browser', DEAD], { timeout: 60_000 }, (err, _stdout, stderr) => {
      done({ code: child.exitCode, killed: !!err?.killed, stderr });
    });
  });
}

const COMMANDS: Array<[string, string[]]> = [
  ['eval', ['eval', '--tasks', 'shop', '--seeds', '1']],
  ['collect', ['collect', '--tasks', 'shop', '--seeds', '1']],
  ['episode', ['episode', '--task', 'shop', '--seed', '1', '--agent', 'oracle']],
  ['demo', ['demo', '--seeds', '1']],
  ['tasks validate', ['tasks', 'validate', '--family', 'shop', '--seeds', '1']],
];

for (const [name, args] of COMMANDS) {
  test(`lab ${name} with an unreachable --browser exits 1 naming the endpoint, and does not hang`, async () => {
    const r = await labWithDeadBrowser(args);
    assert.equal(r.killed, false, `lab ${name} was still running after 60 s: ${r.stderr}`);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /browser ws:\/\/127\.0\.0\.1:9\/devtools\/browser\/unreachable: could not connect/);
  });
}
