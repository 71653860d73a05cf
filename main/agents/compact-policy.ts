/**
 * The compact policy as an agent: the model family's small transformer reads the compact text of
 * the page (../policy/prompt.ts) and writes a thought line and an action, decoded through the
 * shared decoder (../decode/), so a SAT-tuned policy drafts with SDSAT and runs faster.
 *
 * What it writes is parsed, never trusted: an output with no well-formed action goes to the
 * environment as it is, which records a malformed_action error for the step; the episode goes on.
 */
import type { LoadedModel } from '../models/checkpoint.ts';
import { END_OF_TEXT } from '../models/tokenizer.ts';
import type { DecodeMode, Decoder, GenerateResult, Sampling } from '../decode/types.ts';
import type { PromptCache } from '../decode/prompt-cache.ts';
import type { OutputHistory } from '../decode/output-history.ts';
import type { Observation } from '../environment/types.ts';
import type { TaskSpec } from '../tasks/types.ts';
import { mixSeed } from '../common/rng.ts';
import { parsePolicyOutput } from '../policy/prompt.ts';
import { readPolicySettings, type PolicySettings } from '../policy/settings.ts';
import { encodePrompt } from '../policy/sft-data.ts';
import { ActionGuide, NO_REPEAT_NGRAM, citeLinesFor, promptElements } from '../policy/action-guide.ts';
import type { Agent, AgentTurn } from '../tasks/agent.ts';
import { stepIo } from './step-io.ts';
import { defaultPolicyDecoder } from '../decode/default-mode.ts';

export interface CompactPolicyOptions {
  /** Model folder (model.json, weights.bin, tokenizer.json, policy.json). */
  dir: string;
  /**
   * Decoding: 'ar', 'lookup' or 'lookup-tree' (drafts copied from the prompt), or SDSAT ('sdsat',
   * 'sdsat-one-pass', 'sdsat-tree', 'merged-tree') for a SAT-tuned policy. Default
   * (../decode/default-mode.ts, defaultPolicyDecoder): what the folder's bench-decode.json measured
   * fastest if it ships one; else lookup-tree under greedy decoding, SAT-tuned or not (the same
   * actions as AR, faster: the thought line copies a line of the page, and two earlier lines that
   * start alike are both drafted), and AR under sampling (so sampled rollouts stay the ones AR draws
   * for a seed).
   */
  decode?: DecodeMode;
  /** Drafts per SDSAT loop (default: the k the SATs were trained with). */
  k?: number;
  sampling?: Sampling;
  /** Seed of the sampling stream; each step of each task gets its own stream derived from it. */
  seed?: number;
  /** Most tokens generated per step (default: the policy's reserve). */
  maxNew?: number;
  backend?: string;
  /**
   * Guided decoding (../policy/action-guide.ts): the output must be an action, on an element id the
   * prompt shows. Default true; false decodes freely (malformed outputs then become invalid actions).
   */
  guided?: boolean;
  /**
   * With guidance: no token may repeat an n-gram of this many tokens on the same output line (see
   * ActionGuide); 0 turns it off. Default NO_REPEAT_NGRAM.
   */
  noRepeatNgram?: number;
  /**
   * With guidance: when the page is exactly as it was before the last action, that action may not
   * be written again (it changed nothing; a tiny model repeats it to the step limit). Default false:
   * on 180 test episodes it did not change success (element-thought policy: 7 against 9 solved).
   */
  stallBan?: boolean;
  /**
   * With stallBan: every action that left a page unchanged stays banned on that page for the rest
   * of the episode, not only at the next step (a policy banned from one repeat alternates between
   * two actions that change nothing: "Find a table", "Apply filters").
   */
  stallBanAll?: boolean;
  /**
   * With guidance, for a policy whose policy.json lists messageWords: the words of a message or of
   * typed text must stand in the prompt or in that list (see ActionGuide). Default true.
   */
  messageWords?: boolean;
  /**
   * With guidance, for a policy trained with `answer: 'cite'`: a message written after a cited value
   * (a marked line of the page) must state that value (see ActionGuide). Default true.
   */
  statedValue?: boolean;
  /**
   * Decode every step a second time with this mode (e.g. AR beside SDSAT) on the same prompt,
   * constraint and seed, to measure the two side by side on the same episodes. The action always
   * comes from `decode`; the two take turns going first, so load falls on both alike.
   */
  compareDecode?: DecodeMode;
  /**
   * Prefix caching (../decode/prompt-cache.ts): a step's prefill starts from the KV cache of a
   * recent prompt it begins like (the task line; on an unchanged page, much of the page). Default
   * true. A `compareDecode` decoder never uses it: it is the baseline, prefilling from scratch.
   */
  promptCache?: boolean;
  /**
   * Drafts from the policy's earlier outputs (../decode/output-history.ts) where the prompt holds no
   * continuation: the action's frame after the thought line, the call's closing. Default true;
   * outputs are the same either way. A `compareDecode` decoder never uses it.
   */
  outputHistory?: boolean;
}

