/**
 * The renderer build, reused while its inputs are unchanged: `lab web` used to run vite on every
 * start (about 19 s on two cores). A build folder carries the hash of what it was built from; a
 * start whose inputs hash the same serves it as it is.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROJECT_ROOT } from './paths.ts';

/** What the renderer build reads: its sources, the modules it imports from preload/ and main/, the build config, the dependencies' versions. */
export const RENDERER_BUILD_INPUTS = ['renderer', 'preload', 'main', 'electron.config.ts', 'package-lock.json'];
const STAMP = '.inputs-hash';

/** A hash of every input file's path and bytes (in sorted order). */
export function rendererInputsHash(root = PROJECT_ROOT, inputs = RENDERER_BUILD_INPUTS): string {
  const hash = createHash('sha256');
  const add = (path: string): void => {
    if (statSync(path).isDirectory()) for (const name of readdirSync(path).sort()) add(join(path, name));
    else hash.update(`${relative(root, path)}\0`).update(readFileSync(path));
  };
  for (const input of inputs) add(join(root, input));
  return hash.digest('hex').slice(0, 16);
}

/** True when `dir` holds a whole build made from inputs with this hash. */
export function isBuildCurrent(dir: string, hash: string): boolean {
  const stamp = join(dir, STAMP);
  return existsSync(join(dir, 'index.html')) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hash;
}

/**
 * Build into `dir` unless it already holds a build of these inputs. `build` writes the files
 * (vite in the app); the stamp is written after it succeeds, so a failed build is never reused.
 */
export async function ensureRendererBuilt(dir: string, build: (outDir: string) => Promise<void>, hash = rendererInputsHash()): Promise<{ built: boolean; hash: string }> {
  if (isBuildCurrent(dir, hash)) return { built: false, hash };
  await build(dir);
  writeFileSync(join(dir, STAMP), hash + '\n');
  return { built: true, hash };
}

/** vite's production build of the renderer into `outDir` (vite and the svelte plugin load only here). */
export async function viteBuildRenderer(outDir: string, logLevel: 'warn' | 'silent' = 'warn'): Promise<void> {
  const [{ build }, { rendererConfig }] = await Promise.all([import('vite'), import('../electron.config.ts')]);
  await build({ ...rendererConfig, logLevel, build: { ...rendererConfig.build, outDir, emptyOutDir: true } });
}
