/**
 * The arguments of every API method, as zod schemas: what crosses a process boundary (Electron's
 * IPC, web mode's WebSocket) is checked here once, before the service sees it, so the service can
 * trust its parameter types. `PARAMS` must name every method of the contract with a schema whose
 * output fits the method's parameters: the compiler holds that (the `satisfies` below), and
 * test/server/api-params.test.ts calls each method with arguments of the wrong type.
 *
 * Checks that need the lab or a loaded model (does the episode exist, is k within the model's
 * trained draft length) stay with the service; these are the shapes and the fixed ranges.
 * Both transports run in the main process, so the checks live here, beside the service, and the
 * contract (preload/) stays types and constants the renderer may load: it imports nothing from
 * main/ at run time (test/app/import-floors.test.ts).
 */
import { z } from 'zod';
import type { LabApi, LabMethod } from '../../preload/api.ts';
import { FORK_AGENTS, SCOPE_KINDS } from '../../preload/views.ts';
import { datasetFilterSchema } from '../datasets/filter.ts';
import { EXPORT_FORMATS } from '../datasets/export/formats.ts';
import { SPLITS } from '../datasets/split.ts';
import { humanInputSchema } from '../collection/demonstration-input.ts';
import { fieldIssue } from '../store/schema-error.ts';
import { labelEditSchema } from '../store/labels.ts';

/** An id or name the service looks up (episode, run, replay, demonstration, experiment, ...). */
const id = z.string().min(1).max(400);
const count = (max: number) => z.number().int().min(1).max(max);

const startExperimentRequest = z.object({
  preset: z.string().min(1).max(100),
  seeds: count(20).optional(),
  id: z.string().min(1).max(200).optional(),
}).strict();

const splitRatios = z.object(Object.fromEntries(SPLITS.map((s) => [s, z.number().min(0).max(1)])) as Record<(typeof SPLITS)[number], z.ZodNumber>).strict();

const sampling = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('greedy') }).strict(),
  z.object({
    kind: z.literal('nucleus'),
    topP: z.number().gt(0).max(1),
    temperature: z.number().gt(0),
    acceptance: z.enum(['speculative', 'match']).optional(),
  }).strict(),
]);

/** The drafting modes a benchmark or live decode may ask for (AR always runs beside them). */
const sdsatMode = z.enum(['sdsat', 'sdsat-one-pass', 'sdsat-tree', 'lookup', 'lookup-tree', 'sdsat-lookup', 'merged-tree']);

const decodeBenchRequest = z.object({
  ks: z.array(z.number().int().min(1)).min(1),
  maxNew: count(100_000),
  prompts: count(100_000).optional(),
  modes: z.array(sdsatMode).min(1).optional(),
  sampling: sampling.optional(),
  seed: z.number().int().optional(),
  repeats: count(10).optional(),
}).strict();

const liveDecodeRequest = z.object({
  prompt: z.string().min(1, 'an empty prompt has nothing to continue'),
  mode: sdsatMode.optional(),
  k: z.number().int().min(1),
  maxNew: count(100_000),
  sampling: sampling.optional(),
  seed: z.number().int().optional(),
}).strict();

const decideRequest = z.object({ runId: id, task: id, episodeId: id, decision: z.enum(['accept', 'reject']), dataset: id }).strict();

const none = z.tuple([]);

type ParamSchemas = { [M in LabMethod]: z.ZodType<Parameters<LabApi[M]>> };

export const PARAMS = {
  info: none,
  listEpisodes: none,
  readEpisode: z.tuple([id]),
  readLabels: z.tuple([id]),
  editLabels: z.tuple([id, labelEditSchema]),
  compareEpisodes: z.tuple([z.array(id).max(1000)]), // "two or more" is the service's to say, with its own message
  listResultScopes: none,
  resultsGrid: z.tuple([z.object({ kind: z.enum(SCOPE_KINDS), id }).strict(), z.enum(['family', 'instance'])]),
  listTasks: none,
  startReplay: z.tuple([id, z.enum(['run', 'step'])]),
  replayNext: z.tuple([id]),
  cancelReplay: z.tuple([id]),
  startDemo: z.tuple([id, z.number().int().min(0)]),
  demoInput: z.tuple([id, humanInputSchema]),
  cancelDemo: z.tuple([id]),
  startFork: z.tuple([z.object({ episodeId: id, step: z.number().int().min(0), agent: z.enum(FORK_AGENTS) }).strict()]),
  cancelFork: z.tuple([id]),
  startForkDemo: z.tuple([id, z.number().int().min(0)]),
  listDatasets: none,
  previewDataset: z.tuple([datasetFilterSchema, splitRatios.optional()]),
  readDatasetVersion: z.tuple([id, z.number().int().min(1)]),
  createDataset: z.tuple([z.object({ name: id, description: z.string().max(10_000).optional(), filter: datasetFilterSchema, ratios: splitRatios.optional(), confirmWarnings: z.boolean().optional() }).strict()]),
  startExport: z.tuple([id, z.enum(EXPORT_FORMATS), z.string().max(4096)]),
  cancelExport: z.tuple([id]),
  listCollectionRuns: none,
  readReviewTask: z.tuple([id, id]),
  reviewDecide: z.tuple([decideRequest]),
  readReviewDraft: z.tuple([id]),
  freezeReviewDraft: z.tuple([id, z.boolean().optional()]),
  checkReviewDraft: z.tuple([id]),
  decodeInfo: none,
  listDecodeBenches: none,
  listSizeCurves: none,
  startDecodeBench: z.tuple([decodeBenchRequest]),
  startLiveDecode: z.tuple([liveDecodeRequest]),
  cancelDecode: z.tuple([id]),
  listTraining: none,
  readTrainingRun: z.tuple([z.string().min(1).max(4096)]),
  watchTrainingRun: z.tuple([z.string().min(1).max(4096), z.number().int().min(0)]),
  unwatchTraining: z.tuple([id]),
  listExperiments: none,
  readExperiment: z.tuple([id]),
  compareExperiments: z.tuple([id, id]),
  startExperiment: z.tuple([startExperimentRequest]),
  replayExperiment: z.tuple([id]),
  resumeExperiment: z.tuple([id]),
  cancelExperiment: z.tuple([id]),
} satisfies ParamSchemas;

/**
 * The arguments of a call, checked against its method's schema; an error names the method, the
 * argument (by position) and the field: `editLabels: argument 2: field step: ...`.
 */
export function parseParams<M extends LabMethod>(method: M, args: unknown): Parameters<LabApi[M]> {
  const schema: z.ZodType = PARAMS[method];
  if (!Array.isArray(args)) throw new Error(`${method}: the arguments must be an array`);
  const r = schema.safeParse(args);
  if (r.success) return r.data as Parameters<LabApi[M]>;
  const issue = r.error.issues[0];
  const [position, ...path] = issue.path;
  if (typeof position !== 'number') return fail(method, issue.code === 'too_big' || issue.code === 'too_small' ? `takes ${tupleLength(schema)} argument(s), got ${args.length}` : issue.message);
  const inner = new z.ZodError([{ ...issue, path }]);
  return fail(method, `argument ${position + 1}: ${fieldIssue(inner, '(value)')}`);
}

function fail(method: string, message: string): never {
  throw new Error(`${method}: ${message}`);
}

function tupleLength(schema: z.ZodType): number {
  return (schema as unknown as { def: { items: unknown[] } }).def.items.length;
}
