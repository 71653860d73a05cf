/**
 * The lab folder's layout, in one place: every module that reads or writes a lab's runs, evals,
 * experiments, policies, models, episodes or datasets asks here for the path, so the layout can be
 * read (and changed) in one file; what each folder holds is named in ./lab-files.ts. Ids that
 * become folder or file names are checked here too: a
 * name from a URL or a command line must not walk out of the lab (`../x`) or collide with a
 * file's suffix.
 *
 *   LAB/episodes/ID.jsonl        one episode (header, steps, outcome)
 *   LAB/labels/ID.jsonl          labels and corrections of an episode
 *   LAB/judgments/ID.jsonl       LLM judge verdicts of an episode
 *   LAB/blobs/                   screenshots and other content-addressed files
 *   LAB/tasksets/NAME.jsonl      imported benchmark tasks
 *   LAB/runs/ID/                 a collection run (config.json, progress.jsonl, review.jsonl)
 *   LAB/evals/ID/                a policy evaluation (request.json, episodes.jsonl as it runs, report.json, mining.json)
 *   LAB/experiments/ID/          a one-command experiment (config.json, stage outputs, report)
 *   LAB/policies/NAME/           policies trained from the app or a recipe
 *   LAB/models/NAME/             decoding models trained with `lab train`
 *   LAB/datasets/NAME/vN/        frozen dataset versions (see ../datasets/manifest.ts)
 *   LAB/datasets/NAME/draft.json the next version as the review view gathers it (../datasets/draft.ts)
 *   LAB/exports/                 exports started from the app
 *   LAB/bench/decode/            decoding benchmarks started from the app
 *   LAB/policies.jsonl           one line per training run started (../policy/registry.ts)
 *   LAB/reflections/ID.json      a reflection written after a failed attempt (../collection/reflect.ts)
 */
import { join } from 'node:path';

/** What a lab id (episode, run, eval, experiment) may contain: letters, digits, `_` and `-`; as a pattern to build URL routes from. */
export const LAB_ID_PATTERN = '[A-Za-z0-9_-]+';
export const LAB_ID = new RegExp(`^${LAB_ID_PATTERN}$`);

export function isLabId(id: string): boolean {
  return LAB_ID.test(id);
}

/** The id, or an error naming what it was meant to be. */
export function checkLabId(id: string, what: string): string {
  if (!LAB_ID.test(id)) throw new Error(`invalid ${what} id: ${id}`);
  return id;
}

export const labPaths = {
  episodes: (lab: string) => join(lab, 'episodes'),
  episodeFile: (lab: string, id: string) => join(lab, 'episodes', `${checkLabId(id, 'episode')}.jsonl`),
  labels: (lab: string) => join(lab, 'labels'),
  labelsFile: (lab: string, id: string) => join(lab, 'labels', `${checkLabId(id, 'episode')}.jsonl`),
  judgments: (lab: string) => join(lab, 'judgments'),
  judgmentsFile: (lab: string, id: string) => join(lab, 'judgments', `${checkLabId(id, 'episode')}.jsonl`),
  blobs: (lab: string) => join(lab, 'blobs'),
  tasksets: (lab: string) => join(lab, 'tasksets'),
  runs: (lab: string) => join(lab, 'runs'),
  run: (lab: string, id: string) => join(lab, 'runs', checkLabId(id, 'run')),
  evals: (lab: string) => join(lab, 'evals'),
  eval: (lab: string, id: string) => join(lab, 'evals', checkLabId(id, 'evaluation')),
  experiments: (lab: string) => join(lab, 'experiments'),
  experiment: (lab: string, id: string) => join(lab, 'experiments', checkLabId(id, 'experiment')),
  policies: (lab: string) => join(lab, 'policies'),
  // Policy and model names come from the command line (`--name`, `--out`) and are not lab ids.
  policy: (lab: string, name: string) => join(lab, 'policies', name),
  models: (lab: string) => join(lab, 'models'),
  model: (lab: string, name: string) => join(lab, 'models', name),
  datasets: (lab: string) => join(lab, 'datasets'),
  exports: (lab: string) => join(lab, 'exports'),
  decodeBenchmarks: (lab: string) => join(lab, 'bench', 'decode'),
  /** `lab bench sizes` reports (../decode/size-curve-report.ts), which the decoding dashboard lists. */
  sizeCurves: (lab: string) => join(lab, 'bench', 'sizes'),
  trainingRegistry: (lab: string) => join(lab, 'policies.jsonl'),
  reflections: (lab: string) => join(lab, 'reflections'),
  reflectionFile: (lab: string, id: string) => join(lab, 'reflections', `${checkLabId(id, 'reflection')}.json`),
} as const;