/** One decoder's totals over the steps of a side-by-side comparison. */
export interface DecoderTotals {
  mode: DecodeMode;
  newTokens: number;
  decodeMs: number;
  prefillMs: number;
  promptTokens: number;
  /** Prompt tokens taken from the prompt cache rather than prefilled. */
  reusedPromptTokens: number;
  forwardPasses: number;
  drafted: number;
  accepted: number;
  verifySteps: number;
}

export interface DecodeComparison {
  steps: number;
  /** Steps on which both decoders wrote the same tokens. */
  identicalSteps: number;
  primary: DecoderTotals;
  other: DecoderTotals;
  /** Per step: the other decoder's generation time over the primary's (prefill excluded). */
  decodeMsRatio: number[];
  /** Per step: the other decoder's whole step (prefill and generation) over the primary's. */
  stepMsRatio: number[];
}

export { NO_REPEAT_NGRAM } from '../policy/action-guide.ts';

/** What the episode header records about the policy. */
export interface CompactPolicyConfig {
  kind: 'compact-policy';
  dir: string;
  decode: DecodeMode;
  sampling: Sampling;
  guided: boolean;
  /** The guide's no-repeat n-gram; absent in headers written before it existed (none). */
  noRepeatNgram?: number;
  /** Whether an action that left the page unchanged was banned at the next step; absent before it existed (no). */
  stallBan?: boolean;
  /** Whether such an action stayed banned on that page for the rest of the episode; absent before it existed (no). */
  stallBanAll?: boolean;
  /** Whether messages and typed text kept to the prompt's and the policy's words; absent before it existed (no). */
  messageWords?: boolean;
  /** Whether a cite policy's messages stated the value they cited; absent before it existed (no). */
  statedValue?: boolean;
  /** Whether prefills started from the KV cache of a recent prompt; absent before it existed (no). */
  promptCache?: boolean;
  /** Whether copy-drafting decoders also drafted from earlier outputs; absent before it existed (no). */
  outputHistory?: boolean;
  seed: number;
  parameters: number;
  targets: PolicySettings['targets'];
  dataset: PolicySettings['dataset'];
}

interface LoadedPolicy {
  loaded: LoadedModel;
  settings: PolicySettings;
  createDecoder: typeof import('../decode/index.ts').createDecoder;
  /**
   * Shared by every agent on this model: agents live one episode and have no end to free tensors
   * at, and parallel episodes each take the entry their prompt shares most with.
   */
  promptCache: PromptCache;
  /** Earlier outputs of every agent on this model, drafted from (shared, as the prompt cache is). */
  outputHistory: OutputHistory;
}

/** Prompts kept per loaded policy: one per parallel episode, with room. */
const PROMPT_CACHE_ENTRIES = 8;

/** Loaded once per folder and process: parallel environments share one model. */
const cache = new Map<string, Promise<LoadedPolicy>>();

export function loadPolicy(dir: string, backend?: string): Promise<LoadedPolicy> {
  let p = cache.get(dir);
  if (!p) {
    p = (async () => {
      // TF.js and the decoders load here, on first use: collection and the app load this module
      // through the agent registry, and most of them never run a policy.
      const [{ selectBackend }, { isCheckpoint, loadModel }, { createDecoder }, { PromptCache }, { OutputHistory }] = await Promise.all([
        import('../models/backend.ts'), import('../models/checkpoint.ts'), import('../decode/index.ts'), import('../decode/prompt-cache.ts'), import('../decode/output-history.ts'),
      ]);
      if (!isCheckpoint(dir)) throw new Error(`no policy model in ${dir} (train one with \`lab train sft\`)`);
      await selectBackend(backend);
      const loaded = loadModel(dir);
      return { loaded, settings: readPolicySettings(dir, loaded.meta), createDecoder, promptCache: new PromptCache(PROMPT_CACHE_ENTRIES), outputHistory: new OutputHistory() };
    })();
    cache.set(dir, p);
    p.catch(() => cache.delete(dir));
  }
  return p;
}

/** Running totals over every step this agent took (evaluation reports them). */
export interface PolicyStepStats {
  steps: number;
  invalidOutputs: number;
  newTokens: number;
  /** Generating the new tokens; the prompt's prefill is counted apart, so tokens/s means decoding speed. */
  decodeMs: number;
  prefillMs: number;
  promptTokens: number;
  /** Prompt tokens the prompt cache supplied (see CompactPolicyOptions.promptCache). */
  reusedPromptTokens: number;
  forwardPasses: number;
}

