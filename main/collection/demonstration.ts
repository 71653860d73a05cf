/**
 * Human demonstration: a person acts on the live page and the workbench records each click and
 * entry as an action on an element id, through the same environment as an agent, so the result
 * is an episode like an agent's. The person is an Agent whose act() waits for their next input.
 */
import type { Agent, AgentTurn } from '../tasks/agent.ts';
import type { BrowserEnv } from '../environment/environment.ts';
import type { Observation, PageElement } from '../environment/types.ts';
import { formatAction, parseAction, type Action } from '../environment/actions.ts';
import type { TaskServer } from '../tasks/server.ts';
import type { TaskSpec } from '../tasks/types.ts';
import type { LabStore } from '../store/lab.ts';
import { runEpisode, type EpisodeOutcome, type EpisodeRequest } from './episode.ts';
import { forkRequest, type ForkPlan } from './fork.ts';
import type { TaskInstance } from '../tasks/server.ts';
import { humanInputSchema, type HumanInput } from './demonstration-input.ts';

export { humanInputSchema, type HumanInput };

export interface InputOutcome {
  /** The recorded action, or null when the input needs a choice first (a <select>). */
  action: string | null;
  /** For a click on a <select>: pick one of these next. */
  choose?: { id: string; name: string; options: string[] };
  error?: string;
}

/**
 * Finds the listed element under a point: the page's own hit test, walked up to the nearest
 * element the observation lists, so the action names exactly what the person clicked.
 */
export async function elementAtPoint(env: BrowserEnv, x: number, y: number): Promise<PageElement | null> {
  const listed = new Map(env.elements.filter((e) => e.role !== 'text').map((e) => [e.id, e]));
  const r = await env.session.send('Runtime.evaluate', {
    expression: `(() => { const ids = []; for (let el = document.elementFromPoint(${x}, ${y}); el; el = el.parentElement) { const id = el.getAttribute('data-lab-id'); if (id) ids.push(id); } return ids; })()`,
    returnByValue: true,
  });
  for (const id of r.result.value ?? []) {
    const el = listed.get(id);
    if (el) return el;
  }
  return null;
}

export class HumanAgent implements Agent {
  readonly name = 'human';
  private waiting: ((turn: AgentTurn) => void) | null = null;
  private giveUp: ((err: Error) => void) | null = null;
  private focused: string | null = null;

  /** onTurn: the episode waits for the person's next input (the first time: the page is theirs). */
  constructor(private onTurn: () => void = () => {}) {}

  reset(): void {
    this.focused = null;
  }

  act(_observation: Observation): Promise<AgentTurn> {
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.giveUp = reject;
      this.onTurn();
    });
  }

  /** A replayed step (a fork's prefix): typing goes to the field it acted on, as after the person's own click. */
  observe(_observation: Observation, turn: AgentTurn): void {
    try {
      const action = parseAction(turn.action);
      if (action.type === 'click' || action.type === 'fill' || action.type === 'press') this.focused = action.id;
    } catch {
      // A malformed recorded action focuses nothing.
    }
  }

  /** The person left: the episode loop stops waiting for them. */
  abort(): void {
    this.giveUp?.(new Error('the demonstration was cancelled'));
    this.waiting = this.giveUp = null;
  }

  get ready(): boolean {
    return this.waiting !== null;
  }

  /** Turn one input into an action and hand it to the episode loop. */
  async input(env: BrowserEnv, input: HumanInput): Promise<InputOutcome> {
    if (!this.waiting) return { action: null, error: 'the previous action is still running' };
    let action: Action;
    switch (input.kind) {
      case 'click': {
        const el = await elementAtPoint(env, input.x, input.y);
        if (!el) return { action: null, error: 'nothing the agent could act on is at that point' };
        if (el.role === 'combobox' && el.options?.length) return { action: null, choose: { id: el.id, name: el.name, options: el.options } };
        this.focused = el.id;
        action = { type: 'click', id: el.id, button: 'left' };
        break;
      }
      case 'type':
        if (!this.focused) return { action: null, error: 'click a field first, then type' };
        action = { type: 'fill', id: this.focused, text: input.text };
        break;
      case 'select':
        action = { type: 'select_option', id: input.id, options: [input.option] };
        break;
      case 'key':
        action = this.focused ? { type: 'press', id: this.focused, key: input.key } : { type: 'keyboard_press', key: input.key };
        break;
      case 'scroll':
        action = { type: 'scroll', dx: 0, dy: input.dy };
        break;
      case 'back':
        action = { type: 'go_back' };
        break;
      case 'finish':
        action = { type: 'send_msg_to_user', text: input.answer || 'Done.' };
        break;
    }
    const text = formatAction(action);
    const resolve = this.waiting;
    this.waiting = null;
    resolve({ action: text });
    return { action: text };
  }
}

