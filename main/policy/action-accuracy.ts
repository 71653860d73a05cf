/**
 * How often a policy writes the dataset's action at a dataset step, the step measured alone, apart
 * from the pages its earlier actions would have led to. Two ways:
 * - `given`: the policy is handed the thought it was trained to write for the step and writes the
 *   action, greedy and unguided, so the count is the model's own choice of action.
 * - `own`: the policy writes its thought and action as the agent does in an episode (greedy, guided
 *   by the action guide with its n-gram ban), so the count is the per-step accuracy an episode sees.
 */
import { AutoregressiveDecoder } from '../decode/index.ts';
import type { LoadedModel } from '../models/checkpoint.ts';
import { END_OF_TEXT } from '../models/tokenizer.ts';
import { ActionGuide, NO_REPEAT_NGRAM, citeLinesFor, promptElements } from './action-guide.ts';
import { parsePolicyOutput, policyTarget, type PolicyPromptInput } from './prompt.ts';
import { encodePrompt, type PolicySample } from './sft-data.ts';
import type { PolicySettings } from './settings.ts';

export type ThoughtMode = 'given' | 'own';

export interface ActionAccuracy {
  samples: number;
  /** The whole action, as the dataset writes it. */
  exact: number;
  /** Its first argument (the element id of an element action, the text of a message). */
  firstArgument: number;
}

const firstArgument = (action: string) => /^\w+\('((?:[^'\\]|\\.)*)'/.exec(action)?.[1];

export async function actionAccuracy(policy: LoadedModel, settings: PolicySettings, samples: readonly PolicySample[], thought: ThoughtMode = 'given'): Promise<ActionAccuracy> {
  const { model, tokenizer } = policy;
  const decoder = new AutoregressiveDecoder(model);
  const eot = tokenizer.specialId(END_OF_TEXT);
  const out: ActionAccuracy = { samples: samples.length, exact: 0, firstArgument: 0 };
  for (const s of samples) {
    const input = s.input as PolicyPromptInput;
    const target = policyTarget(input, s.target, settings.prompt);
    const prompt = encodePrompt(tokenizer, input, settings.prompt, model.config.ctx - settings.reserve);
    let action: string;
    if (thought === 'given') {
      const ids = [...prompt, ...tokenizer.encode(settings.targets === 'action' ? '\n' : `${target.thought}\n`)];
      const r = await decoder.generate(ids, { maxNew: Math.min(40, model.config.ctx - ids.length), stopTokens: [eot] });
      action = tokenizer.decode(r.tokens.filter((t) => t !== eot)).trim();
    } else {
      const ids = settings.targets === 'action' ? [...prompt, ...tokenizer.encode('\n')] : prompt;
      const maxNew = Math.min(settings.reserve, model.config.ctx - ids.length);
      const text = tokenizer.decode(ids);
      const guide = new ActionGuide(tokenizer, promptElements(text), eot, settings.targets === 'action', maxNew, NO_REPEAT_NGRAM, settings.prompt.thought === 'element', undefined, citeLinesFor(text, settings.prompt.answer));
      const r = await decoder.generate(ids, { maxNew, stopTokens: [eot], constraint: guide });
      action = parsePolicyOutput(tokenizer.decode(r.tokens.filter((t) => t !== eot))).action;
    }
    if (action === target.action) out.exact++;
    const want = firstArgument(target.action);
    if (want !== undefined && firstArgument(action) === want) out.firstArgument++;
  }
  return out;
}
