/**
 * An episode's provenance as the browser shows it: every field present, null where unknown.
 * New headers record it (`provenance`); older ones are read from what their agent config already
 * held (a collection attempt's `attempt` and `arm`, an evaluation's `evalId`, a policy's `dir`),
 * and whatever neither says stays null ("unknown"), never an error.
 */
import type { EpisodeHeader } from './schema.ts';

export interface Provenance {
  /** Collection run id (lab/runs/<id>). */
  run: string | null;
  attempt: number | null;
  arm: string | null;
  /** Evaluation id (lab/evals/<id>). */
  eval: string | null;
  /** Experiment id (lab/experiments/<id>). */
  experiment: string | null;
  /** The compact policy's folder name, for policy agents: what tells two policies apart in a grid. */
  policy: string | null;
}

export const UNKNOWN_PROVENANCE: Provenance = { run: null, attempt: null, arm: null, eval: null, experiment: null, policy: null };

export function provenanceOf(header: Pick<EpisodeHeader, 'provenance' | 'agent'>): Provenance {
  const recorded = header.provenance ?? {};
  const config = header.agent.config ?? {};
  const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  const attempt = recorded.attempt ?? config.attempt;
  return {
    run: recorded.run ?? null,
    attempt: typeof attempt === 'number' && Number.isInteger(attempt) && attempt >= 0 ? attempt : null,
    arm: recorded.arm ?? text(config.arm),
    eval: recorded.eval ?? text(config.evalId),
    experiment: recorded.experiment ?? null,
    policy: policyName(text(config.dir)),
  };
}

/** The last folder of a policy's path: `experiments/x/policies/sft-reflect` -> `sft-reflect`. */
function policyName(dir: string | null): string | null {
  if (!dir) return null;
  const parts = dir.split(/[\\/]+/).filter(Boolean);
  return parts[parts.length - 1] ?? null;
}

/** One line for people: "run R, attempt 1 (reflect), experiment X"; '' when nothing is known. */
export function describeProvenance(p: Provenance): string {
  const parts: string[] = [];
  if (p.run) parts.push(`run ${p.run}`);
  if (p.attempt !== null) parts.push(`attempt ${p.attempt}${p.arm ? ` (${p.arm})` : ''}`);
  else if (p.arm) parts.push(`arm ${p.arm}`);
  if (p.eval) parts.push(`eval ${p.eval}`);
  if (p.experiment) parts.push(`experiment ${p.experiment}`);
  if (p.policy) parts.push(`policy ${p.policy}`);
  return parts.join(', ');
}
