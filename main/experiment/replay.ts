/**
 * Replaying an experiment (`lab experiment --replay ID`, the app's Replay button): a new experiment
 * whose configuration is the original's config.json verbatim — every parameter and seed as it was
 * recorded, not today's presets or library defaults — except its own id and creation time,
 * `replayOf`, the experiment it replays, and the original's amendments (their values it keeps).
 * Running it is running any experiment (resumable the same way); comparing the two reports
 * (./compare.ts) shows whether the recorded configuration reproduces its numbers.
 */
import { existsSync } from 'node:fs';
import { EXPERIMENT_ID, parseExperimentConfig, type ExperimentConfig } from './config.ts';
import { ExperimentFolder, readRecordedConfig } from './folder.ts';
import { labPaths } from '../store/layout.ts';

/**
 * The replay's configuration: the original's, with a new id, a new createdAt and replayOf. The
 * original's amendments are its history, not the replay's: the replay runs their values from the start.
 */
export function replayConfig(labDir: string, originalId: string, newId: string): ExperimentConfig {
  const { amendments: _, ...original } = readRecordedConfig(labDir, originalId);
  if (!EXPERIMENT_ID.test(newId)) throw new Error(`invalid experiment id "${newId}" (letters, digits, '_' and '-')`);
  return parseExperimentConfig({ ...original, id: newId, createdAt: new Date().toISOString(), replayOf: originalId }, `replay of ${originalId}`);
}

/** `<id>-replay<N>` with the first N whose folder does not exist: readable, and sorted beside the original. */
export function nextReplayId(labDir: string, originalId: string): string {
  for (let n = 1; ; n++) if (!existsSync(labPaths.experiment(labDir, `${originalId}-replay${n}`))) return `${originalId}-replay${n}`;
}

/** Create the replay's folder (config.json written); run it with runExperiment like any other. */
export function createReplay(labDir: string, originalId: string, newId?: string): ExperimentFolder {
  const config = replayConfig(labDir, originalId, newId ?? nextReplayId(labDir, originalId));
  return ExperimentFolder.create(labDir, config);
}
