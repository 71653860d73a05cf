/**
 * The lab's list of training runs: `lab/policies.jsonl`, one line appended when `lab train sft` or
 * `lab train salvage` starts (policy folders live wherever --out says, so the lab cannot find them by
 * itself). The app's training view lists these, the folders under lab/policies/, and the policies
 * evaluation reports name.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { appendJsonlLine, readJsonl } from '../store/jsonl.ts';
import { labPaths } from '../store/layout.ts';

export const TRAINING_KINDS = ['sft', 'salvage'] as const;
export type TrainingKind = (typeof TRAINING_KINDS)[number];

export const RegistryLine = z.object({ time: z.string(), kind: z.enum(TRAINING_KINDS), dir: z.string() });
export type RegistryLine = z.infer<typeof RegistryLine>;

export function registerTrainingRun(labDir: string, kind: TrainingKind, dir: string): void {
  mkdirSync(labDir, { recursive: true });
  appendJsonlLine(labPaths.trainingRegistry(labDir), { time: new Date().toISOString(), kind, dir: resolve(dir) } satisfies RegistryLine);
}

/** Registered folders, first registration order, each once. */
export function registeredRuns(labDir: string): RegistryLine[] {
  const path = labPaths.trainingRegistry(labDir);
  if (!existsSync(path)) return [];
  const seen = new Map<string, RegistryLine>();
  for (const r of readJsonl(path, RegistryLine).records) if (!seen.has(r.dir)) seen.set(r.dir, r);
  return [...seen.values()];
}
