// Runs the type checker and every test file, then prints one closing line "N passed, N failed".
// Test files: test/**/*.test.ts. Pass file paths or a --grep PATTERN to run a subset.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findTests(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out.sort();
}

const args = process.argv.slice(2);
const files = args.filter((a) => a.endsWith('.ts'));
const rest = args.filter((a) => !a.endsWith('.ts'));
const tests = files.length ? files : findTests('test');

let typeFailed = 0;
if (!files.length && !process.env.SKIP_TYPECHECK) {
  process.stdout.write('typecheck: tsc --noEmit\n');
  const tc = spawnSync('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json'], { stdio: 'inherit' });
  if (tc.status !== 0) typeFailed = 1;
  else process.stdout.write('typecheck: ok\n');
}

const run = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...rest, ...tests],
  { encoding: 'utf8', stdio: ['inherit', 'pipe', 'inherit'], maxBuffer: 256 * 1024 * 1024 },
);
process.stdout.write(run.stdout ?? '');
const count = (label) => {
  const m = (run.stdout ?? '').match(new RegExp(`^ℹ ${label} (\\d+)$`, 'm'));
  return m ? Number(m[1]) : 0;
};
const passed = count('pass');
const failed = count('fail') + typeFailed + (run.status !== 0 && count('fail') === 0 ? 1 : 0);
const skipped = count('skipped');
process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed > 0 ? 1 : 0);
