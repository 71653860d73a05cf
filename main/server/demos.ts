/**
 * The app's demonstrations: a person acts in a live page (from the start of a task, or after a
 * fork's replayed prefix), each input checked and recorded as a step, frames and steps streamed.
 */
import { randomBytes } from 'node:crypto';
import type { DemoStart } from '../../preload/views.ts';
import { BrowserEnv } from '../environment/environment.ts';
import type { TaskFamily } from '../tasks/types.ts';
import type { LabStore } from '../store/lab.ts';
import { DemoSession, humanInputSchema, type HumanInput } from '../collection/demonstration.ts';
import type { ForkPlan } from '../collection/fork.ts';
import { fieldIssue } from '../store/schema-error.ts';
import type { Emit, Runtime } from './lab-parts.ts';


export class DemosLab {
  private running = new Map<string, DemoSession>();

  constructor(private readonly deps: { store: LabStore; families: Map<string, TaskFamily>; runtime: Runtime; emit: Emit }) {}

  async start(family: string, seed: number): Promise<DemoStart> {
    const f = this.deps.families.get(family);
    if (!f) throw new Error(`unknown task family "${family}"`);
    if (!Number.isInteger(seed) || seed < 0) throw new Error(`seed must be a non-negative integer, got ${seed}`);
    return this.open({ family: f.name, seed });
  }

  /** A demonstration from a step of a recorded episode: its prefix replayed first (the fork's plan). */
  async startFork(fork: ForkPlan): Promise<DemoStart> {
    const task = fork.parent.header.task;
    return this.open({ family: task.family, seed: task.seed, fork });
  }

  async input(demoId: string, input: HumanInput) {
    const demo = this.running.get(demoId);
    if (!demo) throw new Error(`no demonstration ${demoId} is running`);
    const parsed = humanInputSchema.safeParse(input);
    if (!parsed.success) throw new Error(`bad demonstration input: ${fieldIssue(parsed.error, 'input')}`);
    return { ...(await demo.input(parsed.data)), elements: [...demo.elements] };
  }

  async cancel(demoId: string): Promise<void> {
    await this.running.get(demoId)?.cancel();
  }

  async close(): Promise<void> {
    for (const id of this.running.keys()) await this.cancel(id);
  }

  /** A live demonstration, registered for input and cancel until it ends. */
  private async open(request: { family: string; seed: number; fork?: ForkPlan }): Promise<DemoStart> {
    const { host, server } = await this.deps.runtime();
    // No marks drawn into the page: the person watches it live (the viewer draws boxes itself).
    const env = new BrowserEnv(host, { screenshots: true, marks: false, ...request.fork?.envOptions });
    const demoId = randomBytes(6).toString('hex');
    const demo = new DemoSession({ env, server, store: this.deps.store, browserKind: host.kind }, request, {
      frame: (frame) => this.deps.emit('demoFrame', { demoId, ...frame }),
      step: (step) => this.deps.emit('demoStep', { demoId, ...step }),
      done: (outcome, error) => {
        this.running.delete(demoId);
        void env.close();
        this.deps.emit('demoDone', { demoId, outcome, ...(error ? { error } : {}) });
      },
    });
    this.running.set(demoId, demo);
    await demo.started;
    const spec = demo.spec!;
    return {
      demoId,
      family: spec.family,
      seed: spec.seed,
      tier: spec.tier,
      instruction: spec.instruction,
      viewport: env.options.viewport,
      elements: [...env.elements],
      ...(request.fork ? { forkOf: { episodeId: request.fork.parent.header.id, step: request.fork.step } } : {}),
      steps: [...demo.steps],
    };
  }
}
