/**
 * The LLM reflector: a language model behind the OpenAI-compatible endpoint reads a compact trace
 * of the failed attempt and writes a short diagnosis for the next attempt.
 *
 * The prose is the model's; the machine-readable part is not left to it. The rule reflector runs
 * on the same trace, and its hints (mistake kinds, unmet key points, errors, revisits) become the
 * reflection's `hints` and its closing `Avoid:` and `Unmet:` lines, so scripted agents (the noisy
 * expert) act on an LLM reflection exactly as on a rule one. Its findings are also shown to the
 * model as notes from automatic checks, which small models need and large ones can weigh.
 *
 * An endpoint that stays unreachable (or refuses the key or model name) makes `reflect` throw: the
 * reflection is not saved and the run stops, so a resumed run asks again instead of retrying
 * without one. A request the endpoint refuses for itself (a 400, e.g. a trace too long for its
 * context) would be refused again on resume, so the rule reflection stands in, marked as such
 * (reflector "llm-fallback-rules").
 */
import type { EpisodeData } from '../store/lab.ts';
import { ChatEndpoint, EndpointError, type ChatMessage, type ChatResult, type EndpointOptions } from '../llm/client.ts';
import { reflectionSchema, RuleReflector, type Reflection, type Reflector } from './reflect.ts';

export interface LlmReflectorOptions {
  endpoint: EndpointOptions;
  temperature?: number;
  maxTokens?: number;
  /** Steps of the trace shown to the model (the last ones; older ones are counted). Default 30. */
  maxSteps?: number;
  signal?: AbortSignal;
}

/** Statuses that say the endpoint is misconfigured rather than this request being bad. */
const CONFIG_STATUS = new Set([401, 403, 404]);

/** Longest diagnosis kept; a model that runs on is cut here. */
const MAX_DIAGNOSIS_CHARS = 1200;

export const REFLECTOR_SYSTEM_PROMPT = [
  'You review a failed attempt of a web agent at a task and write a short reflection for its next attempt.',
  'Say in at most four sentences what went wrong and what to do differently, naming elements, text and steps concretely.',
  'Write only the reflection, no preamble.',
].join('\n');

const clip = (s: string, n: number) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length <= n ? flat : `${flat.slice(0, n - 1)}…`;
};

/** The failed attempt as a few lines of text: outcome, key points, each step with its error. */
export function compactTrace(episode: EpisodeData, maxSteps = 30): string {
  const { header, steps, end } = episode;
  const lines = [`Task: ${header.task.instruction}`, `Start page: ${header.task.startUrl}`];
  if (end) {
    lines.push(`Outcome: failed (${end.reason === 'checker' ? 'the checker rejected the result' : end.reason.replace('_', ' ')}) after ${steps.length} steps.`);
    const met = end.keyPoints.filter((k) => k.met).map((k) => k.name);
    const unmet = end.keyPoints.filter((k) => !k.met).map((k) => k.name);
    if (met.length) lines.push(`Achieved: ${met.join('; ')}`);
    if (unmet.length) lines.push(`Not achieved: ${unmet.join('; ')}`);
    if (end.messages.length) lines.push(`Answers sent to the user: ${end.messages.map((m) => JSON.stringify(clip(m, 200))).join(', ')}`);
    if (end.agentError) lines.push(`The agent stopped: ${clip(end.agentError, 200)}`);
  } else lines.push(`Outcome: the attempt did not finish (${steps.length} steps recorded).`);
  lines.push('Steps:');
  const shown = steps.slice(-maxSteps);
  if (steps.length > shown.length) lines.push(`(${steps.length - shown.length} earlier steps not shown)`);
  for (const s of shown) {
    const title = clip(s.observation.title || s.observation.url, 80);
    const thought = s.thought ? ` (thought: ${clip(s.thought, 160)})` : '';
    lines.push(`${s.index}. on "${title}": ${clip(s.action, 160)}${thought}${s.error ? ` -> error ${s.error.code}: ${clip(s.error.message, 160)}` : ''}`);
  }
  if (end) lines.push(`Final page: ${clip(end.finalObservation.title || end.finalObservation.url, 80)} (${end.finalObservation.url})`);
  return lines.join('\n');
}

export class LlmReflector implements Reflector {
  readonly name = 'llm';
  private readonly client: ChatEndpoint;
  private readonly rules = new RuleReflector();

  constructor(private readonly options: LlmReflectorOptions) {
    this.client = new ChatEndpoint(options.endpoint);
  }

  /** The chat messages sent for one failed episode (exposed for tests and for reading). */
  messages(episode: EpisodeData, ruleFindings: readonly string[]): ChatMessage[] {
    const user = [compactTrace(episode, this.options.maxSteps)];
    if (ruleFindings.length) user.push('', 'Notes from automatic checks:', ...ruleFindings.map((l) => `- ${l.trim()}`));
    user.push('', 'Write the reflection for the next attempt.');
    return [
      { role: 'system', content: REFLECTOR_SYSTEM_PROMPT },
      { role: 'user', content: user.join('\n') },
    ];
  }

  async reflect(episode: EpisodeData): Promise<Reflection> {
    const base = await this.rules.reflect(episode);
    const machine = base.text.split('\n').filter((l) => /^(Avoid|Unmet):/.test(l));
    // The rule text's first line restates the outcome, which the trace already says.
    const findings = base.text.split('\n').slice(1).filter((l) => l.trim() && !/^(Avoid|Unmet):/.test(l));
    let result: ChatResult;
    try {
      result = await this.client.chat({
        messages: this.messages(episode, findings),
        temperature: this.options.temperature ?? 0,
        maxTokens: this.options.maxTokens ?? 256,
        signal: this.options.signal,
      });
    } catch (err) {
      if (err instanceof EndpointError && !err.retryable && err.status !== null && !CONFIG_STATUS.has(err.status)) {
        return reflectionSchema.parse({ ...base, reflector: 'llm-fallback-rules', text: `${base.text.split('\n')[0]} (the endpoint refused the reflection request: ${err.message})\n${base.text.split('\n').slice(1).join('\n')}` });
      }
      throw err;
    }
    let diagnosis = result.text.trim();
    if (diagnosis.length > MAX_DIAGNOSIS_CHARS) diagnosis = `${diagnosis.slice(0, MAX_DIAGNOSIS_CHARS - 1)}…`;
    // Lines the model wrote that look like the machine-readable ones would be read as hints.
    diagnosis = diagnosis.split('\n').filter((l) => !/^(Avoid|Unmet):/.test(l)).join('\n').trim();
    const text = [diagnosis || base.text.split('\n')[0], ...machine].join('\n');
    return reflectionSchema.parse({
      ...base,
      reflector: this.name,
      createdAt: new Date().toISOString(),
      text,
      llm: { model: result.model, promptTokens: result.usage.promptTokens, completionTokens: result.usage.completionTokens, latencyMs: Math.round(result.latencyMs), attempts: result.attempts },
    });
  }
}
