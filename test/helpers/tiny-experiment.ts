/**
 * A lab holding one finished `tiny`-preset experiment, `orig`, made by the real command
 * (`lab experiment --preset tiny --out orig`, in this process) with a real Chromium and task
 * server. About 30 s on two cores, which four test files used to pay each.
 *
 * `npm test` (scripts/test.mjs) names a folder in LAB_TEST_SHARED for the run: the first test file
 * that asks builds the lab there once, the others wait for it, and each copies it into a lab of its
 * own (they go on to add replays to it). A file run on its own builds its own.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLab } from './lab-cli.ts';

export const TINY_ID = 'orig';

async function buildTinyLab(labDir: string): Promise<void> {
  await runLab('--lab', labDir, 'experiment', '--preset', 'tiny', '--out', TINY_ID, '--json');
}

/** True while the process `pid` runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * `dir` made by `make` once across processes: the first caller takes `dir.lock` (mkdir is atomic),
 * builds, then writes `dir.done` (or `dir.failed`); the rest wait for that, or fail if the builder
 * died. Built in place, not renamed: a lab's files record absolute paths (a stage's outputs name
 * its files).
 */
async function buildOnce(dir: string, make: (into: string) => Promise<void>): Promise<void> {
  const lock = `${dir}.lock`;
  const done = `${dir}.done`;
  const failed = `${dir}.failed`;
  try {
    mkdirSync(lock);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const deadline = Date.now() + 10 * 60_000;
    while (!existsSync(done)) {
      if (existsSync(failed)) throw new Error(`building ${dir} failed in another test file: ${readFileSync(failed, 'utf8')}`);
      const owner = Number(existsSync(join(lock, 'pid')) ? readFileSync(join(lock, 'pid'), 'utf8') : 0);
      if ((owner && !alive(owner)) || Date.now() > deadline) throw new Error(`the process building ${dir} (pid ${owner || 'unknown'}) ended without it`);
      await new Promise((r) => setTimeout(r, 250));
    }
    return;
  }
  writeFileSync(join(lock, 'pid'), String(process.pid));
  try {
    await make(dir);
  } catch (err) {
    // The builder's process goes on with its other tests: tell the waiting files now, not in 10 minutes.
    writeFileSync(failed, (err as Error).message);
    throw err;
  }
  writeFileSync(done, '');
}

/** Fills `labDir` (new or empty) with a lab holding the finished tiny experiment `orig`. */
export async function tinyExperimentLab(labDir: string): Promise<void> {
  const shared = process.env.LAB_TEST_SHARED;
  if (!shared) {
    await buildTinyLab(labDir);
    return;
  }
  const built = join(shared, 'tiny-experiment-lab');
  await buildOnce(built, buildTinyLab);
  cpSync(built, labDir, { recursive: true });
}

/** A new temporary lab holding the tiny experiment `orig`. */
export async function newTinyExperimentLab(prefix: string): Promise<string> {
  const labDir = mkdtempSync(join(tmpdir(), prefix));
  await tinyExperimentLab(labDir);
  return labDir;
}
