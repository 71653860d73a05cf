/**
 * The SFT loop's per-step record, `train-log.jsonl` in the policy folder: one line per optimizer
 * step, appended as it happens, so a dashboard can draw the loss curve while the run trains.
 * A resumed run keeps the lines up to its checkpoint and redoes the rest (as the loop does).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { appendJsonlLine } from '../store/jsonl.ts';
import { modelFiles } from '../store/lab-files.ts';

export const TrainLogLine = z.object({
  step: z.number().int().positive(),
  /** null when the loss was not finite (JSON has no NaN). */
  loss: z.number().nullable(),
  lr: z.number(),
  tokensPerSec: z.number(),
  /** Only on the steps that measured it (every evalEvery steps and the last). */
  valLoss: z.number().nullable().optional(),
  /** What valLoss was computed on: training samples when the dataset has no validation split (a dashboard must say so). */
  valOn: z.enum(['validation', 'train']).optional(),
});
export type TrainLogLine = z.infer<typeof TrainLogLine>;

export function appendTrainLog(dir: string, line: TrainLogLine): void {
  appendJsonlLine(modelFiles(dir).trainLog, line);
}

/** Start a fresh log (a run that does not resume), or keep the lines a resumed run will not redo. */
export function resetTrainLog(dir: string, keepUpToStep: number): void {
  const path = modelFiles(dir).trainLog;
  if (!existsSync(path)) return;
  if (keepUpToStep <= 0) return writeFileSync(path, '');
  const kept = readFileSync(path, 'utf8').split('\n').filter((l) => {
    if (!l.trim()) return false;
    try {
      return (JSON.parse(l) as { step: number }).step <= keepUpToStep;
    } catch {
      return false; // a torn last line from a killed run
    }
  });
  writeFileSync(path, kept.map((l) => l + '\n').join(''));
}
