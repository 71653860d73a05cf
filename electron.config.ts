/**
 * Build configuration for the three parts of the desktop app, as Vite configs:
 * main (Node, Electron main process), preload (sandboxed preload, CommonJS), renderer (Svelte 5).
 * `npm run build` (scripts/build.ts) builds all three into out/.
 */
import { resolve } from 'node:path';
import type { InlineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = import.meta.dirname;
const nodeExternals = [/^node:/, 'electron', /^@tensorflow\//, 'ws', 'zod', 'commander', 'cli-progress'];

export const mainConfig: InlineConfig = {
  configFile: false,
  root,
  build: {
    outDir: resolve(root, 'out/main'),
    emptyOutDir: true,
    ssr: resolve(root, 'main/app/main.ts'),
    target: 'node20',
    rollupOptions: { external: nodeExternals, output: { format: 'es', entryFileNames: 'index.js' } },
  },
};

export const preloadConfig: InlineConfig = {
  configFile: false,
  root,
  build: {
    outDir: resolve(root, 'out/preload'),
    emptyOutDir: true,
    ssr: resolve(root, 'preload/index.ts'),
    target: 'node20',
    // Sandboxed preloads must be CommonJS.
    rollupOptions: { external: ['electron'], output: { format: 'cjs', entryFileNames: 'index.cjs' } },
  },
};

export const rendererConfig: InlineConfig = {
  configFile: false,
  root: resolve(root, 'renderer'),
  base: './',
  plugins: [svelte()],
  build: { outDir: resolve(root, 'out/renderer'), emptyOutDir: true, target: 'chrome120' },
};

export default { main: mainConfig, preload: preloadConfig, renderer: rendererConfig };