export interface DemoEvents {
  frame: (frame: { data: string; width: number; height: number }) => void;
  step: (step: { index: number; action: string; error: string | null }) => void;
  done: (outcome: EpisodeOutcome | null, error?: string) => void;
}

/**
 * One live demonstration: a fresh task instance in a fresh page, streamed as a screencast, with
 * the person's inputs recorded as the episode's actions. A fork's demonstration (`fork`) first
 * replays the parent's steps before the fork's step (collection/fork.ts); the page is the
 * person's, and the screencast starts, once that is done.
 */
export class DemoSession {
  readonly agent: HumanAgent;
  private stepDone: ((r: { index: number; action: string; error: string | null }) => void) | null = null;
  private finished: Promise<EpisodeOutcome | null>;
  private controller = new AbortController();
  private failure: string | null = null;
  spec: TaskSpec | null = null;
  /** Every step recorded so far (a fork's replayed prefix before the person's first input). */
  readonly steps: Array<{ index: number; action: string; error: string | null }> = [];

  constructor(
    private deps: { env: BrowserEnv; server: TaskServer; store: LabStore; browserKind: string },
    request: { family: string; seed: number; maxSteps?: number; fork?: ForkPlan },
    private on: DemoEvents,
  ) {
    let ready!: () => void;
    const firstTurn = new Promise<void>((r) => (ready = r));
    this.agent = new HumanAgent(ready);
    const human = (instance: TaskInstance) => {
      this.spec = instance.spec;
      return this.agent;
    };
    const maxSteps = request.maxSteps ?? 50;
    const episode: EpisodeRequest = request.fork
      ? forkRequest(request.fork, human, { maxSteps: Math.max(maxSteps, request.fork.step + 1) })
      : { family: request.family, seed: request.seed, maxSteps, agent: human };
    this.finished = runEpisode(
      {
        ...deps,
        signal: this.controller.signal,
        ...(request.fork ? { endOnGoal: request.fork.endOnGoal } : {}),
        onStep: (index, turn, error) => {
          this.steps.push({ index, action: turn.action, error });
          this.on.step({ index, action: turn.action, error });
          this.stepDone?.({ index, action: turn.action, error });
          this.stepDone = null;
        },
      },
      episode,
    ).then(
      (out) => (this.on.done(out), out),
      (err: Error) => ((this.failure = err.message), this.on.done(null, err.message), null),
    );
    // The episode may end before the person's first turn (a fork whose replay did not reach the step).
    const ended = this.finished.then(() => {
      throw new Error(this.failure ?? 'the demonstration ended before it was your turn');
    });
    this.started = Promise.race([firstTurn, ended]).then(() => this.startScreencast());
    this.started.catch(() => {}); // whoever awaits it gets the error; nobody else must crash on it
  }

  /** Resolves when the page is the person's (the screencast runs); rejects when the episode ended first. */
  readonly started: Promise<void>;

  private async startScreencast(): Promise<void> {
    const session = this.deps.env.session;
    session.onEvent((method, params) => {
      if (method !== 'Page.screencastFrame') return;
      session.send('Page.screencastFrameAck', { sessionId: params.sessionId }).catch(() => {});
      this.on.frame({ data: params.data, width: params.metadata.deviceWidth, height: params.metadata.deviceHeight });
    });
    const { width, height } = this.deps.env.options.viewport;
    await session.send('Page.startScreencast', { format: 'jpeg', quality: 70, maxWidth: width, maxHeight: height });
  }

  /** Apply one input; resolves when its action has run (or with the reason it was not taken). */
  async input(input: HumanInput): Promise<InputOutcome & { stepError?: string | null }> {
    await this.started;
    const stepDone = new Promise<{ index: number; action: string; error: string | null }>((r) => (this.stepDone = r));
    const outcome = await this.agent.input(this.deps.env, input);
    if (!outcome.action) {
      this.stepDone = null;
      return outcome;
    }
    const result = await Promise.race([stepDone, this.finished.then(() => null)]);
    return { ...outcome, stepError: result?.error ?? null };
  }

  /** Stop without finishing: the episode is recorded as cancelled. */
  async cancel(): Promise<void> {
    this.controller.abort();
    this.agent.abort();
    await this.finished;
  }

  /** The live page's element list as of the last step. */
  get elements(): readonly PageElement[] {
    return this.deps.env.elements;
  }

  wait(): Promise<EpisodeOutcome | null> {
    return this.finished;
  }
}
