// Runs the type checker and every test file, then prints one closing line "N passed, N failed".
// Test files: test/**/*.test.ts. Pass file or folder paths to run a subset, --fast for the files
// that need no browser and no experiment fixture (daily work), and --test-name-pattern=REGEX
// (repeatable) to run only the tests it matches; anything else is refused (a misspelt flag must not
// turn into a green run of everything or of nothing), and a run in which no test ran fails.
//
// Each file runs as its own process (node --import tsx FILE, reporting with the spec reporter),
// from a pool of two: much of a file's time is spent waiting on Chromium, a worker or a child
// process, so two keep both cores busy. The longest files start first, so the run does not end on
// one long file while the other core idles. The few files whose assertions race a clock run after
// that, one at a time, where a second file's load cannot push them past their waits. LAB_TEST_CONCURRENCY sets the pool's width (1 runs everything one at a time). A file's
// output is printed when it ends, under a line naming it and its time; the slowest are listed last.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
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

// Files that run alone: those whose assertions race a clock.
const ALONE = [/^test\/collection\/endpoint-outage\.test\.ts$/, /^test\/datasets\/cli\.test\.ts$/, /^test\/environment\/(faults|page-lifetime|fidelity)\.test\.ts$/];
// The longest files (20-60 s each on a quiet 2-core machine), longest first. The first builds the
// shared tiny experiment; the second does not need it, so nobody waits for it idle.
const LONGEST_FIRST = [
  'test/experiment/experiment-cli.test.ts', 'test/tasks/oracle-env.test.ts', 'test/server/experiments-service.test.ts',
  'test/collection/retries.test.ts', 'test/collection/episodes.test.ts', 'test/collection/collect-cli.test.ts',
  'test/collection/browser-pool-collect.test.ts', 'test/policy/branching.test.ts', 'test/experiment/replay-compare.test.ts',
  'test/policy/action-guide.test.ts', 'test/tasks/miniwob-fidelity.test.ts', 'test/policy/policy-agent.test.ts',
  'test/cli/episode-cli.test.ts', 'test/collection/bench-pool.test.ts', 'test/collection/collect-policy-cli.test.ts',
  'test/e2e/experiments.test.ts', 'test/e2e/review-decoding.test.ts', 'test/e2e/app.test.ts', 'test/e2e/provenance.test.ts',
  'test/tasks/forum.test.ts', 'test/tasks/settings.test.ts', 'test/tasks/bank.test.ts', 'test/tasks/docs.test.ts',
];
// A file that has not ended by then is stopped and counted as failed.
const FILE_TIMEOUT_MS = 10 * 60_000;

const slash = (p) => p.replaceAll('\\', '/');
// What makes a file slow: a real browser, the app in one, or the shared tiny experiment. --fast
// leaves out files that mention any of these (read from the file, so a new test is sorted by itself).
const SLOW_MARKS = /ChromiumHost|BrowserEnv|playwright-core|openWebApp|startBrowser|tiny-experiment|env-run\.ts|oracle-env/;
const USAGE = `usage: npm test [-- [FILE.test.ts | FOLDER ...] [--fast] [--test-name-pattern=REGEX ...]]
  no file: type check, then every test/**/*.test.ts; files or folders: only those (no type check)
  --fast: only files that start no browser and no experiment (npm run test:fast)
  LAB_TEST_CONCURRENCY=N files at a time (default 2); SKIP_TYPECHECK=1 skips the type check`;
