/** The jobs family: a job board with keyword/location search, filters, job detail, saving and an application form. */
import type { TaskFamily, Tier } from '../../types.ts';
import { SEEDS, tierFromSeed } from '../common/seeds.ts';
import type { JobsState } from './data.ts';
import { handleJobs } from './handlers.ts';
import { JobsOracle } from './oracle.ts';
import { checkJobs, generateJobsTask } from './task.ts';

export const jobsFamily: TaskFamily<JobsState> = {
  name: 'jobs',
  description: 'A job board: keyword and location search, type/level/salary/remote filters, sort, job details, saving jobs and an application form.',
  seeds: { train: { ...SEEDS.train }, test: { ...SEEDS.test } },
  generate(seed: number, tier?: Tier) {
    const t = tier ?? tierFromSeed(seed, 'jobs');
    const { state, instruction, startPath, goalKind } = generateJobsTask(seed, t);
    return { instruction, state, goalKind, startPath, tier: t };
  },
  handle: handleJobs,
  check: checkJobs,
  oracle: (ctx) => new JobsOracle(ctx),
};
