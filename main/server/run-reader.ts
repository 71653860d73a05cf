/** Reading a collection run for display, without ever writing to it. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonl } from '../store/jsonl.ts';
import { collectConfigSchema, progressEventSchema, type RunFolder } from '../collection/collect-run.ts';
import { fieldIssue } from '../store/schema-error.ts';
import { labPaths } from '../store/layout.ts';

/**
 * A run as its log holds it now, read without writing: `lab collect` may be appending to it at this
 * moment, and RunFolder.open would trim its torn last line, which here is a line being written.
 * (readJsonl skips such a line with a warning.)
 */
export function readRun(labDir: string, runId: string): RunFolder {
  const dir = labPaths.run(labDir, runId);
  const cfgPath = join(dir, 'config.json');
  if (!existsSync(cfgPath)) throw new Error(`no run ${runId} in ${labPaths.runs(labDir)}`);
  const parsed = collectConfigSchema.safeParse(JSON.parse(readFileSync(cfgPath, 'utf8')));
  if (!parsed.success) throw new Error(`${cfgPath}: ${fieldIssue(parsed.error)}`);
  const log = join(dir, 'progress.jsonl');
  const events = existsSync(log) ? readJsonl(log, progressEventSchema).records : [];
  return {
    dir,
    config: parsed.data,
    events,
    append: () => {
      throw new Error(`run ${runId} was opened for reading only`);
    },
  };
}
