// Where e2e tests save view screenshots: docs/ when LAB_UPDATE_DOCS=1 (to refresh the
// pictures in docs/app.md), else a temporary folder, so that `npm test` never rewrites tracked files.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PROJECT_ROOT = join(import.meta.dirname, '..', '..');
let folder: string | undefined;

export function docsScreenshot(name: string): string {
  if (!folder) {
    folder = process.env.LAB_UPDATE_DOCS === '1' ? join(PROJECT_ROOT, 'docs') : mkdtempSync(join(tmpdir(), 'lab-screenshots-'));
    mkdirSync(folder, { recursive: true });
  }
  return join(folder, name);
}
