/**
 * The OpenAI-compatible chat-completions agent: any model behind vLLM, Ollama, llama.cpp server,
 * a hosted provider or `lab serve` acts in the environment. Each step is one chat call (prompt in
 * endpoint-prompt.ts); the answer's last action line is parsed, the text before it is the thought.
 *
 * Rules, documented in main/collection/README.md:
 * - A malformed output (no parsable action) is not a crash: the step records the model's text as
 *   its action, the environment rejects it as `malformed_action` (the page is untouched, a no-op),
 *   `llm.malformed` says why and `llm.output` keeps the raw text; the model sees the error next
 *   step. After `maxMalformed` malformed outputs in a row the episode ends (reason agent_error).
 * - The endpoint being down is not the agent's failure: the client waits and retries up to
 *   maxWaitMs; if it stays down (or the endpoint refuses the key or the model name), the agent
 *   throws AgentUnavailableError, the episode is discarded and the run stops, to be resumed.
 *   Any other refused request (a 400, e.g. a prompt too long for the server) ends the episode as
 *   an agent_error.
 */
import { extractAction, parseAction } from '../environment/actions.ts';
import type { Observation } from '../environment/types.ts';
import type { TaskSpec } from '../tasks/types.ts';
import { ChatEndpoint, EndpointError, type ChatRequest, type EndpointOptions, type RetryInfo } from '../llm/client.ts';
import { buildEndpointMessages, type EndpointStep } from './endpoint-prompt.ts';
import { AgentUnavailableError, type ActionSpace, type Agent, type AgentTurn } from '../tasks/agent.ts';
import { ENDPOINT_DEFAULTS } from './endpoint-defaults.ts';
import { chatPromptText, stepIo } from './step-io.ts';

/** What a run records about the agent (no key): also what `lab collect` saves in its config. */
export interface EndpointAgentSettings {
  baseUrl: string;
  model: string;
  temperature: number;
  topP?: number;
  maxTokens: number;
  /** Send the set-of-marks screenshot as an image part (for vision models; needs screenshots on). */
  vision: boolean;
  /** OpenAI's image `detail` sent with the screenshot (vision only; unset: not sent). */
  imageDetail?: 'low' | 'high' | 'auto';
  /** Longest side of the screenshot sent, in pixels (the environment captures it at that size; unset: the viewport's). */
  imageMaxSide?: number;
  /** Use the streaming API (same result; some servers answer faster to first token). */
  stream: boolean;
  /** Malformed outputs in a row that end the episode. */
  maxMalformed: number;
  /** How long to wait out an unreachable endpoint before the run stops (ms). */
  maxWaitMs: number;
  timeoutMs?: number;
}

export { ENDPOINT_DEFAULTS } from './endpoint-defaults.ts';

export interface EndpointAgentOptions extends Partial<Omit<EndpointAgentSettings, 'baseUrl' | 'model'>> {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Sampling seed of the attempt; each step derives its own from it. */
  seed?: number;
  reflections?: readonly string[];
  /** Backoff between retries (tests shorten it). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  signal?: AbortSignal;
  onRetry?: (info: RetryInfo) => void;
}

export function endpointSettings(o: EndpointAgentOptions): EndpointAgentSettings {
  return {
    baseUrl: o.baseUrl,
    model: o.model,
    temperature: o.temperature ?? ENDPOINT_DEFAULTS.temperature,
    ...(o.topP !== undefined ? { topP: o.topP } : {}),
    maxTokens: o.maxTokens ?? ENDPOINT_DEFAULTS.maxTokens,
    vision: o.vision ?? ENDPOINT_DEFAULTS.vision,
    ...(o.imageDetail !== undefined ? { imageDetail: o.imageDetail } : {}),
    ...(o.imageMaxSide !== undefined ? { imageMaxSide: o.imageMaxSide } : {}),
    stream: o.stream ?? ENDPOINT_DEFAULTS.stream,
    maxMalformed: o.maxMalformed ?? ENDPOINT_DEFAULTS.maxMalformed,
    maxWaitMs: o.maxWaitMs ?? ENDPOINT_DEFAULTS.maxWaitMs,
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
  };
}

/** Statuses that say the endpoint is misconfigured, not that this step's request was bad. */
const CONFIG_STATUS = new Set([401, 403, 404]);

/** How much of a malformed answer a step keeps (llm.output; llm.outputChars has the whole length). */
const OUTPUT_CHARS = 2000;
/** How much of a thought a step keeps (llm.thoughtChars has the whole length). */
const THOUGHT_CHARS = 2000;
/** The parse error quotes the output; keep it short too. */
const MALFORMED_CHARS = 300;

export class EndpointAgent implements Agent {
  readonly name = 'endpoint';
  readonly settings: EndpointAgentSettings;
  private readonly client: ChatEndpoint;
  private instruction = '';
  private steps: EndpointStep[] = [];
  private malformedInARow = 0;
  private actionSpace: ActionSpace | undefined;