let parsed;
try {
  parsed = parseArgs({ args: process.argv.slice(2), allowPositionals: true, options: { 'test-name-pattern': { type: 'string', multiple: true }, fast: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
} catch (err) {
  process.stderr.write(`npm test: ${err.message}\n${USAGE}\n`);
  process.exit(2);
}
if (parsed.values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const files = [];
for (const f of parsed.positionals) {
  if (existsSync(f) && statSync(f).isDirectory()) files.push(...findTests(f));
  else if (f.endsWith('.test.ts') && existsSync(f)) files.push(f);
  else {
    process.stderr.write(`npm test: ${f}: not a test file or folder${f.endsWith('.ts') && !existsSync(f) ? ' (no such file)' : ''}\n${USAGE}\n`);
    process.exit(2);
  }
}
if (parsed.positionals.length && !files.length) {
  process.stderr.write(`npm test: no test files in ${parsed.positionals.join(', ')}\n`);
  process.exit(2);
}
const nodeArgs = (parsed.values['test-name-pattern'] ?? []).map((p) => `--test-name-pattern=${p}`);
const chosen = files.length ? files : findTests('test');
const tests = parsed.values.fast ? chosen.filter((t) => !SLOW_MARKS.test(readFileSync(t, 'utf8'))) : chosen;
const width = Math.max(1, Number(process.env.LAB_TEST_CONCURRENCY ?? 2) || 1);

let typeFailed = 0;
if (!parsed.positionals.length && !process.env.SKIP_TYPECHECK) {
  process.stdout.write('typecheck: tsc --noEmit\n');
  const tc = spawnSync('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json'], { stdio: 'inherit' });
  if (tc.status !== 0) typeFailed = 1;
  else process.stdout.write('typecheck: ok\n');
}

const rank = (t) => {
  const i = LONGEST_FIRST.indexOf(slash(t));
  return i < 0 ? LONGEST_FIRST.length : i;
};
const alone = tests.filter((t) => ALONE.some((re) => re.test(slash(t))));
const together = tests.filter((t) => !alone.includes(t)).sort((a, b) => rank(a) - rank(b));

// Fixtures that several files need and that cost a lot to make (a finished tiny experiment) are
// built once per run, in this folder, by the first file that asks (test/helpers/tiny-experiment.ts).
const shared = mkdtempSync(join(tmpdir(), 'lab-test-shared-'));
const env = { ...process.env, LAB_TEST_SHARED: shared };
// Files run side by side, one per core: the native kernels' thread pool would otherwise start a
// thread per core in each, and the two files' threads would take turns on the same two cores.
if (width > 1 && env.LAB_NATIVE_THREADS === undefined) env.LAB_NATIVE_THREADS = '1';

const totals = { pass: 0, fail: 0, skipped: 0 };
const failedFiles = [];
const times = [];

/** One file in its own node; resolves when it has ended and its output is printed. */
function runFile(file) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test-reporter=spec', ...nodeArgs, file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => {
      out += `\n${file}: still running after ${FILE_TIMEOUT_MS / 60_000} min; stopped\n`;
      child.kill('SIGKILL');
    }, FILE_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      const seconds = (Date.now() - t0) / 1000;
      const count = (label) => Number(out.match(new RegExp(`^ℹ ${label} (\\d+)$`, 'm'))?.[1] ?? 0);
      // A file that failed without reporting a failing test (a crash, a load error) still fails.
      const fail = count('fail') + count('cancelled') + (code !== 0 && count('fail') + count('cancelled') === 0 ? 1 : 0);
      totals.pass += count('pass');
      totals.skipped += count('skipped');
      totals.fail += fail;
      if (fail) failedFiles.push(file);
      times.push({ file, seconds });
      process.stdout.write(`\n# ${slash(file)} (${seconds.toFixed(1)} s${fail ? `, ${fail} failed` : ''})\n${out}`);
      resolve();
    });
  });
}

async function runPool(list, concurrency) {
  const queue = [...list];
  const worker = async () => {
    while (queue.length) await runFile(queue.shift());
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, list.length) }, worker));
}

const t0 = Date.now();
try {
  for (const [list, concurrency] of [[together, width], [alone, 1]]) {
    if (!list.length) continue;
    process.stdout.write(`\n# ${list.length} test file(s), ${concurrency} at a time\n`);
    await runPool(list, concurrency);
  }
} finally {
  rmSync(shared, { recursive: true, force: true });
}

const slowest = times.sort((a, b) => b.seconds - a.seconds).slice(0, 10);
process.stdout.write(`\nslowest files:\n${slowest.map((t) => `  ${t.seconds.toFixed(1).padStart(6)} s  ${slash(t.file)}`).join('\n')}\n`);
if (failedFiles.length) process.stdout.write(`\nfiles with failures:\n${failedFiles.map((f) => `  ${slash(f)}`).join('\n')}\n`);
// A run in which no test ran (a pattern that matches nothing) proves nothing: it fails.
const ranNothing = totals.pass + totals.fail === 0;
if (ranNothing) process.stdout.write('\nno test ran: nothing was checked\n');
const failed = totals.fail + typeFailed + (ranNothing ? 1 : 0);
process.stdout.write(`\ntests took ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
process.stdout.write(`\n${totals.pass} passed, ${failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}\n`);
process.exit(failed > 0 ? 1 : 0);
