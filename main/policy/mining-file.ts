/**
 * The mining report on disk: lab/evals/<id>/mining.json, written by `lab mine` and read back by
 * `lab mine --confirm` (to branch states mined earlier), by Salvage-DS state selection and by
 * `lab export --mined` (the states as a verl dataset), which all name a report the same way.
 * One schema for every reader, so a hand-edited or truncated file is refused with its field named.
 * Writes go through a temporary file and a rename: a Ctrl-C or a crash mid-write leaves the
 * previous report whole.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { FAILURE_MODES } from './mining.ts';
import { readJsonFile, writeFileAtomic } from '../store/json-file.ts';
import { labPaths } from '../store/layout.ts';
import { evalFiles } from '../store/lab-files.ts';

/**
 * What branching from a critical state found (see ../evaluation/branching.ts):
 *   confirmed       the reference action there leads to success, the policy's action does not
 *   recoverable     both lead to success: the departure was a harmless detour
 *   unreachable     the reference action does not lead to success either
 *   unreproducible  replaying the rollout up to the state did not reach the page it recorded
 *   not_branchable  one of the two actions is missing (the rollout or the reference ended there)
 */
export const CONFIRMATION_STATUSES = ['confirmed', 'recoverable', 'unreachable', 'unreproducible', 'not_branchable'] as const;
export type ConfirmationStatus = (typeof CONFIRMATION_STATUSES)[number];

export const BranchRun = z.object({
  /** The branch episode in the lab (agent "branch", tagged "branch"): the trajectory viewer opens it. */
  episodeId: z.string(),
  success: z.boolean(),
  /** Steps of the whole branch episode, the replayed prefix included. */
  steps: z.number().int().min(0),
  reason: z.string(),
});
export type BranchRun = z.infer<typeof BranchRun>;

export const BranchOutcome = z.object({
  /** The action taken at the critical state, as written on the page it was chosen on. */
  action: z.string(),
  /** A branch succeeds when most of its runs do (one run unless --branches says more). */
  success: z.boolean(),
  successes: z.number().int().min(0),
  runs: z.array(BranchRun),
});
export type BranchOutcome = z.infer<typeof BranchOutcome>;

export const Confirmation = z.object({
  status: z.enum(CONFIRMATION_STATUSES),
  /** Runs per branch. */
  branches: z.number().int().positive(),
  /** (a) the reference action, then the oracle; null when it was not run. */
  reference: BranchOutcome.nullable(),
  /** (b) the policy's recorded action, then the oracle; null when it was not run. */
  policy: BranchOutcome.nullable(),
  /** Why a state is unreproducible or not branchable. */
  detail: z.string().optional(),
});
export type Confirmation = z.infer<typeof Confirmation>;

export const MinedFailureRecord = z.object({
  episodeId: z.string(),
  referenceId: z.string(),
  family: z.string(),
  seed: z.number().int(),
  tier: z.number().int().min(1).max(3),
  step: z.number().int().min(0),
  mode: z.enum(FAILURE_MODES),
  action: z.string().nullable(),
  referenceAction: z.string().nullable(),
  /** Present once `lab mine --confirm` branched from the state. */
  confirmation: Confirmation.optional(),
});
export type MinedFailureRecord = z.infer<typeof MinedFailureRecord>;

const MiningFileSchema = z.object({ all: z.array(MinedFailureRecord) }).passthrough();

/** The mined failures of a mining.json, checked field by field (the error names file and field). */
export function readMiningFile(path: string): MinedFailureRecord[] {
  return readJsonFile(path, MiningFileSchema, 'a JSON mining report').all;
}

/** Replace the report in one rename, so readers never see half of it. */
export function writeMiningFile(path: string, report: unknown): void {
  writeFileAtomic(path, JSON.stringify(report, null, 2) + '\n');
}

/**
 * The mining report a `--mined REF` names: mining.json of evaluation REF in the lab (`lab mine
 * --eval REF` writes it), or REF itself when it is the path of a .json file.
 */
export function resolveMiningFile(ref: string, labDir: string): string {
  const path = ref.endsWith('.json') ? resolve(ref) : evalFiles(labPaths.eval(labDir, ref)).mining;
  if (!existsSync(path)) throw new Error(`--mined: no mining report at ${path} (run \`lab mine --eval ID\` first)`);
  return path;
}

/**
 * With `confirmedOnly`, only the states that branching confirmed (`lab mine --confirm`): the ones
 * where the reference action leads to success and the policy's action does not. A report that was
 * never confirmed, or only in part, is refused rather than silently giving fewer states.
 */
export function selectFailures<F extends Pick<MinedFailureRecord, 'confirmation'>>(failures: readonly F[], confirmedOnly: boolean, path: string): F[] {
  if (!confirmedOnly) return [...failures];
  const unbranched = failures.filter((f) => !f.confirmation).length;
  if (unbranched) throw new Error(`${path}: ${unbranched} of ${failures.length} mined states were not confirmed by branching; run \`lab mine --eval ID --confirm\` first`);
  return failures.filter((f) => f.confirmation!.status === 'confirmed');
}

/**
 * States mined from a test evaluation come from test seeds: a note saying so (a later test
 * evaluation reruns those seeds), or null when the evaluation beside the report ran another split.
 */
export function testSeedsNote(miningPath: string): string | null {
  const report = evalFiles(dirname(miningPath)).report;
  if (!existsSync(report)) return null;
  const split = readJsonFile(report, z.object({ request: z.object({ split: z.string().optional() }).passthrough().optional() }).passthrough(), 'an evaluation report').request?.split;
  return split === 'test' ? `note: these states were mined from test seeds (${report}); compare on held-out families or on seeds the mined evaluation did not run` : null;
}
