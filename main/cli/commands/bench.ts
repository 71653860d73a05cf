import type { Command } from 'commander';
import { addCostBenchCommand } from './bench-cost.ts';
import { addSizeBenchCommand } from './bench-sizes.ts';
import { addModelBenchCommands } from './bench-models.ts';
import { addActionBenchCommand, addSftBenchCommand } from './bench-sft.ts';
import { addStatesBenchCommand } from './bench-states.ts';
import { intOption, printJson, startTaskServer, withBrowserOptions, withCleanup, withTaskBrowser, type BrowserFlags } from '../runtime.ts';
import { progressBar } from '../progress.ts';

/** The `bench` command group; model benchmarks add their subcommands to it. */
export function registerBenchCommands(program: Command): Command {
  const bench = program.command('bench').description('benchmarks that print JSON and compare against a baseline in the same run');
  withBrowserOptions(
    bench
      .command('env')
      .description('step latency with/without screenshots and steps/s for 1 and 2 parallel environments; with --pool-sizes, steps/s against the number of browsers')
      .option('--steps <n>', 'steps timed per latency figure', intOption('--steps', 10), 200)
      .option('--episodes <n>', 'episodes per environment in the throughput runs (with --pool-sizes: in each timed window)', intOption('--episodes', 1), 6)
      .option('--pool-sizes <list>', 'instead: steps/s with 1, 2, ... browsers (e.g. 1,2,3), the first k of the --browser endpoints or, without any, k Chromiums launched here (then with each browser\'s memory and CPU per step)')
      .option('--envs-per-browser <n>', 'with --pool-sizes: environments per browser', intOption('--envs-per-browser', 1), 1)
      .option('--repeats <n>', 'with --pool-sizes: timed windows per size, for a 95% interval', intOption('--repeats', 1), 3)
      .option('--family <name...>', 'only these families (default: every built-in one), e.g. to compare with a run whose workload had fewer')
      .option('--json', 'print JSON only'),
  ).action(async (opts: BrowserFlags & { steps: number; episodes: number; poolSizes?: string; envsPerBrowser: number; repeats: number; family?: string[]; json?: boolean }) => {
    if (opts.poolSizes !== undefined) return benchPoolCommand(opts);
    const { benchEnv } = await import('../../collection/bench-env.ts');
    await withTaskBrowser(opts, [], async ({ server, host, signal, release }) => {
      // One bar per phase (each has its own total): a new phase ends the last one's bar.
      const bar = await progressBar('{phase} [{bar}] {value}/{total}');
      release(() => bar.stop());
      let phase = '';
      const version = await host.version();
      const result = await benchEnv(host, server, version, {
        steps: opts.steps,
        episodesPerEnv: opts.episodes,
        families: chosenFamilies(server.familyNames, opts.family),
        signal,
        onProgress: (p, done, total) => {
          if (p !== phase) {
            bar.stop();
            phase = p;
          }
          bar.update(done, total, { phase: p.padEnd(24) });
        },
      });
      bar.stop();
      printJson(result);
    });
  });
  withBrowserOptions(
    bench
      .command('soak')
      .description('episodes without pause for a fixed time, sampling memory, open files, browser processes and step latency; fails when they grow')
      .option('--minutes <n>', 'how long to run', intOption('--minutes', 1), 30)
      .option('--parallel <n>', 'environments working at once', intOption('--parallel', 1), 2)
      .option('--sample-s <s>', 'seconds between samples', intOption('--sample-s', 1), 10)
      .option('--screenshots', 'take a set-of-marks screenshot at every step')
      .option('--out <file>', 'append every sample to this JSON Lines file as it is taken')
      .option('--json', 'print JSON only'),
  ).action(async (opts: BrowserFlags & { minutes: number; parallel: number; sampleS: number; screenshots?: boolean; out?: string; json?: boolean }) => {
    const { benchSoak } = await import('../../collection/bench-soak.ts');
    await withTaskBrowser(opts, [], async ({ server, host, signal }) => {
      const result = await benchSoak(host, server, await host.version(), {
        durationS: opts.minutes * 60,
        sampleS: opts.sampleS,
        parallel: opts.parallel,
        families: server.familyNames,
        screenshots: !!opts.screenshots,
        browserPid: host.pid,
        samplesFile: opts.out,
        signal,
        onSample: opts.json
          ? undefined
          : (s) => process.stderr.write(`soak ${s.elapsedS.toFixed(0)} s: ${s.episodes} episodes, ${s.steps} steps, ${s.errors} errors, rss ${s.rssMb} MB, fds ${s.fds ?? 'n/a'}, browser ${s.browserProcesses ?? 'n/a'} processes ${s.browserRssMb ?? 'n/a'} MB, step p50 ${s.stepP50Ms ?? 'n/a'} ms\n`),
      });
      printJson(result);
      // A soak is a check: a leak must fail the command (a target with nothing to measure does not).
      if (Object.values(result.meetsTargets).some((ok) => ok === false)) process.exitCode = 1;
    });
  });
  addModelBenchCommands(bench);
  addCostBenchCommand(bench);
  addSizeBenchCommand(bench);
  addSftBenchCommand(bench);
  addStatesBenchCommand(bench);
  addActionBenchCommand(bench);
  return bench;
}

/** `lab bench env --pool-sizes 1,2,3`: throughput against the number of browsers (main/collection/bench-pool.ts). */
async function benchPoolCommand(opts: BrowserFlags & { episodes: number; poolSizes?: string; envsPerBrowser: number; repeats: number; family?: string[] }): Promise<void> {
  const counts = (opts.poolSizes ?? '').split(',').map((x) => Number(x.trim()));
  if (!counts.length || counts.some((k) => !Number.isInteger(k) || k < 1)) throw new Error(`--pool-sizes must be a comma-separated list of browser counts >= 1, e.g. 1,2,3; got "${opts.poolSizes}"`);
  const [{ benchPool }, { BrowserPool, readEndpointFile }] = await Promise.all([import('../../collection/bench-pool.ts'), import('../../environment/browser-pool.ts')]);
  const endpoints = [...(opts.browser ?? []), ...(opts.browsers ? readEndpointFile(opts.browsers) : [])];
  const server = await startTaskServer();
  const pool = await BrowserPool.start(endpoints.length ? { endpoints } : { launch: Math.max(...counts), executable: opts.chromium }).catch(async (err) => {
    await server.stop();
    throw err;
  });
  await withCleanup([() => server.stop(), () => pool.close()], async (signal) => {
    const result = await benchPool(pool.hosts, server, await pool.version(), {
      counts,
      envsPerBrowser: opts.envsPerBrowser,
      episodesPerEnv: opts.episodes,
      repeats: opts.repeats,
      families: chosenFamilies(server.familyNames, opts.family),
      signal,
      onProgress: (phase, done, total) => process.stderr.write(`bench pool: ${phase} (${done}/${total})\n`),
    });
    printJson(result);
  });
}

/** `--family` names checked against the server's families; all of them without the option. */
function chosenFamilies(known: readonly string[], wanted?: string[]): string[] {
  if (!wanted?.length) return [...known];
  const unknown = wanted.filter((f) => !known.includes(f));
  if (unknown.length) throw new Error(`--family: no family ${unknown.join(', ')} (known: ${known.join(', ')})`);
  return wanted;
}
