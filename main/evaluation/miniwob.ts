/**
 * MiniWoB++ in `lab eval`: which tasks of a checkout an evaluation runs, and the two means a
 * report gives beside its per-task rows. Published compact agents (WebN-T5, WebGUM, HTML-T5)
 * report their mean over the 56 tasks of Gur et al. (GUR56_TASKS); every task of that set counts
 * in that mean, a task the evaluation did not run (not in the checkout, not solvable through the
 * observation and the default actions, not asked for) as a failure, and is listed with the reason.
 * The mean over the tasks run is the other figure: what the policy does where it was tried.
 */
import type { Rate } from '../common/stats.ts';
import { MINIWOB_PREFIX } from '../tasks/miniwob/loader.ts';
import { GUR56_TASKS } from '../tasks/miniwob/task-sets.ts';
import { hasMiniwobOracle, whyUnrepresentable } from '../tasks/miniwob/oracles/index.ts';

/** Named selections of --tasks with --miniwob: the 56-task set, every task page, the tasks with an oracle. */
export const MINIWOB_TASK_SETS = ['set56', 'all', 'oracle'] as const;

export type { MiniwobServing } from '../tasks/miniwob/loader.ts';

export interface NotRun {
  task: string;
  reason: string;
}

export const NOT_IN_CHECKOUT = 'not a task page of the checkout';
export const NOT_ASKED = 'not in this evaluation\'s tasks';

/**
 * The families an evaluation runs for a --tasks spec, given the checkout's task names: a set
 * (set56, all, oracle) runs its tasks that the checkout has and an agent can solve through the
 * observation, and lists the others with the reason; names (with or without `miniwob.`) run as
 * named, unsolvable or not, and must be task pages of the checkout.
 */
export function selectMiniwobTasks(spec: string, checkout: readonly string[]): { families: string[]; notRun: NotRun[] } {
  const has = new Set(checkout);
  const set = spec.trim() === '' ? 'set56' : spec.trim();
  if ((MINIWOB_TASK_SETS as readonly string[]).includes(set)) {
    const candidates = set === 'set56' ? [...GUR56_TASKS] : set === 'all' ? [...checkout] : checkout.filter(hasMiniwobOracle);
    const families: string[] = [];
    const notRun: NotRun[] = [];
    for (const task of candidates) {
      const why = !has.has(task) ? NOT_IN_CHECKOUT : whyUnrepresentable(task);
      if (why) notRun.push({ task, reason: why });
      else families.push(MINIWOB_PREFIX + task);
    }
    if (!families.length) throw new Error(`--tasks ${set}: none of its tasks is in the checkout (${checkout.length} task pages there)`);
    return { families, notRun };
  }
  const names = set.split(',').map((s) => s.trim()).filter(Boolean).map((n) => (n.startsWith(MINIWOB_PREFIX) ? n.slice(MINIWOB_PREFIX.length) : n));
  for (const n of names) {
    if (!has.has(n)) throw new Error(`--tasks: no MiniWoB++ task "${n}" in the checkout (a set: ${MINIWOB_TASK_SETS.join(', ')}; or task names: ${checkout.slice(0, 8).join(', ')}${checkout.length > 8 ? ', ...' : ''})`);
  }
  return { families: [...new Set(names)].map((n) => MINIWOB_PREFIX + n), notRun: [] };
}

export interface MiniwobMeans {
  /** The 56-task set of Gur et al.: mean per-task success over all 56, a task not run counting 0. */
  set56: { tasks: number; run: number; mean: number; notRun: NotRun[] };
  /** Mean per-task success over the MiniWoB++ tasks this evaluation ran. */
  run: { tasks: number; mean: number };
}

/**
 * The means of a report whose byFamily holds MiniWoB++ tasks (`miniwob.<task>`), or null when it
 * holds none; `checkout` (the task names served) tells a task missing from the checkout from one
 * not asked for.
 */
export function miniwobMeans(byFamily: Record<string, { success: Rate }>, checkout: readonly string[]): MiniwobMeans | null {
  const rates = new Map<string, number>();
  for (const [family, g] of Object.entries(byFamily)) {
    if (family.startsWith(MINIWOB_PREFIX) && g.success.value !== null) rates.set(family.slice(MINIWOB_PREFIX.length), g.success.value);
  }
  if (!rates.size) return null;
  const has = new Set(checkout);
  const notRun = GUR56_TASKS.filter((t) => !rates.has(t)).map((task) => ({
    task, reason: !has.has(task) ? NOT_IN_CHECKOUT : whyUnrepresentable(task) ?? NOT_ASKED,
  }));
  const sum56 = GUR56_TASKS.reduce((s, t) => s + (rates.get(t) ?? 0), 0);
  const all = [...rates.values()];
  return {
    set56: { tasks: GUR56_TASKS.length, run: GUR56_TASKS.length - notRun.length, mean: sum56 / GUR56_TASKS.length, notRun },
    run: { tasks: all.length, mean: all.reduce((a, b) => a + b, 0) / all.length },
  };
}

/** Tasks not run, grouped by their reason (one line per reason in a printed report). */
export function notRunByReason(notRun: readonly NotRun[]): Array<{ reason: string; tasks: string[] }> {
  const by = new Map<string, string[]>();
  for (const n of notRun) by.set(n.reason, [...(by.get(n.reason) ?? []), n.task]);
  return [...by].map(([reason, tasks]) => ({ reason, tasks }));
}