export class CompactPolicyAgent implements Agent {
  readonly name = 'policy';
  readonly totals: PolicyStepStats = { steps: 0, invalidOutputs: 0, newTokens: 0, decodeMs: 0, prefillMs: 0, promptTokens: 0, reusedPromptTokens: 0, forwardPasses: 0 };
  private policy: LoadedPolicy | null = null;
  private decoder: Decoder | null = null;
  private otherDecoder: Decoder | null = null;
  /** Filled when options.compareDecode is set. */
  comparison: DecodeComparison | null = null;
  private taskSeed = 0;
  private step = 0;
  /** The page the last step acted on (pageKey), to see whether its action changed anything. */
  private lastPage: string | null = null;
  /** Actions that left each page unchanged in this episode (stallBanAll), by pageKey. */
  private stalledOn = new Map<string, Set<string>>();

  constructor(readonly options: CompactPolicyOptions) {}

  /** Load the model (once) and build the decoder; called by reset, usable before it for the config. */
  async load(): Promise<LoadedPolicy> {
    if (!this.policy) {
      this.policy = await loadPolicy(this.options.dir, this.options.backend);
      const { createDecoder } = this.policy;
      const greedy = (this.options.sampling?.kind ?? 'greedy') === 'greedy';
      const chosen = this.options.decode ? { mode: this.options.decode, k: undefined } : defaultPolicyDecoder(this.options.dir, greedy);
      const mode = chosen.mode;
      this.decoder = createDecoder(this.policy.loaded, mode, this.options.k ?? chosen.k);
      const other = this.options.compareDecode;
      if (other) {
        this.otherDecoder = createDecoder(this.policy.loaded, other, this.options.k);
        const totals = (m: DecodeMode): DecoderTotals => ({ mode: m, newTokens: 0, decodeMs: 0, prefillMs: 0, promptTokens: 0, reusedPromptTokens: 0, forwardPasses: 0, drafted: 0, accepted: 0, verifySteps: 0 });
        this.comparison = { steps: 0, identicalSteps: 0, primary: totals(mode), other: totals(other), decodeMsRatio: [], stepMsRatio: [] };
      }
    }
    return this.policy;
  }

  async config(): Promise<CompactPolicyConfig> {
    const p = await this.load();
    return {
      kind: 'compact-policy', dir: this.options.dir, decode: this.decoder!.mode as DecodeMode, sampling: this.options.sampling ?? { kind: 'greedy' }, guided: this.options.guided ?? true,
      ...((this.options.guided ?? true) ? { noRepeatNgram: this.options.noRepeatNgram ?? NO_REPEAT_NGRAM, stallBan: this.options.stallBan ?? false, ...(this.options.stallBan && this.options.stallBanAll ? { stallBanAll: true } : {}), messageWords: !!p.settings.messageWords && (this.options.messageWords ?? true), statedValue: p.settings.prompt.answer === 'cite' && (this.options.statedValue ?? true) } : {}),
      promptCache: this.options.promptCache ?? true, outputHistory: this.options.outputHistory ?? true, seed: this.options.seed ?? 0, parameters: p.loaded.model.parameterCount, targets: p.settings.targets, dataset: p.settings.dataset,
    };
  }

  async reset(task: TaskSpec): Promise<void> {
    await this.load();
    this.taskSeed = mixSeed(this.options.seed ?? 0, task.family, task.seed, 'policy');
    this.step = 0;
    this.lastPage = null;
    this.stalledOn.clear();
  }