  constructor(private readonly options: EndpointAgentOptions) {
    this.settings = endpointSettings(options);
    const endpoint: EndpointOptions = {
      baseUrl: options.baseUrl,
      model: options.model,
      apiKey: options.apiKey,
      maxWaitMs: this.settings.maxWaitMs,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.baseDelayMs !== undefined ? { baseDelayMs: options.baseDelayMs } : {}),
      ...(options.maxDelayMs !== undefined ? { maxDelayMs: options.maxDelayMs } : {}),
      onRetry: options.onRetry,
    };
    this.client = new ChatEndpoint(endpoint);
  }

  reset(task: TaskSpec, space?: ActionSpace): void {
    this.instruction = task.instruction;
    this.actionSpace = space;
    this.steps = [];
    this.malformedInARow = 0;
  }

  async act(observation: Observation): Promise<AgentTurn> {
    const s = this.settings;
    if (this.malformedInARow >= s.maxMalformed) {
      throw new Error(`${this.malformedInARow} malformed model outputs in a row (limit ${s.maxMalformed}): the episode ends`);
    }
    // The previous action's error is known only now, from the observation it led to.
    if (this.steps.length) this.steps[this.steps.length - 1].error = observation.lastActionError;
    const request: ChatRequest = {
      messages: buildEndpointMessages({ instruction: this.instruction, observation, steps: this.steps, reflections: this.options.reflections ?? [], vision: s.vision, imageDetail: s.imageDetail, actionSpace: this.actionSpace }),
      temperature: s.temperature,
      ...(s.topP !== undefined ? { topP: s.topP } : {}),
      maxTokens: s.maxTokens,
      ...(this.options.seed !== undefined ? { seed: stepSeed(this.options.seed, this.steps.length) } : {}),
      signal: this.options.signal,
    };
    let result;
    try {
      result = s.stream ? await this.client.chatStream(request, () => {}) : await this.client.chat(request);
    } catch (err) {
      if (this.options.signal?.aborted) throw err;
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof EndpointError && (err.retryable || (err.status !== null && CONFIG_STATUS.has(err.status)))) {
        throw new AgentUnavailableError(`the endpoint ${s.baseUrl} is unavailable: ${message}`);
      }
      // A 200 whose body is no chat completion was not refused: say what came back instead.
      if (err instanceof EndpointError && err.badResponse) throw new Error(`the endpoint's answer could not be used: ${message}`);
      throw new Error(`the endpoint refused the request: ${message}`);
    }

    const extracted = extractAction(result.text);
    const { actionText } = extracted;
    // A model can write a megabyte; steps and the next prompts keep a bounded thought, and say how long it was.
    const thought = extracted.thought && clipText(extracted.thought, THOUGHT_CHARS);
    let malformed: string | undefined;
    try {
      parseAction(actionText);
    } catch (err) {
      malformed = (err as Error).message;
    }
    this.malformedInARow = malformed ? this.malformedInARow + 1 : 0;
    const action = malformed ? clipAction(actionText, 200) : actionText;
    const turn: AgentTurn = {
      ...(thought ? { thought } : {}),
      action,
      llm: {
        promptTokens: result.usage.promptTokens,
        completionTokens: result.usage.completionTokens,
        latencyMs: Math.round(result.latencyMs),
        attempts: result.attempts,
        ...(malformed !== undefined ? { malformed: clipText(malformed, MALFORMED_CHARS), output: clipText(result.text, OUTPUT_CHARS) } : {}),
        ...(malformed !== undefined && result.text.length > OUTPUT_CHARS ? { outputChars: result.text.length } : {}),
        ...(extracted.thought && extracted.thought.length > THOUGHT_CHARS ? { thoughtChars: extracted.thought.length } : {}),
      },
      io: stepIo({ prompt: chatPromptText(request.messages), output: result.text, promptTokens: result.usage.promptTokens, outputTokens: result.usage.completionTokens }),
    };
    this.steps.push({ thought, action, error: null });
    return turn;
  }

  /** A turn replayed for the agent (a fork's prefix): the conversation holds it as the model's own step; no request is made. */
  observe(observation: Observation, turn: AgentTurn): void {
    if (this.steps.length) this.steps[this.steps.length - 1].error = observation.lastActionError;
    this.steps.push({ thought: turn.thought && clipText(turn.thought, THOUGHT_CHARS), action: turn.action, error: null });
  }
}

/** A different sampling seed for every step of an attempt, reproducible from the attempt's seed. */
function stepSeed(seed: number, step: number): number {
  return (Math.imul(seed >>> 0, 0x9e3779b1) + step * 0x85ebca6b) >>> 1;
}

/**
 * Malformed output as the step's action, clipped (the start of the text is in llm.output). Whitespace is
 * kept as written: collapsing it could turn text that failed to parse into an action that parses.
 */
function clipAction(text: string, max: number): string {
  return clipText(text, max);
}

function clipText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
