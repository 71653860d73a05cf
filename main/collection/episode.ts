/**
 * One episode: a fresh task instance, a fresh page, an agent acting until it is done or out of
 * steps; every step is written to the lab as it happens, the checker judges the end. A task whose
 * goal is a page state also ends the moment the checker passes (as BrowserGym's validate).
 */
import { rmSync } from 'node:fs';
import type { StepTiming } from '../environment/types.ts';
import { AgentUnavailableError, type Agent, type AgentTurn } from '../tasks/agent.ts';
import type { BrowserEnv } from '../environment/environment.ts';
import { BrowserLostError, NoBrowserLeftError } from '../environment/browser-lost.ts';
import type { Observation } from '../environment/types.ts';
import { parseAction } from '../environment/actions.ts';
import type { TaskInstance, TaskServer } from '../tasks/server.ts';
import type { Tier } from '../tasks/types.ts';
import type { LabStore } from '../store/lab.ts';
import type { EndRecord, EpisodeHeader, ObservationRecord, ProvenanceRecord } from '../store/schema.ts';

export interface EpisodeRequest {
  family: string;
  seed: number;
  tier?: Tier;
  /** The agent, or a factory for agents that need the instance (the oracle). */
  agent: Agent | ((instance: TaskInstance) => Agent);
  maxSteps?: number;
  /** Agent config recorded in the header (model, temperature, rates...). */
  agentConfig?: Record<string, unknown>;
  links?: EpisodeHeader['links'];
  /** This episode's place in its run (attempt, arm); added to the deps' provenance. */
  provenance?: ProvenanceRecord;
}

export interface EpisodeOutcome {
  id: string;
  path: string;
  success: boolean;
  reason: EndRecord['reason'];
  steps: number;
  keyPoints: EndRecord['keyPoints'];
  messages: string[];
  durationMs: number;
  /** The page's own reward (MiniWoB++). */
  reward?: EndRecord['reward'];
  /** Who decided success: absent for the site's checker; 'judge' means undecided until `lab judge`. */
  checker?: TaskInstance['spec']['checker'];
  /** Totals of the agent's language-model calls, for agents that make them. */
  llm?: LlmTotals;
}

export interface LlmTotals {
  calls: number;
  malformed: number;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
}

export interface EpisodeDeps {
  env: BrowserEnv;
  server: TaskServer;
  store: LabStore;
  browserKind: string;
  onStep?: (index: number, turn: AgentTurn, error: string | null) => void;
  /** The environment's timing of each step (benchmarks). */
  onTiming?: (timing: StepTiming) => void;
  signal?: AbortSignal;
  /**
   * End a page-state goal as soon as the checker passes after a step (reason 'goal_reached').
   * Default true; false reproduces the older episodes, which ran until the agent stopped.
   */
  endOnGoal?: boolean;
  /** What every episode made with these deps belongs to (run, evaluation, experiment), recorded in the header. */
  provenance?: ProvenanceRecord;
}

