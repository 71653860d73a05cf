/**
 * policy.json: what turns a model folder into a compact policy. It sits beside model.json,
 * weights.bin and tokenizer.json, and records how prompts were built and what was learned, so the
 * agent builds the same prompts and an evaluation can say what it evaluated.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { PromptSettings, defaultPromptSettings } from './prompt.ts';
import { TARGETS } from './sft-data.ts';
import { modelFiles } from '../store/lab-files.ts';
import { readJsonFile } from '../store/json-file.ts';

export const PolicySettings = z.object({
  format: z.literal('lab-compact-policy'),
  version: z.literal(1),
  prompt: PromptSettings,
  targets: z.enum(TARGETS),
  /** Tokens kept free for the output; also the default generation limit. */
  reserve: z.number().int().positive(),
  dataset: z.object({ name: z.string(), version: z.number().int() }).nullable(),
  /**
   * Words of the training targets' messages and typed text that are not the page's (no digits):
   * "The", "costs", "starts", "per", "night". Guided decoding keeps a message's words to these and
   * the prompt's (see ActionGuide). Absent in older policies: messages stay free.
   */
  messageWords: z.array(z.string()).optional(),
});
export type PolicySettings = z.infer<typeof PolicySettings>;

export const defaultPolicySettings: PolicySettings = {
  format: 'lab-compact-policy', version: 1, prompt: defaultPromptSettings, targets: 'thought+action', reserve: 64, dataset: null,
};

/**
 * The folder's policy.json. A model SAT-tuned from a policy by `lab train sdsat` has none of its
 * own: it reads the one of the base model its checkpoint names (meta.job.base). Else the defaults.
 */
export function readPolicySettings(dir: string, meta: Record<string, unknown> = {}): PolicySettings {
  let path = modelFiles(dir).policySettings;
  const base = (meta.job as { base?: unknown } | undefined)?.base;
  if (!existsSync(path) && typeof base === 'string') path = modelFiles(base).policySettings;
  if (!existsSync(path)) return defaultPolicySettings;
  return readJsonFile(path, PolicySettings, 'policy settings');
}
