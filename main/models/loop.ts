/**
 * The training loop every trainer runs (language models ./train.ts, SFT and SAT tuning of a policy,
 * Salvage-DS), in one place, as nanoGPT's train.py reads top to bottom:
 *
 *   while not done and not asked to stop:
 *     do one step (an optimizer step, or one RL iteration)
 *     evaluate      every `evalEvery` steps and at the last one
 *     record        (a log line, a progress event: before the checkpoint, so a run resumed
 *                    from it keeps every line up to its step)
 *     checkpoint    every `checkpointEvery` steps
 *   checkpoint once more (a stopped run resumes from where it stopped)
 *
 * What a step is, what is evaluated and what a checkpoint holds is the trainer's; the schedule,
 * the stop, resumption from `from` and the timing are the loop's.
 */

export interface LoopSpec<R> {
  /** Steps already done (a resumed run's position), and the total to reach. */
  from: number;
  steps: number;
  /** Asked between steps; true ends the loop early (the run counts as cancelled). */
  shouldStop?: () => boolean;
  /** One step; `index` counts from 0 over the whole run (a resumed run goes on counting). */
  step(index: number): R | Promise<R>;
  /** With `evaluate`: every this many steps (0 or absent: only after the last step), and always after the last. */
  evalEvery?: number;
  evaluate?(): number;
  /** What a finished step leaves behind (a log line, a progress event). */
  record?(step: FinishedStep<R>): void;
  checkpointEvery: number;
  checkpoint(done: number): Promise<void>;
}

export interface FinishedStep<R> {
  /** Steps done now, counting those before a resume. */
  done: number;
  /** What the step returned. */
  out: R;
  /** Whether this step evaluated, and the latest evaluation (null before the first). */
  evaluated: boolean;
  valLoss: number | null;
  /** Seconds this process has spent in the loop so far. */
  elapsedS: number;
}

export interface LoopResult {
  /** Steps done in all, counting those before a resume. */
  done: number;
  cancelled: boolean;
  /** Seconds this process spent in the loop (the final checkpoint included). */
  elapsedS: number;
  /** The latest evaluation, if any ran. */
  valLoss: number | null;
}

export async function runTrainingLoop<R>(spec: LoopSpec<R>): Promise<LoopResult> {
  const t0 = performance.now();
  let done = spec.from;
  let cancelled = false;
  let valLoss: number | null = null;
  while (done < spec.steps) {
    if (spec.shouldStop?.()) {
      cancelled = true;
      break;
    }
    const out = await spec.step(done);
    done++;
    const evaluated = !!spec.evaluate && ((!!spec.evalEvery && done % spec.evalEvery === 0) || done === spec.steps);
    if (evaluated) valLoss = spec.evaluate!();
    spec.record?.({ done, out, evaluated, valLoss, elapsedS: (performance.now() - t0) / 1000 });
    if (done % spec.checkpointEvery === 0) await spec.checkpoint(done);
  }
  await spec.checkpoint(done);
  return { done, cancelled, elapsedS: (performance.now() - t0) / 1000, valLoss };
}