export async function runEpisode(deps: EpisodeDeps, req: EpisodeRequest): Promise<EpisodeOutcome> {
  const { env, server, store } = deps;
  const endOnGoal = deps.endOnGoal ?? true;
  const started = performance.now();
  const instance = server.createInstance(req.family, req.seed, { tier: req.tier, maxSteps: req.maxSteps });
  const { spec, ctx, family } = instance;
  const agent = typeof req.agent === 'function' ? req.agent(instance) : req.agent;
  const split = inRange(spec.seed, family.seeds.train) ? 'train' : inRange(spec.seed, family.seeds.test) ? 'test' : 'other';
  const start = () => env.reset({ instruction: spec.instruction, startUrl: spec.startUrl, allowedOrigins: spec.allowedOrigins });
  // A page that writes its own instruction (MiniWoB++) is opened first, so the header records it.
  let opened: Observation | undefined;
  if (family.pageInstruction) {
    try {
      opened = await start();
      const instruction = family.pageInstruction(ctx);
      if (instruction) {
        spec.instruction = instruction;
        opened = { ...opened, instruction };
        env.setInstruction(instruction);
      }
    } catch (err) {
      server.releaseInstance(ctx.id);
      const lost = env.lostBrowser();
      throw lost && !(err instanceof BrowserLostError) ? new BrowserLostError(lost.endpoint, lost.reason) : err;
    }
  }
  const writer = store.createEpisode({
    task: {
      family: spec.family,
      seed: spec.seed,
      tier: spec.tier,
      instruction: spec.instruction,
      startUrl: spec.startUrl,
      split,
      ...(spec.checker ? { checker: spec.checker } : {}),
      goalKind: spec.goalKind,
      ...(spec.source ? { source: spec.source } : {}),
      ...(spec.harness ? { harness: spec.harness } : {}),
    },
    agent: { name: agent.name, ...(req.agentConfig ? { config: req.agentConfig } : {}) },
    env: {
      viewport: env.options.viewport,
      screenshots: env.options.screenshots,
      browser: deps.browserKind,
      endOnGoal,
      ...(env.sandbox ? { sandbox: env.sandbox } : {}),
      actionSets: [...env.options.actionSets],
      textLayout: env.options.textLayout,
    },
    links: req.links ?? {},
    ...provenanceField(deps.provenance, req.provenance),
  });
  // The browser under the page went away: what the episode saw since is the browser's fault, not the agent's.
  const checkBrowser = () => {
    const lost = env.lostBrowser();
    if (lost) throw new BrowserLostError(lost.endpoint, lost.reason, writer.id);
  };
  try {
    let observation = opened ?? (await start());
    checkBrowser();
    await agent.reset(spec, { actionSets: env.options.actionSets, viewport: env.options.viewport });
    const history: AgentTurn[] = [];
    let reason: EndRecord['reason'] = 'max_steps';
    // Kept apart from the agent's messages: the checker reads those as answers.
    let agentError: string | undefined;
    let llm: LlmTotals | undefined;
    for (let i = 0; i < spec.maxSteps; i++) {
      if (deps.signal?.aborted) {
        reason = 'cancelled';
        break;
      }
      const tAgent = performance.now();
      let turn: AgentTurn;
      try {
        turn = await agent.act(observation, history);
      } catch (err) {
        if (deps.signal?.aborted) {
          reason = 'cancelled';
          break;
        }
        if (err instanceof AgentUnavailableError) throw err;
        reason = 'agent_error';
        agentError = (err as Error).message;
        break;
      }
      const agentMs = Math.round(performance.now() - tAgent);
      // The page may have ended its own episode while the agent thought (MiniWoB++'s time limit):
      // that is how the episode ended, not a step taken on a page that was over.
      if (family.isDone?.(ctx)) {
        reason = 'checker';
        break;
      }
      const result = await env.step(turn.action);
      checkBrowser();
      recordAnswer(ctx, turn.action, result.error === null);
      writer.step({
        observation: toRecord(store, observation),
        ...(turn.thought ? { thought: turn.thought } : {}),
        action: turn.action,
        error: result.error,
        timing: { agentMs, ...result.timing },
        ...(turn.llm ? { llm: turn.llm } : {}),
        ...(turn.io ? { io: turn.io } : {}),
        activity: result.activity,
      });
      if (turn.llm) {
        llm ??= { calls: 0, malformed: 0, promptTokens: 0, completionTokens: 0, latencyMs: 0 };
        llm.calls++;
        llm.malformed += turn.llm.malformed !== undefined ? 1 : 0;
        llm.promptTokens += turn.llm.promptTokens;
        llm.completionTokens += turn.llm.completionTokens;
        llm.latencyMs += Math.round(turn.llm.latencyMs);
      }
      deps.onTiming?.(result.timing);
      deps.onStep?.(i, turn, result.error?.code ?? null);
      history.push(turn);
      observation = result.observation;
      if (result.done) {
        reason = result.error?.code === 'renderer_crashed' ? 'page_lost' : 'checker';
        break;
      }
      if (family.isDone?.(ctx)) {
        reason = 'checker';
        break;
      }
      // The checker reads the instance's state in-process (a few microseconds). An answer goal
      // never ends here: its checker reads the agent's message, which ended the episode above.
      if (endOnGoal && spec.goalKind === 'state' && family.check(ctx).success) {
        reason = 'goal_reached';
        break;
      }
    }
    checkBrowser();
    const verdict = family.check(ctx);
    const durationMs = Math.round(performance.now() - started);
    writer.end({
      success: verdict.success,
      reason,
      keyPoints: verdict.keyPoints,
      messages: [...ctx.agentMessages],
      ...(ctx.reportedInfeasible !== undefined ? { infeasible: ctx.reportedInfeasible } : {}),
      ...(agentError !== undefined ? { agentError } : {}),
      ...(verdict.reward ? { reward: verdict.reward } : {}),
      finalObservation: toRecord(store, observation),
      durationMs,
    });
    return {
      id: writer.id,
      path: writer.path,
      success: verdict.success,
      reason,
      steps: writer.steps,
      keyPoints: verdict.keyPoints,
      messages: [...ctx.agentMessages],
      durationMs,
      ...(llm ? { llm } : {}),
      ...(verdict.reward ? { reward: verdict.reward } : {}),
      ...(spec.checker ? { checker: spec.checker } : {}),
    };
  } catch (err) {
    writer.abandon();
    const lost = err instanceof BrowserLostError ? err : env.lostBrowser();
    // An outage (of the model's endpoint or of the browser) is not part of the episode: leave no
    // half episode behind, for a rerun or a resumed run to duplicate.
    if (err instanceof AgentUnavailableError || err instanceof NoBrowserLeftError || lost) rmSync(writer.path, { force: true });
    if (lost && !(err instanceof BrowserLostError) && !(err instanceof AgentUnavailableError)) throw new BrowserLostError(lost.endpoint, lost.reason, writer.id);
    throw err;
  } finally {
    server.releaseInstance(ctx.id);
  }
}

/** Answers and infeasibility reports reach the checker through the instance. */
export function recordAnswer(ctx: { agentMessages: string[]; reportedInfeasible?: string }, actionText: string, ok: boolean): void {
  if (!ok) return;
  try {
    const action = parseAction(actionText);
    if (action.type === 'send_msg_to_user') ctx.agentMessages.push(action.text);
    if (action.type === 'report_infeasible') ctx.reportedInfeasible = action.reason;
  } catch {
    // Malformed actions were already recorded as the step's error.
  }
}

function toRecord(store: LabStore, o: Observation): ObservationRecord {
  return {
    url: o.url,
    title: o.title,
    elements: o.elements,
    screenshot: o.screenshot ? store.blobs.put(o.screenshot.png) : null,
    lastActionError: o.lastActionError,
  };
}

/** The header's provenance: the deps' context with the request's own fields over it; none when both are empty. */
function provenanceField(context: ProvenanceRecord | undefined, own: ProvenanceRecord | undefined): { provenance?: ProvenanceRecord } {
  const merged = Object.fromEntries(Object.entries({ ...context, ...own }).filter(([, v]) => v !== undefined)) as ProvenanceRecord;
  return Object.keys(merged).length ? { provenance: merged } : {};
}

function inRange(seed: number, r: { from: number; to: number }): boolean {
  return seed >= r.from && seed < r.to;
}
