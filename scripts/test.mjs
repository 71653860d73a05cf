// Runs the type checker and every test file, then prints one closing line "N passed, N failed".
// Test files: test/**/*.test.ts. Pass file paths or a --grep PATTERN to run a subset.
//
// Two batches: most files run two at a time (each file is its own process, and much of a file's
// time is spent waiting on Chromium, a worker or a child process, so two cores keep busy), then
// the files that drive the UI in a browser or measure a timeout run one at a time, where a second
// file's load could push them past their waits. LAB_TEST_CONCURRENCY sets the first batch's width
// (1 runs everything one at a time, as before).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

// Files that run alone: the browser UI tests, and those whose assertions race a clock.
const ALONE = [/^test\/e2e\//, /^test\/collection\/endpoint-outage\.test\.ts$/, /^test\/datasets\/cli\.test\.ts$/, /^test\/environment\/(faults|page-lifetime)\.test\.ts$/];

const args = process.argv.slice(2);
const files = args.filter((a) => a.endsWith('.ts'));
const rest = args.filter((a) => !a.endsWith('.ts'));
const tests = files.length ? files : findTests('test');
const width = Math.max(1, Number(process.env.LAB_TEST_CONCURRENCY ?? 2) || 1);

let typeFailed = 0;
if (!files.length && !process.env.SKIP_TYPECHECK) {
  process.stdout.write('typecheck: tsc --noEmit\n');
  const tc = spawnSync('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json'], { stdio: 'inherit' });
  if (tc.status !== 0) typeFailed = 1;
  else process.stdout.write('typecheck: ok\n');
}

// Files that take longest (20-60 s on a quiet 2-core machine) start first, so the batch does not
// end with one long file running while the other core idles. The first builds the shared tiny
// experiment; the second does not need it, so nobody waits for it idle.
const LONGEST_FIRST = [
  'test/experiment/experiment-cli.test.ts', 'test/tasks/oracle-env.test.ts', 'test/server/experiments-service.test.ts',
  'test/collection/retries.test.ts', 'test/collection/episodes.test.ts', 'test/collection/collect-cli.test.ts',
  'test/collection/browser-pool-collect.test.ts', 'test/policy/branching.test.ts', 'test/experiment/replay-compare.test.ts',
  'test/policy/action-guide.test.ts', 'test/tasks/miniwob-fidelity.test.ts', 'test/policy/policy-agent.test.ts',
  'test/cli/episode-cli.test.ts', 'test/collection/bench-pool.test.ts', 'test/collection/collect-policy-cli.test.ts',
];
const rank = (t) => {
  const i = LONGEST_FIRST.indexOf(t.replaceAll('\\', '/'));
  return i < 0 ? LONGEST_FIRST.length : i;
};
const alone = tests.filter((t) => ALONE.some((re) => re.test(t.replaceAll('\\', '/'))));
const together = tests.filter((t) => !alone.includes(t)).sort((a, b) => rank(a) - rank(b));
const batches = [
  { files: together, concurrency: width },
  { files: alone, concurrency: 1 },
].filter((b) => b.files.length);

// Fixtures that several test files need and that cost a lot to make (a finished tiny experiment)
// are built once per run, in this folder, by the first file that asks (test/helpers/tiny-experiment.ts).
const shared = mkdtempSync(join(tmpdir(), 'lab-test-shared-'));
process.env.LAB_TEST_SHARED = shared;

const totals = { pass: 0, fail: 0, skipped: 0 };
const t0 = Date.now();
for (const batch of batches) {
  process.stdout.write(`\n# ${batch.files.length} test file(s), ${batch.concurrency} at a time\n`);
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', `--test-concurrency=${batch.concurrency}`, '--test-reporter=spec', ...rest, ...batch.files],
    { encoding: 'utf8', stdio: ['inherit', 'pipe', 'inherit'], maxBuffer: 256 * 1024 * 1024 },
  );
  process.stdout.write(run.stdout ?? '');
  const count = (label) => {
    const m = (run.stdout ?? '').match(new RegExp(`^ℹ ${label} (\\d+)$`, 'm'));
    return m ? Number(m[1]) : 0;
  };
  totals.pass += count('pass');
  totals.skipped += count('skipped');
  // A runner that failed without reporting a failing test (a crash, a file that would not load) still fails the run.
  totals.fail += count('fail') + (run.status !== 0 && count('fail') === 0 ? 1 : 0);
}
rmSync(shared, { recursive: true, force: true });
const failed = totals.fail + typeFailed;
process.stdout.write(`\ntests took ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
process.stdout.write(`\n${totals.pass} passed, ${failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}\n`);
process.exit(failed > 0 ? 1 : 0);
