import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../paths.ts';
import { intOption, openLab, startBrowser, withBrowserOptions, type BrowserFlags, startTaskBrowser } from '../runtime.ts';

/** `npm run web`: the app in a browser, served on 127.0.0.1 at a host name of its own (`lab-<random>.localhost`) with a per-run token. */
export function registerWebCommand(program: Command): void {
  withBrowserOptions(
    program
      .command('web')
      .description('serve the workbench UI and its API on 127.0.0.1, at a random *.localhost name of its own (open the printed URL in a browser)')
      .option('--port <n>', 'port (default: a free one)', intOption('--port', 0), 0)
      .option('--no-build', 'serve the renderer in out/renderer as it is, even if its sources changed since it was built')
      .option('--no-sample', 'do not record sample episodes into an empty lab'),
  ).action(async (opts: BrowserFlags & { port: number; build: boolean; sample: boolean }, cmd: Command) => {
    const rendererDir = join(PROJECT_ROOT, 'out', 'renderer');
    if (opts.build || !existsSync(join(rendererDir, 'index.html'))) {
      // Built once, then reused until a renderer, preload or main source (or a dependency) changes.
      const { ensureRendererBuilt, viteBuildRenderer } = await import('../../renderer-build.ts');
      await ensureRendererBuilt(rendererDir, (dir) => {
        process.stderr.write('web: building the renderer (its sources changed since the last build)...\n');
        return viteBuildRenderer(dir);
      });
    }
    const [{ builtinFamilies }, { LabService }, { startWebServer }] = await Promise.all([
      import('../../tasks/registry.ts'), import('../../server/service.ts'), import('../../server/web.ts'),
    ]);
    const store = openLab(cmd);
    const service = new LabService({ store, families: builtinFamilies(), mode: 'web', startBrowser: () => startBrowser(opts) });
    const web = await startWebServer({ service, rendererDir, port: opts.port });
    process.stdout.write(
      `Agent Lab web mode: ${web.openUrl}\n` +
      `(a *.localhost name is this machine: the browser asks no DNS server; API clients: ${web.apiUrl} with "Authorization: Bearer <the token>"; lab: ${store.dir}; Ctrl-C to stop)\n`,
    );
    // An empty lab gets a few sample episodes, recorded while the app is already open: it lists
    // each as it lands and shows the progress.
    const stop = new AbortController();
    const sampling = opts.sample && store.episodeIds().length === 0
      ? recordSample(store, opts, stop.signal, (done, total) => service.emit('labActivity', { kind: 'sample', done, total, finished: done === total })).catch((err: Error) => {
        process.stderr.write(`web: sample episodes not recorded: ${err.message}\n`);
        service.emit('labActivity', { kind: 'sample', done: 0, total: 0, finished: true });
      })
      : Promise.resolve();
    await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
    stop.abort();
    await sampling;
    await web.close();
    await service.close();
  });
}

/** First run: a small collection so the app has something to show. */
async function recordSample(store: ReturnType<typeof openLab>, flags: BrowserFlags, signal: AbortSignal, progress: (done: number, total: number) => void): Promise<void> {
  process.stderr.write('web: the lab is empty; recording sample episodes (oracle and random agents, with screenshots) while the app is open...\n');
  const [{ BrowserEnv }, { collectSample }] = await Promise.all([import('../../environment/environment.ts'), import('../../collection/sample.ts')]);
  const { server, host } = await startTaskBrowser(flags);
  const env = new BrowserEnv(host, { screenshots: true });
  try {
    await collectSample(
      { envs: [env], server, store, browserKind: host.kind },
      {
        agents: ['oracle', 'random'], seedsPerFamily: 1, signal,
        onEpisode: (done, total, label, out) => {
          if (out) process.stderr.write(`  ${done}/${total} ${label}: ${out.success ? 'success' : 'failure'}\n`);
          progress(done, total);
        },
      },
    );
  } finally {
    await env.close();
    await host.close();
    await server.stop();
  }
}
