/**
 * Human demonstration: a person acts on the live page and the workbench records each click and
 * entry as an action on an element id, through the same environment as an agent, so the result
 * is an episode like an agent's. The person is an Agent whose act() waits for their next input.
 */
import type { Agent, AgentTurn } from '../tasks/agent.ts';
import type { BrowserEnv } from '../environment/environment.ts';
import type { Observation, PageElement } from '../environment/types.ts';
import { formatAction, type Action } from '../environment/actions.ts';
import type { TaskServer } from '../tasks/server.ts';
import type { TaskSpec } from '../tasks/types.ts';
import type { LabStore } from '../store/lab.ts';
import { runEpisode, type EpisodeOutcome } from './episode.ts';
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
  const r = await env.session.send<{ result: { value: string[] } }>('Runtime.evaluate', {
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

  constructor(private onReset: () => void = () => {}) {}

  reset(): void {
    this.focused = null;
    this.onReset();
  }

  act(_observation: Observation): Promise<AgentTurn> {
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.giveUp = reject;
    });
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
 * the person's inputs recorded as the episode's actions.
 */
export class DemoSession {
  readonly agent: HumanAgent;
  private stepDone: ((r: { index: number; action: string; error: string | null }) => void) | null = null;
  private finished: Promise<EpisodeOutcome | null>;
  private controller = new AbortController();
  spec: TaskSpec | null = null;

  constructor(
    private deps: { env: BrowserEnv; server: TaskServer; store: LabStore; browserKind: string },
    request: { family: string; seed: number; maxSteps?: number },
    private on: DemoEvents,
  ) {
    let ready!: () => void;
    const started = new Promise<void>((r) => (ready = r));
    this.agent = new HumanAgent(ready);
    this.finished = runEpisode(
      {
        ...deps,
        signal: this.controller.signal,
        onStep: (index, turn, error) => {
          this.on.step({ index, action: turn.action, error });
          this.stepDone?.({ index, action: turn.action, error });
          this.stepDone = null;
        },
      },
      {
        family: request.family,
        seed: request.seed,
        maxSteps: request.maxSteps ?? 50,
        agent: (instance) => {
          this.spec = instance.spec;
          return this.agent;
        },
      },
    ).then(
      (out) => (this.on.done(out), out),
      (err: Error) => (this.on.done(null, err.message), null),
    );
    this.started = started.then(() => this.startScreencast());
  }

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
