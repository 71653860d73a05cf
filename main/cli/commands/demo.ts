import type { Command } from 'commander';
import { formatColumns, intOption, openLab, printJson, withBrowserOptions, withEndOnGoalOption, type BrowserFlags, type EndOnGoalFlags, withTaskBrowser } from '../runtime.ts';
import { progressBar } from '../progress.ts';

/**
 * The main job on the embedded default: oracle and random agents on test seeds of every
 * built-in site, recorded in the lab. Offline, a minute or so on two cores.
 */
export function registerDemoCommand(program: Command): void {
  withBrowserOptions(withEndOnGoalOption(
    program
      .command('demo')
      .description('run the oracle and a random agent on every built-in task family and record the episodes')
      .option('--seeds <n>', 'test seeds per family and agent', intOption('--seeds', 1), 2)
      .option('--parallel <n>', 'browser environments working at once (spread over the --browser pool)', intOption('--parallel', 1), 1)
      .option('--screenshots', 'record screenshots')
      .option('--json', 'print JSON'),
  )).action(async (opts: BrowserFlags & EndOnGoalFlags & { seeds: number; parallel: number; screenshots?: boolean; json?: boolean }, cmd: Command) => {
    const [{ BrowserEnv }, { collectSample }] = await Promise.all([
      import('../../environment/environment.ts'), import('../../collection/sample.ts'),
    ]);
    const store = openLab(cmd);
    await withTaskBrowser(opts, [], async ({ server, host, signal, release }) => {
      const envs = Array.from({ length: opts.parallel }, () => new BrowserEnv(host, { screenshots: !!opts.screenshots }));
      for (const e of envs) release(() => e.close());
      const bar = await progressBar('demo [{bar}] {value}/{total} {task}', { quiet: opts.json });
      release(() => bar.stop());
      const rows = await collectSample(
        { envs, server, store, browserKind: host.kind, endOnGoal: opts.endOnGoal },
        {
          agents: ['oracle', 'random'],
          seedsPerFamily: opts.seeds,
          signal,
          onRerun: (label, lost) => process.stderr.write(`\n${label}: ${lost.message}; running it again on another browser\n`),
          onEpisode: (done, total, label, out) => {
            bar.update(done, total, { task: label });
            if (!bar.drawn && out && !opts.json) {
              process.stderr.write(`${label}: ${out.success ? 'success' : 'failure'} in ${out.steps} steps\n`);
            }
          },
        },
      );
      bar.stop();
      if (opts.json) return printJson({ lab: store.dir, results: rows });
      process.stdout.write('\n' + formatColumns([['family', 'agent', 'success', 'mean steps'], ...rows.map((r) => [r.family, r.agent, `${r.successes}/${r.episodes}`, String(r.meanSteps)])]));
      process.stdout.write(`\nEpisodes are in ${store.dir}/episodes. Next: npm run lab -- episodes list, or npm run web\n`);
    });
  });
}
