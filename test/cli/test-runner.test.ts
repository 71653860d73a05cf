/** `npm test`'s own arguments: help is help, a misspelt flag or file is refused, and a run of nothing is not green. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
// Without this test's own NODE_TEST_CONTEXT, which would make the runner's files report to it instead of printing.
const { NODE_TEST_CONTEXT: _, ...env } = process.env;
const runner = (...args: string[]) => spawnSync(process.execPath, ['scripts/test.mjs', ...args], { cwd: root, encoding: 'utf8', env: { ...env, SKIP_TYPECHECK: '1' } });

test('npm test -- --help prints the usage and runs nothing; unknown flags and missing files exit 2 naming them', () => {
  const help = runner('--help');
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^usage: npm test/);
  assert.doesNotMatch(help.stdout, /passed|typecheck/);
  const bogus = runner('--bogus');
  assert.equal(bogus.status, 2);
  assert.match(bogus.stderr, /Unknown option '--bogus'/);
  const missing = runner('test/nope.test.ts');
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /test\/nope\.test\.ts: not a test file or folder \(no such file\)/);
  const notTests = runner('README.md');
  assert.equal(notTests.status, 2);
  assert.match(notTests.stderr, /README\.md: not a test file or folder/);
});

test('a pattern that matches no test fails the run instead of passing it with nothing checked', () => {
  const r = runner('test/experiment/report-verdicts.test.ts', '--test-name-pattern=no test is called this');
  assert.equal(r.status, 1);
  assert.match(r.stdout, /no test ran: nothing was checked/);
  assert.match(r.stdout, /^0 passed, 1 failed/m);
  const one = runner('test/experiment/report-verdicts.test.ts', '--test-name-pattern=^verdicts');
  assert.equal(one.status, 0, one.stdout);
  assert.match(one.stdout, /^1 passed, 0 failed, \d+ skipped$/m);
});
