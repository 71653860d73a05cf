import type { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { BrowserEnv } from '../../environment/environment.ts';
import { runEpisode } from '../../collection/episode.ts';
import { makeAgent } from '../../agents/registry.ts';
import { intOption, openLab, printJson, startBrowser, startTaskServer, withBrowserOptions, withCleanup, type BrowserFlags } from '../runtime.ts';

/**
 * The main job on the embedded default: oracle and random agents on test seeds of every
 * built-in site, recorded in the lab. Offline, a minute or so on two cores.
 */
export function registerDemoCommand(program: Command): void {
  withBrowserOptions(
    program
      .command('demo')
      .description('run the oracle and a random agent on every built-in task family and record the episodes')
      .option('--seeds <n>', 'test seeds per family and agent', intOption('--seeds', 1), 3)
      .option('--screenshots', 'record screenshots')
      .option('--json', 'print JSON'),
  ).action(async (opts: BrowserFlags & { seeds: number; screenshots?: boolean; json?: boolean }, cmd: Command) => {
    const store = openLab(cmd);
    const server = await startTaskServer();
    const host = await startBrowser(opts);
    const env = new BrowserEnv(host, { screenshots: !!opts.screenshots });
    const families = server.familyNames;
    const agents = ['oracle', 'random'];
    const total = families.length * agents.length * opts.seeds;
    const bar = !opts.json && process.stderr.isTTY ? new SingleBar({ format: 'demo [{bar}] {value}/{total} {task}', hideCursor: true }, Presets.shades_classic) : null;
    await withCleanup([() => server.stop(), () => host.close(), () => env.close(), () => void bar?.stop()], async (signal) => {
      bar?.start(total, 0, { task: '' });
      const rows: Array<{ family: string; agent: string; episodes: number; successes: number; meanSteps: number }> = [];
      let done = 0;
      for (const family of families) {
        for (const agent of agents) {
          const row = { family, agent, episodes: 0, successes: 0, meanSteps: 0 };
          for (let k = 0; k < opts.seeds && !signal.aborted; k++) {
            const seed = server.familySeeds(family).test.from + k;
            bar?.update(done, { task: `${family} seed ${seed} ${agent}` });
            const out = await runEpisode(
              { env, server, store, browserKind: host.kind, signal },
              { family, seed, agent: (instance) => makeAgent(agent, instance, seed) },
            );
            row.episodes++;
            row.successes += out.success ? 1 : 0;
            row.meanSteps += out.steps;
            bar?.update(++done);
            if (!bar && !opts.json) process.stderr.write(`${family} seed ${seed} ${agent}: ${out.success ? 'success' : 'failure'} in ${out.steps} steps\n`);
          }
          row.meanSteps = row.episodes ? Math.round((row.meanSteps / row.episodes) * 10) / 10 : 0;
          rows.push(row);
        }
      }
      bar?.stop();
      if (opts.json) return printJson({ lab: store.dir, results: rows });
      process.stdout.write(`\n${'family'.padEnd(10)}${'agent'.padEnd(9)}success  mean steps\n`);
      for (const r of rows) process.stdout.write(`${r.family.padEnd(10)}${r.agent.padEnd(9)}${`${r.successes}/${r.episodes}`.padEnd(9)}${r.meanSteps}\n`);
      process.stdout.write(`\nEpisodes are in ${store.dir}/episodes. Next: npm run lab -- episodes list\n`);
    });
  });
}
