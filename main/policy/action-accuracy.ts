/**
 * How often a policy writes the dataset's action when handed the dataset's own thought: the
 * action step measured alone, apart from the thought the policy would have written and from the
 * pages its earlier actions led to. Greedy and unguided, so the count is the model's own.
 */
import { AutoregressiveDecoder } from '../decode/index.ts';
import type { LoadedModel } from '../models/checkpoint.ts';
import { END_OF_TEXT } from '../models/tokenizer.ts';
import type { PolicyPromptInput } from './prompt.ts';
import { encodePrompt, type PolicySample } from './sft-data.ts';
import type { PolicySettings } from './settings.ts';

export interface ActionAccuracy {
  samples: number;
  /** The whole action, as the dataset writes it. */
  exact: number;
  /** Its first argument (the element id of an element action, the text of a message). */
  firstArgument: number;
}

const firstArgument = (action: string) => /^\w+\('((?:[^'\\]|\\.)*)'/.exec(action)?.[1];

export async function actionAccuracy(policy: LoadedModel, settings: PolicySettings, samples: readonly PolicySample[]): Promise<ActionAccuracy> {
  const { model, tokenizer } = policy;
  const decoder = new AutoregressiveDecoder(model);
  const eot = tokenizer.specialId(END_OF_TEXT);
  const out: ActionAccuracy = { samples: samples.length, exact: 0, firstArgument: 0 };
  for (const s of samples) {
    const prompt = encodePrompt(tokenizer, s.input as PolicyPromptInput, settings.prompt, model.config.ctx - settings.reserve);
    const ids = [...prompt, ...tokenizer.encode(settings.targets === 'action' ? '\n' : `${s.target.thought}\n`)];
    const r = await decoder.generate(ids, { maxNew: Math.min(40, model.config.ctx - ids.length), stopTokens: [eot] });
    const action = tokenizer.decode(r.tokens.filter((t) => t !== eot)).trim();
    if (action === s.target.action) out.exact++;
    const want = firstArgument(s.target.action);
    if (want !== undefined && firstArgument(action) === want) out.firstArgument++;
  }
  return out;
}
