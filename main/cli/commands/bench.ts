import type { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { benchEnv } from '../../collection/bench-env.ts';
import { addModelBenchCommands } from './bench-models.ts';
import { addSftBenchCommand } from './bench-sft.ts';
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
  addModelBenchCommands(bench);
  addSftBenchCommand(bench);
  return bench;
}
