/** Build main, preload and renderer into out/ with the configs in electron.config.ts. */
import { build } from 'vite';
import { mainConfig, preloadConfig, rendererConfig } from '../electron.config.ts';

for (const [name, config] of [
  ['renderer', rendererConfig],
  ['preload', preloadConfig],
  ['main', mainConfig],
] as const) {
  process.stdout.write(`build: ${name}\n`);
  await build({ ...config, logLevel: 'warn' });
}
process.stdout.write('build: done (out/)\n');