  async act(obs: Observation, history: readonly AgentTurn[]): Promise<AgentTurn> {
    const { loaded, settings } = await this.load();
    const { model, tokenizer } = loaded;
    const prompt = encodePrompt(tokenizer, {
      instruction: obs.instruction, url: obs.url, title: obs.title, elements: obs.elements,
      lastActionError: obs.lastActionError, history: history.map((h) => h.action),
    }, settings.prompt, model.config.ctx - settings.reserve);
    // A policy that learned actions only (--targets action) never learned to write thoughts: it
    // starts from an empty thought line and writes the action.
    if (settings.targets === 'action') prompt.push(...tokenizer.encode('\n'));
    const eot = tokenizer.specialId(END_OF_TEXT);
    const maxNew = Math.min(this.options.maxNew ?? settings.reserve, model.config.ctx - prompt.length);
    const promptText = tokenizer.decode(prompt);
    const elements = promptElements(promptText);
    const seed = mixSeed(this.taskSeed, this.step++);
    const bans = this.notePage(obs, history);
    const guide = () => {
      const words = settings.messageWords && (this.options.messageWords ?? true) ? { prompt: promptText, vocabulary: settings.messageWords } : undefined;
      const g = new ActionGuide(tokenizer, elements, eot, settings.targets === 'action', maxNew, this.options.noRepeatNgram ?? NO_REPEAT_NGRAM, settings.prompt.thought === 'element', words, citeLinesFor(promptText, settings.prompt.answer), this.options.statedValue ?? true);
      for (const a of bans) g.banAction(a);
      return g;
    };
    const promptCache = (this.options.promptCache ?? true) ? this.policy!.promptCache : undefined;
    const outputHistory = (this.options.outputHistory ?? true) ? this.policy!.outputHistory : undefined;
    const generate = (decoder: Decoder) => decoder.generate(prompt, {
      maxNew, sampling: this.options.sampling ?? { kind: 'greedy' }, seed, stopTokens: [eot],
      constraint: (this.options.guided ?? true) ? guide() : undefined,
      ...(decoder === this.decoder ? { promptCache, outputHistory } : {}),
    });
    let out: GenerateResult;
    if (this.otherDecoder && this.comparison) {
      const c = this.comparison;
      const otherFirst = c.steps % 2 === 1;
      const first = await generate(otherFirst ? this.otherDecoder : this.decoder!);
      const second = await generate(otherFirst ? this.decoder! : this.otherDecoder);
      out = otherFirst ? second : first;
      const other = otherFirst ? first : second;
      c.steps++;
      if (other.tokens.join() === out.tokens.join()) c.identicalSteps++;
      addTotals(c.primary, out);
      addTotals(c.other, other);
      if (out.stats.decodeMs > 0) c.decodeMsRatio.push(other.stats.decodeMs / out.stats.decodeMs);
      const whole = (r: GenerateResult) => r.stats.decodeMs + r.stats.prefillMs;
      if (whole(out) > 0) c.stepMsRatio.push(whole(other) / whole(out));
    } else out = await generate(this.decoder!);
    const text = tokenizer.decode(out.tokens.filter((t) => t !== eot));
    const parsed = parsePolicyOutput(text);
    this.totals.steps++;
    this.totals.newTokens += out.stats.newTokens;
    this.totals.decodeMs += out.stats.decodeMs;
    this.totals.prefillMs += out.stats.prefillMs;
    this.totals.promptTokens += out.stats.promptTokens;
    this.totals.reusedPromptTokens += out.stats.reusedPromptTokens;
    this.totals.forwardPasses += out.stats.forwardPasses;
    if (!parsed.valid) this.totals.invalidOutputs++;
    // The prompt as the model read it (after clipping to its context) and its tokens as written.
    const io = stepIo({ prompt: tokenizer.decode(prompt), output: text, promptTokens: prompt.length, outputTokens: out.stats.newTokens });
    return parsed.thought ? { thought: parsed.thought, action: parsed.action, io } : { action: parsed.action, io };
  }

  /** A turn replayed for the policy (a fork's prefix): counted, and its page noted, as if it had acted; nothing is decoded. */
  observe(obs: Observation, _turn: AgentTurn, history: readonly AgentTurn[]): void {
    this.step++;
    this.notePage(obs, history);
  }

  /** Note the page a step starts on; returns the actions the stall ban forbids there. */
  private notePage(obs: Observation, history: readonly AgentTurn[]): string[] {
    const page = pageKey(obs);
    const stalled = page === this.lastPage && history.length > 0 && (this.options.stallBan ?? false) ? history.at(-1)!.action : null;
    this.lastPage = page;
    if (stalled && this.options.stallBanAll) this.stalledOn.set(page, (this.stalledOn.get(page) ?? new Set()).add(stalled));
    return this.options.stallBanAll ? [...(this.stalledOn.get(page) ?? [])] : stalled ? [stalled] : [];
  }
}

function addTotals(t: DecoderTotals, r: GenerateResult): void {
  t.newTokens += r.stats.newTokens;
  t.decodeMs += r.stats.decodeMs;
  t.prefillMs += r.stats.prefillMs;
  t.promptTokens += r.stats.promptTokens;
  t.reusedPromptTokens += r.stats.reusedPromptTokens;
  t.forwardPasses += r.stats.forwardPasses;
  t.drafted += r.stats.drafted;
  t.accepted += r.stats.accepted;
  t.verifySteps += r.stats.verifySteps;
}

/** What an action could change on a page: address, title, and each element's identity and state. */
export function pageKey(obs: Pick<Observation, 'url' | 'title' | 'elements'>): string {
  return JSON.stringify([obs.url, obs.title, obs.elements.map((e) => [e.id, e.role, e.name, e.value, e.checked, e.selected, e.expanded, e.disabled, e.visible, e.inViewport])]);
}
