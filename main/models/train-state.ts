/**
 * train-state.json: the loop state (step, random stream) a checkpoint was saved at and the job that
 * ran it. A resumed run reads it back; the job fields that shape the learning-rate schedule and the
 * batch stream must match, else the run would not continue the one it claims to continue (a larger
 * `steps` stretches the cosine and jumps the learning rate back up mid-run).
 */
import { z } from 'zod';
import { readJsonFile, writeFileAtomic } from '../store/json-file.ts';
import { modelFiles } from '../store/lab-files.ts';

/** Job fields a resumed run must keep. */
const SCHEDULE_FIELDS = ['steps', 'lr', 'minLr', 'warmup', 'batch', 'seed'] as const;
type Schedule = { [K in (typeof SCHEDULE_FIELDS)[number]]: number };

const TrainStateFile = z.object({ state: z.object({ step: z.number().int().min(0), rng: z.number() }).passthrough(), job: z.record(z.string(), z.unknown()) });

const readFile = (path: string) => readJsonFile(path, TrainStateFile, 'a training state');

/** The job a checkpoint's run was started with, as recorded. */
export function readTrainJob(outDir: string): Record<string, unknown> {
  return readFile(modelFiles(outDir).trainState).job;
}

/** The saved loop state, after checking that `job` keeps the recorded schedule. */
export function readTrainState<S extends { step: number; rng: number }>(outDir: string, job: Schedule): S {
  const path = modelFiles(outDir).trainState;
  const saved = readFile(path);
  const changed = SCHEDULE_FIELDS.filter((f) => saved.job[f] !== undefined && saved.job[f] !== job[f]);
  if (changed.length) {
    const list = changed.map((f) => `${f} ${job[f]} (the run has ${String(saved.job[f])})`).join(', ');
    throw new Error(`${path}: cannot resume with ${list}: it would change the learning-rate schedule or batches of the run it continues. Run again with the recorded values, or start over in a new folder (or with --no-resume).`);
  }
  return saved.state as S;
}

export function writeTrainState(outDir: string, state: object, job: object): void {
  writeFileAtomic(modelFiles(outDir).trainState, JSON.stringify({ state, job }, null, 2));
}
