/**
 * At the answer steps of a policy's SFT samples, is the value the oracle sends in the prompt the
 * policy reads? Per family: steps where the answer's value is printed in the encoded prompt, out
 * of answer steps with a value this script can pick from the message. Used for the element-order
 * figures in docs/benchmarks.md ("The value beside the label").
 *
 *   npx tsx scripts/answer-in-prompt.ts --samples DIR/sft-samples.jsonl --policy resources/models/web-policy [--element-order task|task-values|page] [--max-page-chars N]
 *
 * The samples of the shipped policy come from `lab train policy --preset long` (its lab's
 * policies/<name>/sft-samples.jsonl). The check is by value match (digits and letters only), so
 * it is a lower bound where the page writes a value differently from the message.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadTokenizer } from '../main/models/checkpoint.ts';
import { ELEMENT_ORDERS, PromptSettings } from '../main/policy/prompt.ts';
import { encodePrompt } from '../main/policy/sft-data.ts';
import { readPolicySettings } from '../main/policy/settings.ts';

const { values: o } = parseArgs({
  options: {
    samples: { type: 'string' },
    policy: { type: 'string', default: 'resources/models/web-policy' },
    'element-order': { type: 'string' },
    'max-page-chars': { type: 'string' },
  },
});
if (!o.samples) throw new Error('--samples FILE is required (a policy\'s sft-samples.jsonl)');
const order = o['element-order'];
if (order !== undefined && !(ELEMENT_ORDERS as readonly string[]).includes(order)) throw new Error(`--element-order must be one of ${ELEMENT_ORDERS.join(', ')}`);

const model = JSON.parse(readFileSync(join(o.policy!, 'model.json'), 'utf8'));
const settings = readPolicySettings(o.policy!, model.meta);
const prompt = PromptSettings.parse({
  ...settings.prompt,
  ...(order ? { elementOrder: order } : {}),
  ...(o['max-page-chars'] ? { maxPageChars: Number(o['max-page-chars']) } : {}),
});
const tokenizer = loadTokenizer(o.policy!);
const maxTokens = model.config.ctx - settings.reserve;

/** The value an oracle answer states: "... is 2440.", "costs $233.00 ...", "at 9:30 AM.", "at least 3 years". */
function answerValue(action: string): string | null {
  const m = /costs (\$[\d.,]+)|at (\d{1,2}:\d\d [AP]M)|least (\d+) years|is (?:the )?([^']+?)\.?'\)$/.exec(action);
  return m ? (m[1] ?? m[2] ?? m[3] ?? m[4] ?? null) : null;
}
const bare = (s: string) => s.replace(/[^0-9A-Za-z]/g, '');

const perFamily: Record<string, { shown: number; steps: number }> = {};
for (const line of readFileSync(o.samples, 'utf8').split('\n')) {
  if (!line) continue;
  const sample = JSON.parse(line);
  const action: string = sample.target.action;
  if (!action.startsWith('send_msg_to_user')) continue;
  const value = answerValue(action);
  if (!value) continue;
  const text = tokenizer.decode(encodePrompt(tokenizer, sample.input, prompt, maxTokens));
  const f = (perFamily[sample.family] ??= { shown: 0, steps: 0 });
  f.steps++;
  if (text.includes(value) || bare(text).includes(bare(value))) f.shown++;
}
process.stdout.write(JSON.stringify({ samples: o.samples, elementOrder: prompt.elementOrder, maxPageChars: prompt.maxPageChars, maxTokens, perFamily }, null, 2) + '\n');
