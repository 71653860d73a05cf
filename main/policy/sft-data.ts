/**
 * SFT data for the compact policy: dataset steps as prompt inputs and targets, their tokens, and
 * the loss mask that says which tokens the model learns to write.
 *
 *   sequence  [prompt tokens][thought tokens + "\n"][action tokens][END_OF_TEXT]
 *   mask          0 ...          1 (thought+action)     1 ...          1
 *                                0 (action only)
 *
 * Prompt tokens never carry loss (the model reads the page, it does not learn to write it).
 * `targets: 'action'` also masks the thought: the thought stays in the sequence as context but
 * only the action is learned (what SFT ablations and the Salvage-DS action-only anchor need).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { buildSamples } from '../datasets/samples.ts';
import type { DatasetManifest } from '../datasets/manifest.ts';
import type { SplitName } from '../datasets/split.ts';
import type { LabStore } from '../store/lab.ts';
import { readJsonlStrict } from '../store/jsonl.ts';
import { END_OF_TEXT, type Tokenizer } from '../models/tokenizer.ts';
import { policyTarget, renderPolicyPrompt, renderPolicyTarget, type PolicyPromptInput, type PromptSettings } from './prompt.ts';
import { answerValueIn } from './answer-value.ts';
import { parseAction } from '../environment/actions.ts';
import { modelFiles } from '../store/lab-files.ts';

export const TARGETS = ['thought+action', 'action'] as const;
export type Targets = (typeof TARGETS)[number];

/** One step as the policy sees it, stored as JSON Lines in the model folder (sft-samples.jsonl). */
export const PolicySample = z.object({
  episodeId: z.string(),
  step: z.number().int(),
  split: z.enum(['train', 'validation', 'test']),
  family: z.string(),
  input: z.object({
    instruction: z.string(),
    url: z.string(),
    title: z.string(),
    elements: z.array(z.any()),
    lastActionError: z.object({ code: z.string(), message: z.string() }).nullable().optional(),
    history: z.array(z.string()),
  }),
  /** answer: at a message step, the goal's value the message states (./answer-value.ts); absent where unknown. */
  target: z.object({ thought: z.string(), action: z.string(), answer: z.string().optional() }),
});
export type PolicySample = z.infer<typeof PolicySample>;

/**
 * The steps of a frozen dataset as policy samples, with its labels applied the way every export
 * applies them (buildSamples: wrong/detour steps without a correction are left out).
 */
export function policySamples(lab: LabStore, manifest: DatasetManifest, splits?: readonly SplitName[]): PolicySample[] {
  const { samples } = buildSamples(lab, manifest, { splits });
  const episodes = new Map<string, ReturnType<LabStore['readEpisode']>>();
  const out: PolicySample[] = [];
  for (const s of samples) {
    let ep = episodes.get(s.episodeId);
    if (!ep) {
      ep = lab.readEpisode(s.episodeId);
      episodes.set(s.episodeId, ep);
    }
    const step = ep.steps.find((x) => x.index === s.step);
    if (!step) throw new Error(`episode ${s.episodeId} has no step ${s.step}`);
    const history = ep.steps.filter((x) => x.index < s.step).map((x) => x.action);
    out.push({
      episodeId: s.episodeId,
      step: s.step,
      split: s.split,
      family: s.family,
      input: {
        instruction: ep.header.task.instruction,
        url: step.observation.url,
        title: step.observation.title,
        elements: step.observation.elements,
        lastActionError: step.observation.lastActionError ?? null,
        history,
      },
      target: withAnswer(renderPolicyTarget(s.target), ep.header.task),
    });
  }
  return out;
}

/** A message step's target with the goal value it states, where the task's generator names one. */
function withAnswer(target: { thought: string; action: string }, task: { family: string; seed: number; tier: number }): PolicySample['target'] {
  if (!target.action.startsWith('send_msg_to_user(')) return target;
  let text: string;
  try {
    const a = parseAction(target.action);
    if (a.type !== 'send_msg_to_user') return target;
    text = a.text;
  } catch {
    return target;
  }
  const answer = answerValueIn(task, text);
  return answer ? { ...target, answer } : target;
}

/** Read sft-samples.jsonl, naming the line and field of anything malformed. */
export function readPolicySamples(path: string): PolicySample[] {
  return readJsonlStrict(path, PolicySample);
}

/** The texts a policy tokenizer is trained on: every prompt and target of the samples. */
export function tokenizerTexts(samples: readonly PolicySample[], s: PromptSettings): string[] {
  return samples.flatMap((x) => {
    const t = policyTarget(x.input as PolicyPromptInput, x.target, s);
    return [renderPolicyPrompt(x.input as PolicyPromptInput, s), `${t.thought}\n${t.action}`];
  });
}

