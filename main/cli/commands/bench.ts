import type { Command } from 'commander';
import { addCostBenchCommand } from './bench-cost.ts';
import { addModelBenchCommands } from './bench-models.ts';
import { addActionBenchCommand, addSftBenchCommand } from './bench-sft.ts';
import { intOption, printJson, startBrowser, startTaskServer, withBrowserOptions, withCleanup, type BrowserFlags } from '../runtime.ts';

/** The `bench` command group; model benchmarks add their subcommands to it. */
export function registerBenchCommands(program: Command): Command {
  const bench = program.command('bench').description('benchmarks that print JSON and compare against a baseline in the same run');
  withBrowserOptions(
    bench
      .command('env')
      .description('step latency with/without screenshots and steps/s for 1 and 2 parallel environments')
      .option('--steps <n>', 'steps timed per latency figure', intOption('--steps', 10), 200)
      .option('--episodes <n>', 'episodes per environment in the throughput runs', intOption('--episodes', 1), 6)
      .option('--json', 'print JSON only'),
  ).action(async (opts: BrowserFlags & { steps: number; episodes: number; json?: boolean }) => {
    const [{ SingleBar, Presets }, { benchEnv }] = await Promise.all([import('cli-progress'), import('../../collection/bench-env.ts')]);
    const server = await startTaskServer();
    const host = await startBrowser(opts);
    const bar = process.stderr.isTTY ? new SingleBar({ format: '{phase} [{bar}] {value}/{total}', hideCursor: true }, Presets.shades_classic) : null;
    let phase = '';
    await withCleanup([() => server.stop(), () => host.close(), () => void bar?.stop()], async (signal) => {
      const version = await host.version();
      const result = await benchEnv(host, server, version, {
        steps: opts.steps,
        episodesPerEnv: opts.episodes,
        families: server.familyNames,
        signal,
        onProgress: (p, done, total) => {
          if (!bar) return;
          if (p !== phase) {
            if (phase) bar.stop();
            phase = p;
            bar.start(total, 0, { phase: p.padEnd(24) });
          }
          bar.update(done, { phase: p.padEnd(24) });
        },
      });
      bar?.stop();
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
    const server = await startTaskServer();
    const host = await startBrowser(opts);
    await withCleanup([() => server.stop(), () => host.close()], async (signal) => {
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
          : (s) => process.stderr.write(`soak ${s.elapsedS.toFixed(0)} s: ${s.episodes} episodes, ${s.steps} steps, ${s.errors} errors, rss ${s.rssMb} MB, fds ${s.fds ?? '-'}, browser ${s.browserProcesses ?? '-'} processes ${s.browserRssMb ?? '-'} MB, step p50 ${s.stepP50Ms ?? '-'} ms\n`),
      });
      printJson(result);
      // A soak is a check: a leak must fail the command (a target with nothing to measure does not).
      if (Object.values(result.meetsTargets).some((ok) => ok === false)) process.exitCode = 1;
    });
  });
  addModelBenchCommands(bench);
  addCostBenchCommand(bench);
  addSftBenchCommand(bench);
  addActionBenchCommand(bench);
  return bench;
}
