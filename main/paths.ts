/** Where the workbench finds its shipped resources and the user's lab folder. */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Repository (or packaged app) root: the folder holding resources/. Found by walking up from this
 * file, because the same code runs from main/ (tsx), from out/main/ (the Electron build) and from
 * a packaged app (where electron-builder puts resources/ under process.resourcesPath).
 */
export const PROJECT_ROOT = findRoot();

function findRoot(): string {
  const packaged = (process as { resourcesPath?: string }).resourcesPath;
  if (packaged && existsSync(join(packaged, 'resources', 'sites'))) return packaged;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'resources', 'sites'))) return dir;
    dir = resolve(dir, '..');
  }
  return resolve(dirname(fileURLToPath(import.meta.url)), '..');
}

export function resourcePath(...parts: string[]): string {
  return join(PROJECT_ROOT, 'resources', ...parts);
}

/**
 * A path as a report records it: relative to the project root when it lies inside it (so a report
 * shipped in resources/ or docs/ names the same file on every clone), absolute otherwise.
 */
export function reportPath(path: string): string {
  const rel = relative(PROJECT_ROOT, resolve(path));
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : resolve(path);
}

/** The default lab folder: $LAB_DIR, else the platform's user data directory. */
export function defaultLabDir(): string {
  if (process.env.LAB_DIR) return resolve(process.env.LAB_DIR);
  const home = homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'agent-lab', 'lab');
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'agent-lab', 'lab');
  return join(process.env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'agent-lab', 'lab');
}