/**
 * Prompt tokens that fit in `maxTokens`: the page text is shrunk (by character budget, so the
 * same rule holds at training and inference) until it fits; as a last resort the front is cut.
 */
export function encodePrompt(tokenizer: Tokenizer, input: PolicyPromptInput, s: PromptSettings, maxTokens: number): number[] {
  let budget = s.maxPageChars;
  for (;;) {
    const ids = tokenizer.encode(renderPolicyPrompt(input, s, budget));
    if (ids.length <= maxTokens) return ids;
    if (budget <= 50) return ids.slice(ids.length - maxTokens);
    budget = Math.floor(budget * 0.75);
  }
}

export interface EncodedSample {
  ids: number[] | Int32Array;
  /** mask[i]: the loss weight of token i (predicted from the tokens before it); 0 carries none. */
  mask: number[] | Float32Array;
  promptLength: number;
}

/** What encodeSample returns: plain arrays, which callers may extend. */
export interface EncodedSampleArrays extends EncodedSample {
  ids: number[];
  mask: number[];
}

/**
 * The same sample in typed arrays, for the thousands a training run holds: their contents are not
 * objects the garbage collector traces, and a run's tensors make it collect every ~0.1 s.
 */
export function compactSample(e: EncodedSample): EncodedSample {
  return { ids: Int32Array.from(e.ids), mask: Float32Array.from(e.mask), promptLength: e.promptLength };
}

export interface EncodeSettings {
  prompt: PromptSettings;
  ctx: number;
  /** Tokens kept free for the output: the prompt gets ctx - reserve at most. */
  reserve: number;
  targets: Targets;
  /**
   * Loss weight of prompt tokens (default 0: the prompt is context only). A small weight trains the
   * model on the page text as a language model too: it costs nothing (the forward pass reads the
   * prompt anyway) and gives a policy trained from scratch ten times the signal, much of it copying
   * names that recur on a page, which is what its actions must do.
   */
  promptWeight?: number;
}

/** Tokens and loss mask of one sample (cut to the context when the target is unusually long). */
export function encodeSample(tokenizer: Tokenizer, sample: Pick<PolicySample, 'input' | 'target'>, e: EncodeSettings): EncodedSampleArrays {
  const prompt = encodePrompt(tokenizer, sample.input as PolicyPromptInput, e.prompt, e.ctx - e.reserve);
  const target = policyTarget(sample.input as PolicyPromptInput, sample.target, e.prompt);
  const thought = tokenizer.encode(`${target.thought}\n`);
  const action = [...tokenizer.encode(target.action), tokenizer.specialId(END_OF_TEXT)];
  const ids = [...prompt, ...thought, ...action];
  const thoughtW = e.targets === 'thought+action' ? 1 : 0;
  const mask = [...prompt.map(() => e.promptWeight ?? 0), ...thought.map(() => thoughtW), ...action.map(() => 1)];
  return { ids: ids.slice(0, e.ctx), mask: mask.slice(0, e.ctx), promptLength: prompt.length };
}

/**
 * Freeze a dataset's steps into a policy folder for SFT: `sft-samples.jsonl` (what training reads
 * and a resumed run reads again) and the corpus beside it. Returns the samples file's path.
 */
export function writeSftSamples(outDir: string, samples: readonly PolicySample[], prompt: PromptSettings): string {
  mkdirSync(outDir, { recursive: true });
  const samplesFile = modelFiles(outDir).sftSamples;
  writeFileSync(samplesFile, samples.map((s) => JSON.stringify(s)).join('\n') + '\n');
  writePolicyCorpus(join(outDir, 'corpus'), [...samples], prompt);
  return samplesFile;
}

/**
 * The policy's own text as a corpus (train.txt, validation.txt), so that
 * `lab train sdsat --base POLICY --corpus POLICY/corpus` SAT-tunes the policy on what it reads and writes.
 */
export function writePolicyCorpus(dir: string, samples: PolicySample[], prompt: PromptSettings): void {
  mkdirSync(dir, { recursive: true });
  const text = (xs: PolicySample[]) => xs.map((x) => {
    const t = policyTarget(x.input as PolicyPromptInput, x.target, prompt);
    return `${renderPolicyPrompt(x.input as PolicyPromptInput, prompt)}${t.thought}\n${t.action}\n\n`;
  }).join('');
  const val = samples.filter((x) => x.split === 'validation');
  writeFileSync(join(dir, 'train.txt'), text(samples.filter((x) => x.split === 'train')));
  writeFileSync(join(dir, 'validation.txt'), text(val.length ? val : samples.slice(0, 16)));
}
