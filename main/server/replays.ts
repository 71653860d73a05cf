/**
 * The app's episode replays: a recorded episode's actions run again in a fresh environment, as a
 * whole or one step per request (the viewer's "next"), with an event per step and cancel.
 */
import { randomBytes } from 'node:crypto';
import { BrowserEnv } from '../environment/environment.ts';
import type { LabStore } from '../store/lab.ts';
import { recordedEnvOptions, replayEpisode } from '../collection/replay.ts';
import type { Emit, Runtime } from './lab-parts.ts';


interface ReplayRun {
  controller: AbortController;
  /** Step mode: each `next` releases one step (credits count the ones asked for ahead). */
  gate: { release: (() => void) | null; credits: number };
}

export class ReplaysLab {
  private running = new Map<string, ReplayRun>();

  constructor(private readonly deps: { store: LabStore; runtime: Runtime; emit: Emit }) {}

  async start(episodeId: string, mode: 'run' | 'step'): Promise<{ replayId: string }> {
    const { header } = this.deps.store.readEpisode(episodeId); // fail now, with the file named, if it is unreadable
    const envOptions = { screenshots: true, ...recordedEnvOptions(header) };
    const replayId = randomBytes(6).toString('hex');
    const run: ReplayRun = { controller: new AbortController(), gate: { release: null, credits: 0 } };
    this.running.set(replayId, run);
    const { host, server } = await this.deps.runtime();
    const env = new BrowserEnv(host, envOptions);
    const beforeStep = mode === 'step'
      ? () => new Promise<void>((resolve) => {
        if (run.gate.credits > 0) {
          run.gate.credits--;
          resolve();
        } else run.gate.release = resolve;
      })
      : undefined;
    replayEpisode({ env, server, store: this.deps.store }, episodeId, {
      signal: run.controller.signal,
      beforeStep,
      onStep: (step) => this.deps.emit('replayStep', { replayId, step }),
    })
      .then(
        (report) => this.deps.emit('replayDone', { replayId, report }),
        (err: unknown) => this.deps.emit('replayDone', { replayId, report: null, error: (err as Error).message }),
      )
      .finally(() => {
        this.running.delete(replayId);
        void env.close();
      });
    return { replayId };
  }

  next(replayId: string): void {
    const run = this.running.get(replayId);
    if (!run) throw new Error(`no replay ${replayId} is running`);
    if (run.gate.release) {
      const release = run.gate.release;
      run.gate.release = null;
      release();
    } else run.gate.credits++;
  }

  cancel(replayId: string): void {
    const run = this.running.get(replayId);
    if (!run) return;
    run.controller.abort();
    run.gate.release?.();
  }

  close(): void {
    for (const id of this.running.keys()) this.cancel(id);
  }
}
